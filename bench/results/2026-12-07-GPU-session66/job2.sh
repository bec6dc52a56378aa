#!/bin/bash
# session 66, job 2 (issue 3): the level tables with both level kernels templated on them (WIN), so that the bitmap path
# is the code before them (job 1: 2D 1000^2 was 5% slower with the untemplated kernels).
# (1) every gpurcm test; (2) A/B against the library before the tables (before2.patch: git diff HEAD c51e07f -- src), 2 alternated rounds, on 2D
# 1000^2 (bitmap path) and 2D 2000^2 / 3000^2 (tables); (3) level numbering against batches, with the tables on and off,
# on 2D 1500^2 / 2000^2 / 3000^2 / 4000^2 (which numbering `auto` should take on large 2D meshes).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session66/job2.sh <revision>
. bench/gpujob.sh job2 "$1"
gpujob_base bench/results/2026-12-07-GPU-session66/before2.patch
timeout 200 make check TESTS='gpurcm' TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "gpurcm tests exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
gpujob_ab ab 2 tables $PWD/build/lib/libpetscsparsegpu.so before /tmp/base/build/lib/libpetscsparsegpu.so -matrices lap2d:1000,lap2d:2000,lap2d:3000 -orderings gpurcm@cuda -reps 5 -cusolver_max_nnz 0
k=0
for o in "-mat_gpurcm_cuda_number levels" "-mat_gpurcm_cuda_number batch" "-mat_gpurcm_cuda_number levels -mat_gpurcm_cuda_level_tables 0" "-mat_gpurcm_cuda_number batch -mat_gpurcm_cuda_level_tables 0"; do
  k=$((k+1))
  timeout 100 build/bench/bench_order -matrices lap2d:1500,lap2d:2000,lap2d:3000,lap2d:4000 -orderings gpurcm@cuda -reps 5 -cusolver_max_nnz 0 $dll $o > $r/num-$k.txt 2>&1
  echo "[$o] exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $r/num-$k.txt | awk '{printf " %s", $2}')"
done
echo "done at $SECONDS s"
