#!/bin/bash
# session 29, job 4 (nvidia-h200): compute-sanitizer memcheck of the changed setup paths (ICC's L read from U's device
# arrays, the plan made at the first refactorization, a pellrcuda block factored on its own arrays).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-03-H200-session29/job4.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job4; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job4.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -j16 build/tests/subtreeilu4 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
M=$PWD/.gpu/matrices
cases=(
  "-type icc -levels 0 -gen 2d -N 14 -matrices bcsstk13 -mtype pellrcuda -st_pc_subtree_ilu_backend cuda"
  "-type icc -levels 1 -ordering rcm -gen 3d -N 8 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda"
  "-type ilu -levels 1 -gen 2d -N 15 -conv 0.2 -matrices watt_2 -mtype pellrcuda -st_pc_subtree_ilu_backend cuda"
)
i=0
for c in "${cases[@]}"; do
  i=$((i+1)); echo "## memcheck: subtreeilu4 $c" >> $r/sanitizer.txt
  timeout 60 compute-sanitizer --tool memcheck --leak-check full build/tests/subtreeilu4 $c -dir $M > $r/memcheck-$i.log 2>&1
  echo "exit $?" >> $r/sanitizer.txt
  grep -E "ERROR SUMMARY|LEAK SUMMARY|round" $r/memcheck-$i.log | head -12 >> $r/sanitizer.txt
done
echo "memcheck after $SECONDS s"; cat $r/sanitizer.txt
