#!/bin/bash
# session 15, job 7 (nvidia-h200): 32-bit shared claims and the sorting network skipped by warps without a node of two
# children: gpurcm tests on the GPU, gpurcm cuda (auto) beside PETSc rcm, the profile build on 2D 1000^2.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session15/job7.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job7; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job7.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 150 make check TESTS='gpurcm|order' TESTARGS="--timeout 90 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep -A12 "^not ok" "$r/check.log" | head -60; SECONDS=0
M=lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160
timeout 90 build/bench/bench_order -matrices $M -orderings rcm,gpurcm@cuda -reps 3 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "bench_order exit $? after $SECONDS s"; SECONDS=0
touch src/mat/graphops/order/gpurcm/gpurcm.cu; make -j16 CUDAFLAGS=-DGPURCM_PROFILE > "$r/build-profile.log" 2>&1 || tail -n 20 "$r/build-profile.log"
timeout 60 build/bench/bench_order -matrices lap2d:1000 -orderings gpurcm@cuda -reps 1 $dll -mat_gpurcm_cuda_number levels > $r/profile.txt 2>&1
touch src/mat/graphops/order/gpurcm/gpurcm.cu; make -j16 > "$r/build.log" 2>&1
echo "profile after $SECONDS s"
grep GPURCM_PROFILE $r/profile.txt | head -2
grep -E "^[a-z].*rows|^  [a-z]" $r/order.txt | sed -E 's/ +/ /g; s/identical to rcm: //' | cut -c1-90
