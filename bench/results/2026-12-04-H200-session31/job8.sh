#!/bin/bash
# session 31, job 8 (nvidia-h200): ILU's L and U filled at once (each on half of the setup threads) during PETSc's
# numeric factorization: the subtree_ilu and tutorial tests on the GPU, and the 128^3 Poisson ILU(0) end to end
# (3 runs, one with -info) beside PETSc's cuSPARSE ILU(0).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-04-H200-session31/job8.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job8; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job8.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -j16 build/tutorials/ex1 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
L="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
run() { echo "== $1"; shift; timeout 90 build/tutorials/ex1 $L -n 128 -solves 3 -dm_vec_type cuda -ksp_type cg "$@" 2>&1 | grep -E "converged after|time:|PCSUBTREEILU (solve structures|cuda setup|cuda solve schedules)" | sed 's/^\[0\] <[a-z]*> //'; }
{
for rep in 1 2 3; do
run "ours: pellrcuda, subtree_ilu ILU(0)" -mat_type pellrcuda -pc_type subtree_ilu -pc_subtree_ilu_type ilu
run "PETSc: aijcusparse, ILU(0) cusparse" -mat_type aijcusparse -pc_type ilu -pc_factor_mat_solver_type cusparse
done
run "ours: ILU(0), -info" -mat_type pellrcuda -pc_type subtree_ilu -pc_subtree_ilu_type ilu -info
} > $r/e2e.txt 2>&1
cat $r/e2e.txt
echo "e2e after $SECONDS s"; SECONDS=0
timeout 200 make check TESTS="subtreeilu|tutorials" TESTARGS="--jobs 10" > $r/check.log 2>&1
echo "check exit $? after $SECONDS s"; tail -n 1 $r/check.log; grep "^not ok" $r/check.log | head
