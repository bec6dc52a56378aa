#!/bin/bash
# session 62, job 4: the final gpurcm code on the GPU host.
#  1. every gpurcm test (every backend) at this revision;
#  2. A/B in rounds against the symmetry check before 05931f1 (before-check.patch: the mirrors of the entries above the
#     diagonal looked up), 16 threads and cuda, on the generated meshes (symmetric: the check decides, no graph is built);
#  3. the serial backend on the same meshes (16 threads against serial, issue 3).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session62/job4.sh <revision> [<rounds>]
S=bench/results/2026-12-07-GPU-session62
. bench/gpujob.sh job4 "$1"
timeout 200 make check TESTS='gpurcm|ex2' TESTARGS="--timeout 150 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 5
gpujob_base $S/before-check.patch
M=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
for round in $(seq 1 ${2:-3}); do
  for lib in new before; do
    L=$dll; [ $lib = before ] && L="-dll_append /tmp/base/build/lib/libpetscsparsegpu.so"
    o=$r/order-$lib-$round
    timeout 90 build/bench/bench_order -matrices $M -orderings gpurcm@threads:16,gpurcm@cuda -reps 7 -cusolver_max_nnz 0 -csv $o.csv $L > $o.txt 2>&1
    echo "round $round $lib exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.txt | awk '{printf " %s", $2}') graph:$(grep -ho 'graph [0-9]*%' $o.txt | awk '{printf " %s", $2}')"
  done
done
timeout 90 build/bench/bench_order -matrices $M -orderings gpurcm@serial -reps 5 -cusolver_max_nnz 0 -csv $r/order-serial.csv $dll > $r/order-serial.txt 2>&1
echo "serial exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $r/order-serial.txt | awk '{printf " %s", $2}')"
