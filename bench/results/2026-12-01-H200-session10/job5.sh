#!/bin/bash
# session 10, job 5 (nvidia-h200): the three upload modes of gpurcm cuda (end to end, stage trace), the 16M-row meshes,
# the gpurcm GPU tests. Run from the repository root with .gpu carried:
#   bash bench/results/2026-12-01-H200-session10/job5.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job5; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job5.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 150 make check TESTS='gpurcm' TESTARGS="--timeout 100 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log" | head -1; grep "^not ok" "$r/check.log" | head; SECONDS=0
M=lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160,lap3d27:160
for up in staged pageable; do
  timeout 100 build/bench/bench_order -matrices $M -orderings rcm,gpurcm@cuda -reps 5 -csv $r/order-$up.csv $dll -mat_gpurcm_cuda_upload $up > $r/order-$up.txt 2>&1
  echo "order $up exit $? after $SECONDS s"; SECONDS=0
  timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 2 $dll -info -mat_gpurcm_cuda_upload $up 2>&1 | grep -E "gpurcm cuda" > $r/order-trace-$up.txt
done
timeout 150 build/bench/bench_order -matrices lap2d:4000,lap3d:252 -orderings rcm,gpurcm@cuda,gpurcm@threads:16 -reps 2 -csv $r/order-16M.csv $dll > $r/order-16M.txt 2>&1
echo "order 16M exit $? after $SECONDS s"
for up in staged pageable; do echo "## $up"; cut -d, -f1,5,7,12 $r/order-$up.csv | grep gpurcm; grep total $r/order-trace-$up.txt | sed 's/.*(\([0-9]*\) nodes.*stages in us (synchronized):/\1:/' | awk 'NR%2==0' | cut -c1-60; done
cut -d, -f1,5,7,12 $r/order-16M.csv
