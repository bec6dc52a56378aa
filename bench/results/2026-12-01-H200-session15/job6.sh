#!/bin/bash
# session 15, job 6 (nvidia-h200): the final revision: the complete test suite on the GPU, then the ordering benchmark
# of issue 3 side by side in one command per mesh size (PETSc rcm, gpurcm cuda / 16 threads / serial; 1M, 4M and
# 16M rows), cuSOLVER's host RCM on the 1M-row 5- and 7-point meshes, and the cuda stage trace.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session15/job6.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job6; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job6.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 280 make check TESTARGS="--timeout 150 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head; SECONDS=0
P=rcm,gpurcm@cuda,gpurcm@threads:16,gpurcm@serial
timeout 120 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160,lap3d27:160 -orderings $P -reps 3 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "bench_order exit $? after $SECONDS s"; SECONDS=0
timeout 120 build/bench/bench_order -matrices lap2d:4000,lap3d:252 -orderings $P -reps 2 -csv $r/order-16M.csv $dll > $r/order-16M.txt 2>&1
echo "bench_order 16M exit $? after $SECONDS s"; SECONDS=0
timeout 60 build/bench/bench_order -matrices lap2d:1000,lap3d:100 -orderings gpurcm@cuda,cusolver_rcm -reps 2 -csv $r/order-cusolver.csv $dll > $r/order-cusolver.txt 2>&1
echo "bench_order cusolver exit $? after $SECONDS s"; SECONDS=0
timeout 60 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160 -orderings gpurcm@cuda -reps 2 $dll -info 2>&1 | grep -E "stages in us" > $r/trace.txt
echo "trace after $SECONDS s"
sed -E 's/.*graph entries\), stages in us \(synchronized\)://' $r/trace.txt | awk 'NR%2==0'
for f in order order-16M order-cusolver; do echo "== $f"; grep -E "^[a-z].*rows|^  [a-z]" $r/$f.txt | sed -E 's/ +/ /g; s/identical to rcm: //' | cut -c1-90; done
