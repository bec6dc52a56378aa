#!/bin/bash
# session 52, job 1b (job 1 with the baseline patch fixed: job 1 could not reverse it) (one GPU host, 16 cores): the compact update map of the refactorization plan (a3f3c10) against
# fc17bd4's (compactmap.patch reversed, built in the same job): every subtree_ilu test; GPU refactorizations (first =
# with the plan, steady = median) on grids (ILU(0)/ICC(0), natural and RCM; ILU(1) RCM on 3D) and power-law matrices,
# new and base alternated.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session52/job1.sh <revision> [<s>]
. bench/gpujob.sh job1b "$1"
B=${2:-560}
D=bench/results/2026-12-06-GPU-session52
t=/tmp/base; rm -rf $t; mkdir -p $t
tar cf - --exclude=./build --exclude=./.gpu --exclude="./gpu-*" . | tar xf - -C $t
(cd $t && patch -s -R -p1 < $D/compactmap.patch && make -j16 lib > $r/base-build.log 2>&1) || tail -n 20 $r/base-build.log
echo "baseline library built at $SECONDS s"
: # (tests: job 1)

for round in 1 2; do
  for v in new base; do
    L=$PWD/build/lib/libpetscsparsegpu.so; [ $v = base ] && L=/tmp/base/build/lib/libpetscsparsegpu.so
    [ $SECONDS -gt $((B - 60)) ] && continue
    timeout 70 build/bench/bench_factor -matrices powerlaw:1M:16,powerlaw:4M:8 -pcs ilu_cusparse,subtree_ilu -orderings natural -reps 5 -refactor_reps 5 -ksp_max_rows 0 -info :sys -csv $r/pl-$v-r$round.csv -dll_append $L > $r/pl-$v-r$round.txt 2>&1
    echo "powerlaw $v r$round exit $? at $SECONDS s"; grep -hE "^  (subtree|ilu_cu)|update map of" $r/pl-$v-r$round.txt | cut -c1-250
    [ $round = 2 ] && continue
    [ $SECONDS -gt $((B - 100)) ] && continue
    timeout 90 build/bench/bench_factor -matrices lap2d:1000,lap3d:100,lap3d:160 -pcs subtree_ilu,subtree_icc -orderings natural,rcm -levels 0 -refactor_reps 6 -reps 2 -ksp_max_rows 0 -csv $r/grid-$v.csv -dll_append $L > $r/grid-$v.txt 2>&1
    echo "grids $v exit $? at $SECONDS s"; grep -hE "^  (subtree)" $r/grid-$v.txt | cut -c1-200
    [ $SECONDS -gt $((B - 60)) ] && continue
    timeout 50 build/bench/bench_factor -matrices lap3d:100 -pcs subtree_ilu,subtree_icc -orderings rcm -levels 1 -refactor_reps 4 -reps 1 -ksp_max_rows 0 -csv $r/grid1-$v.csv -dll_append $L > $r/grid1-$v.txt 2>&1
    echo "ILU(1) $v exit $? at $SECONDS s"; grep -hE "^  (subtree)" $r/grid1-$v.txt | cut -c1-200
  done
done
