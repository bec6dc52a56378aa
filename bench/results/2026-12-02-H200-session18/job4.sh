#!/bin/bash
# session 18, job 4 (nvidia-h200): the subtree_ilu tests after the lane path's removal (src as at 565a4ee); a new
# calibration of the pellrcuda format predictor for the kernels of session 16 (compact columns, SELL/ELLR without the
# permutation), which the built-in model predates: calibration.csv, pellr.model, cv.md; then SpMV of the 15 large
# matrices with pellrcuda auto using the new model and using the built-in model, aijcusparse and sellcuda in both runs.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-02-H200-session18/job4.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job4; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job4.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 60 make check TESTS='subtreeilu' TESTARGS="--timeout 50 --jobs 8" > "$r/check-subtreeilu.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check-subtreeilu.log"; tail -n 2 "$r/check-subtreeilu.log"; grep "^not ok" "$r/check-subtreeilu.log" | head; SECONDS=0
root=$PWD; (cd $r && timeout 230 $root/build/bench/bench_calibrate -matdir $root/.gpu/matrices -time_limit 170 -model $r/pellr.model -report $r/cv.md -csv $r/calibration.csv > $r/calibration.txt 2>&1)
echo "calibration exit $? after $SECONDS s"; SECONDS=0
tail -n 4 $r/calibration.txt
I=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
for m in new builtin; do
  [ $m = new ] && { [ -f $r/pellr.model ] || continue; mopt="-mat_pellr_model $r/pellr.model"; } || mopt=""
  timeout 110 build/bench/bench_spmv -matrices $I -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.3 -matdir .gpu/matrices -time_limit 95 -csv $r/spmv-$m.csv $dll $mopt > $r/spmv-$m.txt 2>&1
  echo "spmv $m model exit $? after $SECONDS s"; SECONDS=0
  python3 bench/results/2026-12-01-H200-session16/summarize_spmv.py $r spmv-$m.csv | tail -n 17
done
grep -i -E "within|top-1|geometric|worst" $r/cv.md | head -20
