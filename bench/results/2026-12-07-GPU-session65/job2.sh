#!/bin/bash
# session 65, job 2 (issue 3): the level numbering instantiated for rows of at most 4 entries (4bf72b0). (1) every
# gpurcm test; (2) A/B against the code before it (before-width4.patch = `git diff 4bf72b0 4bf72b0~1 -- src`), cuda,
# rounds alternated, on 2D meshes (the <4> instantiation), 3D 7-point and 27-point (the <8> one, whose spills grew);
# (3) -DGPURCM_PROFILE builds of both: cycles per narrow numbering level by level size.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session65/job2.sh <revision> [<rounds>]
S=bench/results/2026-12-07-GPU-session65
. bench/gpujob.sh job2 "$1"
gpujob_base $S/before-width4.patch
timeout 150 make check TESTS='gpurcm' TESTARGS="--timeout 120 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 5
line() { echo "$1 exit $2 at $SECONDS s:$(grep -hE '^  (gpurcm|rcm)' $3 | awk '{printf " %s", $2}') min:$(grep -hE '^  (gpurcm|rcm)' $3 | sed 's/.*(min \([0-9.]*\).*/\1/' | tr '\n' ' ')"; }
M=lap2d:1000,lap2d:500,lap2d:2000,lap3d:100,lap3d27:100,lap3d:160
for round in $(seq 1 ${2:-3}); do
  for lib in width4 before; do
    L=$dll; [ $lib = before ] && L="-dll_append /tmp/base/build/lib/libpetscsparsegpu.so"
    o=$r/cuda-$lib-$round
    timeout 120 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 9 -cusolver_max_nnz 0 -csv $o.csv $L > $o.txt 2>&1; line "cuda round $round $lib" $? $o.txt
  done
done
(make -j16 lib CFLAGS=-DGPURCM_PROFILE BUILD=$PWD/build-prof && make -C /tmp/base -j16 lib CFLAGS=-DGPURCM_PROFILE BUILD=/tmp/base/build-prof) > $r/prof-build.log 2>&1 || { tail -n 20 $r/prof-build.log; echo "no profile libraries"; }
for lib in width4 before; do
  L=$PWD/build-prof/lib/libpetscsparsegpu.so; [ $lib = before ] && L=/tmp/base/build-prof/lib/libpetscsparsegpu.so
  timeout 60 build/bench/bench_order -matrices lap2d:1000,lap3d:100 -orderings gpurcm@cuda -reps 3 -cusolver_max_nnz 0 -dll_append $L > $r/profile-$lib.txt 2>&1
  echo "profile $lib exit $? at $SECONDS s"; grep -E "^lap|numbering \(shared tables\) levels of (0-63|448-511|960-1023)" $r/profile-$lib.txt | sort | uniq -c | head -n 12
done
