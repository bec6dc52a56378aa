#!/bin/bash
# session 52, job 3 (one GPU host, 16 cores): the two auto tests of job 2 with their filter fixed; where the setup of
# powerlaw:4M:8 goes with the first factorization by PETSc and by the GPU (-log_view events, -info of the build).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session52/job3.sh <revision>
. bench/gpujob.sh job3 "$1"
timeout 100 make check TESTS='subtreeilu1_cuda_first' TESTARGS="--timeout 90 --jobs 8" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
for v in petsc device; do
  timeout 80 build/bench/bench_factor -matrices powerlaw:4M:8 -pcs subtree_ilu -orderings natural -reps 2 -refactor_reps 1 -ksp_max_rows 0 -pc_subtree_ilu_cuda_first_factorization $v -info :sys -log_view $dll > $r/log-$v.txt 2>&1
  echo "4M $v exit $? at $SECONDS s"; grep -hE "^  (subtree)|^SubtreeILU|^MatILUFactorSym|^MatLUFactorNum|built in|copies to the device|level sort of|refactorization plan:|RefactSharedSizes" $r/log-$v.txt | cut -c1-250
done
