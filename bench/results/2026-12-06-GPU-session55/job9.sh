#!/bin/bash
# session 55, job 9 (prepared, NOT run: no device time left): the complete test suite with the final library code
# (7b2c2a0's: the staged download, which only the gpurcm tests ran), and the -info split of the host time.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session55/job9.sh <revision>
. bench/gpujob.sh job9 "$1"
timeout 330 make check TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
timeout 30 build/bench/bench_order -matrices lap3d:100,lap3d:160 -orderings gpurcm@cuda -reps 5 -info :sys,mat $dll > $r/info.txt 2>&1
grep -h "host time" $r/info.txt | tail -n 4 | cut -c40-260
