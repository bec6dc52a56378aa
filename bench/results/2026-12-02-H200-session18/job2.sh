#!/bin/bash
# session 18, job 2 (nvidia-h200): the lane path of the GPU refactorization with its warp tickets taken in the L solve's
# level order of block tickets, and the remote loads of a lane's next step (and of the next lane of a chain) issued
# early: its tests, racecheck/memcheck, the refactorization bench (lane against warp path, ILU(0)/ICC(0), ILU(1)).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-02-H200-session18/job2.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job2; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job2.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
M=$PWD/.gpu/matrices
timeout 90 make check TESTS='subtreeilu' TESTARGS="--timeout 60 --jobs 8" > "$r/check-subtreeilu.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check-subtreeilu.log"; tail -n 2 "$r/check-subtreeilu.log"; grep -A12 "^not ok" "$r/check-subtreeilu.log" | head -40; SECONDS=0
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
done
echo "sanitizers after $SECONDS s"; SECONDS=0
cat $r/sanitizer.txt
G=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
for lanes in 1 0; do
  timeout 70 build/bench/bench_factor -matrices $G -pcs subtree_ilu,subtree_icc -orderings natural,rcm -levels 0 -refactor_reps 6 -reps 5 -ksp_max_rows 0 -csv $r/refactor-lanes$lanes.csv $dll -pc_subtree_ilu_cuda_refactor_lanes $lanes > $r/refactor-lanes$lanes.txt 2>&1
  echo "refactor lanes $lanes exit $? after $SECONDS s"; SECONDS=0
done
timeout 60 build/bench/bench_factor -matrices lap2d:1000,lap3d:100 -pcs subtree_ilu -orderings natural,rcm -levels 1 -refactor_reps 4 -reps 5 -ksp_max_rows 0 -csv $r/refactor-ilu1.csv $dll > $r/refactor-ilu1.txt 2>&1
echo "refactor ilu1 exit $? after $SECONDS s"; SECONDS=0
timeout 30 build/bench/bench_factor -matrices lap2d:1000,lap3d:100 -pcs subtree_ilu -orderings natural,rcm -levels 0 -refactor_reps 2 -reps 2 -ksp_max_rows 0 $dll -info :pc,sys > $r/refactor-info.txt 2>&1
echo "info exit $? after $SECONDS s"
grep -E "GPU refactorization" $r/refactor-info.txt | sed 's/^.*): //' | head -12
grep -h -E "refactor" $r/refactor-lanes*.txt $r/refactor-ilu1.txt | sed 's/( *[0-9]* reps.*GFLOP\/s)//'
