#!/bin/bash
# session 40, job 4 (one GPU; host measurement): what the GPU machine's 16 "cores" are (lscpu: hyperthreads?), and
# gpurcm's threads backend on 16, 8 and 4 threads against serial with the waits forced to spin and to sleep, on one
# host in one job (session 39 could not tell whether 16 threads' 1.7x serial on 2D 1000^2 came from the host or from
# spinning). Every permutation is checked against PETSc's rcm by bench_order.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H100-session40/job4.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job4; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job4.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; cat /proc/loadavg; lscpu; } > $r/info.txt 2>&1
grep -E "^CPU\(s\)|Thread\(s\) per core|Core\(s\) per socket|Socket\(s\)|Model name|NUMA node\(s\)" $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
P=gpurcm@threads:16,gpurcm@threads:8,gpurcm@threads:4,gpurcm@serial
for w in spin sleep; do
  timeout 60 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap3d27:100 -orderings $P -reps 5 -mat_gpurcm_threads_wait $w -csv $r/order-$w.csv $dll > $r/order-$w.txt 2>&1
  echo "== $w: exit $? after $SECONDS s"; SECONDS=0
  grep -E "^[a-z].*rows|^  [a-z]" $r/order-$w.txt | sed -E 's/ +/ /g; s/identical to rcm: //' | cut -c1-110
  tar czf "$out/job4-part.tgz" -C "$r" .
done
