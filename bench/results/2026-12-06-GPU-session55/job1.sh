#!/bin/bash
# session 55, job 1: the complete test suite on the GPU (last complete run: session 51), then session 54's job 4:
# the final gpurcm code (two ISes) end to end against 9ea8b05 built in the same job, new and base alternated twice,
# and the -info stage trace.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session55/job1.sh <revision> [<s>]
. bench/gpujob.sh job1 "$1"
B=${2:-540}
timeout 330 make check TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
[ $SECONDS -lt $((B - 100)) ] && gpujob_base bench/results/2026-12-06-GPU-session55/to-9ea8b05.patch
for round in 1 2; do
  for v in new base; do
    L=$PWD/build/lib/libpetscsparsegpu.so; [ $v = base ] && L=/tmp/base/build/lib/libpetscsparsegpu.so
    [ -f $L ] && [ $SECONDS -lt $((B - 30)) ] || continue
    timeout 30 build/bench/bench_order -matrices lap3d:100,lap3d:160,lap2d:1000 -orderings gpurcm@cuda -reps 7 -csv $r/order-$v-r$round.csv -dll_append $L > $r/order-$v-r$round.txt 2>&1
    echo "order $v r$round exit $? at $SECONDS s"; grep -h "^  gpurcm" $r/order-$v-r$round.txt | cut -c1-110
  done
done
[ $SECONDS -lt $((B - 20)) ] && timeout 20 build/bench/bench_order -matrices lap3d:100,lap3d:160 -orderings gpurcm@cuda -reps 3 -info :sys $dll > $r/info-new.txt 2>&1
grep -h "total" $r/info-new.txt | tail -n 2 | cut -c1-300
