#!/bin/bash
# session 45, job 1 (one GPU): the complete test suite at the given revision (session 43's job1.sh). Not yet run on a
# GPU at c6c767c: c5e30bc (automatic lanes only where the factor's mean row fits them), the -pc_view line of the
# refactorization's lanes and its two GPU tests (expected outputs written by hand), c6c767c (one sort by level).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-GPU-session45/job1.sh <revision>
. bench/gpujob.sh job1 "$1"
timeout 330 make check TESTARGS="--timeout 150 --jobs 14" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
