#!/bin/bash
# session 15, job 8 (nvidia-h200): the threads backend's level-by-level numbering (-mat_gpurcm_threads_level_numbering):
# gpurcm tests, then 16 threads with and without it beside serial and PETSc rcm in one command per variant.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session15/job8.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job8; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job8.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 120 make check TESTS='gpurcm_identity' TESTARGS="--timeout 90 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep -A12 "^not ok" "$r/check.log" | head -40; SECONDS=0
M=lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160
timeout 80 build/bench/bench_order -matrices $M -orderings rcm,gpurcm@serial,gpurcm@threads:16 -reps 3 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "bench_order exit $? after $SECONDS s"; SECONDS=0
timeout 40 build/bench/bench_order -matrices $M -orderings gpurcm@threads:16 -reps 3 -csv $r/order-lvnum.csv $dll -mat_gpurcm_threads_level_numbering > $r/order-lvnum.txt 2>&1
echo "lvnum exit $? after $SECONDS s"
for f in order order-lvnum; do echo "== $f"; grep -B1 phases $r/$f.txt | grep -v "^--" | paste - - | sed -E 's/ +/ /g; s/bandwidth [0-9]+//; s/identical to rcm: //; s/of gpurcm.s time//' | cut -c1-150; grep -E "^  rcm |^  gpurcm@serial" $r/$f.txt | sed -E 's/ +/ /g' | cut -c1-60; done
