#!/bin/bash
# session 42, job 1 (one GPU): where subtree_ilu's GPU refactorization kernel spends its instructions (issue 5's unmet
# goal: a refactorization 10x cheaper than SpSV's analysis; ~1.8 us per row step on 2D grids). Built with -lineinfo;
# Nsight Compute's source counters (instructions executed per SASS line and per source line) of the second
# RefactKernel launch on 2D 1000^2 ILU(0) and 3D 100^3 ILU(0)/ICC(0), natural ordering; the refactorization times
# and the -info stage trace beside SpSV's analysis in the same run.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H100-session42/job1.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job1; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job1.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
cat $r/info.txt
SECONDS=0
make -j16 CUDAFLAGS=-lineinfo > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
G=lap2d:1000,lap3d:100
timeout 100 build/bench/bench_factor -matrices $G -pcs subtree_ilu,subtree_icc,spsv -orderings natural -levels 0 -refactor_reps 6 -reps 5 -ksp_max_rows 0 -csv $r/refactor.csv $dll > $r/refactor.txt 2>&1
echo "refactor exit $? after $SECONDS s"; SECONDS=0
grep -E "^lap" $r/refactor.csv | cut -d, -f1-14
timeout 100 build/bench/bench_factor -matrices $G -pcs subtree_ilu,subtree_icc -orderings natural -levels 0 -refactor_reps 3 -reps 2 -ksp_max_rows 0 -info :sys $dll > $r/trace.txt 2>&1
echo "trace exit $? after $SECONDS s"; SECONDS=0
grep -h "GPU refactorization" $r/trace.txt | cut -c1-260 | head -30
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
CUOBJ=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -1)
echo "ncu: $NCU cuobjdump: $CUOBJ"
[ -n "$CUOBJ" ] && $CUOBJ -sass -fun RefactKernel build/lib/libpetscsparsegpu.so 2>/dev/null | gzip > $r/refact.sass.gz
for c in "lap2d:1000 subtree_ilu" "lap3d:100 subtree_ilu" "lap3d:100 subtree_icc"; do
  set -- $c; tag=$(echo $1 | tr -d :)-$2
  timeout 150 $NCU -k regex:RefactKernel --launch-skip 1 -c 1 --section LaunchStats --section Occupancy --section WarpStateStats --section SourceCounters --section SpeedOfLight --section ComputeWorkloadAnalysis --section InstructionStats -o $r/$tag build/bench/bench_factor -matrices $1 -pcs $2 -orderings natural -levels 0 -refactor_reps 2 -reps 1 -ksp_max_rows 0 $dll > $r/ncu-run-$tag.txt 2>&1
  echo "ncu $tag exit $? after $SECONDS s"; SECONDS=0
  $NCU --import $r/$tag.ncu-rep > $r/ncu-details-$tag.txt 2>&1
  $NCU --import $r/$tag.ncu-rep --page source --csv --print-source sass > $r/ncu-sass-$tag.csv 2>/dev/null
  $NCU --import $r/$tag.ncu-rep --page source --csv --print-source cuda > $r/ncu-cuda-$tag.csv 2>/dev/null
  gzip -f $r/ncu-sass-$tag.csv $r/ncu-cuda-$tag.csv; rm -f $r/$tag.ncu-rep
  grep -E "Duration|Executed Instructions  |Warp Cycles Per Issued|Issue Slots Busy|Achieved Occupancy|Registers Per" $r/ncu-details-$tag.txt | head -12
  tar czf "$out/job1-part.tgz" -C "$r" .
done
