#!/bin/bash
# session 60, job 5 (CPU only, the GPU host's 16 cores): job 4 again in the other order, in rounds, with the serial
# backend: main's automatic numbering (batches on 2D, levels on 3D), main's levels, and the one-barrier levels.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session60/job5.sh <revision> [<rounds>]
S=bench/results/2026-12-07-GPU-session60
. bench/gpujob.sh job5 "$1"
gpujob_base $S/threads-levels-onebarrier.patch
M=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
for round in $(seq 1 ${2:-2}); do
  for run in "onebarrier levels" "main levels" "main auto"; do
    set -- $run; lib=$1; m=$2; L=$dll; [ $lib = onebarrier ] && L="-dll_append /tmp/base/build/lib/libpetscsparsegpu.so"
    o=$r/order-$lib-$m-$round
    timeout 100 build/bench/bench_order -matrices $M -orderings gpurcm@threads:16 -reps 7 -cusolver_max_nnz 0 -mat_gpurcm_threads_number $m -csv $o.csv $L > $o.txt 2>&1
    echo "round $round $lib $m exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.txt | awk '{printf " %s", $2}')"
  done
done
timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@serial -reps 5 -cusolver_max_nnz 0 -csv $r/order-serial.csv $dll > $r/order-serial.txt 2>&1
echo "serial exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $r/order-serial.txt | awk '{printf " %s", $2}')"
