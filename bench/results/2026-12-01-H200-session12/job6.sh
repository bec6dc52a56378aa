#!/bin/bash
# session 12, job 6 (nvidia-h200): compute-sanitizer memcheck, racecheck and synccheck on the subtree_ilu cuda solves
# and refactorization at this revision (block tickets with shared-memory values, the new schedule and phase 1):
# mid-size grids (2D 80^2 natural, 3D 16^3 RCM, ILU(0)/ILU(1)/ICC(0)) and a shared matrix.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session12/job6.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job6; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job6.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make build/tests/subtreeilu1 build/tests/subtreeilu4 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
M=$PWD/.gpu/matrices
cases=(
  "subtreeilu4 -type ilu -levels 0 -gen 2d -N 80 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda"
  "subtreeilu4 -type ilu -levels 1 -ordering rcm -gen 3d -N 16 -matrices sherman3 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda"
  "subtreeilu4 -type icc -levels 0 -ordering rcm -gen 3d -N 16 -matrices bcsstk13 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda"
)
for tool in memcheck racecheck synccheck; do
  for c in "${cases[@]}"; do
    set -- $c; prog=$1; shift
    echo "## $tool: $prog $*" >> $r/sanitizer.txt
    timeout 60 compute-sanitizer --tool $tool build/tests/$prog "$@" -dir $M > $r/$tool-$prog.log 2>&1
    echo "exit $?" >> $r/sanitizer.txt
    grep -E "SUMMARY|ERROR SUMMARY|RACECHECK SUMMARY|hazard|Error" $r/$tool-$prog.log | sort | uniq -c | head -8 >> $r/sanitizer.txt
  done
  echo "$tool after $SECONDS s"; SECONDS=0
done
cat $r/sanitizer.txt
