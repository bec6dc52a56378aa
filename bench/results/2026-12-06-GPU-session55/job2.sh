#!/bin/bash
# session 55, job 2: the permutation's host arrays (GPURCMHostPerm): their pages mapped on a thread while the GPU
# orders, the column IS's copy made by threads. Every gpurcm test, then bench_order against the parent commit built in
# the same job (to-base.patch), new and base alternated twice, cuda and 16 threads; rcm once; the -info stage trace.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session55/job2.sh <revision> [<s>]
. bench/gpujob.sh job2 "$1"
B=${2:-300}
timeout 80 make check TESTS='gpurcm' TESTARGS="--timeout 70 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 6
gpujob_base bench/results/2026-12-06-GPU-session55/to-base.patch
M=lap3d:100,lap3d:160,lap3d27:100,lap2d:1000
for round in 1 2; do
  for v in new base; do
    L=$PWD/build/lib/libpetscsparsegpu.so; [ $v = base ] && L=/tmp/base/build/lib/libpetscsparsegpu.so
    [ -f $L ] && [ $SECONDS -lt $((B - 40)) ] || continue
    timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@cuda,gpurcm@threads:16 -reps 7 -csv $r/order-$v-r$round.csv -dll_append $L > $r/order-$v-r$round.txt 2>&1
    echo "order $v r$round exit $? at $SECONDS s"; grep -h "^  gpurcm" $r/order-$v-r$round.txt | cut -c1-100
  done
done
[ $SECONDS -lt $((B - 40)) ] && timeout 40 build/bench/bench_order -matrices lap3d:100,lap2d:1000 -orderings rcm -reps 5 -csv $r/order-rcm.csv $dll > $r/order-rcm.txt 2>&1
grep -h "^  rcm" $r/order-rcm.txt | cut -c1-100
[ $SECONDS -lt $((B - 20)) ] && timeout 20 build/bench/bench_order -matrices lap3d:100,lap3d:160 -orderings gpurcm@cuda -reps 3 -info :sys $dll > $r/info-new.txt 2>&1
grep -h "TraceReport" $r/info-new.txt | tail -n 2 | cut -c1-330
