#!/bin/bash
# session 53, job 4 (one GPU host): after the review's shared mean-distance helper (host code of the GPU-first and level
# sort decisions): the tests of those decisions.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session53/job4.sh <revision>
. bench/gpujob.sh job4 "$1"
timeout 100 make check TESTS='subtreeilu1_cuda_ilu0_random|subtreeilu5|subtreeilu1_cuda_first|subtreeilu1_cuda_level_sort' TESTARGS="--timeout 90 --jobs 8" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
