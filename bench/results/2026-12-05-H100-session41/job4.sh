#!/bin/bash
# session 41, job 4 (one GPU): gpurcm cuda's level root finder with its narrow levels expanded by a cluster of 2, 4
# or 8 thread blocks (-mat_gpurcm_cuda_cluster, new) against one block: first the gpurcm tests (the new cuda_cluster
# cases), then the stage traces on 2D 1000^2 / 2000^2 and 3D 100^3, then bench_order with PETSc's rcm beside.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H100-session41/job4.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job4; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job4.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
cat $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 150 make check TESTS='gpurcm_identity.*cluster' TESTARGS="--timeout 100 --jobs 8" > "$r/check-cluster.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check-cluster.log"; tail -n 2 "$r/check-cluster.log"; grep -A15 "^not ok" "$r/check-cluster.log" | head -40; SECONDS=0
tar czf "$out/job4-part.tgz" -C "$r" .
for C in 1 2 4 8; do
  timeout 40 build/bench/bench_order -matrices lap2d:1000,lap2d:2000,lap3d:100 -orderings gpurcm@cuda -reps 3 -mat_gpurcm_cuda_cluster $C -info :sys $dll > $r/trace-c$C.txt 2>&1
  echo "== trace cluster $C: exit $?"; grep -h "GPURCMTraceReport" $r/trace-c$C.txt | sed -E 's/.*\(([0-9]+) nodes.*synchronized.: /\1 /; s/; memory pool.*//; s/upload [0-9.]* symcheck [0-9.]* graph [0-9.]* alloc [0-9.]* //' | cut -c1-110
  grep -h "narrow levels expanded\|identical to rcm" $r/trace-c$C.txt | sort | uniq -c | cut -c1-150
done
tar czf "$out/job4-part.tgz" -C "$r" .
M=lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160
for k in 1 2; do
  for C in 1 8; do
    timeout 60 build/bench/bench_order -matrices $M -orderings rcm,gpurcm@cuda -reps 5 -mat_gpurcm_cuda_cluster $C -csv $r/order-c$C-$k.csv $dll > $r/order-c$C-$k.txt 2>&1
    echo "== cluster $C run $k: exit $? after $SECONDS s"; SECONDS=0
    grep -E "^  [a-z]" $r/order-c$C-$k.txt | sed -E 's/ +/ /g; s/identical to rcm: //; s/bandwidth [0-9]* //' | cut -c1-60 | paste -sd' '
  done
done
timeout 200 make check TESTS='gpurcm|order' TESTARGS="--timeout 120 --jobs 14" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
