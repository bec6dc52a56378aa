#!/bin/bash
# session 15, job 2 (nvidia-h200): speculative numbering (-mat_gpurcm_speculate): the gpurcm tests on the GPU, the
# ordering peers with speculation on (default) and off in one run, the cuda stage trace with both numbering engines;
# the BFS-level microbenchmark again (cluster variant fixed).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session15/job2.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job2; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job2.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
S=bench/results/2026-12-01-H200-session15
SECONDS=0
(make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1) &
nvcc -O3 -arch=sm_90 -o $r/micro_bfs $S/micro/micro_bfs.cu > $r/micro-build.log 2>&1
wait
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 150 make check TESTS='gpurcm|order' TESTARGS="--timeout 90 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep -A12 "^not ok" "$r/check.log" | head -60; SECONDS=0
M=lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160
timeout 150 build/bench/bench_order -matrices $M -orderings rcm,gpurcm@cuda,gpurcm@threads:16,gpurcm@serial -reps 3 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "bench_order exit $? after $SECONDS s"; SECONDS=0
timeout 90 build/bench/bench_order -matrices $M -orderings gpurcm@cuda,gpurcm@threads:16 -reps 3 -csv $r/order-nospec.csv $dll -mat_gpurcm_speculate 0 > $r/order-nospec.txt 2>&1
echo "bench_order nospec exit $? after $SECONDS s"; SECONDS=0
timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 3 -csv $r/order-numlevels.csv $dll -mat_gpurcm_cuda_number levels > $r/order-numlevels.txt 2>&1
echo "bench_order number levels exit $? after $SECONDS s"; SECONDS=0
for nm in batch levels; do
  timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 2 $dll -mat_gpurcm_cuda_number $nm -info 2>&1 | grep -E "stages in us|speculative|repeated" > $r/trace-$nm.txt
  echo "trace $nm after $SECONDS s"; SECONDS=0
done
timeout 60 $r/micro_bfs > $r/micro.txt 2>&1; echo "micro exit $? after $SECONDS s"
sed -E 's/.*graph entries\), stages in us \(synchronized\)://' $r/trace-*.txt | grep -v speculative
for f in order order-nospec order-numlevels; do echo "== $f"; grep -E "^[a-z].*rows|^  [a-z]" $r/$f.txt | sed -E 's/ +/ /g; s/identical to rcm: //' | cut -c1-90; done
cat $r/micro.txt
