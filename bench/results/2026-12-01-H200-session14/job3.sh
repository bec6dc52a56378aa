#!/bin/bash
# session 14, job 3 (nvidia-h200): where the threads backend of gpurcm spends its time at 4, 8 and 16 threads
# (log-event phases graph / root finding / numbering), beside serial, PETSc rcm and the cuda backend, same run.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session14/job3.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job3; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job3.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; lscpu | grep -E "Model name|Socket|NUMA|^CPU\(s\)"; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
M=lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160
timeout 200 build/bench/bench_order -matrices $M -orderings rcm,gpurcm@serial,gpurcm@threads:4,gpurcm@threads:8,gpurcm@threads:16,gpurcm@cuda -reps 3 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "bench_order exit $? after $SECONDS s"; SECONDS=0
timeout 60 build/bench/bench_order -matrices lap2d:1000,lap3d:100 -orderings gpurcm@threads:16 -reps 1 $dll -info 2>&1 | grep -E "gpurcm" > $r/order-info.txt
grep -E "^[a-z]|ms" $r/order.txt | head -60
