#!/bin/bash
# session 69, job 4: levelcost2.cu (issue 3): the lean one-block BFS level of job 3 with the library's extras added one
# at a time (the heavy-node test's barrier, the global stores, one more barrier), about 20 s after the machine's start.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session69/job4.sh
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"
. .gpu/setup.sh
nvidia-smi -L
nvcc -O3 -arch=sm_90 -o /tmp/levelcost2 bench/results/2026-12-07-GPU-session69/levelcost2.cu && timeout 60 /tmp/levelcost2 1000 > $out/levelcost2.txt 2>&1
echo "levelcost2 exit $?"; cat $out/levelcost2.txt
