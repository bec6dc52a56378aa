#!/bin/bash
# session 63, job 2: the butterfly barrier of the threads backend's level jobs against the central counter before it
# (central-barrier.patch, built in this job), 16 and 12 threads (12: the fold of 4 threads into 8), on the meshes, in
# alternated rounds; then every gpurcm test at this revision.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session63/job2.sh <revision> [<rounds>]
S=bench/results/2026-12-07-GPU-session63
. bench/gpujob.sh job2 "$1"
gpujob_base $S/central-barrier.patch
M=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
for round in $(seq 1 ${2:-3}); do
  for lib in new before; do
    L=$dll; [ $lib = before ] && L="-dll_append /tmp/base/build/lib/libpetscsparsegpu.so"
    o=$r/order-$lib-$round
    timeout 90 build/bench/bench_order -matrices $M -orderings gpurcm@threads:16,gpurcm@threads:12 -reps 7 -cusolver_max_nnz 0 -csv $o.csv $L > $o.txt 2>&1
    echo "round $round $lib exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.txt | awk '{printf " %s", $2}')"
  done
done
timeout 150 make check TESTS='gpurcm' TESTARGS="--timeout 120 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 5
