#!/bin/bash
# session 50, job 4 (the same warm host as job 3, whose real-matrix runs lacked -matdir .gpu/matrices): the shared
# (real) matrices with -pc_subtree_ilu_cuda_long_row 0 (the former path) against 8 (the default), alternated over two
# rounds, beside PETSc's cuSPARSE ILU(0), natural and RCM orderings.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session50/job4.sh <revision>
. bench/gpujob.sh job4 "$1"
for round in 1 2; do
  for lr in 0 8; do
    timeout 120 build/bench/bench_factor -matdir .gpu/matrices -pcs ilu_cusparse,subtree_ilu -orderings natural,rcm -reps 20 -refactor_reps 0 -ksp_pcs none -pc_subtree_ilu_cuda_long_row $lr -csv $r/real-lr$lr-r$round.csv $dll > $r/real-lr$lr-r$round.txt 2>&1
    echo "real lr $lr round $round exit $? at $SECONDS s"
  done
done
