#!/bin/bash
# session 63, job 3: the threads backend's level barrier, four ways in one library (the experiment's developer option
# -mat_gpurcm_threads_barrier_experiment: 0 the central counter of before, 1 the butterfly, 2 flags: each thread
# writes its own line and reads every other's; 3 flags, whose reads also give the level numberings each thread's offset), 16 threads, the meshes, rounds alternating the four.
# It needs the library of 260178b / e38a6d3 (main went back to the central barrier in 5f539cc; barrier-variants.patch,
# `git apply` from the repository root, puts the four variants back). It NEVER RAN: no machine could be started.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session63/job3.sh <revision> [<rounds>]
. bench/gpujob.sh job3 "$1"
M=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
for round in $(seq 1 ${2:-3}); do
  for b in 0 1 2 3; do
    o=$r/order-b$b-$round
    timeout 90 build/bench/bench_order -matrices $M -orderings gpurcm@threads:16 -reps 9 -cusolver_max_nnz 0 -csv $o.csv $dll -mat_gpurcm_threads_barrier_experiment $b > $o.txt 2>&1
    echo "round $round barrier $b exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.txt | awk '{printf " %s", $2}') min:$(grep -hE '^  gpurcm' $o.txt | sed 's/.*(min \([0-9.]*\).*/\1/' | tr '\n' ' ')"
  done
done
# barrier_micro.c with the flags barrier and skewed arrivals (each thread's work 0-1.5x work, varying per barrier)
cc -O2 -pthread bench/results/2026-12-07-GPU-session63/barrier_micro.c -o /tmp/barrier_micro
for w in 0 300 1000; do for k in 0 1; do timeout 20 /tmp/barrier_micro 16 50000 $w 4 $k; done; done > $r/barrier.txt 2>&1
cat $r/barrier.txt
