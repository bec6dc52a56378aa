#!/bin/bash
# session 45, job 2 (one GPU; session 44's job2.sh with a time guard): compute-sanitizer memcheck,
# racecheck and synccheck on the GPU refactorization with several chains a warp (-pc_subtree_ilu_cuda_refactor_lanes
# 16 and 8: group masks, width-16/8 shuffles, __syncwarp(mask), rows' structure in shared memory; never run under the
# sanitizer), on the default 32 lanes, and on the solve's scan with the cut (the NaN-pivot round).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-GPU-session45/job2.sh <revision>
. bench/gpujob.sh job2 "$1"
make build/tests/subtreeilu4 >> $r/build.log 2>&1 || { tail -n 20 $r/build.log; exit 1; }
M=$PWD/.gpu/matrices; total=0
cu="-mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda"
cases=(
  "-type ilu -levels 0 -ordering rcm -gen 2d -N 40 -matrices sherman1 $cu -st_pc_subtree_ilu_cuda_refactor_lanes 8"
  "-type icc -levels 0 -ordering rcm -gen 3d -N 14 -matrices bcsstk13 $cu -st_pc_subtree_ilu_cuda_refactor_lanes 16"
  "-type ilu -levels 1 -ordering rcm -gen 3d -N 12 -conv 0.2 -matrices sherman3 $cu -st_pc_subtree_ilu_cuda_refactor_lanes 8"
  "-type icc -levels 1 -gen 3d -N 12 $cu -st_pc_subtree_ilu_refactor_buffer 30 -st_pc_subtree_ilu_cuda_refactor_lanes 8"
  "-type ilu -levels 0 -gen 3d -N 14 $cu"
  "-type ilu -levels 0 -gen 2d -N 1,12 -conv 0.3 -matrices sherman1 $cu -nan_round"
)
for tool in racecheck memcheck synccheck; do
  i=0
  for c in "${cases[@]}"; do
    i=$((i+1)); [ $((total + SECONDS)) -gt 470 ] && { echo "## $tool $i skipped: time" >> $r/sanitizer.txt; continue; }
    echo "## $tool: subtreeilu4 $c" >> $r/sanitizer.txt
    timeout 80 compute-sanitizer --tool $tool build/tests/subtreeilu4 $c -dir $M > $r/$tool-$i.log 2>&1
    echo "exit $?" >> $r/sanitizer.txt
    grep -E "SUMMARY|hazard|Error|access at|NO" $r/$tool-$i.log | sort | uniq -c | head -8 >> $r/sanitizer.txt
  done
  echo "$tool after $SECONDS s"; total=$((total + SECONDS)); SECONDS=0
done
cat $r/sanitizer.txt
gzip $r/*.log
