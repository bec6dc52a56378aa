#!/bin/bash
# session 70, job 3 (ready for the next session): session 69's micro-benchmarks that have not run. levelcost2.cu: the
# lean one-block BFS level of 2D 1000² with the library's extras added one at a time; numbercost.cu: a lean one-block
# Cuthill-McKee numbering of its levels (the library's: about 3.6 us a level, now 55% of the ordering), checked
# against a host Cuthill-McKee. About 60 s in all.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session70/job3.sh
d=bench/results/2026-12-07-GPU-session69
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"
. .gpu/setup.sh
for b in levelcost2 numbercost; do
  nvcc -O3 -arch=sm_90 -o /tmp/$b $d/$b.cu && timeout 60 /tmp/$b 1000 > $out/$b.txt 2>&1; echo "$b exit $?"; cat $out/$b.txt
done
