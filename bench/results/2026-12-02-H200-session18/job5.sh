#!/bin/bash
# session 18, job 5 (nvidia-h200, the machine of job 4 still warm, its build reused): the calibration of job 4 again
# with a time limit long enough for all 240 training matrices (job 4's 170 s skipped the 2^24-row samples), then
# pellrcuda auto with the new model on the 15 large matrices, aijcusparse and sellcuda in the same run.
# As run (one command line of the device tool, from the repository root with .gpu carried, after job4.sh):
set -u; . .gpu/setup.sh; r=${OUT:-$PWD/gpu-out}; mkdir -p $r; dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
echo "# revision f6d8914 (job 4's build, same machine), $(date -u)" > $r/info.txt; SECONDS=0
root=$PWD; (cd $r && timeout 340 $root/build/bench/bench_calibrate -matdir $root/.gpu/matrices -time_limit 320 -model $r/pellr.model -report $r/cv.md -csv $r/calibration.csv > $r/calibration.txt 2>&1)
echo "calibration exit $? after $SECONDS s"; SECONDS=0; tail -n 3 $r/calibration.txt
I=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
[ -f $r/pellr.model ] && timeout 70 build/bench/bench_spmv -matrices $I -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.3 -matdir .gpu/matrices -time_limit 60 -csv $r/spmv-new.csv $dll -mat_pellr_model $r/pellr.model > $r/spmv-new.txt 2>&1
echo "spmv exit $? after $SECONDS s"; python3 bench/results/2026-12-01-H200-session16/summarize_spmv.py $r spmv-new.csv | tail -n 16
grep -A8 '^cross-validation' $r/cv.md | head -20
