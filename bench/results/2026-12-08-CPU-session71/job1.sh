#!/bin/bash
# session 71, job 1: the micro-benchmarks, session 69's levelcost2.cu and numbercost.cu (session 70's job 3) and
# numbercost2.cu (this folder: numbercost.cu with the parents' rows prefetched into shared memory while the level
# claims), then session 70's job 2 (the complete make check, then gpurcm beside all its peers) in what is left of
# <seconds> (default 560).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-08-CPU-session71/job1.sh <revision> [<seconds>]
T=${2:-560}
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"
. .gpu/setup.sh
for f in bench/results/2026-12-07-GPU-session69/numbercost.cu bench/results/2026-12-08-CPU-session71/numbercost2.cu bench/results/2026-12-07-GPU-session69/levelcost2.cu; do
  b=$(basename $f .cu)
  nvcc -O3 -arch=sm_90 -o /tmp/$b $f && timeout 40 /tmp/$b 1000 > $out/$b.txt 2>&1; echo "$b exit $? at $SECONDS s"; cat $out/$b.txt
done
# job 2's budget counts from after its build (about 50 s)
bash bench/results/2026-12-07-GPU-session70/job2.sh "$1" $((T - SECONDS - 60))
