#!/bin/bash
# session 50, job 5 (one GPU host, 16 cores): WarpRowSum() loads the next round's column indices a round ahead (one
# memory latency a round instead of two). The subtree_ilu tests with it; then an A/B against the library without it
# (prefetch.patch reversed in a copy, built in this job), alternated over two rounds: power-law matrices, the RCM-ordered
# 27-point grid and the shared matrices where long rows are summed by the warp (add32, watt_2, bcsstk13).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session50/job5.sh <revision>
. bench/gpujob.sh job5 "$1"
base=/tmp/base; rm -rf $base; mkdir -p $base; tar cf - --exclude=./build --exclude=./gpu-job5 . | tar xf - -C $base
(cd $base && patch -s -R -p1 < bench/results/2026-12-06-GPU-session50/prefetch.patch && make -j16 > $r/build-base.log 2>&1) || { echo "baseline build failed"; tail -20 $r/build-base.log; }
echo "baseline built at $SECONDS s"
timeout 150 make check TESTS='subtreeilu' TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
SECONDS=0
for round in 1 2; do
  for v in new base; do
    lib=$PWD/build/lib/libpetscsparsegpu.so; [ $v = base ] && lib=$base/build/lib/libpetscsparsegpu.so
    timeout 80 build/bench/bench_factor -matrices powerlaw:100k:8,powerlaw:1M:16,powerlaw:4M:8 -pcs ilu_cusparse,subtree_ilu -orderings natural -reps 20 -refactor_reps 0 -ksp_pcs none -csv $r/pl-$v-r$round.csv -dll_append $lib > $r/pl-$v-r$round.txt 2>&1
    echo "powerlaw $v round $round exit $? at $SECONDS s"; grep -hE "^  subtree" $r/pl-$v-r$round.txt | cut -c1-60
    timeout 60 build/bench/bench_factor -matrices lap3d27:100,add32,watt_2,bcsstk13 -matdir .gpu/matrices -pcs subtree_ilu -orderings natural,rcm -levels 0,1 -reps 20 -refactor_reps 0 -ksp_pcs none -csv $r/mix-$v-r$round.csv -dll_append $lib > $r/mix-$v-r$round.txt 2>&1
    echo "mix $v round $round exit $? at $SECONDS s"; grep -hE "^  subtree" $r/mix-$v-r$round.txt | cut -c1-60
  done
done
