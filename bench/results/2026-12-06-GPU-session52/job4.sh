#!/bin/bash
# session 52, job 4 (one GPU host, 16 cores): the final plan code (update map written in place from bounds): every
# subtree_ilu test; first and steady GPU refactorizations on grids and power-law matrices against session 51's library
# (fc17bd4: to-fc17bd4.patch applied to a copy, built in the same job), alternated, three rounds on the grids.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session52/job4.sh <revision> [<s>]
. bench/gpujob.sh job4 "$1"
B=${2:-540}
D=bench/results/2026-12-06-GPU-session52
t=/tmp/base; rm -rf $t; mkdir -p $t
tar cf - --exclude=./build --exclude=./.gpu --exclude="./gpu-*" . | tar xf - -C $t
(cd $t && patch -s -p1 < $D/to-fc17bd4.patch && make -j16 lib > $r/base-build.log 2>&1) || tail -n 20 $r/base-build.log
echo "baseline library built at $SECONDS s"
timeout 170 make check TESTS='subtreeilu' TESTARGS="--timeout 120 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
for round in 1 2 3; do
  for v in new base; do
    L=$PWD/build/lib/libpetscsparsegpu.so; [ $v = base ] && L=/tmp/base/build/lib/libpetscsparsegpu.so
    [ $SECONDS -gt $((B - 50)) ] && continue
    timeout 60 build/bench/bench_factor -matrices lap2d:1000,lap3d:100,lap3d:160 -pcs subtree_ilu,subtree_icc -orderings natural,rcm -levels 0 -refactor_reps 4 -reps 1 -ksp_max_rows 0 -csv $r/grid-$v-r$round.csv -dll_append $L > $r/grid-$v-r$round.txt 2>&1
    echo "grids $v r$round exit $? at $SECONDS s"
    [ $round = 3 ] && continue
    [ $SECONDS -gt $((B - 60)) ] && continue
    timeout 60 build/bench/bench_factor -matrices powerlaw:1M:16,powerlaw:4M:8 -pcs subtree_ilu -orderings natural -reps 2 -refactor_reps 3 -ksp_max_rows 0 -csv $r/pl-$v-r$round.csv -dll_append $L > $r/pl-$v-r$round.txt 2>&1
    echo "powerlaw $v r$round exit $? at $SECONDS s"; grep -hE "^  (subtree)" $r/pl-$v-r$round.txt | cut -c1-200
  done
done
