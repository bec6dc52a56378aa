#!/bin/bash
# session 14, job 7 (nvidia-h200): wide levels of the threads backend's level root finder shared out in chunks
# (-mat_gpurcm_steal_level, default 256 nodes per thread) against not shared (10^9), 16 threads, serial in the same run;
# the gpurcm tests on 16 cores first.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session14/job7.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job7; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job7.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 60 make check TESTS='gpurcm_identity' TESTARGS="--timeout 50 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head; SECONDS=0
M=lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160
timeout 40 build/bench/bench_order -matrices $M -orderings gpurcm@serial -reps 2 -csv $r/order-ref.csv $dll > $r/order-ref.txt 2>&1
for s in 256 1000000000; do
  timeout 30 build/bench/bench_order -matrices $M -orderings gpurcm@threads:16 -reps 3 -csv $r/order-steal$s.csv $dll -mat_gpurcm_steal_level $s > $r/order-steal$s.txt 2>&1
  echo "steal level $s exit $? after $SECONDS s"; SECONDS=0
done
for f in $r/order-ref.txt $r/order-steal*.txt; do echo "== $f"; grep -B1 phases $f | grep -v "^--" | paste - - | sed -E 's/ +/ /g; s/bandwidth [0-9]+//; s/identical to rcm: //; s/of gpurcm.s time//'; done
