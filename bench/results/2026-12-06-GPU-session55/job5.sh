#!/bin/bash
# session 55, job 5: the two ISes made while the GPU orders (GPURCMEarlyIS). Every gpurcm test; -is_view (the old
# path) once; then bench_order against 04d36b4 (the same code with the ISes made after the download) built in the same
# job, new and base alternated twice; rcm once; the -info host-time lines.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session55/job5.sh <revision> [<s>]
. bench/gpujob.sh job5 "$1"
B=${2:-300}
timeout 80 make check TESTS='gpurcm' TESTARGS="--timeout 70 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 6
timeout 30 build/bench/bench_order -matrices lap2d:400 -orderings gpurcm@cuda -reps 1 -is_view $dll > $r/isview.txt 2>&1
echo "is_view exit $?: $(grep -c 'identical to rcm: yes' $r/isview.txt) identical, $(grep -c 'IS Object' $r/isview.txt) ISes viewed"
gpujob_base bench/results/2026-12-06-GPU-session55/to-04d36b4.patch
M=lap3d:100,lap3d:160,lap3d27:100,lap2d:1000,lap2d:2000
for round in 1 2; do
  for v in new base; do
    L=$PWD/build/lib/libpetscsparsegpu.so; [ $v = base ] && L=/tmp/base/build/lib/libpetscsparsegpu.so
    [ -f $L ] && [ $SECONDS -lt $((B - 40)) ] || continue
    timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 9 -csv $r/order-$v-r$round.csv -dll_append $L > $r/order-$v-r$round.txt 2>&1
    echo "order $v r$round exit $? at $SECONDS s"; grep -h "^  gpurcm" $r/order-$v-r$round.txt | cut -c1-100
  done
done
[ $SECONDS -lt $((B - 30)) ] && timeout 40 build/bench/bench_order -matrices lap3d:100,lap2d:1000 -orderings rcm -reps 5 -csv $r/order-rcm.csv $dll > $r/order-rcm.txt 2>&1
grep -h "^  rcm" $r/order-rcm.txt | cut -c1-100
[ $SECONDS -lt $((B - 20)) ] && timeout 20 build/bench/bench_order -matrices lap3d:100,lap3d:160 -orderings gpurcm@cuda -reps 3 -info :mat $dll > $r/info-new.txt 2>&1
grep -h "host time" $r/info-new.txt | cut -c40-260
