#!/bin/bash
# session 63, job 2: the butterfly barrier of the threads backend's level jobs against the central counter before it
# (central-barrier.patch, built in this job), 16 and 12 threads (12: the fold of 4 threads into 8), on the meshes, in
# alternated rounds; then every gpurcm test at this revision.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session63/job2.sh <revision> [<rounds>]
S=bench/results/2026-12-07-GPU-session63
. bench/gpujob.sh job2 "$1"
gpujob_base $S/central-barrier.patch
M=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
for round in $(seq 1 ${2:-3}); do
  for lib in new before; do
    L=$dll; [ $lib = before ] && L="-dll_append /tmp/base/build/lib/libpetscsparsegpu.so"
    o=$r/order-$lib-$round
    timeout 90 build/bench/bench_order -matrices $M -orderings gpurcm@threads:16,gpurcm@threads:12 -reps 7 -cusolver_max_nnz 0 -csv $o.csv $L > $o.txt 2>&1
    echo "round $round $lib exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.txt | awk '{printf " %s", $2}')"
  done
done
timeout 150 make check TESTS='gpurcm' TESTARGS="--timeout 120 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 5
# the demo problem end to end with this revision (session 31's job 5 commands: tutorials/ex1, 128^3 Poisson, CG,
# vectors cuda; wall-clock times printed by ex1, the solve the mean of 3 after a warm-up), 3 runs of each
make -j16 build/tutorials/ex1 >> $r/build.log 2>&1 || { echo "no ex1"; exit 1; }
run() { echo "== $1"; shift; timeout 90 build/tutorials/ex1 $dll -n 128 -solves 3 -dm_vec_type cuda -ksp_type cg "$@" 2>&1 | grep -E "converged after|time:"; }
OURS="-mat_type pellrcuda -pc_type subtree_ilu"
{
for rep in 1 2 3; do
run "ours: pellrcuda, subtree_ilu ICC(0)" $OURS -pc_subtree_ilu_type icc
run "PETSc: aijcusparse, ICC(0) cusparse" -mat_type aijcusparse -pc_type icc -pc_factor_mat_solver_type cusparse
run "ours: pellrcuda, subtree_ilu ILU(0)" $OURS -pc_subtree_ilu_type ilu
run "PETSc: aijcusparse, ILU(0) cusparse" -mat_type aijcusparse -pc_type ilu -pc_factor_mat_solver_type cusparse
run "ours: pellrcuda, subtree_ilu ICC(0), gpurcm" $OURS -pc_subtree_ilu_type icc -pc_subtree_ilu_mat_ordering_type gpurcm
run "PETSc: aijcusparse, ICC(0) cusparse, rcm" -mat_type aijcusparse -pc_type icc -pc_factor_mat_solver_type cusparse -pc_factor_mat_ordering_type rcm
done
} > $r/e2e.txt 2>&1
grep -E "==|time:" $r/e2e.txt | paste - - | awk '{print}' | cut -c1-200
echo "e2e at $SECONDS s"
