#!/bin/bash
# session 41, job 3 (one GPU): gpurcm cuda's level kernels reading rows 16 bytes at a time (-mat_gpurcm_cuda_wide_loads,
# new) and the level numbering's early row loads (-mat_gpurcm_cuda_early), each on and off, alternated twice in one run
# on the 1M- and 4M-row meshes with PETSc's rcm beside; the stage traces of the four settings on 2D 1000^2 and 2000^2;
# then every gpurcm test (the new cuda_early / cuda_wide_loads cases among them).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H100-session41/job3.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job3; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job3.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
cat $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
M=lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160
for k in 1 2; do
  for s in "0 0" "1 0" "0 1" "1 1"; do
    set -- $s; w=$1; e=$2; tag=w$w-e$e-$k
    timeout 60 build/bench/bench_order -matrices $M -orderings rcm,gpurcm@cuda -reps 5 -mat_gpurcm_cuda_wide_loads $w -mat_gpurcm_cuda_early $e -csv $r/order-$tag.csv $dll > $r/order-$tag.txt 2>&1
    echo "== wide_loads $w early $e run $k: exit $? after $SECONDS s"; SECONDS=0
    grep -E "^  [a-z]" $r/order-$tag.txt | sed -E 's/ +/ /g; s/identical to rcm: //' | cut -c1-70 | paste -sd' '
  done
done
tar czf "$out/job3-part.tgz" -C "$r" .
for s in "0 0" "1 0" "0 1" "1 1"; do
  set -- $s; w=$1; e=$2
  timeout 30 build/bench/bench_order -matrices lap2d:1000,lap2d:2000 -orderings gpurcm@cuda -reps 3 -mat_gpurcm_cuda_wide_loads $w -mat_gpurcm_cuda_early $e -info :sys $dll > $r/trace-w$w-e$e.txt 2>&1
  echo "== trace wide_loads $w early $e"; grep -h "GPURCMTraceReport" $r/trace-w$w-e$e.txt | sed -E 's/.*\(([0-9]+ nodes)/\1/; s/; memory pool.*//; s/graph entries.*synchronized.: //' | cut -c1-150
done
tar czf "$out/job3-part.tgz" -C "$r" .
SECONDS=0
timeout 200 make check TESTS='gpurcm|order' TESTARGS="--timeout 120 --jobs 14" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
