#!/bin/bash
# session 67, job 3 (issue 3): the counting grid barrier at the end of a wide level (GPURCMLvCountBarrier) in place of
# job 2's all-gather barrier. (1) every gpurcm test; (2) 2 alternated rounds of this revision ("count") and session
# 66's final library (before3.patch = git diff HEAD 5193572 -- src), on 2D 1000^2, 3D 100^3, 2D 2000^2 and 3000^2
# (job 2 compared the gather library with the same baseline; gather.patch = git diff HEAD 36bc758 -- src is kept for
# a later A/B: this job was cut to fit the session's device time).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session67/job3.sh <revision>
. bench/gpujob.sh job3 "$1"
d=bench/results/2026-12-07-GPU-session67
gpujob_base $d/before3.patch
timeout 150 make check TESTS='gpurcm' TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "gpurcm tests exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
m="-matrices lap2d:1000,lap3d:100,lap2d:2000,lap2d:3000 -orderings gpurcm@cuda -reps 7 -cusolver_max_nnz 0"
for round in 1 2; do
  for k in count before; do
    case $k in count) lib=$PWD/build/lib/libpetscsparsegpu.so;; before) lib=/tmp/base/build/lib/libpetscsparsegpu.so;; gather) lib=/tmp/gather/build/lib/libpetscsparsegpu.so;; esac
    o=$r/ab-$k-$round
    timeout 60 build/bench/bench_order $m -csv $o.csv -dll_append $lib > $o.txt 2>&1
    echo "round $round $k exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.txt | awk '{printf " %s", $2}')"
  done
done
echo "done at $SECONDS s"
