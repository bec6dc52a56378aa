#!/bin/bash
# session 32, job 1 (nvidia-h200): training times for the format predictor with the layouts as they are now
# (diagonal slices since session 22, after the last calibration in session 21) and the training set's new grid
# stencils; then the four formats' times on the 15 large benchmark matrices (gated, as the calibration times them),
# to validate models offline on matrices the training set does not contain (bench_calibrate -evaluate, from e78af34).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-04-H200-session32/job1.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job1; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job1.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
timeout 290 build/bench/bench_calibrate -matdir .gpu/matrices -time_limit 265 -model $r/pellr.model -report $r/cv.md \
  -csv $r/calibration.csv -mat_pellr_cv_samples $r/cv-samples.csv -feature_times $r/feature_times.csv > $r/calibration.txt 2>&1
echo "calibration exit $? after $SECONDS s" | tee -a $r/info.txt; SECONDS=0; tail -n 4 $r/calibration.txt
L=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
timeout 140 build/bench/bench_calibrate -matdir .gpu/matrices -matrices $L -time_limit 120 -model $r/large.model -report $r/large-cv.md \
  -csv $r/large.csv > $r/large.txt 2>&1
echo "large set exit $? after $SECONDS s" | tee -a $r/info.txt; tail -n 3 $r/large.txt
awk -F, 'NR>1{print $1, $8, $9, $11}' $r/large.csv | head -70
# (evaluate the models on large.csv offline, on any machine: bench_calibrate -times large.csv -matrices $L -evaluate ...;
# the predictor's GPU tests run in job 2's complete make check: this job must stay under the 600 s of a command)
