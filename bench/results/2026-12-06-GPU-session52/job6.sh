#!/bin/bash
# session 52, job 6 (one GPU host, 16 cores): after the review's host-side tidy-ups of the setup (the numeric
# factorization's new-pattern flag, one lower-bound search in the plan): every subtree_ilu test.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session52/job6.sh <revision>
. bench/gpujob.sh job6 "$1"
timeout 170 make check TESTS='subtreeilu' TESTARGS="--timeout 120 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
