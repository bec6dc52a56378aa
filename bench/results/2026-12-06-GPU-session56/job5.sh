#!/bin/bash
# session 56, job 5 (prepared, NOT run: no device time left): block 0's own instructions per narrow level. Job 2's
# smsp__inst_executed.sum counts the whole grid, the other blocks' polling at the grid barrier included; the per-SM
# maximum is the SM of block 0, which runs every narrow level. If its instructions per level (at most 4 issued a cycle)
# come near the 3.7k / 7.3k cycles of a small level, the narrow levels are issue-bound and should run only the warps
# they need; if not, their chain of dependent loads and barriers sets the time.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session56/job5.sh <revision>
. bench/gpujob.sh job5 "$1"
MET=gpu__time_duration.sum,sm__inst_executed.max,sm__inst_executed.sum,sm__cycles_elapsed.max,smsp__issue_active.max,sm__warps_active.avg.per_cycle_active
for m in lap2d:1000 lap2d:500; do
  timeout 120 ncu --clock-control none --cache-control none --kernel-name regex:GPURCMLevels --launch-count 4 --metrics $MET --csv --log-file $r/ncu-${m/:/}.csv build/bench/bench_order -matrices $m -orderings gpurcm@cuda -reps 1 $dll > $r/ncu-${m/:/}.txt 2>&1
  echo "ncu $m exit $? at $SECONDS s"
  grep -E "GPURCMLevels(BFS|Number)Kernel" $r/ncu-${m/:/}.csv | cut -d, -f5,13-16 | head -24
done
