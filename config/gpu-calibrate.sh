#!/bin/bash
# Calibration of the pellrcuda format predictor on the GPU machine, in one command (after ../shared/gpu/stage.sh
# here; carry .gpu):
#   bash config/gpu-calibrate.sh [REVISION-LABEL]
# Builds the library and the benchmark drivers with 16 cores, runs bench_calibrate (times pellr/sell/ellr/csr on the training set, fits the model, writes
# pellr.model, cross-validates by matrix) and then bench_spmv on the large benchmark set with aijcusparse, sellcuda
# and pellrcuda in auto mode using the new model, then the GPU tests selected by the TESTS regex. Everything lands in $OUT (the device tool's output folder) or
# ./gpu-out: build.log, tests.log, calibration.csv, calibration.txt, cv.md, pellr.model, spmv.csv, spmv.txt.
# CAL_TIME and SPMV_TIME (seconds of measurement) bound the two stages.
set -u
out=${OUT:-$PWD/gpu-out}
mkdir -p "$out"
. .gpu/setup.sh
{ echo "# revision ${1:-unknown}, $(date -u)"; nvidia-smi -L; } > "$out/calibration.txt"
make -j16 > "$out/build.log" 2>&1 || { tail -n 40 "$out/build.log"; exit 1; }
make -C bench -j16 >> "$out/build.log" 2>&1 || { tail -n 40 "$out/build.log"; exit 1; }
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout $((${CAL_TIME:-180} + 60)) build/bench/bench_calibrate -matdir .gpu/matrices -time_limit "${CAL_TIME:-180}" \
  -model "$out/pellr.model" -report "$out/cv.md" -csv "$out/calibration.csv" >> "$out/calibration.txt" 2>&1
echo "calibration exit status $?" | tee -a "$out/calibration.txt"
tail -n 3 "$out/calibration.txt"
if [ -f "$out/pellr.model" ]; then
  timeout $((${SPMV_TIME:-100} + 60)) build/bench/bench_spmv -matrices lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13 \
    -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.5 -matdir .gpu/matrices -time_limit "${SPMV_TIME:-100}" \
    -csv "$out/spmv.csv" $dll -mat_pellr_model "$out/pellr.model" -mat_view ::ascii_info > "$out/spmv.txt" 2>&1
  echo "bench_spmv exit status $?" | tee -a "$out/calibration.txt"
fi
if [ -n "${TESTS:-}" ]; then
  timeout "${TEST_LIMIT:-150}" make check TESTS="$TESTS" TESTARGS="--timeout 100" > "$out/tests.log" 2>&1
  echo "# make check exit status $?" >> "$out/tests.log"
  tail -n 2 "$out/tests.log"
fi
