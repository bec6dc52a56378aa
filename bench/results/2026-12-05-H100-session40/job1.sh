#!/bin/bash
# session 40, job 1 (nvidia-h100-x1): the format predictor's first H100 calibration (until now every GPU but the H200
# fell back to the analytic model, which picks pellr where cuSPARSE's CSR is fastest on the H100: session 39 job 3):
# build; the calibration on the 255 training matrices (the same driver and training set as session 32's H200 job 1),
# writing pellr.model and the 5-fold cross-validation cv.md; the four formats' gated times on the 15 large benchmark
# matrices (large.csv, none in training: for offline evaluation); then `auto` with that calibration on the 15 large
# matrices beside aijcusparse and sellcuda in one run (bench_spmv, -mat_pellr_model pellr.model).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H100-session40/job1.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job1; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job1.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem,memory.total --format=csv; nproc; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
timeout 330 build/bench/bench_calibrate -matdir .gpu/matrices -time_limit 310 -model $r/pellr.model -report $r/cv.md \
  -csv $r/calibration.csv > $r/calibration.txt 2>&1
echo "calibration exit $? after $SECONDS s" | tee -a $r/info.txt; SECONDS=0; tail -n 4 $r/calibration.txt
tar czf "$out/job1-part.tgz" -C "$r" .
L=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
timeout 75 build/bench/bench_calibrate -matdir .gpu/matrices -matrices $L -time_limit 65 -model $r/large.model -report $r/large-cv.md \
  -csv $r/large.csv > $r/large.txt 2>&1
echo "large set exit $? after $SECONDS s" | tee -a $r/info.txt; SECONDS=0; tail -n 3 $r/large.txt
tar czf "$out/job1-part.tgz" -C "$r" .
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 95 build/bench/bench_spmv -matrices $L -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.1 -matdir .gpu/matrices -time_limit 85 \
  -csv $r/spmv-auto-h100model.csv $dll -mat_pellr_model $r/pellr.model -info :mat > $r/spmv-auto-h100model.txt 2>&1
echo "auto with the H100 calibration exit $? after $SECONDS s" | tee -a $r/info.txt
grep -o "storage format predicted fastest: [a-z]*" $r/spmv-auto-h100model.txt > $r/choices-h100model.txt; cat $r/choices-h100model.txt | sort | uniq -c
