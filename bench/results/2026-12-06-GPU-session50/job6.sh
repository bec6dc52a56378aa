#!/bin/bash
# session 50, job 6 (one GPU host, 16 cores): the complete test suite with the session's final library code.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session50/job6.sh <revision>
. bench/gpujob.sh job6 "$1"
timeout 400 make check TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
