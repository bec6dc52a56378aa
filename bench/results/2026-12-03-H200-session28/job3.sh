#!/bin/bash
# session 28, job 3 (nvidia-h200): -mat_pellr_cuda_reuse_block read once from the options database (job 2 passed it to
# bench_spmv, whose matrices come from MatConvert() and never see MatSetFromOptions(), so both of its trace runs had the
# reuse on). The 15 large matrices with the peers, 5 rebuilds each, alternately with the reuse off and on (two runs
# each); then every pellr_ops GPU test (the same format rebuilt twice, reuse on and off) and ex3's GPU tests.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-03-H200-session28/job3.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job3; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job3.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
L=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
for run in a b; do
  for reuse in 0 1; do
    timeout 100 build/bench/bench_spmv -matrices $L -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.2 -rebuilds 5 -matdir .gpu/matrices -time_limit 90 -csv $r/spmv-reuse$reuse-$run.csv $dll -mat_pellr_cuda_reuse_block $reuse > $r/spmv-reuse$reuse-$run.txt 2>&1
    echo "reuse $reuse run $run exit $? after $SECONDS s"; SECONDS=0
  done
done
for f in $r/spmv-reuse*.csv; do echo "== $(basename $f)"; grep -v reference $f | awk -F, 'NR>1 && $8=="pellrcuda"{print $1, $13*1e6 " us", $NF}'; done
timeout 200 make check TESTS='pellr.*cuda|ex3_cuda' TESTARGS="--timeout 150 --jobs 8" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
