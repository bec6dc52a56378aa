#!/bin/bash
# session 50, job 2 (one GPU host, 16 cores): after job 1 (-pc_subtree_ilu_cuda_long_row 8 beat 32 on power-law
# matrices; two view tests failed on the new -pc_view line, now merged into the "cuda: one warp" line): the view tests
# and every subtree_ilu test again, then the threshold 0 (the former path), 4, 8, 16, 32 on power-law matrices (with
# PETSc's cuSPARSE ILU(0) and both GMRES solves) and 0, 4, 8, 16 on the grids, including 27-point 100^3 and ILU(1)
# (rows of 9-13 inputs), each setting one process, alternated over two rounds.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session50/job2.sh <revision>
. bench/gpujob.sh job2 "$1"
timeout 200 make check TESTS='subtreeilu|tutorials-ex4' TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
SECONDS=0
for round in 1 2; do
  for lr in 0 4 8 16 32; do
    timeout 60 build/bench/bench_factor -matrices powerlaw:1M:16,powerlaw:100k:8 -pcs ilu_cusparse,subtree_ilu -orderings natural -reps 20 -refactor_reps 0 -ksp_pcs ilu_cusparse,subtree_ilu -pc_subtree_ilu_cuda_long_row $lr -csv $r/pl-lr$lr-r$round.csv $dll > $r/pl-lr$lr-r$round.txt 2>&1
    echo "powerlaw lr $lr round $round exit $? at $SECONDS s"; grep -hE "^  " $r/pl-lr$lr-r$round.txt | cut -c1-200
  done
done
for round in 1 2; do
  for lr in 0 4 8 16; do
    timeout 90 build/bench/bench_factor -matrices lap2d:1000,lap3d:100,lap3d27:100 -pcs subtree_ilu -orderings natural,rcm -levels 0,1 -reps 20 -refactor_reps 0 -ksp_pcs none -pc_subtree_ilu_cuda_long_row $lr -csv $r/grid-lr$lr-r$round.csv $dll > $r/grid-lr$lr-r$round.txt 2>&1
    echo "grids lr $lr round $round exit $? at $SECONDS s"; grep -hE "^  " $r/grid-lr$lr-r$round.txt | cut -c1-60
  done
done
