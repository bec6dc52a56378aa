#!/bin/bash
# session 66, job 1 (issue 3): where the cuda backend loses time on large 2D meshes. The final library with existing
# options only (session 65's job4.sh, never run): numbering levels/batch, narrow 1024/2048/4096, fit warps, the BFS
# bitmap off, on 2D 1000^2/2000^2/4000^2; then the -info stage trace and a -DGPURCM_PROFILE build (block 0's cycles a
# level by level size) on 2D 1000^2 (bitmap and claim tables fit) and 2000^2 (they do not).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session66/job1.sh <revision>
. bench/gpujob.sh job1 "$1"
k=0
for o in "" "-mat_gpurcm_cuda_number levels" "-mat_gpurcm_cuda_number batch" "-mat_gpurcm_cuda_narrow 2048" "-mat_gpurcm_cuda_narrow 4096" "-mat_gpurcm_cuda_fit_warps 1" "-mat_gpurcm_cuda_bitmap 0"; do
  k=$((k+1))
  timeout 90 build/bench/bench_order -matrices lap2d:1000,lap2d:2000,lap2d:4000 -orderings gpurcm@cuda -reps 5 -cusolver_max_nnz 0 $dll $o > $r/opt-$k.txt 2>&1
  echo "[$o] exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $r/opt-$k.txt | awk '{printf " %s", $2}')"
done
for m in 1000 2000; do
  timeout 60 build/bench/bench_order -matrices lap2d:$m -orderings gpurcm@cuda -reps 3 -cusolver_max_nnz 0 $dll -info > $r/info-$m.txt 2>&1
  echo "== info $m exit $?"; grep -E "gpurcm cuda" $r/info-$m.txt | sort | uniq -c | sort -rn | head -n 24 | cut -c1-230
done
rm -rf /tmp/prof; mkdir -p /tmp/prof
tar cf - --exclude=./build --exclude=./.gpu --exclude="./gpu-*" . | tar xf - -C /tmp/prof
(cd /tmp/prof && make -j16 lib CUDAFLAGS=-DGPURCM_PROFILE > $r/prof-build.log 2>&1) || tail -n 20 $r/prof-build.log
for m in 1000 2000; do
  timeout 60 build/bench/bench_order -matrices lap2d:$m -orderings gpurcm@cuda -reps 1 -warmup 0 -cusolver_max_nnz 0 -dll_append /tmp/prof/build/lib/libpetscsparsegpu.so > $r/prof-$m.txt 2>&1
  echo "== profile $m exit $?"; grep GPURCM_PROFILE $r/prof-$m.txt | sort | uniq -c | head -n 40 | cut -c1-200
done
echo "done at $SECONDS s"
