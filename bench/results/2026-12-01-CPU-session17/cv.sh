#!/bin/bash
# Offline cross-validation of the predictor from an earlier H200 calibration's times (no GPU needed): features
# recomputed here from the same generated and shared matrices, the model fitted and cross-validated by matrix.
# usage: bench/results/2026-12-01-CPU-session17/cv.sh <checkout with build/bench/bench_calibrate> <s14|s13> <outdir>
# s14: session 14 job 2 (batched samples), s13: session 13 job 4; the hardware line is each calibration's own.
b=$(realpath "$1"); d=$2; o=$3; mkdir -p "$o"; o=$(realpath "$o")
R=$(realpath "$(dirname "$0")/..")
case $d in
 s14) csv=$R/2026-12-01-H200-session14/job2/calibration.csv; hw="-hw_copy_gbs 4212 -hw_h2d_gbs 5.0 -hw_launch_s 6.51e-6";;
 s13) csv=$R/2026-12-01-H200-session13/job4/calibration.csv; hw="-hw_copy_gbs 4232 -hw_h2d_gbs 6.8 -hw_launch_s 9.52e-6";;
esac
cd "$o" && "$b/build/bench/bench_calibrate" -times "$csv" -hw_gpu "NVIDIA H200" -hw_sms 132 $hw -no_gpu -matdir "$R/../../../shared/matrices" \
  -model "$o/m.model" -report "$o/cv.md" -csv "$o/cal.csv" -mat_pellr_cv_samples "$o/cv-samples.csv" > "$o/out.txt" 2>&1
grep -A6 "^cross-validation" "$o/cv.md" | head -7
