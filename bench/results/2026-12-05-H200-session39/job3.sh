#!/bin/bash
# session 39, job 3 (one GPU): jobs 1 and 2 in one call, for a device budget cut by failed starts: build; issue 3's
# ordering benchmark (PETSc rcm, gpurcm cuda / 16 / 8 threads / serial on 1M and 4M rows, cuSOLVER's host RCM on the
# 1M-row 5- and 7-point meshes; the threads' setup share, GPURCMSetup) and a sweep of the threads backend's batch size;
# the complete test suite, the first with -mat_pellr_predict_device on by default (5de39db); the predictor's feature
# times on 17 smaller matrices (host and GPU against session 32's PELLR conversions); auto on the 15 large matrices
# (GPU features, the default; the host's give the same features field by field in the GPU tests) beside aijcusparse
# and sellcuda in one run (model version 5's first GPU run).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H200-session39/job3.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job3; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job3.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
P=rcm,gpurcm@cuda,gpurcm@threads:16,gpurcm@threads:8,gpurcm@serial
timeout 90 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160 -orderings $P -reps 3 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "bench_order exit $? after $SECONDS s"; SECONDS=0
timeout 25 build/bench/bench_order -matrices lap2d:1000,lap3d:100 -orderings gpurcm@cuda,cusolver_rcm -reps 2 -csv $r/order-cusolver.csv $dll > $r/order-cusolver.txt 2>&1
echo "bench_order cusolver exit $? after $SECONDS s"; SECONDS=0
# the threads backend's batch size (-mat_gpurcm_batch, default 64: never tuned on this 16-core host) and its
# level-by-level numbering, 16 and 8 threads
for b in 32 64 128 256 512; do
  timeout 25 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap2d:2000 -orderings gpurcm@threads:16,gpurcm@threads:8 -reps 3 -mat_gpurcm_batch $b -csv $r/order-batch$b.csv $dll > $r/order-batch$b.txt 2>&1
  echo "batch $b exit $?"
done
timeout 25 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap2d:2000 -orderings gpurcm@threads:16,gpurcm@threads:8 -reps 3 -mat_gpurcm_threads_number levels -csv $r/order-levels.csv $dll > $r/order-levels.txt 2>&1
echo "levels exit $? after $SECONDS s"; SECONDS=0
for f in order-batch32 order-batch64 order-batch128 order-batch256 order-batch512 order-levels; do echo "== $f"; grep -E "^  gpurcm" $r/$f.txt | sed -E 's/ +/ /g' | cut -c1-60; done
for f in order order-cusolver; do echo "== $f"; grep -E "^[a-z].*rows|^  [a-z]|phases" $r/$f.txt | sed -E 's/ +/ /g; s/identical to rcm: //' | cut -c1-120; done
tar czf "$out/job3-part.tgz" -C "$r" .
SECONDS=0
timeout 250 make check TESTARGS="--timeout 150 --jobs 14" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
tar czf "$out/job3-part.tgz" -C "$r" .
SECONDS=0
L=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
S=lap2d:32,lap3d7:10,lap2d:90,lap3d7:20,lap3d27:20,Pd,bcsstk17,e30r4000,bayer10,lap3d7:40,lap3d27:40,lap2d:256,blkdiag:bcsstk17:1M,blkdiag:e30r4000:2M,lap3d7:64,lap2d:724,kron:bcsstk01:e30r4000
J1=bench/results/2026-12-04-H200-session32/job1
timeout 50 build/bench/bench_calibrate -times $J1/calibration.csv -matrices $S -matdir .gpu/matrices -evaluate default -report /dev/null -feature_times $r/feature-times-small.csv > $r/feature-times-small.txt 2>&1
echo "feature times (smaller) exit $? after $SECONDS s"; cat $r/feature-times-small.csv; SECONDS=0
tar czf "$out/job3-part.tgz" -C "$r" .
for dev in true; do
  timeout 90 build/bench/bench_spmv -matrices $L -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.1 -matdir .gpu/matrices -time_limit 85 -csv $r/spmv-auto-$dev.csv $dll -mat_pellr_predict_device $dev -info :mat > $r/spmv-auto-$dev.txt 2>&1
  echo "auto predict_device $dev exit $?"; grep -c "features computed on the GPU" $r/spmv-auto-$dev.txt
  grep -o "storage format predicted fastest: [a-z]*" $r/spmv-auto-$dev.txt > $r/choices-$dev.txt
done
cat $r/choices-true.txt
echo "auto after $SECONDS s"
