#!/bin/bash
# session 39, job 1 (one GPU): build; issue 3's ordering benchmark side by side in one command per size (PETSc rcm,
# gpurcm cuda / 16 threads / 8 threads / serial, 1M and 4M rows; cuSOLVER's host RCM on the 1M-row 5- and 7-point
# meshes), the first on a 16-core host since gpurcm's long waits sleep (30f2126), with the threads' setup share
# (GPURCMSetup, fb406fc); a sweep of the threads backend's batch size and its level-by-level numbering; then the complete test suite, the
# first with -mat_pellr_predict_device on by default (5de39db).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H200-session39/job1.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job1; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job1.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
P=rcm,gpurcm@cuda,gpurcm@threads:16,gpurcm@threads:8,gpurcm@serial
timeout 120 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160 -orderings $P -reps 3 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "bench_order exit $? after $SECONDS s"; SECONDS=0
timeout 60 build/bench/bench_order -matrices lap2d:1000,lap3d:100 -orderings gpurcm@cuda,cusolver_rcm -reps 2 -csv $r/order-cusolver.csv $dll > $r/order-cusolver.txt 2>&1
echo "bench_order cusolver exit $? after $SECONDS s"; SECONDS=0
# the threads backend's batch size (-mat_gpurcm_batch, default 64: never tuned on this 16-core host) and its
# level-by-level numbering, 16 and 8 threads
for b in 32 64 128 256 512; do
  timeout 40 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap2d:2000 -orderings gpurcm@threads:16,gpurcm@threads:8 -reps 3 -mat_gpurcm_batch $b -csv $r/order-batch$b.csv $dll > $r/order-batch$b.txt 2>&1
  echo "batch $b exit $?"
done
timeout 40 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap2d:2000 -orderings gpurcm@threads:16,gpurcm@threads:8 -reps 3 -mat_gpurcm_threads_number levels -csv $r/order-levels.csv $dll > $r/order-levels.txt 2>&1
echo "levels exit $? after $SECONDS s"; SECONDS=0
for f in order-batch32 order-batch64 order-batch128 order-batch256 order-batch512 order-levels; do echo "== $f"; grep -E "^  gpurcm" $r/$f.txt | sed -E 's/ +/ /g' | cut -c1-60; done
for f in order order-cusolver; do echo "== $f"; grep -E "^[a-z].*rows|^  [a-z]|phases" $r/$f.txt | sed -E 's/ +/ /g; s/identical to rcm: //' | cut -c1-110; done
tar czf "$out/job1-part.tgz" -C "$r" .
SECONDS=0
timeout 250 make check TESTARGS="--timeout 150 --jobs 14" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
