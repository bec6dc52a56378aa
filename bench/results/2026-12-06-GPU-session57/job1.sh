#!/bin/bash
# session 57, job 1 (one GPU host, 16 cores): the final code of session 56 (6b5213f's library = ec6720c) on the GPU.
# 1. The complete GPU test suite (last complete run: f0ef7f9, with the edge rows that were then reverted).
# 2. compute-sanitizer memcheck / synccheck / racecheck on the level kernels with the packed ELL copy (session 56's new
#    path, never run under the sanitizer): the generated graphs, ell 1, numbering by levels, narrow 37 and 1024.
# 3. Session 56's job 5: Nsight Compute, block 0's own instructions per narrow level (sm__inst_executed.max).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session57/job1.sh <revision> [<s>]
. bench/gpujob.sh job1 "$1"
B=${2:-560}
timeout 240 make check TESTARGS="--timeout 200 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
for tool in memcheck synccheck racecheck; do
  for a in "-mat_gpurcm_cuda_narrow 37" "-mat_gpurcm_cuda_narrow 1024"; do
    [ $SECONDS -gt $((B - 140)) ] && continue
    f=$r/sanitizer-$tool-narrow$(echo $a | awk '{print $2}').log
    timeout 45 compute-sanitizer --tool $tool build/tests/gpurcm_identity -generated -backends cuda -mat_gpurcm_cuda_number levels -mat_gpurcm_cuda_ell 1 $a > $f 2>&1
    echo "$tool $a exit $? at $SECONDS s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|hazard' $f | tail -n 1)"
  done
done
MET=gpu__time_duration.sum,sm__inst_executed.max,sm__inst_executed.sum,sm__cycles_elapsed.max,smsp__issue_active.max,sm__warps_active.avg.per_cycle_active
for m in lap2d:1000 lap2d:500; do
  [ $SECONDS -gt $((B - 50)) ] && continue
  timeout 60 ncu --clock-control none --cache-control none --kernel-name regex:GPURCMLevels --launch-count 4 --metrics $MET --csv --log-file $r/ncu-${m/:/}.csv build/bench/bench_order -matrices $m -orderings gpurcm@cuda -reps 1 $dll > $r/ncu-${m/:/}.txt 2>&1
  echo "ncu $m exit $? at $SECONDS s"
  grep -E "GPURCMLevels(BFS|Number)Kernel" $r/ncu-${m/:/}.csv | cut -d, -f5,13-16 | head -24
done
