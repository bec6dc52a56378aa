#!/bin/bash
# session 61, job 2: the threads backend's pool and node arrays kept between orderings (-mat_gpurcm_threads_keep).
#  1. every gpurcm test (16 cores: the pool's threads on their own cores);
#  2. CPU-only A/B on the 16 cores, 16 threads, in rounds: main (keep, the default), main with keep false, and the
#     code before (before-pool.patch: 3e2ca22, the setup's parts in -info only); the setup's parts from -info;
#  3. the serial backend;
#  0. threadcost.c: a parallel-for's thread management alone (threads created and joined, or kept).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session61/job2.sh <revision> [<rounds>]
S=bench/results/2026-12-07-GPU-session61
. bench/gpujob.sh job2 "$1"
cc -O2 -pthread $S/threadcost.c -o /tmp/threadcost -ldl && { /tmp/threadcost > $r/threadcost.txt 2>&1; /tmp/threadcost cuda > $r/threadcost-cuda.txt 2>&1; cat $r/threadcost.txt $r/threadcost-cuda.txt; }
timeout 200 make check TESTS='gpurcm' TESTARGS="--timeout 120 --jobs 14" > $r/check-gpurcm.log 2>&1
echo "gpurcm check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check-gpurcm.log | tail -n 8
gpujob_base $S/before-pool.patch
M=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
for round in $(seq 1 ${2:-3}); do
  for lib in keep nokeep before; do
    L=$dll; [ $lib = before ] && L="-dll_append /tmp/base/build/lib/libpetscsparsegpu.so"; [ $lib = nokeep ] && L="$dll -mat_gpurcm_threads_keep false"
    o=$r/order-$lib-$round
    timeout 100 build/bench/bench_order -matrices $M -orderings gpurcm@threads:16 -reps 7 -cusolver_max_nnz 0 -csv $o.csv $L -info > $o.info 2>&1
    echo "round $round $lib exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.info | awk '{printf " %s", $2}')"
    grep -hE "^[a-z0-9_]+: [0-9]+ rows|^  gpurcm|phases" $o.info > $o.txt
    grep -ho "gpurcm threads: setup.*" $o.info > $o.setup; rm -f $o.info
  done
done
for lib in keep nokeep before; do echo "$lib, last round, setup lines 2-4 and 10-12:"; sed -n '2,4p;10,12p' $r/order-$lib-${2:-3}.setup; done
timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@serial -reps 3 -cusolver_max_nnz 0 -csv $r/order-serial.csv $dll > $r/order-serial.txt 2>&1
echo "serial exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $r/order-serial.txt | awk '{printf " %s", $2}')"
