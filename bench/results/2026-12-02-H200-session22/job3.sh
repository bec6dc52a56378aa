#!/bin/bash
# session 22, job 3 (nvidia-h200): the tests that failed in job 2 (the stencil tests' own count, fixed; ex3's expected
# line of diagonal slices), now with an exact count for PELLR too, and every other pellr_ops and tutorial test.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-02-H200-session22/job3.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job3; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job3.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
timeout 250 make check TESTS='pellr_ops|tutorials' TESTARGS="--timeout 150 --jobs 8" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20; grep FAILED "$r/check.log" | sort | uniq -c | head
