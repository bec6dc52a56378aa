#!/bin/bash
# session 66, job 4 (issue 3): the final library. Since job 3, GPURCMNmIdleLevel is a template on the level tables and
# the numbering's narrow stretch is inlined again without them (out of line, GPURCMNmNarrowTables, with them): both
# level kernels without the tables now compile to the same SASS as before the session (checked with cuobjdump -sass).
# (1) every gpurcm test; (2) the final library alone on 2D 1000^2 / 2000^2 / 3000^2 (the device time left allows no
# baseline build).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session66/job4.sh <revision>
. bench/gpujob.sh job4 "$1"
timeout 120 make check TESTS='gpurcm' TESTARGS="--jobs 15" > $r/check.log 2>&1
echo "gpurcm tests exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
timeout 40 build/bench/bench_order -matrices lap2d:1000,lap2d:2000,lap2d:3000 -orderings gpurcm@cuda -reps 5 -cusolver_max_nnz 0 $dll > $r/order.txt 2>&1
echo "order exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $r/order.txt | awk '{printf " %s", $2}')"
