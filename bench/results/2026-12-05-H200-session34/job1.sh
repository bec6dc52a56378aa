#!/bin/bash
# session 34, job 1 (nvidia-h200; prepared in session 34, which had no GPU): subtree_ilu's refactorization plan made
# by ranges of rows on the setup threads (2951c80, eda1f12): the first refactorization (which makes the plan) and the
# steady ones on the 4 large grids, ILU(0)/ICC(0), natural and RCM, with 16 (the default) and 1 setup thread, beside
# PETSc's cuSPARSE ILU(0)/ICC(0) (-log_view's SubtreeILUPlan event gives the plan alone); then every subtree_ilu test
# (the new cuda ones included: cuda_chains_setup_threads, cuda_ilu1_rcm_setup_threads, cuda_icc1_setup_threads) and every
# gpurcm test: the staged upload (pinned buffers filled by threads) moved from gpurcm.cu to src/sys/utils/sparsegpustage.cu
# and now also copies subtree_ilu's plan and solve structures (1ac9bf4, not run on a GPU when written).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H200-session34/job1.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job1; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job1.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
L="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
G=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
for th in 16 1; do
  for o in natural rcm; do
    timeout 60 build/bench/bench_factor -matrices $G -pcs subtree_ilu,subtree_icc -orderings $o -levels 0 -refactor_reps 3 -reps 3 -ksp_max_rows 0 \
      -pc_subtree_ilu_setup_threads $th -csv $r/refactor-$o-threads$th.csv $L -log_view > $r/refactor-$o-threads$th.txt 2>&1
    echo "threads $th $o exit $? after $SECONDS s"; SECONDS=0
    grep -E "^[a-z]|refactor|^SubtreeILUPlan|^SubtreeILURefact" $r/refactor-$o-threads$th.txt | sed 's/( *[0-9]* reps.*GFLOP\/s)//'
  done
done
timeout 60 build/bench/bench_factor -matrices $G -pcs ilu_cusparse,icc_cusparse -orderings natural,rcm -levels 0 -refactor_reps 3 -reps 3 -ksp_max_rows 0 -csv $r/refactor-petsc.csv $L > $r/refactor-petsc.txt 2>&1
echo "PETSc cusparse exit $? after $SECONDS s"; SECONDS=0
grep -E "^[a-z]|refactor" $r/refactor-petsc.txt | sed 's/( *[0-9]* reps.*GFLOP\/s)//'
timeout 200 make check TESTS="subtreeilu|gpurcm|tutorials" TESTARGS="--jobs 12" > $r/check.log 2>&1
echo "check exit $? after $SECONDS s"; tail -n 3 $r/check.log; grep "^not ok" $r/check.log | head
