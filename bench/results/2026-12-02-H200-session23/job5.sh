#!/bin/bash
# session 23, job 5 (nvidia-h200): the final revision (job 4's cudaMalloc of large layout arrays taken back out: the
# pool for every array, the layout's arrays in one block): the 15 large matrices with the peers in one run, the
# 1M-row meshes each built twice (no -info), then the stencil, ex3, ex2 and generated-matrix GPU tests (the complete
# GPU suite ran in job 4 on the same code but for where the block's memory came from: 194 passed).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-02-H200-session23/job5.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job5; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job5.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
L=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
timeout 100 build/bench/bench_spmv -matrices $L -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.2 -matdir .gpu/matrices -time_limit 90 -csv $r/spmv-auto.csv $dll > $r/spmv-auto.txt 2>&1
echo "auto exit $? after $SECONDS s"; SECONDS=0
grep -v reference $r/spmv-auto.csv | awk -F, 'NR>1 && $8=="pellrcuda"{print $1, $13*1e6 " us", "mem", $21, "relerr", $22, $NF}'
T=lap2d:1000,lap2d:1000,lap3d:100,lap3d:100,lap3d27:100,lap3d27:100,lap2d:2000,lap2d:2000,lap3d:160,lap3d:160
timeout 30 build/bench/bench_spmv -matrices $T -formats pellrcuda -ops mult -case_time 0.02 -matdir .gpu/matrices -time_limit 25 -csv $r/twice.csv $dll > $r/twice.txt 2>&1
grep -v reference $r/twice.csv | awk -F, 'NR>1{print $1, $8, $13*1e6 " us", $NF}'
SECONDS=0
timeout 75 make check TESTS='pellr_ops_cuda_stencils|ex3_cuda|pellr_ksp_ex2_cuda|pellr_ops_cuda_gen$|pellr_ops_cuda_gen_empty_run|pellr_ops_cuda_formats_gen_ellr$|pellr_ops_cuda_formats_gen_sell$|pellr_ops_cuda_hostbuild_formats_gen_ellr' TESTARGS="--timeout 70 --jobs 8" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
