#!/bin/bash
# session 52, job 2 (one GPU host, 16 cores): the first numeric factorization on the GPU (d693cec,
# -pc_subtree_ilu_cuda_first_factorization): every subtree_ilu test; power-law matrices with it off (petsc) and auto,
# alternated, two rounds (setup, first and steady refactorizations, ILU(0) apply, GMRES; PETSc's cuSPARSE ILU(0) in
# the same run); auto's decision and setups on grids.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session52/job2.sh <revision> [<s>]
. bench/gpujob.sh job2 "$1"
B=${2:-560}
timeout 170 make check TESTS='subtreeilu' TESTARGS="--timeout 120 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
grep -A12 "^not ok" $r/check.log | head -60
for round in 1 2; do
  for v in petsc auto; do
    [ $SECONDS -gt $((B - 60)) ] && continue
    timeout 80 build/bench/bench_factor -matrices powerlaw:1M:16,powerlaw:4M:8 -pcs ilu_cusparse,subtree_ilu -orderings natural -reps 10 -refactor_reps 3 -ksp_pcs ilu_cusparse,subtree_ilu -pc_subtree_ilu_cuda_first_factorization $v -info :pc -csv $r/pl-$v-r$round.csv $dll > $r/pl-$v-r$round.txt 2>&1
    echo "powerlaw $v r$round exit $? at $SECONDS s"; grep -hE "^  (subtree|ilu_cu)|first numeric factorization of" $r/pl-$v-r$round.txt | cut -c1-260
  done
done
[ $SECONDS -lt $((B - 60)) ] && timeout 60 build/bench/bench_factor -matrices lap2d:1000,lap3d:100 -pcs subtree_ilu,subtree_icc -orderings natural,rcm -levels 0 -refactor_reps 2 -reps 2 -ksp_max_rows 0 -info :pc -csv $r/grid-auto.csv $dll > $r/grid-auto.txt 2>&1
echo "grids auto at $SECONDS s"; grep -hE "^  (subtree)|first numeric factorization of" $r/grid-auto.txt | cut -c1-220
[ $SECONDS -lt $((B - 60)) ] && timeout 60 build/bench/bench_factor -matrices lap2d:1000,lap3d:100 -pcs subtree_ilu,subtree_icc -orderings natural -levels 0 -refactor_reps 2 -reps 2 -ksp_max_rows 0 -pc_subtree_ilu_cuda_first_factorization device -csv $r/grid-device.csv $dll > $r/grid-device.txt 2>&1
echo "grids device at $SECONDS s"; grep -hE "^  (subtree)" $r/grid-device.txt | cut -c1-200
