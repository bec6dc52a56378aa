#!/bin/bash
# session 15, job 5 (nvidia-h200): the level numbering's shared-memory claims and -mat_gpurcm_cuda_number auto (default):
# gpurcm tests on the GPU; gpurcm cuda auto / batch / levels beside PETSc rcm in one run; stage traces; then the
# batch kernel rebuilt with 1024 parents per batch (GPURCM_BLOCK=1024) on the same meshes.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session15/job5.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job5; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job5.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 150 make check TESTS='gpurcm|order' TESTARGS="--timeout 90 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep -A12 "^not ok" "$r/check.log" | head -60; SECONDS=0
M=lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160
timeout 90 build/bench/bench_order -matrices $M -orderings rcm,gpurcm@cuda -reps 3 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "bench_order exit $? after $SECONDS s"; SECONDS=0
for nm in batch levels; do
  timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 3 -csv $r/order-$nm.csv $dll -mat_gpurcm_cuda_number $nm > $r/order-$nm.txt 2>&1
  echo "$nm exit $? after $SECONDS s"; SECONDS=0
done
timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 2 $dll -info 2>&1 | grep -E "stages in us|claim in|numbering auto" > $r/trace.txt
echo "trace after $SECONDS s"; SECONDS=0
touch src/mat/graphops/order/gpurcm/gpurcm.cu; make -j16 CUDAFLAGS=-DGPURCM_BLOCK=1024 > "$r/build-block1024.log" 2>&1 || tail -n 20 "$r/build-block1024.log"
timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 3 -csv $r/order-block1024.csv $dll -mat_gpurcm_cuda_number batch > $r/order-block1024.txt 2>&1
echo "block1024 exit $? after $SECONDS s"
sed -E 's/.*graph entries\), stages in us \(synchronized\)://' $r/trace.txt | grep -v claim | awk 'NR%2==0'
for f in order order-batch order-levels order-block1024; do echo "== $f"; grep -E "^[a-z].*rows|^  [a-z]" $r/$f.txt | sed -E 's/ +/ /g; s/identical to rcm: //' | cut -c1-90; done
