#!/bin/bash
# session 50, job 7 (one GPU host, 16 cores): every subtree_ilu test with the final code (6b28396: the CPU auto rule
# after job 6's complete suite), then compute-sanitizer memcheck, racecheck and synccheck on the warp's sum of long
# rows: the hubs matrix (ILU(0) natural, ICC(0)) and an RCM-ordered 3D ILU(1) with threshold 1 (many rows by the warp).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session50/job7.sh <revision>
. bench/gpujob.sh job7 "$1"
make -j16 build/tests/subtreeilu1 >> $r/build.log 2>&1 || { tail -20 $r/build.log; exit 1; }
timeout 150 make check TESTS='subtreeilu' TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
SECONDS=0
cases=(
  "build/tests/subtreeilu1 -type ilu -levels 0 -gen hubs -N 40 -conv 0.3 -matrices none -st_pc_subtree_ilu_backend cuda"
  "build/tests/subtreeilu1 -type icc -levels 0 -gen hubs -N 40 -matrices none -st_pc_subtree_ilu_backend cuda"
  "build/tests/subtreeilu1 -type ilu -levels 1 -ordering rcm -gen 3d -N 8 -conv 0.2 -matrices none -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_long_row 1"
)
for tool in memcheck racecheck synccheck; do
  i=0
  for c in "${cases[@]}"; do
    i=$((i+1)); echo "## $tool: $c" >> $r/sanitizer.txt
    timeout 90 compute-sanitizer --tool $tool $c > $r/$tool-$i.log 2>&1
    echo "exit $?" >> $r/sanitizer.txt
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY|hazard|max rel" $r/$tool-$i.log | head -6 >> $r/sanitizer.txt
  done
  echo "$tool after $SECONDS s"
done
cat $r/sanitizer.txt
