#!/bin/bash
# session 51, job 3 (one GPU host, 16 cores): the level sort's permutation on the setup threads. The complete test
# suite; then the power-law matrices with the sort off and automatic (setup and its -info stages, ILU(0) apply, GMRES
# with GPU refactorizations, PETSc's cuSPARSE ILU(0) in the same run), two rounds.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session51/job3.sh <revision>
. bench/gpujob.sh job3 "$1"
timeout 330 make check TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
SECONDS=0
for round in 1 2; do
  for ls in no auto; do
    timeout 100 build/bench/bench_factor -matrices powerlaw:1M:16,powerlaw:4M:8 -pcs ilu_cusparse,subtree_ilu -orderings natural -reps 20 -refactor_reps 3 -ksp_pcs ilu_cusparse,subtree_ilu -pc_subtree_ilu_cuda_level_sort $ls -info :sys -csv $r/pl-$ls-r$round.csv $dll > $r/pl-$ls-r$round.txt 2>&1
    echo "powerlaw $ls round $round exit $? at $SECONDS s"; grep -hE "^  (subtree|ilu_cu)|level sorts|solve structures of|copies to the device" $r/pl-$ls-r$round.txt | cut -c1-220
  done
done
