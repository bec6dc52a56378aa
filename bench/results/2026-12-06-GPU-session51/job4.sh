#!/bin/bash
# session 51, job 4 (one GPU host, 16 cores): the level sort made with the schedules, on the setup threads during PETSc's
# numeric factorization. The complete test suite; which shared matrices and grids auto sorts (-info: expected none);
# the power-law matrices with the sort off and automatic (setup, ILU(0) apply, GMRES with GPU refactorizations, PETSc's
# cuSPARSE ILU(0) in the same run), two rounds.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session51/job4.sh <revision>
. bench/gpujob.sh job4 "$1"
timeout 330 make check TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
SECONDS=0
timeout 60 build/bench/bench_factor -matdir .gpu/matrices -pcs subtree_ilu -orderings natural,rcm -reps 3 -refactor_reps 0 -ksp_pcs none -info :sys $dll 2>&1 | grep -E "level sort of" > $r/shared-info.txt
echo "shared info at $SECONDS s: $(grep -c 'not tried' $r/shared-info.txt) not tried, $(grep -c 'sorted$' $r/shared-info.txt) sorted, $(grep -c 'kept$' $r/shared-info.txt) kept"
for round in 1 2; do
  for ls in no auto; do
    timeout 100 build/bench/bench_factor -matrices powerlaw:1M:16,powerlaw:4M:8 -pcs ilu_cusparse,subtree_ilu -orderings natural -reps 20 -refactor_reps 3 -ksp_pcs ilu_cusparse,subtree_ilu -pc_subtree_ilu_cuda_level_sort $ls -info :sys -csv $r/pl-$ls-r$round.csv $dll > $r/pl-$ls-r$round.txt 2>&1
    echo "powerlaw $ls round $round exit $? at $SECONDS s"; grep -hE "^  (subtree|ilu_cu)|level sort of|solve structures of|schedules of U and L|copies to the device" $r/pl-$ls-r$round.txt | cut -c1-250
  done
done
