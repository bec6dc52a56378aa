#!/bin/bash
# session 31, job 6 (nvidia-h200): gpurcm's threads backend with its fresh arrays mapped first (huge pages advised,
# pages touched by the threads; serial: huge pages advised) against session 29 job 6 (same meshes and reps): issue
# 3's CPU goal (16 threads >= 6x serial). Then the gpurcm tests on the GPU.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-04-H200-session31/job6.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job6; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job6.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
L="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
M=lap2d:1000,lap3d27:100,lap2d:2000
timeout 200 build/bench/bench_order -matrices $M -orderings rcm,gpurcm@serial,gpurcm@threads:8,gpurcm@threads:16 -reps 3 -csv $r/order.csv $L > $r/order.txt 2>&1
echo "bench_order exit $? after $SECONDS s"; SECONDS=0
grep -E "^[a-z]|^  (rcm|gpurcm)|phases" $r/order.txt | sed -E 's/ +/ /g' | cut -c1-140
timeout 200 make check TESTS=gpurcm TESTARGS="--jobs 8" > $r/check.log 2>&1
echo "check exit $? after $SECONDS s"; tail -n 2 $r/check.log; grep "^not ok" $r/check.log | head
