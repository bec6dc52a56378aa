#!/bin/bash
# session 38, job 2 (one GPU; the short form of job 1 for the device time left after failed starts): build; the
# complete test suite (with the predictor's GPU feature tests: warp and thread kernels against the host's features;
# the host code of sessions 37-38 and the shared staged upload PetscSparseGPUUpload() have not run on a GPU yet);
# then the features' time on the 15 large matrices (host and GPU) if time remains.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H200-session38/job2.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job2; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job2.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
timeout 240 make check TESTARGS="--timeout 120 --jobs 15" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
tar czf "$out/job2-part.tgz" -C "$r" .
SECONDS=0
L=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
timeout 100 build/bench/bench_calibrate -times bench/results/2026-12-04-H200-session32/job1/large.csv -matrices $L -matdir .gpu/matrices -evaluate default -report $r/eval-large.md -feature_times $r/feature-times.csv > $r/feature-times.txt 2>&1
echo "feature times exit $? after $SECONDS s"; cat $r/feature-times.csv
