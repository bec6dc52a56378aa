#!/bin/bash
# session 15, job 4 (nvidia-h200): the fast narrow levels of the level numbering, narrow 1024 by default: gpurcm tests
# on the GPU; ordering peers in one run (PETSc rcm, gpurcm cuda with batch and with level numbering, 16 threads,
# serial); stage traces of both numberings.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session15/job4.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job4; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job4.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 150 make check TESTS='gpurcm|order' TESTARGS="--timeout 90 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep -A12 "^not ok" "$r/check.log" | head -60; SECONDS=0
M=lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160
timeout 120 build/bench/bench_order -matrices $M -orderings rcm,gpurcm@cuda,gpurcm@threads:16,gpurcm@serial -reps 3 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "bench_order exit $? after $SECONDS s"; SECONDS=0
timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 3 -csv $r/order-numlevels.csv $dll -mat_gpurcm_cuda_number levels > $r/order-numlevels.txt 2>&1
echo "numlevels exit $? after $SECONDS s"; SECONDS=0
for nm in batch levels; do
  timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 2 $dll -info -mat_gpurcm_cuda_number $nm 2>&1 | grep -E "stages in us" > $r/trace-$nm.txt
  echo "trace $nm after $SECONDS s"; SECONDS=0
done
for f in $r/trace-*.txt; do echo "== $f"; sed -E 's/.*graph entries\), stages in us \(synchronized\)://' $f | awk 'NR%2==0'; done
for f in order order-numlevels; do echo "== $f"; grep -E "^[a-z].*rows|^  [a-z]" $r/$f.txt | sed -E 's/ +/ /g; s/identical to rcm: //' | cut -c1-90; done
