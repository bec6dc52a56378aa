#!/bin/bash
# session 60, job 8 (CPU only, the GPU host's 16 cores): the batch engine's state made at its first job (not zeroed at every ordering) against the code
# before (before-lazy-batch.patch), 16 threads, in rounds; the serial backend and rcm.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session60/job8.sh <revision> [<rounds>]
S=bench/results/2026-12-07-GPU-session60
. bench/gpujob.sh job8 "$1"
gpujob_base $S/before-lazy-batch.patch
M=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160,lap3d27:100
timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@threads:16 -reps 1 -cusolver_max_nnz 0 -info $dll > $r/order-auto-info.txt 2>&1
echo "auto: $(grep -hE 'gpurcm: numbering' $r/order-auto-info.txt | sort | uniq -c | cut -c1-150)"
for round in $(seq 1 ${2:-3}); do
  for lib in new base; do
    L=$dll; [ $lib = base ] && L="-dll_append /tmp/base/build/lib/libpetscsparsegpu.so"
    o=$r/order-$lib-$round
    timeout 100 build/bench/bench_order -matrices $M -orderings gpurcm@threads:16 -reps 7 -cusolver_max_nnz 0 -csv $o.csv $L > $o.txt 2>&1
    echo "round $round $lib exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.txt | awk '{printf " %s", $2}')"
  done
done
timeout 80 build/bench/bench_order -matrices $M -orderings gpurcm@serial,rcm -reps 3 -cusolver_max_nnz 0 -csv $r/order-serial.csv $dll > $r/order-serial.txt 2>&1
echo "serial, rcm exit $? at $SECONDS s:$(grep -hE '^  (gpurcm|rcm)' $r/order-serial.txt | awk '{printf " %s", $2}')"
