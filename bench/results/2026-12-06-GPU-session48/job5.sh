#!/bin/bash
# session 48, job 5 (one GPU host): the cuda backend's Cuthill-McKee numbering on meshes with wide levels (issue 3:
# 3D 100^3's numbering is about 4.8 of its 11 ms; auto takes the batches there). Variants, alternated, two rounds:
# auto (default), the level numbering (-mat_gpurcm_cuda_number levels, narrow 1024 and 4096), the batches with 32 and
# 128 thread blocks (-mat_gpurcm_cuda_batch_blocks; auto: 4 + 4 per 512 nodes of the widest level); -info traces.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session48/job5.sh <revision> [<s>]
. bench/gpujob.sh job5 "$1"
B=${2:-200}
M=lap3d:100,lap3d27:100,lap3d:160,lap2d:1000
V=("auto|" "levels|-mat_gpurcm_cuda_number levels" "levels4096|-mat_gpurcm_cuda_number levels -mat_gpurcm_cuda_narrow 4096" "batch32|-mat_gpurcm_cuda_number batch -mat_gpurcm_cuda_batch_blocks 32" "batch128|-mat_gpurcm_cuda_number batch -mat_gpurcm_cuda_batch_blocks 128")
for round in 1 2; do
  for v in "${V[@]}"; do
    tag=${v%%|*}; opt=${v#*|}
    [ $SECONDS -gt $((B - 30)) ] && { echo "skipping $tag r$round at $SECONDS s"; continue; }
    timeout 40 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 5 $opt -csv $r/num-$tag-r$round.csv $dll > $r/num-$tag-r$round.txt 2>&1
    echo "== $tag r$round (exit $?, $SECONDS s)"; grep -h "gpurcm@cuda" $r/num-$tag-r$round.txt
  done
done
for v in "${V[@]:0:2}"; do
  tag=${v%%|*}; opt=${v#*|}
  timeout 30 build/bench/bench_order -matrices lap3d:100,lap3d:160 -orderings gpurcm@cuda -reps 2 $opt -info $dll 2>&1 | grep "stages in us" > $r/trace-$tag.txt
  echo "$tag trace:"; cut -c1-250 $r/trace-$tag.txt
done
