#!/bin/bash
# session 29, job 1 (nvidia-h200): subtree_ilu's first setup on the GPU after 3cfefb6 (the refactorization plan made
# at the first refactorization instead of the symbolic setup; ICC's L = U's arrays read transposed, host and device;
# sub-events SubtreeILUBuild/ToGPU/Plan): every subtree_ilu test (GPU variants included), the 128^3 Poisson end to end
# as in session 28 job 6 with -log_view of our path, and bench_factor's refactorizations (first apart) beside SpSV.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-03-H200-session29/job1.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job1; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job1.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
timeout 200 make check TESTS='subtreeilu' TESTARGS="--timeout 100 --jobs 8" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20; SECONDS=0
L="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
run() { echo "== $1"; shift; timeout 60 build/tutorials/ex1 $L -n 128 -solves 3 -dm_vec_type cuda -ksp_type cg "$@" 2>&1 | grep -E "matrix type|converged|time:|^(PCSetUp|SubtreeILU[A-Za-z]*|MatCholFctrNum|MatICCFactorSym|MatGetOrdering|KSPSetUp) "; }
{
run "ours: pellrcuda, subtree_ilu ICC(0), natural" -mat_type pellrcuda -pc_type subtree_ilu -pc_subtree_ilu_type icc -pc_subtree_ilu_mat_ordering_type natural -log_view
run "ours: pellrcuda, subtree_ilu ICC(0), gpurcm" -mat_type pellrcuda -pc_type subtree_ilu -pc_subtree_ilu_type icc -pc_subtree_ilu_mat_ordering_type gpurcm -log_view
run "ours: pellrcuda, subtree_ilu ILU(0), natural" -mat_type pellrcuda -pc_type subtree_ilu -pc_subtree_ilu_type ilu -pc_subtree_ilu_mat_ordering_type natural -log_view
run "PETSc: aijcusparse, ICC(0) cusparse, natural" -mat_type aijcusparse -pc_type icc -pc_factor_mat_solver_type cusparse -pc_factor_mat_ordering_type natural -log_view
run "PETSc: aijcusparse, ICC(0) cusparse, rcm" -mat_type aijcusparse -pc_type icc -pc_factor_mat_solver_type cusparse -pc_factor_mat_ordering_type rcm
} > $r/e2e.txt 2>&1
cat $r/e2e.txt | grep -E "==|time:|SubtreeILU(Build|ToGPU|Setup|Plan) "
echo "e2e after $SECONDS s"; SECONDS=0
G=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
timeout 100 build/bench/bench_factor -matrices $G -pcs subtree_ilu,subtree_icc -orderings natural,rcm -levels 0 -refactor_reps 6 -reps 5 -ksp_max_rows 0 -csv $r/refactor.csv $L > $r/refactor.txt 2>&1
echo "refactor exit $? after $SECONDS s"; SECONDS=0
timeout 60 build/bench/bench_factor -matrices $G -pcs spsv -orderings natural,rcm -levels 0 -refactor_reps 4 -reps 5 -ksp_max_rows 0 -csv $r/spsv.csv $L > $r/spsv.txt 2>&1
echo "spsv exit $? after $SECONDS s"; SECONDS=0
grep -h -E "refactor|analysis" $r/refactor.txt $r/spsv.txt | sed 's/( *[0-9]* reps.*GFLOP\/s)//'
