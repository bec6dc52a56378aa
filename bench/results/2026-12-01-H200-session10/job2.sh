#!/bin/bash
# session 10, job 2 (nvidia-h200): full make check (8 at a time) after the gpurcm changes, the ordering benchmark with
# every peer, the gpurcm stage trace, then make bench (all three benchmarks, results folder in bench.tgz).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session10/job2.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job2; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job2.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 240 make check TESTARGS="--timeout 150 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20; SECONDS=0
timeout 100 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000 -orderings rcm,gpurcm@cuda,gpurcm@threads:16,gpurcm@serial,cusolver_rcm -cusolver_max_nnz 8000000 -reps 3 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "order exit $? after $SECONDS s"; SECONDS=0
timeout 40 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000 -orderings gpurcm@cuda -reps 2 $dll -info 2>&1 | grep -E "gpurcm cuda" > $r/order-trace.txt
echo "trace exit $? after $SECONDS s"; SECONDS=0
timeout 260 make bench TIME=200 MATDIR="$PWD/.gpu/matrices" RESULTS="$r/bench" > "$r/bench.log" 2>&1
echo "make bench exit $? after $SECONDS s"
grep "total" $r/order-trace.txt | sed 's/.*stages/stages/' | head -8; cut -d, -f1,5,7,12 $r/order.csv
