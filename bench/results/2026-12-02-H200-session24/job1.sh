#!/bin/bash
# session 24, job 1 (nvidia-h200): session 23's final GPU code (aa8921d: the layout block from the memory pool, fewer CUDA calls, the
# diagonal slices found in the CSR) and bench_spmv's warm-up in every storage format, never run on a GPU before:
# host-only stage traces on the 1M-row meshes (each built twice), the same without -info, the 15 large matrices with
# the peers in one run, every GPU test.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-02-H200-session24/job1.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job1; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job1.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
T=lap2d:1000,lap2d:1000,lap3d:100,lap3d:100,lap3d27:100,lap3d27:100,lap2d:2000,lap2d:2000,lap3d:160,lap3d:160
timeout 60 build/bench/bench_spmv -matrices $T -formats pellrcuda -ops mult -case_time 0.02 -matdir .gpu/matrices -time_limit 50 -csv $r/trace-host.csv $dll -info :sys -sparsegpu_trace_host > $r/trace-host.txt 2>&1
echo "trace exit $? after $SECONDS s"; SECONDS=0
grep -h "PELLR GPU build" $r/trace-host.txt | sed 's/.*PELLR GPU build/PELLR GPU build/; s/memory pool reserved/pool/; s/, release threshold unlimited//'
timeout 40 build/bench/bench_spmv -matrices $T -formats pellrcuda -ops mult -case_time 0.02 -matdir .gpu/matrices -time_limit 35 -csv $r/twice.csv $dll > $r/twice.txt 2>&1
grep -v reference $r/twice.csv | awk -F, 'NR>1{print $1, $8, $13*1e6 " us", $NF}'
L=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
timeout 110 build/bench/bench_spmv -matrices $L -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.2 -matdir .gpu/matrices -time_limit 100 -csv $r/spmv-auto.csv $dll > $r/spmv-auto.txt 2>&1
echo "auto exit $? after $SECONDS s"; SECONDS=0
grep -v reference $r/spmv-auto.csv | awk -F, 'NR>1 && $8=="pellrcuda"{print $1, $13*1e6 " us", "mem", $21, "relerr", $22, $NF}'
timeout 280 make check TESTS='cuda' TESTARGS="--timeout 150 --jobs 8" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
