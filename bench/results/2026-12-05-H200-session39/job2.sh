#!/bin/bash
# session 39, job 2 (one GPU; session 38's job 1 without its test suite, which job 1 here runs): build; the predictor's
# features' time on the host and on the GPU (the default since 5de39db) against the PELLR conversions of session 32's
# calibration run, on the 15 large matrices and on 17 smaller ones (2^10 to 2^22 rows: the sizes where the host's
# features cost most); auto with GPU and host features (the same choices expected); memcheck of the warp feature
# kernels and of gpurcm's staged upload.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H200-session39/job2.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job2; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job2.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 && make -j16 build/tests/gpurcm_identity build/tests/pellrpredict1 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
L=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
S=lap2d:32,lap3d7:10,lap2d:90,lap3d7:20,lap3d27:20,Pd,bcsstk17,e30r4000,bayer10,lap3d7:40,lap3d27:40,lap2d:256,blkdiag:bcsstk17:1M,blkdiag:e30r4000:2M,lap3d7:64,lap2d:724,kron:bcsstk01:e30r4000
J1=bench/results/2026-12-04-H200-session32/job1
timeout 100 build/bench/bench_calibrate -times $J1/large.csv -matrices $L -matdir .gpu/matrices -evaluate default -report $r/eval-large.md -feature_times $r/feature-times.csv > $r/feature-times.txt 2>&1
echo "feature times exit $? after $SECONDS s"; cat $r/feature-times.csv; SECONDS=0
timeout 50 build/bench/bench_calibrate -times $J1/calibration.csv -matrices $S -matdir .gpu/matrices -evaluate default -report /dev/null -feature_times $r/feature-times-small.csv > $r/feature-times-small.txt 2>&1
echo "feature times (smaller) exit $? after $SECONDS s"; cat $r/feature-times-small.csv; SECONDS=0
tar czf "$out/job1-part.tgz" -C "$r" .
for dev in true false; do
  timeout 60 build/bench/bench_spmv -matrices $L -formats pellrcuda -ops mult -case_time 0.1 -matdir .gpu/matrices -time_limit 55 -csv $r/spmv-auto-$dev.csv $dll -mat_pellr_predict_device $dev -info :mat > $r/spmv-auto-$dev.txt 2>&1
  echo "auto predict_device $dev exit $?"; grep -c "features computed on the GPU" $r/spmv-auto-$dev.txt
  grep -o "storage format predicted fastest: [a-z]*" $r/spmv-auto-$dev.txt > $r/choices-$dev.txt
done
cmp $r/choices-true.txt $r/choices-false.txt && echo "choices identical ($(wc -l < $r/choices-true.txt))"
echo "auto after $SECONDS s"; SECONDS=0
M=$PWD/.gpu/matrices
cases=(
  "build/tests/pellrpredict1 -dir $M -check_device -matrices bcsstk17,Pd,rajat19"
  "build/tests/gpurcm_identity -f $M/bcsstk17.mtx.gz -generated -backends cuda -mat_gpurcm_cuda_upload staged -mat_gpurcm_threads 4"
)
i=0
for c in "${cases[@]}"; do
  i=$((i+1)); echo "## memcheck: $c" >> $r/sanitizer.txt
  timeout 90 compute-sanitizer --tool memcheck --leak-check full $c > $r/memcheck-$i.log 2>&1
  echo "exit $?" >> $r/sanitizer.txt
  grep -E "ERROR SUMMARY|LEAK SUMMARY|checks passed|compared|WRONG" $r/memcheck-$i.log | head -8 >> $r/sanitizer.txt
done
echo "memcheck after $SECONDS s"; cat $r/sanitizer.txt
