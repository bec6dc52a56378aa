#!/bin/bash
# session 67, job 4 (issue 3; prepared for the next session, not run): the counting grid barrier (count.patch = git
# diff HEAD 209e4e5 -- src at the final code: each block's count of the next level rides on its 64-bit arrival
# atomic, the last block publishes the total with the generation in one word) against the landed all-gather barrier.
# (1) every gpurcm test with the counting barrier; (2) 3 alternated rounds, count against the landed library
# ("gather"), on 2D 1000^2, 3D 100^3, 2D 2000^2 and 3000^2; (3) count spinning against count sleeping. Land
# count.patch only if (1) passes and (2) is faster. About 400 s with the builds.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session67/job4.sh <revision>
d=bench/results/2026-12-07-GPU-session67
rm -rf /tmp/gather; mkdir -p /tmp/gather
tar cf - --exclude=./build --exclude=./.gpu --exclude="./gpu-*" . | tar xf - -C /tmp/gather
patch -s -p1 --batch < $d/count.patch || { echo "count.patch does not apply"; exit 1; }
. bench/gpujob.sh job4 "$1"
(cd /tmp/gather && make -j16 lib > $r/gather-build.log 2>&1) || { tail -n 20 $r/gather-build.log; exit 1; }
echo "gather library built at $SECONDS s"
timeout 150 make check TESTS='gpurcm' TESTARGS="--jobs 15" > $r/check.log 2>&1
echo "gpurcm tests (counting barrier) exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
m="-matrices lap2d:1000,lap3d:100,lap2d:2000,lap2d:3000 -orderings gpurcm@cuda -reps 7 -cusolver_max_nnz 0"
for round in 1 2 3; do
  for k in count gather; do
    case $k in count) lib=$PWD/build/lib/libpetscsparsegpu.so;; gather) lib=/tmp/gather/build/lib/libpetscsparsegpu.so;; esac
    o=$r/ab-$k-$round
    timeout 60 build/bench/bench_order $m -csv $o.csv -dll_append $lib > $o.txt 2>&1
    echo "round $round $k exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.txt | awk '{printf " %s", $2}')"
  done
done
# (3) the counting barrier with spinning waiters (GPURCM_BARRIER_SLEEP=0; the micro-benchmark had the lean barrier 9%
# cheaper spinning on 132 blocks), 2 rounds against count
rm -rf /tmp/spin; mkdir -p /tmp/spin
tar cf - --exclude=./build --exclude=./.gpu --exclude="./gpu-*" . | tar xf - -C /tmp/spin
(cd /tmp/spin && make -j16 lib CUDAFLAGS=-DGPURCM_BARRIER_SLEEP=0 > $r/spin-build.log 2>&1) || { tail -n 20 $r/spin-build.log; exit 1; }
for round in 1 2; do
  for k in spin count; do
    case $k in count) lib=$PWD/build/lib/libpetscsparsegpu.so;; spin) lib=/tmp/spin/build/lib/libpetscsparsegpu.so;; esac
    o=$r/sleep-$k-$round
    timeout 60 build/bench/bench_order $m -csv $o.csv -dll_append $lib > $o.txt 2>&1
    echo "round $round $k exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.txt | awk '{printf " %s", $2}')"
  done
done
echo "done at $SECONDS s"
