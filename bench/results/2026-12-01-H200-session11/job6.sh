#!/bin/bash
# session 11, job 6 (nvidia-h200): Nsight Compute profile of the sync-free solve kernel (the L and U solves of one
# ILU(0) apply) on the 3D 100^3 and 2D 1000^2 grids. Run from the repository root with .gpu carried:
#   bash bench/results/2026-12-01-H200-session11/job6.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job6; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job6.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
for m in lap3d:100 lap2d:1000; do
  tag=${m/:/}
  timeout 150 $NCU -k regex:SolveKernel -c 2 --section LaunchStats --section Occupancy --section WarpStateStats --section SourceCounters --section SpeedOfLight -o $r/solve-$tag build/bench/bench_factor -matrices $m -pcs subtree_ilu -orderings natural -levels 0 -refactor_reps 0 -reps 2 -warmup 1 $dll > $r/ncu-run-$tag.txt 2>&1
  echo "ncu $m exit $? after $SECONDS s"; SECONDS=0
  $NCU --import $r/solve-$tag.ncu-rep > $r/ncu-details-$tag.txt 2>&1
  $NCU --import $r/solve-$tag.ncu-rep --page source --csv --print-source sass > $r/ncu-source-$tag.csv 2>/dev/null
  rm -f $r/solve-$tag.ncu-rep
done
grep -E "Duration|Registers|Achieved Active|Theoretical Occ|Warp Cycles Per Issued" $r/ncu-details-*.txt
