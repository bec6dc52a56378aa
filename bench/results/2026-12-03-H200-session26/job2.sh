#!/bin/bash
# session 26, job 2 (nvidia-h200): job 1's rebuilds were noisy (host-side stalls of 200-300 us in a third of the
# builds, in the stages with the layout's allocation, and a steady one in the first stage of the 3D 160^3 rebuilds);
# here the copy of a host CSR waits for its last DMA inside PELLRCopyToGPU (cudaMemcpy from pageable memory returns
# before it ends), a trace stage "layout alloc" shows the allocation's host time, bench_spmv counts the memory before
# the rebuilds (job 1's mem column was wrong: the rebuilds ran before it) and takes the median of 5 rebuilds.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-03-H200-session26/job2.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job2; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job2.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
T=lap2d:1000,lap3d27:100,lap3d27:100,lap2d:2000,lap3d:160
timeout 50 build/bench/bench_spmv -matrices $T -formats pellrcuda -ops mult -case_time 0.02 -rebuilds 5 -matdir .gpu/matrices -time_limit 40 -csv $r/trace-host.csv $dll -info :sys -sparsegpu_trace_host > $r/trace-host.txt 2>&1
echo "trace exit $? after $SECONDS s"; SECONDS=0
grep -h "PELLR GPU build" $r/trace-host.txt | grep -v "4096 rows" | sed 's/.*PELLR GPU build (//; s/ nonzeros), stages in us (host, not synchronized)//; s/memory pool reserved/pool/; s/, release threshold unlimited//' | cut -c1-190
L=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
timeout 140 build/bench/bench_spmv -matrices $L -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.2 -rebuilds 5 -matdir .gpu/matrices -time_limit 130 -csv $r/spmv-auto.csv $dll > $r/spmv-auto.txt 2>&1
echo "auto exit $? after $SECONDS s"; SECONDS=0
grep -v reference $r/spmv-auto.csv | awk -F, 'NR>1 && $8=="pellrcuda"{print $1, $13*1e6 " us", "mem", $21, $NF}'
timeout 60 make check TESTS='pellr_ops_cuda_gen$|pellr_ops_cuda_shared$|ex3_cuda$' TESTARGS="--timeout 50 --jobs 8" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"
