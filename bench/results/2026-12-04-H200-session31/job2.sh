#!/bin/bash
# session 31, job 2 (nvidia-h200): subtree_ilu's first setup with the host setup threads (-pc_subtree_ilu_setup_threads,
# default: the cores, at most 16) against one setup thread and against PETSc's cuSPARSE ICC(0)/ILU(0): the 128^3
# Poisson end to end (tutorials/ex1, wall-clock setup and solve; one run with GPU event times), bench_factor's first
# setup on the 4 large grids, and the subtree_ilu tests on the GPU.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-04-H200-session31/job2.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job2; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job2.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -j16 build/tutorials/ex1 >> "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
L="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
EV="PCSetUp|SubtreeILU[A-Za-z]*|MatCholFctrNum|MatICCFactorSym|MatLUFactorNum|MatILUFactorSym|MatCUSPARSSolAnl"
run() { echo "== $1"; shift; timeout 90 build/tutorials/ex1 $L -n 128 -solves 3 -dm_vec_type cuda -ksp_type cg "$@" 2>&1 | grep -E "matrix type|converged|time:|^($EV) "; }
OURS="-mat_type pellrcuda -pc_type subtree_ilu"
{
for rep in 1 2; do
run "ours: pellrcuda, subtree_ilu ICC(0), setup threads default" $OURS -pc_subtree_ilu_type icc
run "ours: pellrcuda, subtree_ilu ICC(0), setup threads 1" $OURS -pc_subtree_ilu_type icc -pc_subtree_ilu_setup_threads 1
run "PETSc: aijcusparse, ICC(0) cusparse" -mat_type aijcusparse -pc_type icc -pc_factor_mat_solver_type cusparse
run "ours: pellrcuda, subtree_ilu ILU(0), setup threads default" $OURS -pc_subtree_ilu_type ilu
run "ours: pellrcuda, subtree_ilu ILU(0), setup threads 1" $OURS -pc_subtree_ilu_type ilu -pc_subtree_ilu_setup_threads 1
run "PETSc: aijcusparse, ILU(0) cusparse" -mat_type aijcusparse -pc_type ilu -pc_factor_mat_solver_type cusparse
done
run "ours: pellrcuda, subtree_ilu ICC(0), setup threads default, GPU event times" $OURS -pc_subtree_ilu_type icc -log_view -log_view_gpu_time
run "ours: pellrcuda, subtree_ilu ICC(0), setup threads 1, GPU event times" $OURS -pc_subtree_ilu_type icc -pc_subtree_ilu_setup_threads 1 -log_view -log_view_gpu_time
} > $r/e2e.txt 2>&1
grep -E "==|time:|^(PCSetUp|SubtreeILU[A-Za-z]*) " $r/e2e.txt | awk '{print $1, $2, $3, $4, $5, $6, $7, $8, $9, $10}'
echo "e2e after $SECONDS s"; SECONDS=0
G=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
timeout 170 build/bench/bench_factor -matrices $G -pcs ilu_cusparse,icc_cusparse,subtree_ilu,subtree_icc -orderings natural -levels 0 -refactor_reps 2 -reps 5 -ksp_max_rows 0 -csv $r/setup.csv $L > $r/setup.txt 2>&1
echo "bench_factor exit $? after $SECONDS s"; SECONDS=0
timeout 120 build/bench/bench_factor -matrices $G -pcs subtree_ilu,subtree_icc -orderings natural -levels 0 -refactor_reps 2 -reps 5 -ksp_max_rows 0 -csv $r/setup-1thread.csv -pc_subtree_ilu_setup_threads 1 $L > $r/setup-1thread.txt 2>&1
echo "bench_factor (1 setup thread) exit $? after $SECONDS s"; SECONDS=0
grep -E "^[a-z]|setup" $r/setup.txt $r/setup-1thread.txt | sed 's/( *[0-9]* reps.*GFLOP\/s)//' | head -40
timeout 200 make check TESTS=subtreeilu TESTARGS="--jobs 8" > $r/check.log 2>&1
echo "check exit $? after $SECONDS s"; tail -n 5 $r/check.log
