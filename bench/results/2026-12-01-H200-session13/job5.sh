#!/bin/bash
# session 13, job 5 (nvidia-h200): where pellrcuda's PELLR SpMV spends its time on the power-law and Kronecker matrices
# (forced -mat_pellr_format pellr): Nsight Systems per-kernel statistics of bench_spmv (diagnostic for the next step).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session13/job5.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job5; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job5.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; which nsys ncu; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
NSYS=$(command -v nsys || ls /usr/local/cuda*/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1)
for m in powerlaw:1M:16 powerlaw:4M:8 kron:pde900:jpwh_991; do
  t=$(echo $m | tr ':' '_')
  if [ -n "$NSYS" ]; then
    timeout 90 $NSYS profile -o $r/$t --force-overwrite true --stats=false build/bench/bench_spmv -matrices $m -formats pellrcuda -ops mult -case_time 0.1 -matdir .gpu/matrices $dll -mat_pellr_format pellr -mat_view ::ascii_info > $r/$t.txt 2>&1
    timeout 60 $NSYS stats --report cuda_gpu_kern_sum --format csv $r/$t.nsys-rep > $r/$t-kernels.csv 2>&1
    rm -f $r/$t.nsys-rep $r/$t.sqlite
  else
    echo "no nsys" > $r/$t-kernels.csv
  fi
  echo "$t after $SECONDS s"; SECONDS=0
  grep -E "pellr_|Time" $r/$t-kernels.csv | cut -d, -f1-9 | head -14
done
