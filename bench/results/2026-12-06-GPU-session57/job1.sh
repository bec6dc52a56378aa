#!/bin/bash
# session 57, job 1 (one GPU host, 16 cores): -mat_gpurcm_cuda_fit_warps (default on: in the level kernels the warps
# holding none of a narrow level's nodes only pass its barriers; the numbering's scan adds only the working warps').
# 1. Every gpurcm test (cuda_fit_warps new: off/on x ELL x claim slots x narrow).
# 2. A/B in one binary, off and on alternated, 2 rounds x 9 repetitions, on the meshes whose narrow levels matter.
# 3. compute-sanitizer on the level kernels (fit on, ELL copy: session 56's path, never run under the sanitizer):
#    memcheck and synccheck on the generated graphs, racecheck on pde900 (the generated graphs take racecheck > 60 s).
# 4. Nsight Compute warp-state sampling per SASS instruction (SourceCounters, WarpStateStats) of the numbering and BFS
#    kernels on 2D 1000², gpurcm.cu rebuilt with -lineinfo, with block 0's SM instruction count (issue- or latency-bound?).
# 5. If time is left: the complete GPU suite (last complete run: f0ef7f9, session 56).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session57/job1.sh <revision> [<s>]
. bench/gpujob.sh job1 "$1"
B=${2:-560}
timeout 150 make check TESTS='gpurcm' TESTARGS="--timeout 120 --jobs 14" > $r/check-gpurcm.log 2>&1
echo "gpurcm check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check-gpurcm.log | tail -n 8
M=lap2d:1000,lap2d:500,lap3d:100,lap3d27:100,lap3d:160
for round in 1 2; do
  for fit in 0 1; do
    [ $SECONDS -gt $((B - 300)) ] && continue
    timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 9 -cusolver_max_nnz 0 -mat_gpurcm_cuda_fit_warps $fit -csv $r/order-fit$fit-r$round.csv $dll > $r/order-fit$fit-r$round.txt 2>&1
    echo "order fit $fit r$round exit $? at $SECONDS s"; grep -hE "^[a-z]|^  gpurcm" $r/order-fit$fit-r$round.txt | cut -c1-150
  done
done
timeout 30 build/bench/bench_order -matrices lap2d:1000 -orderings gpurcm@cuda -reps 3 -info :sys $dll > $r/info-fit1.txt 2>&1
grep -E "gpurcm.*(ms|stage)" $r/info-fit1.txt | tail -n 4 | cut -c1-250
E="-backends cuda -mat_gpurcm_cuda_number levels -mat_gpurcm_cuda_ell 1"
for run in "memcheck -generated -mat_gpurcm_cuda_narrow 37" "synccheck -generated -mat_gpurcm_cuda_narrow 37" "racecheck -f .gpu/matrices/pde900.mtx.gz -mat_gpurcm_cuda_narrow 37" "racecheck -f .gpu/matrices/pde900.mtx.gz -mat_gpurcm_cuda_narrow 1024" "memcheck -generated -mat_gpurcm_cuda_narrow 1024"; do
  [ $SECONDS -gt $((B - 200)) ] && continue
  set -- $run; f=$r/sanitizer-$1-$(echo $2 | tr -d -)-${@: -1}.log
  timeout 45 compute-sanitizer --tool $1 build/tests/gpurcm_identity ${@:2} $E > $f 2>&1
  echo "$run: exit $? at $SECONDS s: $(grep -cE 'identical' $f) identical; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $f | tail -n 1)"
done
if [ $SECONDS -lt $((B - 150)) ]; then
  cp build/lib/libpetscsparsegpu.so /tmp/lib-nolineinfo.so
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
  cp /tmp/lib-nolineinfo.so build/lib/libpetscsparsegpu.so
fi
if [ $SECONDS -lt $((B - 230)) ]; then
  timeout $((B - SECONDS - 10)) make check TESTARGS="--timeout 200 --jobs 14" > $r/check.log 2>&1
  echo "complete check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
fi
