#!/bin/bash
# session 40, job 3 (one GPU, whichever is lent): our CSR path against aijcusparse after making cuSPARSE's analysis with
# the product's beta (5 matrices, pellrcuda -mat_pellr_format csr, the peers in the same run); auto on the 15 large
# matrices with the calibration built in for this GPU and with the analytic fallback (forced by naming the other GPU's
# calibration file); the complete make check.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H100-session40/job3.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job3; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job3.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
C=kron:pde900:jpwh_991,blkdiag:bayer10:10M,powerlaw:1M:16,blkdiag:bcsstk17:10M,kron:bcsstk01:bcsstk13
timeout 60 build/bench/bench_spmv -matrices $C -formats aijcusparse,pellrcuda -ops mult,multadd -case_time 0.1 -matdir .gpu/matrices -time_limit 50 \
  -csv $r/spmv-csr.csv $dll -mat_pellr_format csr > $r/spmv-csr.txt 2>&1
echo "csr path exit $? after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
awk -F, '$10=="ok"{printf "%s %s %s %.1f us\n", $1, $8, $9, $13*1e6}' $r/spmv-csr.csv
tar czf "$out/job3-part.tgz" -C "$r" .
if nvidia-smi -L | grep -q H200; then other=h100; else other=h200; fi
L=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
for v in builtin analytic; do
  extra=""; [ $v = analytic ] && extra="-mat_pellr_model $PWD/src/mat/impls/pellr/models/$other.model"
  timeout 80 build/bench/bench_spmv -matrices $L -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.1 -matdir .gpu/matrices -time_limit 70 \
    -csv $r/spmv-auto-$v.csv $dll $extra -info :mat > $r/spmv-auto-$v.txt 2>&1
  echo "auto ($v) exit $? after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
  grep -o "storage format predicted fastest: [a-z]* (model [^,]*" $r/spmv-auto-$v.txt | sort | uniq -c | cut -c1-160
  tar czf "$out/job3-part.tgz" -C "$r" .
done
timeout 260 make check TESTARGS="--timeout 150 --jobs 14" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
