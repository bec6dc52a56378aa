#!/bin/bash
# session 64, job 2 (issue 3): (1) every gpurcm test at this revision (36b8b18: the threads backend's column IS copied
# by its pool; the library otherwise session 63's, the profile line split by pass); (2) that copy against the code
# before it (before-copy.patch = `git diff 42a03e2 36b8b18~1 -- src`, built in this job; run it at 42a03e2 or later with the same src), 16 threads on the 1M-row
# meshes, rounds alternated; (3) the -DGPURCM_PROFILE build on the meshes at 16 threads: per pass (root finder, numbering) its
# levels' share of the ordering and, per barrier and thread, work, wait, skew and the wait after the last arrival;
# (3) only when the third argument (default `profile`) names `profile`; (4) with `blocks` in it, the root finder's ownership blocks (-mat_gpurcm_owner_blocks 1, 2, 4) on the
# 2D meshes, same build.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session64/job2.sh <revision> [<rounds> [profile|blocks|profile,blocks|none]]
S=bench/results/2026-12-07-GPU-session64
. bench/gpujob.sh job2 "$1"
gpujob_base $S/before-copy.patch
X=${3:-profile}
case $X in *profile*|*blocks*) make -j16 lib CFLAGS=-DGPURCM_PROFILE BUILD=$PWD/build-prof > $r/prof-build.log 2>&1 || { tail -n 20 $r/prof-build.log; echo "no profile library"; } ;; esac
P="-dll_append $PWD/build-prof/lib/libpetscsparsegpu.so"
timeout 150 make check TESTS='gpurcm' TESTARGS="--timeout 120 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 5
M=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
for round in $(seq 1 ${2:-3}); do # (the 1M-row meshes only: device time)
  for lib in copy before; do
    L=$dll; [ $lib = before ] && L="-dll_append /tmp/base/build/lib/libpetscsparsegpu.so"
    o=$r/order-$lib-$round
    timeout 90 build/bench/bench_order -matrices lap2d:1000,lap3d:100 -orderings gpurcm@threads:16 -reps 9 -cusolver_max_nnz 0 -csv $o.csv $L > $o.txt 2>&1
    echo "round $round $lib exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.txt | awk '{printf " %s", $2}') min:$(grep -hE '^  gpurcm' $o.txt | sed 's/.*(min \([0-9.]*\).*/\1/' | tr '\n' ' ') first:$(grep -hE '^  gpurcm' $o.txt | sed 's/.*first call \([0-9.]*\).*/\1/' | tr '\n' ' ')"
  done
done
summary() { echo "== $(basename $1)"; grep -E "^lap|GPURCM_PROFILE threads" $1 | awk '/^lap/ {print; k=0; next} {k++; if (k == 11 || k == 12) print}'; }
case $X in *profile*)
  timeout 100 build/bench/bench_order -matrices $M -orderings gpurcm@threads:16 -reps 5 -cusolver_max_nnz 0 $P > $r/profile-16.txt 2>&1
  echo "profile exit $? at $SECONDS s"; summary $r/profile-16.txt ;; esac
case $X in *blocks*)
  for ob in 1 2 4; do
    timeout 60 build/bench/bench_order -matrices lap2d:1000,lap2d:2000 -orderings gpurcm@threads:16 -reps 5 -cusolver_max_nnz 0 $P -mat_gpurcm_owner_blocks $ob > $r/blocks-$ob.txt 2>&1
    echo "owner blocks $ob exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $r/blocks-$ob.txt | awk '{printf " %s", $2}')"; summary $r/blocks-$ob.txt
  done ;; esac
