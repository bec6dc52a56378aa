#!/bin/bash
# session 62, job 2 (CPU work on the GPU host's 16 cores, and the gpurcm tests with every backend):
#  1. every gpurcm test at this revision (the threads backend's graph built without atomics);
#  2. A/B in rounds against the atomic construction (before-build.patch = the code before ceff680), 16 and 4 threads,
#     on the matrices whose graph is built (unsymmetric: powerlaw; inodes: blkdiag, kron), then the serial backend.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session62/job2.sh <revision> [<rounds>]
S=bench/results/2026-12-07-GPU-session62
. bench/gpujob.sh job2 "$1"
timeout 200 make check TESTS='gpurcm|ex2' TESTARGS="--timeout 150 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 5
gpujob_base $S/before-build.patch
M=powerlaw:1M:16,blkdiag:bcsstk17:8M,kron:bcsstk01:bcsstk17
for round in $(seq 1 ${2:-2}); do
  for th in 16 4; do
    for lib in new before; do
      L=$dll; [ $lib = before ] && L="-dll_append /tmp/base/build/lib/libpetscsparsegpu.so"
      o=$r/order-$lib-$th-$round
      timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@threads:$th -reps 7 -cusolver_max_nnz 0 -csv $o.csv $L > $o.txt 2>&1
      echo "round $round $th threads $lib exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.txt | awk '{printf " %s", $2}') graph:$(grep -ho 'graph [0-9]*%' $o.txt | awk '{printf " %s", $2}')"
    done
  done
done
timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@serial,rcm -reps 5 -cusolver_max_nnz 0 -csv $r/order-serial.csv $dll > $r/order-serial.txt 2>&1
echo "serial exit $? at $SECONDS s:$(grep -hE '^  (gpurcm|rcm)' $r/order-serial.txt | awk '{printf " %s %s", $1, $2}')"
