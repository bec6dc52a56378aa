#!/bin/bash
# session 49, job 5 (one GPU host, 16 cores): after job 1 found gpurcm cuda quadratic on a hub, a probe of subtree_ilu's
# cuda backend on power-law matrices (hub rows of tens of thousands of entries) beside PETSc's cuSPARSE ILU(0):
# does any stage (setup, refactorization, apply, KSPSolve) degrade far beyond the peers or not finish?
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session49/job5.sh <revision>
. bench/gpujob.sh job5 "$1"
timeout 90 build/bench/bench_factor -matrices powerlaw:100k:8 -pcs ilu_cusparse,ilu_host,subtree_ilu -orderings natural,rcm -reps 3 -refactor_reps 2 -csv $r/factor-100k.csv $dll > $r/factor-100k.txt 2>&1
echo "100k exit $? at $SECONDS s"; grep -hE "^[a-z0-9_]+:|^  " $r/factor-100k.txt | cut -c1-240
timeout 150 build/bench/bench_factor -matrices powerlaw:1M:16 -pcs ilu_cusparse,subtree_ilu -orderings natural -reps 3 -refactor_reps 2 -csv $r/factor-1M.csv $dll > $r/factor-1M.txt 2>&1
echo "1M exit $? at $SECONDS s"; grep -hE "^[a-z0-9_]+:|^  " $r/factor-1M.txt | cut -c1-240
