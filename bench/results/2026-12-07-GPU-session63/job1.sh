#!/bin/bash
# session 63, job 1: the complete GPU suite at session 62's final code (6f4f76d's cuda hand-back never ran on a GPU),
# the host's CPU (lscpu), and barrier_micro.c: what one level's barrier costs 16 threads (the central counter of the
# threads backend against a combining tree and a butterfly), and the threads backend's 2D/3D mesh times for reference.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session63/job1.sh <revision>
S=bench/results/2026-12-07-GPU-session63
. bench/gpujob.sh job1 "$1"
lscpu > $r/lscpu.txt 2>&1; grep -E "Model name|Socket|NUMA node\(|Thread" $r/lscpu.txt
cc -O2 -pthread $S/barrier_micro.c -o /tmp/barrier_micro
for w in 0 100 1000; do for f in 2 4 8; do timeout 20 /tmp/barrier_micro 16 100000 $w $f; done; done > $r/barrier.txt 2>&1
timeout 20 /tmp/barrier_micro 8 100000 0 2 >> $r/barrier.txt 2>&1
cat $r/barrier.txt
timeout 60 build/bench/bench_order -matrices lap2d:1000,lap3d:100 -orderings gpurcm@threads:16,gpurcm@serial -reps 7 -cusolver_max_nnz 0 $dll > $r/order-threads.txt 2>&1
echo "order exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $r/order-threads.txt | awk '{printf " %s", $2}')"
timeout 330 make check TESTARGS="--timeout 200 --jobs 14" > $r/check.log 2>&1
echo "complete check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
