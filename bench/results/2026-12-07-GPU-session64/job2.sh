#!/bin/bash
# session 64, job 2: (1) every gpurcm test at this revision (the library of session 63 again after job 1's revert, with
# the profile line split by pass); (2) the -DGPURCM_PROFILE build on the meshes at 16 and 8 threads: per pass (root
# finder, numbering) its levels' share of the ordering and, per barrier and thread, work, wait, skew and the wait after
# the last arrival; (3) the root finder's ownership blocks (-mat_gpurcm_owner_blocks 1, 2, 4) on the 2D meshes, same build.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session64/job2.sh <revision>
. bench/gpujob.sh job2 "$1"
make -j16 lib CFLAGS=-DGPURCM_PROFILE BUILD=$PWD/build-prof > $r/prof-build.log 2>&1 || { tail -n 20 $r/prof-build.log; echo "no profile library"; }
P="-dll_append $PWD/build-prof/lib/libpetscsparsegpu.so"
timeout 150 make check TESTS='gpurcm' TESTARGS="--timeout 120 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 5
M=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
for th in 16 8; do
  timeout 100 build/bench/bench_order -matrices $M -orderings gpurcm@threads:$th -reps 5 -cusolver_max_nnz 0 $P > $r/profile-$th.txt 2>&1
  echo "profile $th threads exit $? at $SECONDS s"
done
for ob in 1 2 4; do
  timeout 60 build/bench/bench_order -matrices lap2d:1000,lap2d:2000 -orderings gpurcm@threads:16 -reps 5 -cusolver_max_nnz 0 $P -mat_gpurcm_owner_blocks $ob > $r/blocks-$ob.txt 2>&1
  echo "owner blocks $ob exit $? at $SECONDS s"
done
for f in $r/profile-16.txt $r/profile-8.txt $r/blocks-*.txt; do echo "== $(basename $f)"; grep -E "^lap|GPURCM_PROFILE threads|^  gpurcm" $f | sed 's/identical to rcm: yes//' | awk '/^lap|^  gpurcm/ || (++c[$0 ~ /root/] % 5 == 0)'; done
