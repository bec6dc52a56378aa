#!/bin/bash
# session 23, job 1 (nvidia-h200): the complete make check at the session-22 head (42db678, not yet run on a GPU),
# then where the pellrcuda GPU build spends its time: -info stage traces on the 15 large matrices (each of the
# 1M-row ones built twice: the second on a warm pool) and an Nsight Systems timeline of the builds of 3D 100^3
# (CUDA API calls and kernels with their times).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-02-H200-session23/job1.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job1; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job1.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; which nsys ncu; nsys --version; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
timeout 300 make check TESTARGS="--timeout 150 --jobs 8" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
L=lap2d:1000,lap2d:1000,lap3d:100,lap3d:100,lap3d27:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,lap3d:160,lap2d:4000,lap2d:4000,kron:pde900:jpwh_991,lap3d:252,lap3d27:160
timeout 90 build/bench/bench_spmv -matrices $L -formats aijcusparse,pellrcuda -ops mult -case_time 0.05 -matdir .gpu/matrices -time_limit 80 -csv $r/spmv-trace.csv $dll -info :sys > $r/spmv-trace.txt 2>&1
echo "trace exit $? after $SECONDS s"; SECONDS=0
grep -h "PELLR GPU build" $r/spmv-trace.txt | sed 's/.*PELLR GPU build/PELLR GPU build/' | head -40
grep -v reference $r/spmv-trace.csv | awk -F, 'NR>1{print $1, $8, $13*1e6 " us", $NF}'
if which nsys > /dev/null 2>&1; then
  for f in sell pellr; do
    timeout 90 nsys profile -t cuda -s none --cpuctxsw=none -o $r/nsys-$f build/bench/bench_spmv -matrices lap3d:100,lap3d:100,lap3d:100 -formats pellrcuda -ops mult -case_time 0.01 -matdir .gpu/matrices $dll -mat_pellr_format $f > $r/nsys-$f.txt 2>&1
    timeout 60 nsys stats -r cuda_api_trace,cuda_gpu_trace -f csv -o $r/nsys-$f $r/nsys-$f.nsys-rep >> $r/nsys-$f.txt 2>&1
    rm -f $r/nsys-$f.nsys-rep $r/nsys-$f.sqlite
    echo "nsys $f after $SECONDS s"; SECONDS=0
  done
fi
ls -la $r
