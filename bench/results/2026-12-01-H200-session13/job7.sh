#!/bin/bash
# session 13, job 7 (nvidia-h200): -mat_pellr_cuda_overlap read from the options database at the first product (job 6's
# A/B did not toggle it: bench_spmv's MatConvert never calls MatSetFromOptions); SpMV forced to pellr, overlap on and off.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session13/job7.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job7; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job7.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
for o in 1 0; do
  timeout 25 build/bench/bench_spmv -matrices blkdiag:bcsstk17:10M,kron:bcsstk01:bcsstk13,powerlaw:1M:16 -formats pellrcuda -ops mult -case_time 0.2 -matdir .gpu/matrices -csv $r/o$o.csv $dll -mat_pellr_format pellr -mat_pellr_cuda_overlap $o > $r/o$o.txt 2>&1
  grep "mult " $r/o$o.txt | cut -c1-60
done
