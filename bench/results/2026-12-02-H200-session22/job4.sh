#!/bin/bash
# session 22, job 4 (nvidia-h200): the diagonal slices with their offsets shared by runs of slices (aeab6c4): the
# 15 large matrices with the peers in one run (auto; the products are checked against aij), then the stencil,
# generated-matrix and ex3 GPU tests.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-02-H200-session22/job4.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job4; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job4.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
L=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
timeout 110 build/bench/bench_spmv -matrices $L -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.2 -matdir .gpu/matrices -time_limit 100 -csv $r/spmv-auto.csv $dll > $r/spmv-auto.txt 2>&1
echo "auto exit $? after $SECONDS s"; SECONDS=0
grep -v reference $r/spmv-auto.csv | awk -F, 'NR>1 && $8=="pellrcuda"{print $1, $13*1e6 " us", "mem", $21, "relerr", $22, $NF}'

timeout 120 make check TESTS='pellr_ops_cuda_stencils|ex3_cuda|pellr_ops_cuda_gen$|pellr_ops_cuda_formats_gen_sell$' TESTARGS="--timeout 110 --jobs 8" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20; grep FAILED "$r/check.log" | sort | uniq -c | head; SECONDS=0
