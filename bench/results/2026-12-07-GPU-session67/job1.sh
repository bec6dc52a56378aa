#!/bin/bash
# session 67, job 1 (issue 3): (1) session 66's final library (4829ebd + review commit 84ea0c4, never run on a GPU):
# every gpurcm test; (2) the grid-barrier micro-benchmark (barrier.cu: gpurcm.cu's barrier against a lean one and
# cooperative groups); (3) A/B of the final library against the one before session 66 (before.patch = git diff HEAD
# c51e07f -- src), 2 alternated rounds on 2D 1000^2, 3D 100^3, 2D 2000^2, 3000^2.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session67/job1.sh <revision>
. bench/gpujob.sh job1 "$1"
d=bench/results/2026-12-07-GPU-session67
nvcc -O3 -arch=sm_90 -o /tmp/barrier $d/barrier.cu && /tmp/barrier 20000 > $r/barrier.txt 2>&1; cat $r/barrier.txt
echo "micro done at $SECONDS s"
gpujob_base $d/before.patch
timeout 150 make check TESTS='gpurcm' TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "gpurcm tests exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
gpujob_ab ab 2 final $PWD/build/lib/libpetscsparsegpu.so before /tmp/base/build/lib/libpetscsparsegpu.so -matrices lap2d:1000,lap3d:100,lap2d:2000,lap2d:3000 -orderings gpurcm@cuda -reps 7 -cusolver_max_nnz 0
echo "done at $SECONDS s"
