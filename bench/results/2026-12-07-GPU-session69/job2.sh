#!/bin/bash
# session 69, job 2: (1) levelcost.cu (issue 3: a narrow BFS level's chain, phase by phase, and variants: ELL rows,
# claims together, rows prefetched by the claimer, waiting blocks spinning or sleeping), about 20 s; (2) the complete
# make check with the library that landed spin-helpers.patch (the last complete GPU run was session 65's).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session69/job2.sh <revision>
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"
(. .gpu/setup.sh && nvcc -O3 -arch=sm_90 -o /tmp/levelcost bench/results/2026-12-07-GPU-session69/levelcost.cu && timeout 60 /tmp/levelcost 1000 > $out/levelcost.txt 2>&1; echo "levelcost exit $?"; cat $out/levelcost.txt)
. bench/gpujob.sh job2 "$1"
timeout 300 make check TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
