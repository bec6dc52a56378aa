#!/bin/bash
# session 31, job 4 (nvidia-h200): subtree_ilu's first setup with the solve structures and cuda schedules built on a
# thread during PETSc's numeric factorization (and the setup threads of job 2): the 128^3 Poisson end to end
# (tutorials/ex1) against one setup thread and PETSc's cuSPARSE ICC(0)/ILU(0), the -info breakdown, bench_factor's
# first setup on the 4 large grids, and the complete make check.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-04-H200-session31/job4.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job4; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job4.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -j16 build/tutorials/ex1 >> "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
L="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
run() { echo "== $1"; shift; timeout 90 build/tutorials/ex1 $L -n 128 -solves 3 -dm_vec_type cuda -ksp_type cg "$@" 2>&1 | grep -E "matrix type|converged after|time:|PCSUBTREEILU (solve structures|cuda setup|cuda solve schedules)" | sed 's/^\[0\] <[a-z]*> //'; }
OURS="-mat_type pellrcuda -pc_type subtree_ilu"
{
for rep in 1 2 3; do
run "ours: pellrcuda, subtree_ilu ICC(0), setup threads default" $OURS -pc_subtree_ilu_type icc
run "ours: pellrcuda, subtree_ilu ICC(0), setup threads 1" $OURS -pc_subtree_ilu_type icc -pc_subtree_ilu_setup_threads 1
run "PETSc: aijcusparse, ICC(0) cusparse" -mat_type aijcusparse -pc_type icc -pc_factor_mat_solver_type cusparse
run "ours: pellrcuda, subtree_ilu ILU(0), setup threads default" $OURS -pc_subtree_ilu_type ilu
run "PETSc: aijcusparse, ILU(0) cusparse" -mat_type aijcusparse -pc_type ilu -pc_factor_mat_solver_type cusparse
done
run "ours: ICC(0), -info" $OURS -pc_subtree_ilu_type icc -info
run "ours: ILU(0), -info" $OURS -pc_subtree_ilu_type ilu -info
} > $r/e2e.txt 2>&1
cat $r/e2e.txt
echo "e2e after $SECONDS s"; SECONDS=0
G=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
timeout 170 build/bench/bench_factor -matrices $G -pcs ilu_cusparse,icc_cusparse,subtree_ilu,subtree_icc -orderings natural -levels 0 -refactor_reps 2 -reps 5 -ksp_max_rows 0 -csv $r/setup.csv $L > $r/setup.txt 2>&1
echo "bench_factor exit $? after $SECONDS s"; SECONDS=0
grep -E "^[a-z]|setup" $r/setup.txt | sed 's/( *[0-9]* reps.*GFLOP\/s)//'
timeout 330 make check TESTARGS="--jobs 10" > $r/check.log 2>&1
echo "check exit $? after $SECONDS s"; tail -n 3 $r/check.log; grep "^not ok" $r/check.log | head
