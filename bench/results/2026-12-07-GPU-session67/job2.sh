#!/bin/bash
# session 67, job 2 (issue 3): the lean grid barrier of the level kernels (GPURCMLvBarrier: acq_rel arrival, state
# published in generation-tagged words), the numbering's count exchange without a barrier (GPURCMGatherCounts) and
# wide levels ending in an all-gather barrier (GPURCMLvGatherBarrier).
# (1) the grid-barrier micro-benchmark (barrier.cu); (2) every gpurcm test with the new library (which also runs
# session 66's level tables, unchanged since its final commits); (3) 2 alternated rounds of session 66's final library
# (before-barrier.patch = git diff HEAD 5193572 -- src), the lean barrier alone (lean-only.patch = git diff HEAD
# 2d7c010 -- src) and all three (this revision, "gather"), on 2D 1000^2, 3D 100^3, 2D 2000^2 and 3000^2.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session67/job2.sh <revision>
. bench/gpujob.sh job2 "$1"
d=bench/results/2026-12-07-GPU-session67
nvcc -O3 -arch=sm_90 -o /tmp/barrier $d/barrier.cu && /tmp/barrier 20000 > $r/barrier.txt 2>&1; cat $r/barrier.txt
echo "micro done at $SECONDS s"
gpujob_base $d/before-barrier.patch
rm -rf /tmp/lean; mkdir -p /tmp/lean
tar cf - --exclude=./build --exclude=./.gpu --exclude="./gpu-*" . | tar xf - -C /tmp/lean
(cd /tmp/lean && patch -s -p1 --batch < $OLDPWD/$d/lean-only.patch && make -j16 lib > $r/lean-build.log 2>&1) || tail -n 20 $r/lean-build.log
echo "lean-only library built at $SECONDS s"
timeout 150 make check TESTS='gpurcm' TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "gpurcm tests exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
m="-matrices lap2d:1000,lap3d:100,lap2d:2000,lap2d:3000 -orderings gpurcm@cuda -reps 7 -cusolver_max_nnz 0"
for round in 1 2; do
  for k in gather before lean; do
    case $k in gather) lib=$PWD/build/lib/libpetscsparsegpu.so;; before) lib=/tmp/base/build/lib/libpetscsparsegpu.so;; lean) lib=/tmp/lean/build/lib/libpetscsparsegpu.so;; esac
    o=$r/ab-$k-$round
    timeout 60 build/bench/bench_order $m -csv $o.csv -dll_append $lib > $o.txt 2>&1
    echo "round $round $k exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.txt | awk '{printf " %s", $2}')"
  done
done
echo "done at $SECONDS s"
