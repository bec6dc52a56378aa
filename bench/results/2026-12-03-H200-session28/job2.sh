#!/bin/bash
# session 28, job 2 (nvidia-h200; written in session 27, which ended before running it): the layout's memory block of a GPU-built block is kept when the layout is dropped and reused by its next
# GPU build when the new layout fits in it (-mat_pellr_cuda_reuse_block, default on); traced builds report the host
# time of every allocation of 1 MiB or more and the pool's used/reserved memory before it (is a slow allocation a
# growth of the pool?). Traces with the reuse on and off, the large set with the peers (5 rebuilds), (the tests: job 1).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-03-H200-session28/job2.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job2; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job2.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
T=lap2d:1000,lap3d27:100,lap2d:2000,lap3d:160
for reuse in 1 0; do
  timeout 50 build/bench/bench_spmv -matrices $T -formats pellrcuda -ops mult -case_time 0.02 -rebuilds 5 -matdir .gpu/matrices -time_limit 40 -csv $r/trace-host-reuse$reuse.csv $dll -mat_pellr_cuda_reuse_block $reuse -info :sys -sparsegpu_trace_host > $r/trace-host-reuse$reuse.txt 2>&1
  echo "trace reuse $reuse exit $? after $SECONDS s"; SECONDS=0
  grep -v reference $r/trace-host-reuse$reuse.csv | awk -F, 'NR>1 && $8=="pellrcuda"{print $1, $13*1e6 " us", $NF}'
done
grep -h "allocations of 1 MiB" $r/trace-host-reuse0.txt | grep -v "4096 rows" | sed 's/.*PELLR GPU build (//; s/ nonzeros), allocations of 1 MiB or more, host time (pool used\/reserved MiB before)//' | cut -c1-230
L=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
timeout 150 build/bench/bench_spmv -matrices $L -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.2 -rebuilds 5 -matdir .gpu/matrices -time_limit 140 -csv $r/spmv-auto.csv $dll > $r/spmv-auto.txt 2>&1
echo "auto exit $? after $SECONDS s"; SECONDS=0
grep -v reference $r/spmv-auto.csv | awk -F, 'NR>1 && $8=="pellrcuda"{print $1, $13*1e6 " us", "mem", $21, $NF}'
