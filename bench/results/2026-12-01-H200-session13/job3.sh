#!/bin/bash
# session 13, job 3 (nvidia-h200): subtree_ilu with the shared-memory values through shared-memory atomics, the GPU
# refactorization's multiplier stored after the step's __syncwarp(), and -pc_subtree_ilu_cuda_cut_late on by default:
# the complete make check (failed tests rerun with --update, their new expected outputs brought back under outputs/),
# compute-sanitizer memcheck/racecheck/synccheck on three cases, then the large-set bench (ILU(0) against SpSV and
# PETSc's cuSPARSE ILU(0), ILU(1) against PETSc's cuSPARSE ILU(1), ICC(0) against PETSc's cuSPARSE ICC(0)).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session13/job3.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job3; rm -rf $r; mkdir -p $r/outputs
trap 'tar czf "$out/job3.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
cp -r tests/output $r/output-before
timeout 200 make check TESTARGS="--timeout 150 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20; SECONDS=0
failed=$(grep "^not ok" $r/check.log | sed 's/^not ok //; s/ (.*//; s/^/^/; s/$/$/' | paste -sd'|')
if [ -n "$failed" ]; then
  timeout 60 make check TESTS="$failed" TESTARGS="--timeout 50 --jobs 8 --update" > "$r/update.log" 2>&1
  for f in tests/output/*.out; do cmp -s $f $r/output-before/$(basename $f) || cp $f $r/outputs/; done
  ls $r/outputs
fi
rm -rf $r/output-before
M=$PWD/.gpu/matrices
cases=(
  "subtreeilu4 -type ilu -levels 0 -gen 2d -N 80 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda"
  "subtreeilu4 -type ilu -levels 1 -ordering rcm -gen 3d -N 16 -matrices sherman3 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda"
  "subtreeilu4 -type icc -levels 0 -ordering rcm -gen 3d -N 16 -matrices bcsstk13 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda"
)
for tool in memcheck racecheck synccheck; do
  i=0
  for c in "${cases[@]}"; do
    set -- $c; prog=$1; shift; i=$((i+1))
    echo "## $tool: $prog $*" >> $r/sanitizer.txt
    timeout 60 compute-sanitizer --tool $tool build/tests/$prog "$@" -dir $M > $r/$tool-$i.log 2>&1
    echo "exit $?" >> $r/sanitizer.txt
    grep -E "SUMMARY|hazard|Error|access at" $r/$tool-$i.log | sort | uniq -c | head -8 >> $r/sanitizer.txt
  done
  echo "$tool after $SECONDS s"; SECONDS=0
done
G=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
timeout 120 build/bench/bench_factor -matrices $G -pcs subtree_ilu,spsv,ilu_cusparse -orderings natural,rcm -levels 0 -refactor_reps 3 -reps 20 -csv $r/factor.csv $dll > $r/factor.txt 2>&1
echo "factor exit $? after $SECONDS s"; SECONDS=0
timeout 100 build/bench/bench_factor -matrices $G -pcs subtree_ilu,ilu_cusparse -orderings natural,rcm -levels 1 -refactor_reps 2 -reps 20 -csv $r/factor-ilu1.csv $dll > $r/factor-ilu1.txt 2>&1
echo "factor ilu1 exit $? after $SECONDS s"; SECONDS=0
timeout 50 build/bench/bench_factor -matrices lap2d:1000,lap3d:100 -pcs subtree_icc,icc_cusparse -orderings natural,rcm -levels 0 -refactor_reps 2 -reps 20 -csv $r/factor-icc0.csv $dll > $r/factor-icc0.txt 2>&1
echo "factor icc0 exit $? after $SECONDS s"
grep -H -E "apply|solve" $r/factor*.txt | sed 's/gmres.*//; s/cg .*//; s/setup [0-9.]* s//; s/( 20 reps, *[0-9.na]* GFLOP\/s)//; s|.*gpu-job3/||'
cat $r/sanitizer.txt
