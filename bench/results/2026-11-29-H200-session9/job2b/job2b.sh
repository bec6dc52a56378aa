#!/bin/bash
# session 9, job 2b (job 2's result files were lost: at most 8 files come back): everything in one archive
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job2b; rm -rf $r; mkdir -p $r
. .gpu/setup.sh
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
big=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
SECONDS=0
timeout 100 build/bench/bench_spmv -matrices $big -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.3 -matdir .gpu/matrices -time_limit 60 -csv "$r/spmv-auto.csv" $dll > "$r/spmv-auto.txt" 2>&1
echo "spmv auto exit $? after $SECONDS s"; SECONDS=0
timeout 100 build/bench/bench_spmv -matrices $big -formats pellrcuda -ops mult -case_time 0.3 -matdir .gpu/matrices -time_limit 50 -csv "$r/spmv-pellr.csv" $dll -mat_pellr_format pellr > "$r/spmv-pellr.txt" 2>&1
echo "spmv pellr exit $? after $SECONDS s"; SECONDS=0
for ch in 1 8 32; do for bo in 0 200; do
  timeout 30 build/bench/bench_factor -matrices lap3d:100 -pcs subtree_ilu -orderings natural -levels 0 -reps 20 -csv "$r/f_lap3d100_c${ch}_b${bo}.csv" $dll -pc_subtree_ilu_cuda_chain $ch -pc_subtree_ilu_cuda_backoff $bo > /dev/null 2>&1
done; done
echo "factor sweep after $SECONDS s"
tar czf "$out/job2b.tgz" -C "$r" .
