#!/bin/bash
# session 50, job 3 (one GPU host, 16 cores): the final default -pc_subtree_ilu_cuda_long_row 8 (job 2: 4 and 8 best).
# Every subtree_ilu test and tutorial; the shared (real) matrices with the threshold 0 (the former path) against 8,
# alternated over two rounds, beside PETSc's cuSPARSE ILU(0); then the power-law matrices with the default, natural and
# RCM orderings, refactorizations and both GMRES solves.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session50/job3.sh <revision>
. bench/gpujob.sh job3 "$1"
timeout 200 make check TESTS='subtreeilu|tutorials' TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
SECONDS=0
for round in 1 2; do
  for lr in 0 8; do
    timeout 100 build/bench/bench_factor -pcs ilu_cusparse,subtree_ilu -orderings natural,rcm -reps 20 -refactor_reps 0 -ksp_pcs none -pc_subtree_ilu_cuda_long_row $lr -csv $r/real-lr$lr-r$round.csv $dll > $r/real-lr$lr-r$round.txt 2>&1
    echo "real lr $lr round $round exit $? at $SECONDS s"
  done
done
timeout 150 build/bench/bench_factor -matrices powerlaw:100k:8,powerlaw:1M:16,powerlaw:4M:8 -pcs ilu_cusparse,subtree_ilu -orderings natural,rcm -reps 20 -refactor_reps 2 -ksp_pcs ilu_cusparse,subtree_ilu -csv $r/powerlaw.csv $dll > $r/powerlaw.txt 2>&1
echo "powerlaw exit $? at $SECONDS s"; grep -hE "^[a-z0-9_]+:|^  " $r/powerlaw.txt | cut -c1-220
