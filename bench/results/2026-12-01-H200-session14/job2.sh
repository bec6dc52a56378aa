#!/bin/bash
# session 14, job 2 (nvidia-h200): a calibration of the pellrcuda format predictor with batched GPU samples (-batch 10:
# each sample is the mean of 10 back-to-back products between one pair of CUDA events, as a Krylov loop issues them)
# and the conversion timed 3 times (-convert_reps 3, median), at this revision's kernels (overlap on);
# calibration.csv, pellr.model, cv.md; then SpMV of the 15 large matrices with pellrcuda auto using the new model,
# aijcusparse and sellcuda in the same run (compare with job 1, the built-in model).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session14/job2.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job2; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job2.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
root=$PWD; (cd $r && timeout 400 $root/build/bench/bench_calibrate -matdir $root/.gpu/matrices -batch 10 -convert_reps 3 -time_limit 330 -model $r/pellr.model -report $r/cv.md -csv $r/calibration.csv > $r/calibration.txt 2>&1)
echo "calibration exit $? after $SECONDS s"; SECONDS=0
tail -n 4 $r/calibration.txt
[ -f $r/pellr.model ] || exit 1
timeout 120 build/bench/bench_spmv -matrices lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13 \
  -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.3 -matdir .gpu/matrices -time_limit 105 -csv $r/spmv-auto.csv $dll -mat_pellr_model $r/pellr.model > $r/spmv-auto.txt 2>&1
echo "spmv auto exit $? after $SECONDS s"
python3 bench/results/2026-12-01-H200-session14/summarize_spmv.py $r
grep -i -E "within|top-1|geometric|worst|csr |ellr |sell |pellr " $r/cv.md | head -30
