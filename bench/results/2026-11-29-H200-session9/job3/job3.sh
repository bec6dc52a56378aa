#!/bin/bash
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job3; rm -rf $r; mkdir -p $r
. .gpu/setup.sh
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
for f in pellr sell csr; do
timeout 60 build/bench/bench_spmv -matrices lap2d:1000,lap3d:100,lap3d:100,lap2d:4000,kron:bcsstk01:bcsstk13 -formats pellrcuda -ops mult -case_time 0.2 -matdir .gpu/matrices -csv "$r/spmv-$f.csv" $dll -mat_pellr_format $f -info :mat > "$r/spmv-$f.txt" 2>&1
grep "PELLR GPU build" "$r/spmv-$f.txt"
done
tar czf "$out/job3.tgz" -C "$r" .
