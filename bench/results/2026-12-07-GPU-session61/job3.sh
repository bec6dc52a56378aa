#!/bin/bash
# session 61, job 3 (CPU only, the GPU host's 16 cores): the threads backend with the kept pool (final code).
#  1. the ex2 pool tests and the generated-graph gpurcm tests of the threads backend;
#  2. A/B in rounds, 16 threads: main (keep), main with keep false (node arrays allocated apart again), the code before
#     the pool (before-pool.patch);
#  3. the serial backend on the 1M-node meshes (the other meshes and peers left out: little device time was left).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session61/job3.sh <revision> [<rounds>]
S=bench/results/2026-12-07-GPU-session61
. bench/gpujob.sh job3 "$1"
timeout 120 make check TESTS='ex2_threads|gpurcm_identity_generated_threads' TESTARGS="--timeout 100 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 5
gpujob_base $S/before-pool.patch
M=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
for round in $(seq 1 ${2:-3}); do
  for lib in keep nokeep before; do
    L=$dll; [ $lib = before ] && L="-dll_append /tmp/base/build/lib/libpetscsparsegpu.so"; [ $lib = nokeep ] && L="$dll -mat_gpurcm_threads_keep false"
    o=$r/order-$lib-$round
    timeout 100 build/bench/bench_order -matrices $M -orderings gpurcm@threads:16 -reps 7 -cusolver_max_nnz 0 -csv $o.csv $L > $o.txt 2>&1
    echo "round $round $lib exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.txt | awk '{printf " %s", $2}')"
  done
done
timeout 30 build/bench/bench_order -matrices lap2d:1000,lap3d:100 -orderings gpurcm@serial -reps 3 -cusolver_max_nnz 0 -csv $r/order-serial.csv $dll > $r/order-serial.txt 2>&1
echo "serial exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $r/order-serial.txt | awk '{printf " %s", $2}')"
