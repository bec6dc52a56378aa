#!/bin/bash
# session 60, job 3: the complete GPU suite at this session's code (gpurcm's thread cap, pellr's PellrIsOurs() calls;
# host code only, tested on the CPU), the first complete run since session 59's job 1 at 58bbdc8.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session60/job3.sh <revision> [<s>]
. bench/gpujob.sh job3 "$1"
B=${2:-520}
timeout $((B - SECONDS)) make check TESTARGS="--timeout 200 --jobs 14" > $r/check.log 2>&1
echo "complete check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
