#!/bin/bash
# session 65, job 3: the final library (session 64's code; this session's two kernel trials reverted). (1) the complete
# make check; (2) gpurcm beside its peers in one command on the meshes (issue 3's table): PETSc rcm, gpurcm cuda,
# 16 and 4 threads, serial, cuSOLVER's host RCM; medians of 5.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session65/job3.sh <revision> [<seconds>]
. bench/gpujob.sh job3 "$1"
B=${2:-500}
timeout 280 make check TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
timeout $((B - SECONDS - 5)) build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160 -orderings rcm,gpurcm@cuda,gpurcm@threads:16,gpurcm@threads:4,gpurcm@serial,cusolver_rcm -reps 5 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "peers exit $? at $SECONDS s"; grep -E "^[a-z0-9_]+:|^  (rcm|gpurcm|cusolver)" $r/order.txt | cut -c1-110
