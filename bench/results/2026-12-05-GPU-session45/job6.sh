#!/bin/bash
# session 45, job 6 (one GPU): the short form of job 5 for the last ~4 device minutes: the GPU feature tests (every
# field against the host's: teams 1, 2, 32 and automatic, and the thread kernels), then one round of the features'
# time, automatic team against one warp per group, on four of the large matrices.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-GPU-session45/job6.sh <revision>
. bench/gpujob.sh job6 "$1"
timeout 110 make check TESTS='pellrpredict1' TESTARGS="--timeout 100 --jobs 6" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head; used=$SECONDS; SECONDS=0
L=powerlaw:1M:16,kron:bcsstk01:bcsstk13,blkdiag:bcsstk17:10M,lap2d:1000
T=bench/results/2026-12-04-H200-session32/job1/large.csv
for team in 0 1; do
  [ $((used + SECONDS)) -gt 150 ] && { echo "skipping team $team: $((used + SECONDS)) s"; continue; }
  timeout 40 build/bench/bench_calibrate -times $T -matrices $L -matdir .gpu/matrices -evaluate default -report $r/eval-team$team.md -feature_times $r/features-team$team.csv -mat_pellr_predict_team_warps $team > $r/features-team$team.txt 2>&1
  echo "team $team exit $? at $SECONDS s"; cut -d, -f1,5,6,7 $r/features-team$team.csv
done
