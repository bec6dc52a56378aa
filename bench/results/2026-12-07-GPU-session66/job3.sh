#!/bin/bash
# session 66, job 3 (issue 3): the level numbering's narrow stretch not inlined (GPURCMNmNarrow __noinline__: fewer
# spills than the inlined template, which left 2D 1000^2 4.5% slower in job 2), and auto taking the level numbering with
# the level tables when the widest level holds at most 3 x narrow nodes.
# (1) every gpurcm test (the complete make check did not fit the device time left); (2) A/B against the library before the session (before3.patch = git diff HEAD c51e07f
# -- src), 3 alternated rounds, 2D 1000^2 (bitmap path), 2000^2 and 3000^2 (level tables); (3) all peers on 2D 2000^2
# in one command.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session66/job3.sh <revision>
. bench/gpujob.sh job3 "$1"
gpujob_base bench/results/2026-12-07-GPU-session66/before3.patch
timeout 150 make check TESTS='gpurcm' TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "gpurcm tests exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
gpujob_ab ab 3 tables $PWD/build/lib/libpetscsparsegpu.so before /tmp/base/build/lib/libpetscsparsegpu.so -matrices lap2d:1000,lap2d:2000,lap2d:3000 -orderings gpurcm@cuda -reps 5 -cusolver_max_nnz 0
timeout 150 build/bench/bench_order -matrices lap2d:2000 -orderings rcm,gpurcm@cuda,gpurcm@threads:16,gpurcm@serial,cusolver_rcm -reps 5 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "peers exit $? at $SECONDS s"; grep -E "^[a-z0-9_]+:|^  (rcm|gpurcm|cusolver)" $r/order.txt | cut -c1-110
timeout 60 build/bench/bench_order -matrices lap2d:2000 -orderings gpurcm@cuda -reps 3 -cusolver_max_nnz 0 $dll -info > $r/info-2000.txt 2>&1
grep -E "gpurcm cuda: (auto|the level numbering|narrow)|stages in us" $r/info-2000.txt | sort | uniq -c | cut -c1-300 | head
echo "done at $SECONDS s"
