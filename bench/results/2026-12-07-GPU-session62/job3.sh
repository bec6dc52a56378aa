#!/bin/bash
# session 62, job 3 (CPU work on the GPU host's 16 cores):
# Job 2 left out blkdiag and kron (no -matdir: the shared matrices are in .gpu/matrices on the GPU host); this job runs them.
#  1. (the tests ran in job 2);
#  2. A/B in rounds against the atomic construction (before-build.patch = the code before ceff680), 16 and 4 threads,
#     on the matrices whose graph is built (unsymmetric: powerlaw; inodes: blkdiag, kron), then the serial backend.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session62/job3.sh <revision> [<rounds>]
S=bench/results/2026-12-07-GPU-session62
. bench/gpujob.sh job3 "$1"
# (the tests ran in job 2)

gpujob_base $S/before-build.patch
M=blkdiag:bcsstk17:8M,kron:bcsstk01:bcsstk17,powerlaw:262144:16
for round in $(seq 1 ${2:-2}); do
  for th in 16 4; do
    for lib in new before; do
      L=$dll; [ $lib = before ] && L="-dll_append /tmp/base/build/lib/libpetscsparsegpu.so"
      o=$r/order-$lib-$th-$round
      timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@threads:$th -reps 7 -cusolver_max_nnz 0 -matdir .gpu/matrices -csv $o.csv $L > $o.txt 2>&1
      echo "round $round $th threads $lib exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.txt | awk '{printf " %s", $2}') graph:$(grep -ho 'graph [0-9]*%' $o.txt | awk '{printf " %s", $2}')"
    done
  done
done
timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@serial,rcm -reps 5 -cusolver_max_nnz 0 -matdir .gpu/matrices -csv $r/order-serial.csv $dll > $r/order-serial.txt 2>&1
echo "serial exit $? at $SECONDS s:$(grep -hE '^  (gpurcm|rcm)' $r/order-serial.txt | awk '{printf " %s %s", $1, $2}')"
