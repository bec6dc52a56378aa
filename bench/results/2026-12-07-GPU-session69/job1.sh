#!/bin/bash
# session 69, job 1 (issue 3): (1) the cluster micro-benchmark (clusterbfs.cu: the narrow levels of a 2D mesh's BFS
# on one block against clusters of 2-16 blocks), about 30 s; (2) session 68's job 6 (the spinning waits and helpers of
# spin-helpers.patch: tests, compute-sanitizer, A/B against the landed library, the narrow sweep, all peers).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session69/job1.sh <revision> [<seconds>]
t0=$(date +%s); B=${2:-560}
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"
. .gpu/setup.sh
nvidia-smi -L
nvcc -O3 -arch=sm_90 -o /tmp/clusterbfs bench/results/2026-12-07-GPU-session69/clusterbfs.cu && timeout 90 /tmp/clusterbfs 1000 2000 > $out/clusterbfs.txt 2>&1
echo "clusterbfs exit $? at $(( $(date +%s) - t0 )) s"; cat $out/clusterbfs.txt
bash bench/results/2026-12-07-GPU-session68/job6.sh "$1" $((B - ($(date +%s) - t0)))
