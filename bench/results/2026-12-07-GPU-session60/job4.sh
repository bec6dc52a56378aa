#!/bin/bash
# session 60, job 4 (CPU only, the GPU host's 16 cores): the threads backend's level numbering with one barrier a level
# (threads-levels-onebarrier.patch: no claims; a child's parent is found by reading its neighbours' keys) against
# main's (three barriers a level) and the batches, 16 threads. On the 2-core CI machine it was not faster (2 threads).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session60/job4.sh <revision>
S=bench/results/2026-12-07-GPU-session60
. bench/gpujob.sh job4 "$1"
gpujob_base $S/threads-levels-onebarrier.patch
M=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
for lib in main onebarrier; do
  L=$dll; [ $lib = onebarrier ] && L="-dll_append /tmp/base/build/lib/libpetscsparsegpu.so"
  for m in levels batch; do
    [ $lib = onebarrier ] && [ $m = batch ] && continue
    timeout 100 build/bench/bench_order -matrices $M -orderings gpurcm@threads:16 -reps 7 -cusolver_max_nnz 0 -mat_gpurcm_threads_number $m -csv $r/order-$lib-$m.csv $L > $r/order-$lib-$m.txt 2>&1
    echo "order $lib $m exit $? at $SECONDS s"; grep -hE "^  gpurcm|phases" $r/order-$lib-$m.txt | cut -c1-130
  done
done
