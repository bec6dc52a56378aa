#!/bin/bash
# session 9, job 1: GPU tests of the unverified pellr/predictor/ex3 paths, new calibration, auto validation, ordering phases
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; which nsys ncu compute-sanitizer; } > "$out/calibration.txt" 2>&1
make -j16 > "$out/build.log" 2>&1 || { tail -n 40 "$out/build.log"; exit 1; }
make -C bench -j16 >> "$out/build.log" 2>&1 || { tail -n 40 "$out/build.log"; exit 1; }
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
SECONDS=0
timeout 110 make check TESTS='pellr_ops_cuda|pellrpredict|ex3_cuda|pellrcalibrate' TESTARGS="--timeout 100" > "$out/tests.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$out/tests.log"; tail -n 3 "$out/tests.log"
SECONDS=0
timeout 40 build/bench/bench_order -matrices lap2d:1000,lap3d:100 -orderings rcm,gpurcm@cuda,gpurcm@threads:16,gpurcm@threads:8,gpurcm@serial -reps 3 -csv "$out/order.csv" $dll -log_view > "$out/order.txt" 2>&1
echo "order exit $? after $SECONDS s"
SECONDS=0
timeout 220 build/bench/bench_calibrate -matdir .gpu/matrices -time_limit 160 -model "$out/pellr.model" -report "$out/cv.md" -csv "$out/calibration.csv" >> "$out/calibration.txt" 2>&1
echo "calibration exit status $? after $SECONDS s" | tee -a "$out/calibration.txt"
SECONDS=0
[ -f "$out/pellr.model" ] && timeout 130 build/bench/bench_spmv -matrices lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13 \
    -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.4 -matdir .gpu/matrices -time_limit 70 \
    -csv "$out/spmv.csv" $dll -mat_pellr_model "$out/pellr.model" -mat_view ::ascii_info > "$out/spmv.txt" 2>&1
echo "bench_spmv exit status $? after $SECONDS s"
