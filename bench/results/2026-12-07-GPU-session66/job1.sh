#!/bin/bash
# session 66, job 1 (issue 3): the level tables (-mat_gpurcm_cuda_level_tables), block 0's shared-memory hash tables of
# the last four levels where the bitmap of all n nodes does not fit (2D 2000^2 and larger).
# (1) every gpurcm test (the new level-table tests included); (2) A/B against the library before them (before.patch,
# built in this job), 2 alternated rounds, on 2D 1000^2 (bitmap: the code path only) and 2000^2/4000^2, 3D 160^3
# (tables); (3) the new library with narrow 2048/4096 and the level numbering on the large 2D meshes; (4) the -info
# stage trace and a -DGPURCM_PROFILE build (block 0's cycles a level by level size) on 2D 2000^2.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session66/job1.sh <revision>
. bench/gpujob.sh job1 "$1"
gpujob_base bench/results/2026-12-07-GPU-session66/before.patch
timeout 200 make check TESTS='gpurcm' TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "gpurcm tests exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
gpujob_ab ab 2 tables $PWD/build/lib/libpetscsparsegpu.so before /tmp/base/build/lib/libpetscsparsegpu.so -matrices lap2d:1000,lap2d:2000,lap2d:4000,lap3d:160 -orderings gpurcm@cuda -reps 5 -cusolver_max_nnz 0
k=0
for o in "-mat_gpurcm_cuda_narrow 2048" "-mat_gpurcm_cuda_narrow 4096" "-mat_gpurcm_cuda_number levels" "-mat_gpurcm_cuda_narrow 2048 -mat_gpurcm_cuda_number batch" "-mat_gpurcm_cuda_level_tables 0"; do
  k=$((k+1))
  timeout 90 build/bench/bench_order -matrices lap2d:2000,lap2d:4000 -orderings gpurcm@cuda -reps 5 -cusolver_max_nnz 0 $dll $o > $r/opt-$k.txt 2>&1
  echo "[$o] exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $r/opt-$k.txt | awk '{printf " %s", $2}')"
done
timeout 60 build/bench/bench_order -matrices lap2d:2000 -orderings gpurcm@cuda -reps 3 -cusolver_max_nnz 0 $dll -info > $r/info-2000.txt 2>&1
echo "== info exit $?"; grep -E "gpurcm cuda" $r/info-2000.txt | sort | uniq -c | sort -rn | head -n 24 | cut -c1-230
rm -rf /tmp/prof; mkdir -p /tmp/prof
tar cf - --exclude=./build --exclude=./.gpu --exclude="./gpu-*" . | tar xf - -C /tmp/prof
(cd /tmp/prof && make -j16 lib CUDAFLAGS=-DGPURCM_PROFILE > $r/prof-build.log 2>&1) || tail -n 20 $r/prof-build.log
for o in "" "-mat_gpurcm_cuda_level_tables 0" "-mat_gpurcm_cuda_narrow 2048"; do
  timeout 60 build/bench/bench_order -matrices lap2d:2000 -orderings gpurcm@cuda -reps 1 -warmup 0 -cusolver_max_nnz 0 -dll_append /tmp/prof/build/lib/libpetscsparsegpu.so $o > $r/prof.txt 2>&1
  echo "== profile [$o] exit $?"; grep GPURCM_PROFILE $r/prof.txt | sort | uniq -c | head -n 40 | cut -c1-200
done
echo "done at $SECONDS s"
