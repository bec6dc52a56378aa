#!/bin/bash
# session 14, job 5 (nvidia-h200): as job 4, with the level size summed inside the barrier (one atomic add per thread and level):
# gpurcm tests on 16 cores, then bench_order with 16 threads and -mat_gpurcm_owner_blocks 1, 16, 64, beside
# serial and PETSc rcm, same run (job 3 is the shared-list root finder of before on the same meshes).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session14/job5.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job5; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job5.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 100 make check TESTS='gpurcm|order' TESTARGS="--timeout 90 --jobs 4" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head; SECONDS=0
M=lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160
timeout 60 build/bench/bench_order -matrices $M -orderings rcm,gpurcm@serial -reps 3 -csv $r/order-ref.csv $dll > $r/order-ref.txt 2>&1
for b in 1 16 64; do
  timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@threads:16 -reps 3 -csv $r/order-ob$b.csv $dll -mat_gpurcm_owner_blocks $b > $r/order-ob$b.txt 2>&1
  echo "owner blocks $b exit $? after $SECONDS s"; SECONDS=0
done
for f in $r/order-ref.txt $r/order-ob*.txt; do echo "== $f"; grep -B1 phases $f | grep -v "^--" | paste - - | sed -E 's/ +/ /g; s/bandwidth [0-9]+//; s/identical to rcm: //; s/of gpurcm.s time//'; grep -E "^[a-z].*rows" $f | cut -c1-30; grep -E "^  rcm " $f; done
