#!/bin/bash
# session 21, job 1 (nvidia-h200): how reproducible the predictor's training times are. The small training set
# (2^10..2^14 rows and the real matrices) calibrated four times in one run, alternating gated timings (-gate 1: the
# stream is held until every timed product is enqueued, so the events measure device time) and the timings of
# sessions 9-18 (-gate 0: host enqueueing included); then the full training set, gated, with every sample's
# cross-validated prediction (-mat_pellr_cv_samples).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-02-H200-session21/job1.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job1; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job1.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
C="build/bench/bench_calibrate -matdir .gpu/matrices"
for run in a b; do
  for g in 1 0; do
    timeout 80 $C -set small -gate $g -time_limit 70 -csv $r/small-gate$g-$run.csv -model $r/small-gate$g-$run.model -report $r/small-gate$g-$run-cv.md > $r/small-gate$g-$run.txt 2>&1
    echo "small gate $g run $run exit $? after $SECONDS s"; SECONDS=0
  done
done
timeout 360 $C -gate 1 -time_limit 330 -csv $r/calibration.csv -model $r/pellr.model -report $r/cv.md -mat_pellr_cv_samples $r/cv-samples.csv > $r/calibration.txt 2>&1
echo "full calibration exit $? after $SECONDS s"; SECONDS=0
tail -n 3 $r/calibration.txt; cat $r/cv.md | head -20
