#!/bin/bash
# session 29, job 6 (nvidia-h200): data for issue 3's open CPU goal (16 threads >= 6x serial, not met on 2D 1000^2,
# 2D 2000^2, 27-point 100^3): gpurcm's threads backend at 4, 8 and 16 threads beside serial and PETSc's rcm on those
# meshes, with the phase shares bench_order prints, and a -log_view of the 16-thread runs (GPURCM* events).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-03-H200-session29/job6.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job6; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job6.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; lscpu | grep -E "Model name|Socket|NUMA node\(s\)|Thread"; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
L="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
M=lap2d:1000,lap3d27:100,lap2d:2000
timeout 150 build/bench/bench_order -matrices $M -orderings rcm,gpurcm@serial,gpurcm@threads:4,gpurcm@threads:8,gpurcm@threads:16 -reps 3 -csv $r/order.csv $L > $r/order.txt 2>&1
echo "bench_order exit $? after $SECONDS s"; SECONDS=0
for m in lap2d:1000 lap2d:2000; do
  timeout 40 build/bench/bench_order -matrices $m -orderings gpurcm@threads:16 -reps 3 $L -log_view > $r/logview-${m/:/_}.txt 2>&1
done
echo "log_view after $SECONDS s"
grep -E "^[a-z]|^  (rcm|gpurcm)|phases" $r/order.txt | sed -E 's/ +/ /g' | cut -c1-140
grep -h -E "^GPURCM" $r/logview-*.txt | awk '{print $1, $2, $4}'
