#!/bin/bash
# session 14, job 6 (nvidia-h200): the final revision: the complete test suite, then the ordering peers side by side
# in one run (PETSc rcm, gpurcm cuda / 16 threads / serial, cuSOLVER's host RCM on the 1M-row 5- and 7-point meshes).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session14/job6.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job6; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job6.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 250 make check TESTARGS="--timeout 150 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head; SECONDS=0
timeout 100 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160 -orderings rcm,gpurcm@cuda,gpurcm@threads:16,gpurcm@serial -reps 3 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "bench_order exit $? after $SECONDS s"; SECONDS=0
timeout 60 build/bench/bench_order -matrices lap2d:1000,lap3d:100 -orderings gpurcm@cuda,cusolver_rcm -reps 2 -csv $r/order-cusolver.csv $dll > $r/order-cusolver.txt 2>&1
echo "bench_order cusolver exit $? after $SECONDS s"
for f in $r/order.txt $r/order-cusolver.txt; do grep -E "^[a-z].*rows|^  [a-z]" $f | sed -E 's/ +/ /g; s/identical to rcm: //' | cut -c1-90; done
