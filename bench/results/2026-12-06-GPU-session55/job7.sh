#!/bin/bash
# session 55, job 7: the staged download into both ISes' arrays. Every gpurcm test; bench_order against 53fc2aa (the
# driver's download, then a copy by threads) built in the same job, new and base alternated twice; the -info trace.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session55/job7.sh <revision> [<s>]
. bench/gpujob.sh job7 "$1"
B=${2:-200}
timeout 80 make check TESTS='gpurcm' TESTARGS="--timeout 70 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 6
gpujob_base bench/results/2026-12-06-GPU-session55/to-53fc2aa.patch
M=lap3d:100,lap3d:160,lap3d27:100,lap2d:1000,lap2d:2000
for round in 1 2; do
  for v in new base; do
    L=$PWD/build/lib/libpetscsparsegpu.so; [ $v = base ] && L=/tmp/base/build/lib/libpetscsparsegpu.so
    [ -f $L ] && [ $SECONDS -lt $((B - 25)) ] || continue
    timeout 40 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 9 -csv $r/order-$v-r$round.csv -dll_append $L > $r/order-$v-r$round.txt 2>&1
    echo "order $v r$round exit $? at $SECONDS s"; grep -h "^  gpurcm" $r/order-$v-r$round.txt | cut -c1-100
  done
done
[ $SECONDS -lt $((B - 12)) ] && timeout 12 build/bench/bench_order -matrices lap3d:100,lap3d:160 -orderings gpurcm@cuda -reps 3 -info :sys $dll > $r/info-new.txt 2>&1
grep -h "TraceReport" $r/info-new.txt | sed 's/.*upload/upload/' | cut -c1-200
