#!/bin/bash
# session 65, job 4 (issue 3, information for the next session): the cuda backend on large 2D meshes, whose narrow
# levels do not get block 0's shared-memory bitmap (it holds up to about 1.4M nodes) and whose middle levels are wider
# than the default narrow limit (1024). Existing options only, the final library: numbering batch/levels, narrow
# 1024/2048/4096, fit warps; and the -info stage trace of the default on 2D 2000^2.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session65/job4.sh <revision>
. bench/gpujob.sh job4 "$1"
k=0
for o in "" "-mat_gpurcm_cuda_number levels" "-mat_gpurcm_cuda_number batch" "-mat_gpurcm_cuda_narrow 2048" "-mat_gpurcm_cuda_narrow 4096" "-mat_gpurcm_cuda_narrow 4096 -mat_gpurcm_cuda_number levels" "-mat_gpurcm_cuda_fit_warps 1"; do
  k=$((k+1))
  timeout 60 build/bench/bench_order -matrices lap2d:1000,lap2d:2000,lap2d:4000 -orderings gpurcm@cuda -reps 5 -cusolver_max_nnz 0 $dll $o > $r/opt-$k.txt 2>&1
  echo "[$o] exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $r/opt-$k.txt | awk '{printf " %s", $2}')"
done
timeout 60 build/bench/bench_order -matrices lap2d:2000 -orderings gpurcm@cuda -reps 3 -cusolver_max_nnz 0 $dll -info :mat > $r/info-2000.txt 2>&1
grep -E "gpurcm cuda" $r/info-2000.txt | sort | uniq -c | sort -rn | head -n 30 | cut -c1-200
