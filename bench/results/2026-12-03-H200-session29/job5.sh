#!/bin/bash
# session 29, job 5 (nvidia-h200): the session's final code on the GPU, after job 3: level-0 factorizations with an
# ordering factor the permuted matrix in its natural ordering (69f6478). The complete make check; the 128^3 Poisson
# end to end with natural, gpurcm and rcm orderings, ours against PETSc's GPU ICC(0); bench_factor's setup and
# refactorizations beside PETSc's cuSPARSE ILU(0)/ICC(0) on the 4 large grids, natural and rcm, in one run.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-03-H200-session29/job5.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job5; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job5.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -j16 build/tutorials/ex1 >> "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
timeout 330 make check TESTARGS="--timeout 150 --jobs 10" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20; SECONDS=0
L="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
run() { echo "== $1"; shift; timeout 60 build/tutorials/ex1 $L -n 128 -solves 3 -dm_vec_type cuda -ksp_type cg "$@" 2>&1 | grep -E "matrix type|converged|time:"; }
{
run "ours: pellrcuda, subtree_ilu ICC(0), natural" -mat_type pellrcuda -pc_type subtree_ilu -pc_subtree_ilu_type icc -pc_subtree_ilu_mat_ordering_type natural
run "ours: pellrcuda, subtree_ilu ICC(0), gpurcm" -mat_type pellrcuda -pc_type subtree_ilu -pc_subtree_ilu_type icc -pc_subtree_ilu_mat_ordering_type gpurcm
run "PETSc: aijcusparse, ICC(0) cusparse, natural" -mat_type aijcusparse -pc_type icc -pc_factor_mat_solver_type cusparse -pc_factor_mat_ordering_type natural
run "PETSc: aijcusparse, ICC(0) cusparse, rcm" -mat_type aijcusparse -pc_type icc -pc_factor_mat_solver_type cusparse -pc_factor_mat_ordering_type rcm
} > $r/e2e.txt 2>&1
grep -E "==|time:" $r/e2e.txt
echo "e2e after $SECONDS s"; SECONDS=0
G=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
timeout 130 build/bench/bench_factor -matrices $G -pcs ilu_cusparse,icc_cusparse,subtree_ilu,subtree_icc -orderings natural,rcm -levels 0 -refactor_reps 4 -reps 5 -ksp_max_rows 0 -csv $r/setup.csv $L > $r/setup.txt 2>&1
echo "bench_factor exit $? after $SECONDS s"
grep -E "^[a-z]|setup" $r/setup.txt | sed 's/( *[0-9]* reps.*GFLOP\/s)//'
