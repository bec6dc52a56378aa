#!/bin/bash
# session 53, job 1 (one GPU host, 16 cores): every subtree_ilu test with the new schedule work (dd3881f) and the
# refactorization's steps read one ahead (53154db); against b12a4da (session 52's end) built in the same job:
# steady refactorizations on natural grids (ILU(0)/ICC(0)), and the setup of power-law matrices (-info: schedules and
# level sorts), rounds alternated.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session53/job1.sh <revision> [<s>]
. bench/gpujob.sh job1 "$1"
B=${2:-540}
D=bench/results/2026-12-06-GPU-session53
t=/tmp/base; rm -rf $t; mkdir -p $t
tar cf - --exclude=./build --exclude=./.gpu --exclude="./gpu-*" . | tar xf - -C $t
(cd $t && patch -s -p1 < $D/to-b12a4da.patch && make -j16 lib > $r/base-build.log 2>&1) || tail -n 20 $r/base-build.log
echo "baseline library built at $SECONDS s"
timeout 150 make check TESTS='subtreeilu' TESTARGS="--timeout 120 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
for round in 1 2 3; do
  for v in new base; do
    L=$PWD/build/lib/libpetscsparsegpu.so; [ $v = base ] && L=/tmp/base/build/lib/libpetscsparsegpu.so
    [ $SECONDS -gt $((B - 60)) ] && continue
    timeout 60 build/bench/bench_factor -matrices lap2d:1000,lap3d:100,lap3d:160 -pcs subtree_ilu,subtree_icc -orderings natural -levels 0 -refactor_reps 10 -reps 1 -ksp_max_rows 0 -csv $r/grid-$v-r$round.csv -dll_append $L > $r/grid-$v-r$round.txt 2>&1
    echo "grids $v r$round exit $? at $SECONDS s"; grep -hE "^  subtree" $r/grid-$v-r$round.txt | cut -c1-160
  done
done
for round in 1 2; do
  for v in new base; do
    L=$PWD/build/lib/libpetscsparsegpu.so; [ $v = base ] && L=/tmp/base/build/lib/libpetscsparsegpu.so
    [ $SECONDS -gt $((B - 50)) ] && continue
    timeout 60 build/bench/bench_factor -matrices powerlaw:1M:16,powerlaw:4M:8 -pcs subtree_ilu -orderings natural -reps 2 -refactor_reps 2 -ksp_max_rows 0 -info :pc -csv $r/pl-$v-r$round.csv -dll_append $L > $r/pl-$v-r$round.txt 2>&1
    echo "powerlaw $v r$round exit $? at $SECONDS s"; grep -hE "^  subtree|schedules of U and L|level sort of|built in" $r/pl-$v-r$round.txt | cut -c1-220
  done
done
