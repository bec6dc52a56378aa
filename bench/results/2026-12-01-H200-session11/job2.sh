#!/bin/bash
# session 11, job 2 (nvidia-h200): stage trace (-info) of the GPU refactorization on the 2D and 3D grids, with and
# without the shared-memory buffer. Run from the repository root with .gpu carried:
#   bash bench/results/2026-12-01-H200-session11/job2.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job2; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job2.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
for buf in 512 0; do
  timeout 100 build/bench/bench_factor -matrices lap2d:1000,lap3d:100 -pcs subtree_ilu,subtree_icc -orderings natural -levels 0 -refactor_reps 6 -reps 5 $dll -pc_subtree_ilu_refactor_buffer $buf -info 2>&1 | grep -E "GPU refactorization|apply" | sed 's/^.*PCSubtreeILUCUDARefactor_Private(): //' > $r/trace-buf$buf.txt
  echo "buf $buf exit $? after $SECONDS s"; SECONDS=0
done
grep -E "apply" $r/trace-buf*.txt; for f in $r/trace-buf*.txt; do echo $f; awk '/GPU refact/{n++; if (n%6==0) print}' $f; done
