#!/bin/bash
# session 16, job 5 (nvidia-h200): -mat_pellr_cuda_compact_columns auto as committed (16-bit only for blocks of >= 2^24
# entries, >= 16 a row, >= 98% of the slices fitting): the compact-column tests, then auto/off/on on the matrices
# where job 3 (on) differed from off, one bench run per setting.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session16/job5.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job5; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job5.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 100 make check TESTS='pellr_ops_cuda_gen|pellr_ops_cuda_formats_gen_sell|ex3_cuda' TESTARGS="--timeout 90 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep -A3 "^not ok" "$r/check.log" | head -30; SECONDS=0
I=lap3d27:100,lap3d27:160,kron:pde900:jpwh_991,blkdiag:e30r4000:10M,lap3d:160,lap3d:252
for c in auto off on; do
  timeout 60 build/bench/bench_spmv -matrices $I -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.3 -matdir .gpu/matrices -time_limit 50 -csv $r/spmv-compact$c.csv $dll -mat_pellr_cuda_compact_columns $c > $r/spmv-compact$c.txt 2>&1
  echo "spmv compact $c exit $? after $SECONDS s"; SECONDS=0
  python3 bench/results/2026-12-01-H200-session16/summarize_spmv.py $r spmv-compact$c.csv
done
