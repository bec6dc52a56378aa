#!/bin/bash
# session 18, job 1 (nvidia-h200): first GPU run of the lane path of the subtree_ilu GPU refactorization
# (-pc_subtree_ilu_cuda_refactor_lanes): the complete make check (also the first complete GPU run since session 16's
# 72871ef: compact columns auto, pellr COO assembly), compute-sanitizer memcheck/racecheck on the lane path, then the
# refactorization of ILU(0)/ICC(0) on the large grids, lane path against the warp path, SpSV's analysis in the same run.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-02-H200-session18/job1.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job1; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job1.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
M=$PWD/.gpu/matrices
# the lane path's tests first (a hang or failure shows early), then everything
timeout 60 make check TESTS='subtreeilu4_cuda' TESTARGS="--timeout 50 --jobs 8" > "$r/check-refactor.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check-refactor.log"; tail -n 2 "$r/check-refactor.log"; grep -A12 "^not ok" "$r/check-refactor.log" | head -40; SECONDS=0
timeout 230 make check TESTARGS="--timeout 150 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20; SECONDS=0
cases=(
  "subtreeilu4 -type ilu -levels 0 -gen 2d -N 80 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -gpu_path lane"
  "subtreeilu4 -type icc -levels 1 -ordering rcm -gen 3d -N 12 -matrices bcsstk13 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda"
)
for tool in memcheck racecheck; do
  i=0
  for c in "${cases[@]}"; do
    set -- $c; prog=$1; shift; i=$((i+1))
    echo "## $tool: $prog $*" >> $r/sanitizer.txt
    timeout 40 compute-sanitizer --tool $tool build/tests/$prog "$@" -dir $M > $r/$tool-$i.log 2>&1
    echo "exit $?" >> $r/sanitizer.txt
    grep -E "SUMMARY|hazard|Error|access at|NO" $r/$tool-$i.log | sort | uniq -c | head -8 >> $r/sanitizer.txt
  done
  echo "$tool after $SECONDS s"; SECONDS=0
done
cat $r/sanitizer.txt
G=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
for lanes in 1 0; do
  timeout 75 build/bench/bench_factor -matrices $G -pcs subtree_ilu,subtree_icc -orderings natural,rcm -levels 0 -refactor_reps 6 -reps 5 -ksp_max_rows 0 -csv $r/refactor-lanes$lanes.csv $dll -pc_subtree_ilu_cuda_refactor_lanes $lanes > $r/refactor-lanes$lanes.txt 2>&1
  echo "refactor lanes $lanes exit $? after $SECONDS s"; SECONDS=0
done
timeout 60 build/bench/bench_factor -matrices $G -pcs spsv -orderings natural,rcm -levels 0 -refactor_reps 4 -reps 5 -ksp_max_rows 0 -csv $r/spsv.csv $dll > $r/spsv.txt 2>&1
echo "spsv exit $? after $SECONDS s"; SECONDS=0
timeout 30 build/bench/bench_factor -matrices lap2d:1000,lap3d:160 -pcs subtree_ilu -orderings natural -levels 0 -refactor_reps 2 -reps 2 -ksp_max_rows 0 $dll -info :pc,sys > $r/refactor-info.txt 2>&1
echo "info exit $? after $SECONDS s"
grep -E "refactorization|lane|warp" $r/refactor-info.txt | grep -v "^\s*$" | sort | uniq -c | sort -rn | head -12
grep -h -E "refactor|analysis" $r/refactor-lanes*.txt $r/spsv.txt | sed 's/( *[0-9]* reps.*GFLOP\/s)//'
