#!/bin/bash
# session 20, job 3 (nvidia-h200): the final revision. The GPU build's temporaries in two allocations (arenas), PELLR
# reading its sizes back once after the sort (the end of the long rows stays on the device), the stream kernel's row
# blocks capped in rows: stage traces on the 15 large matrices, SpMV of the 15 with aijcusparse / sellcuda /
# pellrcuda auto in one run (build_s in the note), build_s on a cold and a warm pool for each format, and the complete
# test suite.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-02-H200-session20/job3.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job3; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job3.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
L=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
timeout 60 build/bench/bench_spmv -matrices $L -formats pellrcuda -ops mult -case_time 0.05 -matdir .gpu/matrices -time_limit 55 -csv $r/spmv-trace.csv $dll -info :sys > $r/spmv-trace.txt 2>&1
echo "trace exit $? after $SECONDS s"; SECONDS=0
grep -h "PELLR GPU build" $r/spmv-trace.txt | sed 's/.*PELLR GPU build/PELLR GPU build/' | head -40
timeout 100 build/bench/bench_spmv -matrices $L -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.2 -matdir .gpu/matrices -time_limit 90 -csv $r/spmv-auto.csv $dll -mat_view ::ascii_info > $r/spmv-auto.txt 2>&1
echo "auto exit $? after $SECONDS s"; SECONDS=0
grep -v reference $r/spmv-auto.csv | awk -F, 'NR>1{print $1, $8, $13*1e6 " us", $22, $NF}'
W=lap2d:1000,lap2d:1000,lap3d:100,lap3d:100,blkdiag:e30r4000:10M,blkdiag:e30r4000:10M
for f in sell pellr csr ellr; do
  timeout 40 build/bench/bench_spmv -matrices $W -formats pellrcuda -ops mult -case_time 0.05 -matdir .gpu/matrices -time_limit 35 -csv $r/spmv-build-$f.csv $dll -mat_pellr_format $f > $r/spmv-build-$f.txt 2>&1
  echo "build $f exit $? after $SECONDS s"; SECONDS=0
  grep -v reference $r/spmv-build-$f.csv | awk -F, 'NR>1{print $1, $13*1e6 " us", $NF}'
done
timeout 300 make check TESTARGS="--timeout 150 --jobs 8" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
