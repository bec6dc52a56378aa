#!/bin/bash
# session 53, job 3 (one GPU host, 16 cores): the level sort's phases in -info (this HEAD): the cuda tests that read the
# level sort's -info line, subtreeilu5, and where the sorts of powerlaw:1M:16 and powerlaw:4M:8 spend their time.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session53/job3.sh <revision>
. bench/gpujob.sh job3 "$1"
timeout 100 make check TESTS='subtreeilu1_cuda_ilu0_random|subtreeilu5|subtreeilu1_cuda_first' TESTARGS="--timeout 90 --jobs 8" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
timeout 80 build/bench/bench_factor -matrices powerlaw:1M:16,powerlaw:4M:8 -pcs subtree_ilu -orderings natural -reps 2 -refactor_reps 2 -ksp_max_rows 0 -info :pc,sys -csv $r/pl-new.csv $dll > $r/pl-new.txt 2>&1
echo "powerlaw exit $? at $SECONDS s"; grep -hE "^  subtree|schedules of U and L|level sort of|waited for|plan made|plan on the device" $r/pl-new.txt | sed 's/.*Private(): //' | cut -c1-330
