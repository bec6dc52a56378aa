#!/bin/bash
# session 28, job 6 (nvidia-h200): the main job end to end. `make demo` on the GPU (tutorials/ex1: 3D Poisson 64^3,
# CG, all three components), then the same program on a 128^3 grid (2.1M rows), 3 timed solves after a warm-up, with
# our components against PETSc's own GPU path (aijcusparse, PETSc's cuSPARSE ICC(0)), natural and RCM orderings.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-03-H200-session28/job6.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job6; rm -rf $r; mkdir -p $r
trap 'cp $r/* "$out/" 2>/dev/null' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt 2>&1
make -j16 > "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
timeout 60 make demo > $r/demo.txt 2>&1; echo "demo exit $?"; grep -v "^ *[A-Z].*Object\|^  " $r/demo.txt | head -12
L="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
run() { echo "== $1"; shift; timeout 60 build/tutorials/ex1 $L -n 128 -solves 3 -dm_vec_type cuda -ksp_type cg "$@" 2>&1 | grep -E "matrix type|converged|time:"; }
{
run "ours: pellrcuda, subtree_ilu ICC(0), gpurcm" -mat_type pellrcuda -pc_type subtree_ilu -pc_subtree_ilu_type icc -pc_subtree_ilu_mat_ordering_type gpurcm
run "ours: pellrcuda, subtree_ilu ICC(0), natural" -mat_type pellrcuda -pc_type subtree_ilu -pc_subtree_ilu_type icc -pc_subtree_ilu_mat_ordering_type natural
run "PETSc: aijcusparse, ICC(0) cusparse, rcm" -mat_type aijcusparse -pc_type icc -pc_factor_mat_solver_type cusparse -pc_factor_mat_ordering_type rcm
run "PETSc: aijcusparse, ICC(0) cusparse, natural" -mat_type aijcusparse -pc_type icc -pc_factor_mat_solver_type cusparse -pc_factor_mat_ordering_type natural
} > $r/e2e.txt 2>&1
cat $r/e2e.txt
