#!/bin/bash
# session 69, job 3: job 2's first part alone (device time was short after failed starts): levelcost.cu, a narrow BFS
# level's chain phase by phase and its variants (issue 3), about 20 s after the machine's start.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session69/job3.sh
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"
. .gpu/setup.sh
nvidia-smi -L
nvcc -O3 -arch=sm_90 -o /tmp/levelcost bench/results/2026-12-07-GPU-session69/levelcost.cu && timeout 60 /tmp/levelcost 1000 > $out/levelcost.txt 2>&1
echo "levelcost exit $?"; cat $out/levelcost.txt
