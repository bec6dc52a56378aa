#!/bin/bash
# session 31, job 9 (nvidia-h200): after the review cleanup (c0f7da7: one available-cores count for gpurcm and
# subtree_ilu, the cuda schedules made by one helper): the subtree_ilu, gpurcm and tutorial tests on the GPU.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-04-H200-session31/job9.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job9; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job9.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
timeout 200 make check TESTS="subtreeilu|gpurcm|tutorials" TESTARGS="--jobs 12" > $r/check.log 2>&1
echo "check exit $? after $SECONDS s"; tail -n 1 $r/check.log; grep "^not ok" $r/check.log | head
