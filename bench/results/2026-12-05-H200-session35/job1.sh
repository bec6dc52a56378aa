#!/bin/bash
# session 35, job 1 (nvidia-h200): session 32's job 2 after embedding session 35's version-4 calibration as the
# built-in model: auto on the 15 large matrices with the peers in one run, the same with the previous built-in model
# (version 2), the predictor's host pass on 1 and 8 threads, then the complete test suite. Reordered from session 32's
# script so that the results so far are packed before the test suite (a run cut at the time limit keeps them).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H200-session35/job1.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job1; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job1.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
L=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
timeout 100 build/bench/bench_spmv -matrices $L -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.2 -matdir .gpu/matrices -time_limit 90 -csv $r/spmv-auto-a.csv $dll -mat_view ::ascii_info > $r/spmv-auto-a.txt 2>&1
echo "auto exit $? after $SECONDS s"; SECONDS=0
timeout 60 build/bench/bench_spmv -matrices $L -formats pellrcuda -ops mult -case_time 0.2 -matdir .gpu/matrices -time_limit 55 -csv $r/spmv-auto-v2.csv $dll -mat_pellr_model src/mat/impls/pellr/models/h200-2026-11-29-v2.model > $r/spmv-auto-v2.txt 2>&1
echo "auto v2 exit $? after $SECONDS s"; SECONDS=0
for f in $r/spmv-auto-*.csv; do echo "== $(basename $f)"; grep -v reference $f | awk -F, 'NR>1{print $1, $8, $13*1e6 " us", $NF}'; done
J1=bench/results/2026-12-04-H200-session32/job1/large.csv
for t in 1 8; do
  timeout 25 build/bench/bench_calibrate -times $J1 -matrices lap2d:1000,lap3d27:100,lap2d:2000 -no_gpu -evaluate default -report /dev/null \
    -feature_times $r/feature-threads$t.csv -mat_pellr_predict_threads $t > /dev/null 2>&1; cat $r/feature-threads$t.csv
done; echo "feature threads after $SECONDS s"; SECONDS=0
tar czf "$out/job1-part.tgz" -C "$r" .
timeout 230 make check TESTARGS="--timeout 120 --jobs 14" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
