#!/bin/bash
# session 11, job 5 (nvidia-h200): the subtree_ilu tests, then Nsight Compute profile (warp stall reasons, per-instruction samples) of the GPU
# refactorization kernel on the 2D grid (ILU(0)), then the -info stage trace on the 2D and 3D grids.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session11/job5.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job5; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job5.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; which ncu; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
timeout 200 make check TESTS='subtreeilu' TESTARGS="--timeout 100 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
for t in subtree_ilu subtree_icc; do
  timeout 100 build/bench/bench_factor -matrices lap2d:1000,lap3d:100 -pcs $t -orderings natural -levels 0 -refactor_reps 6 -reps 5 $dll -info 2>&1 | grep -E "GPU refactorization|apply" | sed 's/^.*SparseGPUCUDATraceReport(): //' > $r/trace-$t.txt
done
echo "trace after $SECONDS s"; SECONDS=0
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
if [ -n "$NCU" ]; then
  timeout 200 $NCU -k regex:RefactKernel -c 1 --section LaunchStats --section Occupancy --section WarpStateStats --section SourceCounters --section SchedulerStats -o $r/refact2d build/bench/bench_factor -matrices lap2d:1000 -pcs subtree_ilu -orderings natural -levels 0 -refactor_reps 1 -reps 2 $dll > $r/ncu-run.txt 2>&1
  echo "ncu exit $? after $SECONDS s"
  $NCU --import $r/refact2d.ncu-rep > $r/ncu-details.txt 2>&1
  $NCU --import $r/refact2d.ncu-rep --page source --csv --print-source sass > $r/ncu-source.csv 2>$r/ncu-source.err || $NCU --import $r/refact2d.ncu-rep --page source --csv > $r/ncu-source.csv 2>>$r/ncu-source.err
  ls -la $r
fi
for f in $r/trace-*.txt; do echo $f; grep apply $f; awk '/GPU refact/{n++; if (n%6==0) print}' $f; done
grep -E "Stall|Warp Cycles|Registers|Achieved|Theoretical Occ|Block Limit" $r/ncu-details.txt | head -40
