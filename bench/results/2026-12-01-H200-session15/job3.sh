#!/bin/bash
# session 15, job 3 (nvidia-h200): the shared-memory bitmap of the narrow levels and the chunked staged upload: gpurcm
# tests on the GPU; gpurcm cuda with the bitmap on/off and narrow thresholds 1024/2048/4096 (stage traces), beside
# PETSc rcm, the threads backend (16) and serial in one run.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session15/job3.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job3; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job3.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 150 make check TESTS='gpurcm|order' TESTARGS="--timeout 90 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep -A12 "^not ok" "$r/check.log" | head -60; SECONDS=0
M=lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160
timeout 120 build/bench/bench_order -matrices $M -orderings rcm,gpurcm@cuda,gpurcm@threads:16,gpurcm@serial -reps 3 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "bench_order exit $? after $SECONDS s"; SECONDS=0
for v in "bitmap0 -mat_gpurcm_cuda_bitmap 0" "narrow1024 -mat_gpurcm_cuda_narrow 1024" "narrow2048 -mat_gpurcm_cuda_narrow 2048" "narrow2048bitmap0 -mat_gpurcm_cuda_narrow 2048 -mat_gpurcm_cuda_bitmap 0"; do
  set -- $v; name=$1; shift
  timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 3 -csv $r/order-$name.csv $dll "$@" > $r/order-$name.txt 2>&1
  echo "$name exit $? after $SECONDS s"; SECONDS=0
done
for v in "default" "bitmap0 -mat_gpurcm_cuda_bitmap 0" "narrow2048 -mat_gpurcm_cuda_narrow 2048"; do
  set -- $v; name=$1; shift
  timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 2 $dll -info "$@" 2>&1 | grep -E "stages in us|bitmap" > $r/trace-$name.txt
  echo "trace $name after $SECONDS s"; SECONDS=0
done
for f in $r/trace-*.txt; do echo "== $f"; grep stages $f | sed -E 's/.*graph entries\), stages in us \(synchronized\)://' | awk 'NR%2==0'; done
for f in order order-bitmap0 order-narrow1024 order-narrow2048 order-narrow2048bitmap0; do echo "== $f"; grep -E "^[a-z].*rows|^  [a-z]" $r/$f.txt | sed -E 's/ +/ /g; s/identical to rcm: //' | cut -c1-90; done
