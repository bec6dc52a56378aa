#!/bin/bash
# session 53, job 2 (one GPU host, 16 cores): every subtree_ilu test with ICC reading its steps' structure at the step
# again and the level sort made beside the natural schedule on random columns; steady refactorizations on natural grids against b12a4da built in the same job, rounds alternated;
# where the setup of powerlaw:4M:8 goes now (-info :pc,sys, -log_view), new and base.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session53/job2.sh <revision> [<s>]
. bench/gpujob.sh job2 "$1"
B=${2:-540}
gpujob_base bench/results/2026-12-06-GPU-session53/to-b12a4da.patch
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
    [ $SECONDS -gt $((B - 40)) ] && continue
    timeout 60 build/bench/bench_factor -matrices powerlaw:1M:16,powerlaw:4M:8 -pcs subtree_ilu -orderings natural -reps 2 -refactor_reps 2 -ksp_max_rows 0 -info :pc,sys -log_view -csv $r/pl-$v-r$round.csv -dll_append $L > $r/pl-$v-r$round.txt 2>&1
    echo "powerlaw $v r$round exit $? at $SECONDS s"; grep -hE "^  subtree|schedules of U and L|level sort of|built in|plan made|plan on the device|copies to the device|^SubtreeILU|^MatILUFactorSym|^MatLUFactorNum" $r/pl-$v-r$round.txt | cut -c1-230
  done
done
