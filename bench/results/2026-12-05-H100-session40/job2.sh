#!/bin/bash
# session 40, job 2 (one GPU, an H100 80GB HBM3 if lent): the built-in calibrations and the new analytic CSR rule on the
# GPU: build; auto on the 15 large matrices beside aijcusparse and sellcuda (bench_spmv, one run each) (a) with the
# calibrations built in (the H100's since a0c58ab: -mat_view/-info name it) and (b) with the analytic fallback, forced
# by naming the H200's calibration file (598bfa4's CSR efficiency from the rows' slice padding); the predictor's
# feature times on 15 smaller matrices (blocks below 2^14 rows keep the host features since 65df864); the complete
# make check.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H100-session40/job2.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job2; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job2.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
L=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
for v in builtin analytic; do
  extra=""; [ $v = analytic ] && extra="-mat_pellr_model $PWD/src/mat/impls/pellr/models/h200.model"
  timeout 80 build/bench/bench_spmv -matrices $L -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.1 -matdir .gpu/matrices -time_limit 70 \
    -csv $r/spmv-auto-$v.csv $dll $extra -info :mat > $r/spmv-auto-$v.txt 2>&1
  echo "auto ($v) exit $? after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
  grep -o "storage format predicted fastest: [a-z]* (model [^,]*" $r/spmv-auto-$v.txt | sort | uniq -c | cut -c1-200
  tar czf "$out/job2-part.tgz" -C "$r" .
done
S=lap2d:32,lap3d7:10,lap2d:90,lap3d7:20,lap3d27:20,Pd,bcsstk17,e30r4000,bayer10,lap3d7:40,lap3d27:40,lap2d:256,blkdiag:bcsstk17:1M,blkdiag:e30r4000:2M,lap3d7:64
J1=bench/results/2026-12-04-H200-session32/job1
timeout 50 build/bench/bench_calibrate -times $J1/calibration.csv -matrices $S -matdir .gpu/matrices -evaluate default -report /dev/null -feature_times $r/feature-times-small.csv > $r/feature-times-small.txt 2>&1
echo "feature times exit $? after $SECONDS s"; cut -d, -f1-6 $r/feature-times-small.csv; SECONDS=0
tar czf "$out/job2-part.tgz" -C "$r" .
timeout 260 make check TESTARGS="--timeout 150 --jobs 14" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
