#!/bin/bash
# session 31, job 5 (nvidia-h200): the final code (job 4 plus the fix of ICC's borrowed L root count, which job 4's
# make check caught in -pc_view): the complete make check, and the 128^3 Poisson end to end again (3 runs each).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-04-H200-session31/job5.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job5; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job5.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -j16 build/tutorials/ex1 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
timeout 330 make check TESTARGS="--jobs 10" > $r/check.log 2>&1
echo "check exit $? after $SECONDS s"; tail -n 2 $r/check.log; grep "^not ok" $r/check.log | head; SECONDS=0
L="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
run() { echo "== $1"; shift; timeout 90 build/tutorials/ex1 $L -n 128 -solves 3 -dm_vec_type cuda -ksp_type cg "$@" 2>&1 | grep -E "converged after|time:"; }
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
grep -E "==|time:" $r/e2e.txt
echo "e2e after $SECONDS s"
