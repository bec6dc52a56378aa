#!/bin/bash
# session 54, job 4 (prepared, NOT run: too little device time was left; for the next session): the final code (two ISes again, 5bd0104): every gpurcm test (the new
# reordering check among them), then one round of bench_order against 9ea8b05 built in the same job, new and base
# alternated twice on 3D meshes and 2D 1000².
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session54/job4.sh <revision> [<s>]
. bench/gpujob.sh job4 "$1"
B=${2:-120}
timeout 80 make check TESTS='gpurcm' TESTARGS="--timeout 70 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 6
[ $SECONDS -lt $((B - 40)) ] && gpujob_base bench/results/2026-12-06-GPU-session54/to-9ea8b05.patch
for round in 1 2; do
  for v in new base; do
    L=$PWD/build/lib/libpetscsparsegpu.so; [ $v = base ] && L=/tmp/base/build/lib/libpetscsparsegpu.so
    [ -f $L ] && [ $SECONDS -lt $((B - 8)) ] || continue
    timeout 30 build/bench/bench_order -matrices lap3d:100,lap3d:160,lap2d:1000 -orderings gpurcm@cuda -reps 7 -csv $r/order-$v-r$round.csv -dll_append $L > $r/order-$v-r$round.txt 2>&1
    echo "order $v r$round exit $? at $SECONDS s"; grep -h "^  gpurcm" $r/order-$v-r$round.txt | cut -c1-110
  done
done
# the host time outside the traced GPU stages (end to end minus the trace's total: the two ISes among it)
[ $SECONDS -lt $((B - 5)) ] && timeout 20 build/bench/bench_order -matrices lap3d:100,lap3d:160 -orderings gpurcm@cuda -reps 3 -info :sys $dll > $r/info-new.txt 2>&1
grep -h "total" $r/info-new.txt | tail -n 2 | cut -c1-300
