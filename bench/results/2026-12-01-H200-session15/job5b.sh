#!/bin/bash
# session 15, job 5b (nvidia-h200): where a narrow level of the level numbering spends its time: the library built with
# -DGPURCM_PROFILE (thread 0's clock64 between the steps of the shared-table levels), 2D 1000^2 and 3D 100^3 with
# -mat_gpurcm_cuda_number levels; then the normal build, gpurcm cuda levels/auto times.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session15/job5b.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job5b; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job5b.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
make -j16 CUDAFLAGS=-DGPURCM_PROFILE > "$r/build-profile.log" 2>&1 && make -C bench -j16 >> "$r/build-profile.log" 2>&1 || { tail -n 40 "$r/build-profile.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
timeout 60 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap2d:700 -orderings gpurcm@cuda -reps 1 $dll -mat_gpurcm_cuda_number levels > $r/profile.txt 2>&1
echo "profile exit $? after $SECONDS s"; SECONDS=0
touch src/mat/graphops/order/gpurcm/gpurcm.cu; make -j16 > "$r/build.log" 2>&1 || tail -n 20 "$r/build.log"
M=lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160
timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 3 -csv $r/order-levels.csv $dll -mat_gpurcm_cuda_number levels > $r/order-levels.txt 2>&1
echo "levels exit $? after $SECONDS s"
grep -E "GPURCM_PROFILE|^[a-z].*rows|^  [a-z]" $r/profile.txt | cut -c1-200
grep -E "^[a-z].*rows|^  [a-z]" $r/order-levels.txt | sed -E 's/ +/ /g; s/identical to rcm: //' | cut -c1-90
