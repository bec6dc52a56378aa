#!/bin/bash
# session 55, job 8: the final gpurcm code beside PETSc's rcm in one command (end to end, 5 repetitions, medians)
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session55/job8.sh <revision>
. bench/gpujob.sh job8 "$1"
timeout 100 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160 -orderings rcm,gpurcm@cuda,gpurcm@threads:16 -reps 5 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "exit $? at $SECONDS s"; grep -E "^[a-z0-9_]+:|^  (rcm|gpurcm)" $r/order.txt | cut -c1-110
