#!/bin/bash
# session 31, job 1 (nvidia-h200): where subtree_ilu's first setup goes at the current code (HEAD of session 29):
# the 128^3 Poisson (tutorials/ex1) with -log_view -log_view_gpu_time (event times; the GPU timing syncs around
# events, fine for a setup breakdown), ours against PETSc's GPU ICC(0)/ILU(0); and the host's cost of first-touching
# fresh memory (first_touch.c: 4 KiB pages vs transparent huge pages, 1 and 8 threads), which the setup pays for
# every array it allocates.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-04-H200-session31/job1.sh <revision>
set -u
D=bench/results/2026-12-04-H200-session31
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job1; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job1.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; uname -r; cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag; which perf; } > $r/info.txt 2>&1
gcc -O2 -pthread $D/first_touch.c -o $r/first_touch && $r/first_touch > $r/first_touch.txt 2>&1; cat $r/first_touch.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -j16 build/tutorials/ex1 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
L="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
EV="PCSetUp|KSPSetUp|SubtreeILU[A-Za-z]*|MatCholFctrNum|MatICCFactorSym|MatLUFactorNum|MatILUFactorSym|MatGetOrdering|MatConvert|MatCUSPARSSolAnl|MatCUSPARSCopyTo|MatCUSPARSGenT|GPURCM[A-Za-z]*"
run() { echo "== $1"; shift; timeout 90 build/tutorials/ex1 $L -n 128 -solves 3 -dm_vec_type cuda -ksp_type cg "$@" 2>&1 | grep -E "matrix type|converged|time:|^($EV) "; }
{
run "ours: pellrcuda, subtree_ilu ICC(0), natural" -mat_type pellrcuda -pc_type subtree_ilu -pc_subtree_ilu_type icc -log_view -log_view_gpu_time
run "ours: aijcusparse, subtree_ilu ICC(0), natural" -mat_type aijcusparse -pc_type subtree_ilu -pc_subtree_ilu_type icc -log_view -log_view_gpu_time
run "ours: pellrcuda, subtree_ilu ILU(0), natural" -mat_type pellrcuda -pc_type subtree_ilu -pc_subtree_ilu_type ilu -log_view -log_view_gpu_time
run "PETSc: aijcusparse, ICC(0) cusparse, natural" -mat_type aijcusparse -pc_type icc -pc_factor_mat_solver_type cusparse -log_view -log_view_gpu_time
run "ours: pellrcuda, subtree_ilu ICC(0), natural, no -log_view" -mat_type pellrcuda -pc_type subtree_ilu -pc_subtree_ilu_type icc
run "PETSc: aijcusparse, ICC(0) cusparse, natural, no -log_view" -mat_type aijcusparse -pc_type icc -pc_factor_mat_solver_type cusparse
} > $r/e2e.txt 2>&1
grep -E "==|time:|^(PCSetUp|SubtreeILU[A-Za-z]*|MatCholFctrNum|MatICCFactorSym|MatLUFactorNum|MatILUFactorSym|MatCUSPARSSolAnl) " $r/e2e.txt | awk '{print $1, $2, $3, $4, $5, $6, $7, $8, $9, $10}'
echo "e2e after $SECONDS s"
