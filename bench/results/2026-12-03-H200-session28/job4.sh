#!/bin/bash
# (ran at b5a7e37 -- its info.txt says 2ac7c21: the device copy's git metadata lags its files; the option was taken out
# after jobs 4 and 5: the first product as a whole was not faster, see NOTE.md)
# session 28, job 4 (nvidia-h200): -mat_pellr_cuda_pool_overlap (default on): while a host CSR is copied to the GPU, a
# helper thread grows the stream-ordered memory pool by what the build and the values' upload will take, so a first
# build no longer maps new device memory itself (job 2's allocation traces: 0.28 ms of the 0.38 ms first build of 2D
# 1000^2, 0.51 of 0.96 ms on 27-point 100^3). The 15 large matrices with the peers, 5 rebuilds, alternately with the
# overlap off and on (two runs each; the first build is build_s, the first product with the copies and the build is
# first_s); one -info run for the pool lines; the pellr_ops GPU tests on generated matrices (overlap on and off).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-03-H200-session28/job4.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job4; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job4.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 40 build/bench/bench_spmv -matrices lap2d:1000,lap3d27:100 -formats pellrcuda -ops mult -case_time 0.02 -rebuilds 1 -matdir .gpu/matrices -time_limit 30 -csv $r/info-run.csv $dll -info :sys > $r/info-run.txt 2>&1
echo "info run exit $?"; grep -h "memory pool grown" $r/info-run.txt | cut -c1-200
L=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
for run in a b; do
  for ov in 0 1; do
    timeout 100 build/bench/bench_spmv -matrices $L -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.2 -rebuilds 5 -matdir .gpu/matrices -time_limit 90 -csv $r/spmv-overlap$ov-$run.csv $dll -mat_pellr_cuda_pool_overlap $ov > $r/spmv-overlap$ov-$run.txt 2>&1
    echo "overlap $ov run $run exit $? after $SECONDS s"; SECONDS=0
  done
done
for f in $r/spmv-overlap*.csv; do echo "== $(basename $f)"; grep -v reference $f | awk -F, 'NR>1 && $8=="pellrcuda"{print $1, $13*1e6 " us", "first", $12*1e3 " ms", $NF}'; done
timeout 150 make check TESTS='pellr_ops_cuda_gen' TESTARGS="--timeout 120 --jobs 8" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
