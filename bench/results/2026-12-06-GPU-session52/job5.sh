#!/bin/bash
# session 52, job 5 (one GPU host, 16 cores): the final code: every subtree_ilu test; first refactorizations on
# natural-ordered grids (job 4: 20-60 ms slower than fc17bd4's) against fc17bd4 with -info (the plan's host and device
# times, the kernel's stages), two rounds alternated; power-law once each.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session52/job5.sh <revision> [<s>]
. bench/gpujob.sh job5 "$1"
B=${2:-480}
D=bench/results/2026-12-06-GPU-session52
t=/tmp/base; rm -rf $t; mkdir -p $t
tar cf - --exclude=./build --exclude=./.gpu --exclude="./gpu-*" . | tar xf - -C $t
(cd $t && patch -s -p1 < $D/to-fc17bd4.patch && make -j16 lib > $r/base-build.log 2>&1) || tail -n 20 $r/base-build.log
echo "baseline library built at $SECONDS s"
timeout 170 make check TESTS='subtreeilu' TESTARGS="--timeout 120 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
for round in 1 2; do
  for v in new base; do
    L=$PWD/build/lib/libpetscsparsegpu.so; [ $v = base ] && L=/tmp/base/build/lib/libpetscsparsegpu.so
    [ $SECONDS -gt $((B - 40)) ] && continue
    timeout 60 build/bench/bench_factor -matrices lap2d:1000,lap3d:100,lap3d:160 -pcs subtree_ilu,subtree_icc -orderings natural -levels 0 -refactor_reps 3 -reps 1 -ksp_max_rows 0 -info :pc,sys -csv $r/grid-$v-r$round.csv -dll_append $L > $r/grid-$v-r$round.txt 2>&1
    echo "grids $v r$round exit $? at $SECONDS s"; grep -hE "^  subtree|plan made in|plan on the device in" $r/grid-$v-r$round.txt | cut -c1-160
    grep -h "TraceReport" $r/grid-$v-r$round.txt | head -2 | cut -c1-240
  done
done
[ $SECONDS -lt $((B - 40)) ] && timeout 40 build/bench/bench_factor -matrices powerlaw:1M:16,powerlaw:4M:8 -pcs subtree_ilu -orderings natural -reps 2 -refactor_reps 3 -ksp_max_rows 0 -info :pc -csv $r/pl-new.csv $dll > $r/pl-new.txt 2>&1
grep -hE "^  subtree|plan made in|plan on the device in|first numeric" $r/pl-new.txt | cut -c1-200
