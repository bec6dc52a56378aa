#!/bin/bash
# session 57, job 1 (one GPU host, 16 cores): the final code of session 56 (its library = ec6720c) on the GPU.
# 1. The complete GPU test suite (last complete run: f0ef7f9, with the edge rows that were then reverted).
# 2. compute-sanitizer on the level kernels with the packed ELL copy (session 56's path, never run under the sanitizer):
#    memcheck and synccheck on the generated graphs, racecheck on pde900 (the generated graphs take racecheck > 60 s).
# 3. Where block 0's narrow levels spend their cycles: gpurcm.cu rebuilt with -lineinfo, Nsight Compute's warp-state
#    sampling per SASS instruction (SourceCounters, WarpStateStats) of the numbering and BFS kernels on 2D 1000², with
#    block 0's SM instruction count (session 56's job 5 question: issue-bound or latency-bound?).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session57/job1.sh <revision> [<s>]
. bench/gpujob.sh job1 "$1"
B=${2:-560}
timeout 240 make check TESTARGS="--timeout 200 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
E="-backends cuda -mat_gpurcm_cuda_number levels -mat_gpurcm_cuda_ell 1"
for run in "memcheck -generated -mat_gpurcm_cuda_narrow 37" "synccheck -generated -mat_gpurcm_cuda_narrow 37" "memcheck -generated -mat_gpurcm_cuda_narrow 1024" "racecheck -f .gpu/matrices/pde900.mtx.gz -mat_gpurcm_cuda_narrow 37" "racecheck -f .gpu/matrices/pde900.mtx.gz -mat_gpurcm_cuda_narrow 1024"; do
  [ $SECONDS -gt $((B - 200)) ] && continue
  set -- $run; f=$r/sanitizer-$1-$(echo $2 | tr -d -)-${@: -1}.log
  timeout 45 compute-sanitizer --tool $1 build/tests/gpurcm_identity ${@:2} $E > $f 2>&1
  echo "$run: exit $? at $SECONDS s: $(grep -E 'identical|differ' $f | wc -l) orderings; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $f | tail -n 1)"
done
[ $SECONDS -gt $((B - 150)) ] && exit 0
touch src/mat/graphops/order/gpurcm/gpurcm.cu; make -j16 CUDAFLAGS=-lineinfo > $r/build-lineinfo.log 2>&1 || tail -n 20 $r/build-lineinfo.log
echo "lineinfo build at $SECONDS s"
for k in Number BFS; do
  [ $SECONDS -gt $((B - 60)) ] && continue
  timeout 90 ncu --clock-control none --kernel-name regex:GPURCMLevels${k}Kernel --launch-count 1 --section SourceCounters --section WarpStateStats --section LaunchStats --metrics sm__inst_executed.max,sm__inst_executed.sum,sm__cycles_elapsed.max,smsp__issue_active.max,gpu__time_duration.sum -o $r/ncu-$k build/bench/bench_order -matrices lap2d:1000 -orderings gpurcm@cuda -reps 1 $dll > $r/ncu-$k.txt 2>&1
  echo "ncu $k exit $? at $SECONDS s"
  ncu -i $r/ncu-$k.ncu-rep --page source --csv --print-source sass > $r/ncu-$k-sass.csv 2> $r/ncu-$k-sass.err || ncu -i $r/ncu-$k.ncu-rep --page source --csv > $r/ncu-$k-sass.csv 2>> $r/ncu-$k-sass.err
  ncu -i $r/ncu-$k.ncu-rep --page details --csv > $r/ncu-$k-details.csv 2>&1
  grep -E "inst_executed|cycles_elapsed|issue_active|Duration|Stall|Warp Cycles" $r/ncu-$k-details.csv | cut -d, -f12-16 | head -20
  wc -c $r/ncu-$k-sass.csv
done
