#!/bin/bash
# session 39, job 4 (one GPU, ~200 s): the threads backend's waits after the fix (-mat_gpurcm_threads_wait auto: spin
# unless the threads share cores): issue 3's ordering benchmark again (PETSc rcm, gpurcm cuda / 16 / 8 threads /
# serial, 1M and 4M rows), the wait mode chosen; then
# the gpurcm and ex3 tests (ex3_cuda_auto's filter for GPUs other than the H200); the batch sweep last.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H200-session39/job4.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job4; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job4.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; cat /proc/loadavg; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 15 build/bench/bench_order -matrices lap2d:300 -orderings gpurcm@threads:16,gpurcm@threads:8 -reps 1 $dll -info 2>&1 | grep -o "gpurcm threads: .*" | sort | uniq -c > $r/waits.txt; cat $r/waits.txt
P=rcm,gpurcm@cuda,gpurcm@threads:16,gpurcm@threads:8,gpurcm@serial
timeout 90 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160 -orderings $P -reps 3 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "bench_order exit $? after $SECONDS s"; SECONDS=0
grep -E "^[a-z].*rows|^  [a-z]|phases" $r/order.txt | sed -E 's/ +/ /g; s/identical to rcm: //' | cut -c1-120
tar czf "$out/job4-part.tgz" -C "$r" .
timeout 100 make check TESTS='gpurcm|ex3' TESTARGS="--timeout 90 --jobs 15" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
tar czf "$out/job4-part.tgz" -C "$r" .
SECONDS=0
for b in 64 128 256 512; do
  timeout 25 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap2d:2000 -orderings gpurcm@threads:16,gpurcm@threads:8 -reps 3 -mat_gpurcm_batch $b -csv $r/order-batch$b.csv $dll > $r/order-batch$b.txt 2>&1
  echo "batch $b exit $?"
done
echo "sweep after $SECONDS s"; SECONDS=0
for f in order-batch64 order-batch128 order-batch256 order-batch512; do echo "== $f"; grep -E "^[a-z].*rows|^  [a-z]|phases" $r/$f.txt | sed -E 's/ +/ /g; s/identical to rcm: //' | cut -c1-120; done
