#!/bin/bash
# session 51, job 5 (one GPU host, 16 cores): after job 4's invalid free (fixed): every subtree_ilu test, then the
# power-law matrices with the sort off and automatic (setup, ILU(0) apply, GMRES with GPU refactorizations, PETSc's
# cuSPARSE ILU(0) in the same run).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session51/job5.sh <revision>
. bench/gpujob.sh job5 "$1"
timeout 150 make check TESTS='subtreeilu' TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
SECONDS=0
for ls in no auto; do
  timeout 100 build/bench/bench_factor -matrices powerlaw:1M:16,powerlaw:4M:8 -pcs ilu_cusparse,subtree_ilu -orderings natural -reps 20 -refactor_reps 3 -ksp_pcs ilu_cusparse,subtree_ilu -pc_subtree_ilu_cuda_level_sort $ls -info :sys -csv $r/pl-$ls.csv $dll > $r/pl-$ls.txt 2>&1
  echo "powerlaw $ls exit $? at $SECONDS s"; grep -hE "^  (subtree|ilu_cu)|level sort of|schedules of U and L" $r/pl-$ls.txt | cut -c1-250
done
