#!/bin/bash
# session 50, job 1 (one GPU host, 16 cores): subtree_ilu's cuda solves sum a long row (a hub's) with the whole warp
# (-pc_subtree_ilu_cuda_long_row, default 32; 0 = the former code path). The complete test suite, then an A/B of the
# threshold on power-law matrices (session 49 job 5: apply 2.3-2.8x slower than cuSPARSE's ILU(0)) and on the grids
# (where no row is long: the cost of the ballot), all in one process per setting, the settings alternated over two
# rounds. Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session50/job1.sh <revision>
. bench/gpujob.sh job1 "$1"
timeout 330 make check TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
SECONDS=0
for round in 1 2; do
  for lr in 0 32 8 128; do
    timeout 60 build/bench/bench_factor -matrices powerlaw:1M:16,powerlaw:100k:8 -pcs ilu_cusparse,subtree_ilu -orderings natural -reps 20 -refactor_reps 0 -ksp_pcs subtree_ilu -pc_subtree_ilu_cuda_long_row $lr -csv $r/pl-lr$lr-r$round.csv $dll > $r/pl-lr$lr-r$round.txt 2>&1
    echo "powerlaw lr $lr round $round exit $? at $SECONDS s"; grep -hE "^  " $r/pl-lr$lr-r$round.txt | cut -c1-200
  done
done
for round in 1 2; do
  for lr in 0 32; do
    timeout 60 build/bench/bench_factor -matrices lap2d:1000,lap3d:100 -pcs subtree_ilu -orderings natural,rcm -levels 0,1 -reps 20 -refactor_reps 0 -ksp_pcs none -pc_subtree_ilu_cuda_long_row $lr -csv $r/grid-lr$lr-r$round.csv $dll > $r/grid-lr$lr-r$round.txt 2>&1
    echo "grids lr $lr round $round exit $? at $SECONDS s"; grep -hE "^  " $r/grid-lr$lr-r$round.txt | cut -c1-120
  done
done
