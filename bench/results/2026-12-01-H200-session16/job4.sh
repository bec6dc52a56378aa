#!/bin/bash
# session 16, job 4 (nvidia-h200): -mat_pellr_cuda_compact_columns auto|on|off, default auto (16-bit only when every slice
# fits and the rows average >= 16 entries: job 3 measured 16-bit faster only there): the pellr tests and tutorials, then the 15 large matrices with auto against aijcusparse and sellcuda,
# -mat_pellr_cuda_compact_columns auto and off in the same job.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session16/job4.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job4; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job4.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 200 make check TESTS='pellr_ops_cuda|ex3_cuda' TESTARGS="--timeout 150 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep -A3 "^not ok" "$r/check.log" | head -30; SECONDS=0
I=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
for c in auto off; do
  timeout 140 build/bench/bench_spmv -matrices $I -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.3 -matdir .gpu/matrices -time_limit 125 -csv $r/spmv-auto-compact$c.csv $dll -mat_pellr_cuda_compact_columns $c > $r/spmv-auto-compact$c.txt 2>&1
  echo "spmv auto compact $c exit $? after $SECONDS s"; SECONDS=0
  python3 bench/results/2026-12-01-H200-session16/summarize_spmv.py $r spmv-auto-compact$c.csv
done
build/tutorials/ex3 -n 160 -reps 5 -mat_type pellrcuda -mat_pellr_format pellr -mat_view ::ascii_info $dll 2>&1 | grep -i "slots\|format" > $r/ex3-view.txt
