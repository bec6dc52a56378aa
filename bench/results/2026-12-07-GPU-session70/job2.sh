#!/bin/bash
# session 70, job 2: the complete make check on the GPU (the last complete GPU run was session 65's), with
# session 69's bfs-rows.patch applied when the second argument is "rows" (after job 1 = session 69's job5.sh passed).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session70/job2.sh <revision> [rows]
if [ "${2:-}" = rows ]; then patch -s -p1 --batch < bench/results/2026-12-07-GPU-session69/bfs-rows.patch || { echo "bfs-rows.patch does not apply"; exit 1; }; fi
. bench/gpujob.sh job2 "$1"
timeout 420 make check TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
