#!/bin/bash
# session 51, job 6 (one GPU host, 16 cores): every subtree_ilu test with the final code (after the review's CPU-side
# refactors), and the 4M-row power-law matrix with the sort automatic.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session51/job6.sh <revision>
. bench/gpujob.sh job6 "$1"
timeout 150 make check TESTS='subtreeilu' TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
SECONDS=0
timeout 60 build/bench/bench_factor -matrices powerlaw:4M:8 -pcs subtree_ilu -orderings natural -reps 20 -refactor_reps 0 -ksp_pcs none -info :sys -csv $r/pl.csv $dll > $r/pl.txt 2>&1
echo "powerlaw exit $? at $SECONDS s"; grep -hE "^  subtree|level sort of" $r/pl.txt | cut -c1-200
