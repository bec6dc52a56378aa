#!/bin/bash
# session 62, job 1: the complete GPU suite at session 61's final code (the threads backend's kept pool, 89539bc,
# ba17d8d and 0705365 never ran on a GPU host), then the threads backend's keep/nokeep timing on 16 cores.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session62/job1.sh <revision> [<s>]
. bench/gpujob.sh job1 "$1"
B=${2:-520}
timeout $((B - SECONDS - 60)) make check TESTARGS="--timeout 200 --jobs 14" > $r/check.log 2>&1
echo "complete check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
M=lap2d:1000,lap3d:100,lap3d:160
for round in 1 2; do
  for lib in keep nokeep; do
    L=$dll; [ $lib = nokeep ] && L="$dll -mat_gpurcm_threads_keep false"
    o=$r/order-$lib-$round
    timeout 40 build/bench/bench_order -matrices $M -orderings gpurcm@threads:16 -reps 7 -cusolver_max_nnz 0 -csv $o.csv $L > $o.txt 2>&1
    echo "round $round $lib exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.txt | awk '{printf " %s", $2}')"
  done
done
