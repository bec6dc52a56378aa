#!/bin/bash
# session 60, job 6 (CPU only, the GPU host's 16 cores): with the one-barrier level numbering
# (threads-levels-onebarrier.patch), levels against batches in rounds, 16 threads, and the automatic choice's -info.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session60/job6.sh <revision> [<rounds>]
S=bench/results/2026-12-07-GPU-session60
. bench/gpujob.sh job6 "$1"
gpujob_base $S/threads-levels-onebarrier.patch
L="-dll_append /tmp/base/build/lib/libpetscsparsegpu.so"
M=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@threads:16 -reps 1 -cusolver_max_nnz 0 -info $L > $r/order-auto-info.txt 2>&1
echo "auto: $(grep -hE 'gpurcm: numbering' $r/order-auto-info.txt | sort | uniq -c | cut -c1-150)"
for round in $(seq 1 ${2:-3}); do
  for m in levels batch; do
    o=$r/order-onebarrier-$m-$round
    timeout 100 build/bench/bench_order -matrices $M -orderings gpurcm@threads:16 -reps 7 -cusolver_max_nnz 0 -mat_gpurcm_threads_number $m -csv $o.csv $L > $o.txt 2>&1
    echo "round $round $m exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.txt | awk '{printf " %s", $2}')"
  done
done
