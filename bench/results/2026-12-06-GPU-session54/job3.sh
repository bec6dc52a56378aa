#!/bin/bash
# session 54, job 3 (one GPU host, 16 cores): every gpurcm, tutorial and PETSc-example test with the session's final
# library code (the new ICC/Cholesky ex2 tests with cuda among them; device time left for no complete suite: it last
# ran in session 51); then, if time is left, gpurcm cuda's first call in a fresh process (what an application that
# orders once pays), one process per mesh, new against 9ea8b05 built in the same job, 2 rounds alternated.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session54/job3.sh <revision> [<s>]
. bench/gpujob.sh job3 "$1"
B=${2:-540}
timeout 200 make check TESTS='gpurcm|tutorials|petsc_examples' TESTARGS="--timeout 150 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
[ $SECONDS -lt $((B - 90)) ] && gpujob_base bench/results/2026-12-06-GPU-session54/to-9ea8b05.patch
for round in 1 2; do
  for v in new base; do
    L=$PWD/build/lib/libpetscsparsegpu.so; [ $v = base ] && L=/tmp/base/build/lib/libpetscsparsegpu.so
    [ -f $L ] || continue
    for m in lap3d:100 lap2d:1000 lap3d:160 lap2d:2000; do
      [ $SECONDS -gt $((B - 15)) ] && continue
      timeout 30 build/bench/bench_order -matrices $m -orderings gpurcm@cuda -reps 3 -csv $r/first-$v-r$round-${m/:/_}.csv -dll_append $L > $r/first-$v-r$round-${m/:/_}.txt 2>&1
      echo "first $v r$round $m exit $? at $SECONDS s: $(grep -h "^  gpurcm" $r/first-$v-r$round-${m/:/_}.txt | cut -c1-110)"
    done
  done
done
