#!/bin/bash
# session 67, job 3 (issue 3): the counting grid barrier at the end of a wide level (GPURCMLvCountBarrier) in place of
# job 2's all-gather barrier. Ordered for little device time: (1) every gpurcm test; (2) two runs of this revision
# ("count") on 2D 1000^2, 3D 100^3, 2D 2000^2 and 3000^2; (3) if time is left, session 66's final library
# (before3.patch = git diff HEAD 5193572 -- src) built and run once, then count once more. gather.patch (git diff HEAD
# 36bc758 -- src, job 2's gather library) is kept for a later A/B.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session67/job3.sh <revision>
. bench/gpujob.sh job3 "$1"
d=bench/results/2026-12-07-GPU-session67
timeout 150 make check TESTS='gpurcm' TESTARGS="--jobs 15" > $r/check.log 2>&1
echo "gpurcm tests exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
m="-matrices lap2d:1000,lap3d:100,lap2d:2000,lap2d:3000 -orderings gpurcm@cuda -reps 7 -cusolver_max_nnz 0"
run() { o=$r/ab-$1-$2; timeout 60 build/bench/bench_order $m -csv $o.csv -dll_append $3 > $o.txt 2>&1; echo "$1 $2 exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.txt | awk '{printf " %s", $2}')"; }
run count 1 $PWD/build/lib/libpetscsparsegpu.so
run count 2 $PWD/build/lib/libpetscsparsegpu.so
gpujob_base $d/before3.patch
run before 1 /tmp/base/build/lib/libpetscsparsegpu.so
run count 3 $PWD/build/lib/libpetscsparsegpu.so
run before 2 /tmp/base/build/lib/libpetscsparsegpu.so
echo "done at $SECONDS s"
