#!/bin/bash
# session 26, job 1 (nvidia-h200): SELL widths and classes from the lengths kernel, the slice and row pointers written by
# the scatter (four launches fewer), the compact columns found in the CSR before the scatter (the scatter writes the
# 16-bit offsets itself, no 32-bit copy of the columns), bench_spmv's rebuild timings (-rebuilds), and session 24's
# aaa9199 (PellrDiagonalSlicesKept) never run on a GPU: the 1M-row meshes twice, the 15 large matrices with the peers
# in one run, every GPU test but gpurcm's (the first run, at a4575d6, failed 55 GPU tests: the SELL/ELLR scatter read the
# unscanned wscan[nslices]; fixed in the revision run since; no nsys on the machine).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-03-H200-session26/job1.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job1; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job1.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; which nsys ncu; ls /usr/local/cuda/bin 2>/dev/null | tr '\n' ' '; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
T=lap2d:1000,lap2d:1000,lap3d:100,lap3d:100,lap3d27:100,lap3d27:100,lap2d:2000,lap3d:160
timeout 60 build/bench/bench_spmv -matrices $T -formats pellrcuda -ops mult -case_time 0.02 -rebuilds 5 -matdir .gpu/matrices -time_limit 50 -csv $r/trace-host.csv $dll -info :sys -sparsegpu_trace_host > $r/trace-host.txt 2>&1
echo "trace exit $? after $SECONDS s"; SECONDS=0
grep -h "PELLR GPU build" $r/trace-host.txt | grep -v "4096 rows" | sed 's/.*PELLR GPU build/PELLR GPU build/; s/memory pool reserved/pool/; s/, release threshold unlimited//' | head -30
timeout 40 build/bench/bench_spmv -matrices $T -formats pellrcuda -ops mult -case_time 0.02 -rebuilds 5 -matdir .gpu/matrices -time_limit 35 -csv $r/twice.csv $dll > $r/twice.txt 2>&1
grep -v reference $r/twice.csv | awk -F, 'NR>1{print $1, $8, $13*1e6 " us", $NF}'
L=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
timeout 120 build/bench/bench_spmv -matrices $L -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.2 -rebuilds 3 -matdir .gpu/matrices -time_limit 110 -csv $r/spmv-auto.csv $dll > $r/spmv-auto.txt 2>&1
echo "auto exit $? after $SECONDS s"; SECONDS=0
grep -v reference $r/spmv-auto.csv | awk -F, 'NR>1 && $8=="pellrcuda"{print $1, $13*1e6 " us", "mem", $21, "relerr", $22, $NF}'
# the GPU tests but gpurcm's (its code is unchanged since session 24, which passed them all)
timeout 250 make check TESTS='^(?!.*gpurcm).*cuda' TESTARGS="--timeout 150 --jobs 8" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
