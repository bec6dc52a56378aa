#!/bin/bash
# session 28, job 1 (nvidia-h200): the complete make check (every test, GPU and CPU) at the session's head, which
# carries session 27's unverified change (the layout's memory block of a GPU-built block kept when the layout is
# dropped and reused by its next GPU build: -mat_pellr_cuda_reuse_block, default on; allocation traces). The last
# complete GPU make check was session 23's at 42db678; session 26 ran the 141 GPU tests but gpurcm's at 3ef9646.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-03-H200-session28/job1.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job1; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job1.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
timeout 420 make check TESTARGS="--timeout 150 --jobs 8" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -30
