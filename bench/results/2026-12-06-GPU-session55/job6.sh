#!/bin/bash
# session 55, job 6: the final code. The complete test suite; the first call of a fresh process against 46ab510 (the
# kernels loaded at their launches) built in the same job, 6 processes each alternated, 3D 100³ and 2D 1000²; then
# gpurcm beside its peers in one command (issue 3's table).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session55/job6.sh <revision> [<s>]
. bench/gpujob.sh job6 "$1"
B=${2:-560}
timeout 300 make check TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
gpujob_base bench/results/2026-12-06-GPU-session55/to-46ab510.patch
for m in lap3d:100 lap2d:1000; do
  for k in 1 2 3 4 5 6; do
    for v in new base; do
      L=$PWD/build/lib/libpetscsparsegpu.so; [ $v = base ] && L=/tmp/base/build/lib/libpetscsparsegpu.so
      [ -f $L ] && [ $SECONDS -lt $((B - 150)) ] || continue
      timeout 20 build/bench/bench_order -matrices $m -orderings gpurcm@cuda -reps 3 -csv $r/first-$m-$v-$k.csv -dll_append $L > $r/first-$m-$v-$k.txt 2>&1
      echo "$m $v $k: $(grep -h '^  gpurcm' $r/first-$m-$v-$k.txt | sed 's/.*first call \([0-9.]*\)).*/\1/')"
    done
  done
done
[ $SECONDS -lt $((B - 100)) ] && timeout $((B - SECONDS - 5)) build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160 -orderings rcm,gpurcm@cuda,gpurcm@threads:16,gpurcm@threads:4,gpurcm@serial,cusolver_rcm -reps 5 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "peers exit $? at $SECONDS s"; grep -E "^[a-z0-9_]+:|^  (rcm|gpurcm|cusolver)" $r/order.txt | cut -c1-110
