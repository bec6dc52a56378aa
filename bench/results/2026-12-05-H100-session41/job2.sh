#!/bin/bash
# session 41, job 2 (one GPU): gpurcm cuda's narrow levels with the next level's rows loaded while claiming
# (-mat_gpurcm_cuda_early, new) against without, alternated in one run, on the 1M- and 4M-row meshes, PETSc's rcm
# beside; the stage trace of both on 2D 1000^2; then every gpurcm test (the new cuda_early cases among them).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H100-session41/job2.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job2; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job2.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
cat $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
M=lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160
for k in 1 2; do
  for e in 0 1; do
    timeout 60 build/bench/bench_order -matrices $M -orderings rcm,gpurcm@cuda -reps 5 -mat_gpurcm_cuda_early $e -csv $r/order-early$e-$k.csv $dll > $r/order-early$e-$k.txt 2>&1
    echo "== early $e run $k: exit $? after $SECONDS s"; SECONDS=0
    grep -E "^[a-z].*rows|^  [a-z]" $r/order-early$e-$k.txt | sed -E 's/ +/ /g; s/identical to rcm: //' | cut -c1-100
  done
done
tar czf "$out/job2-part.tgz" -C "$r" .
for e in 0 1; do
  timeout 30 build/bench/bench_order -matrices lap2d:1000,lap2d:2000 -orderings gpurcm@cuda -reps 3 -mat_gpurcm_cuda_early $e -info :sys $dll > $r/trace-early$e.txt 2>&1
  echo "== trace early $e"; grep -h "GPURCMTraceReport" $r/trace-early$e.txt | sed -E 's/.*\(([0-9]+ nodes)/\1/; s/; memory pool.*//' | cut -c1-200
done
tar czf "$out/job2-part.tgz" -C "$r" .
SECONDS=0
timeout 200 make check TESTS='gpurcm|order' TESTARGS="--timeout 120 --jobs 14" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
