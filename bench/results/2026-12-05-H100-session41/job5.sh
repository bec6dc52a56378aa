#!/bin/bash
# session 41, job 5 (one GPU): where the narrow levels of gpurcm cuda's level kernels spend their time on 2D 1000^2
# (issue 3: ~2.9 us per level in the root finder's pass and ~4.5 us in the numbering's, unchanged by early row loads,
# 16-byte loads and clusters of blocks in jobs 2-4): Nsight Compute's warp states and per-instruction stall samples of
# the second launch of each kernel (the first is bench_order's warm-up call).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H100-session41/job5.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job5; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job5.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
cat $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
echo "ncu: $NCU"
for k in LevelsBFSKernel LevelsNumberKernel; do
  timeout 200 $NCU -k regex:GPURCM$k --launch-skip 1 -c 1 --section LaunchStats --section Occupancy --section WarpStateStats --section SourceCounters --section SpeedOfLight --section MemoryWorkloadAnalysis -o $r/$k build/bench/bench_order -matrices lap2d:1000 -orderings gpurcm@cuda -reps 1 -warmup 1 $dll > $r/ncu-run-$k.txt 2>&1
  echo "ncu $k exit $? after $SECONDS s"; SECONDS=0
  $NCU --import $r/$k.ncu-rep > $r/ncu-details-$k.txt 2>&1
  $NCU --import $r/$k.ncu-rep --page source --csv --print-source sass > $r/ncu-source-$k.csv 2>/dev/null
  gzip -f $r/ncu-source-$k.csv; rm -f $r/$k.ncu-rep
  grep -E "Duration|Warp Cycles Per Issued|Issue Slots Busy|L1/TEX Hit|L2 Hit|Memory Throughput|Stall" $r/ncu-details-$k.txt | head -20
  tar czf "$out/job5-part.tgz" -C "$r" .
done
