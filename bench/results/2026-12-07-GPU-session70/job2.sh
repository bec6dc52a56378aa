#!/bin/bash
# session 70, job 2 (not run in session 70: no device time left; ready for the next session): (1) the complete make
# check on the GPU with the final library (bfs-rows landed; the last complete GPU run was session 65's), which also
# checks the new generated test graph (5 neighbours: the row copy's fallback) and the cuda -info counts updated
# without a GPU; (2) gpurcm beside all its peers in one command on the meshes (issue 3's table, which predates
# bfs-rows): PETSc rcm, gpurcm cuda, 16 and 4 threads, serial, cuSOLVER's host RCM; medians of 5.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session70/job2.sh <revision> [<seconds>]
. bench/gpujob.sh job2 "$1"
B=${2:-540}
timeout 300 make check TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
timeout $((B - SECONDS > 10 ? B - SECONDS : 10)) build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160 -orderings rcm,gpurcm@cuda,gpurcm@threads:16,gpurcm@threads:4,gpurcm@serial,cusolver_rcm -reps 5 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "peers exit $? at $SECONDS s"; grep -E "^[a-z0-9_]+:|^  (rcm|gpurcm|cusolver)" $r/order.txt | cut -c1-110
