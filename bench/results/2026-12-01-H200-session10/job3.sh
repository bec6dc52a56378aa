#!/bin/bash
# session 10, job 3 (nvidia-h200): gpurcm cuda with and without -mat_gpurcm_cuda_pin_upload (end to end and the
# stage trace), the gpurcm GPU tests. Run from the repository root with .gpu carried:
#   bash bench/results/2026-12-01-H200-session10/job3.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job3; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job3.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 150 make check TESTS='gpurcm' TESTARGS="--timeout 100 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 1 "$r/check.log"; grep "^not ok" "$r/check.log" | head; SECONDS=0
M=lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160,lap3d27:160
for pin in 0 1; do
  timeout 100 build/bench/bench_order -matrices $M -orderings rcm,gpurcm@cuda -reps 5 -csv $r/order-pin$pin.csv $dll -mat_gpurcm_cuda_pin_upload $pin > $r/order-pin$pin.txt 2>&1
  echo "order pin $pin exit $? after $SECONDS s"; SECONDS=0
  timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 2 $dll -info -mat_gpurcm_cuda_pin_upload $pin 2>&1 | grep -E "gpurcm cuda" > $r/order-trace-pin$pin.txt
done
for pin in 0 1; do echo "## pin $pin"; cut -d, -f1,5,7,12 $r/order-pin$pin.csv | grep gpurcm; grep total $r/order-trace-pin$pin.txt | sed 's/.*(\([0-9]*\) nodes.*stages in us (synchronized):/\1:/' | awk 'NR%2==0'; done
