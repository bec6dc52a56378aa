#!/bin/bash
# session 12, job 4 (nvidia-h200): second A/B of the solve kernel's phase 1 (job 3: hoisting phase 2 before the waits was slower, polling a batch together faster on RCM):
# SUBTREEILU_HOIST 0 (phase 2 after the waits) or 2 (its loads before, its warp vote after), SUBTREEILU_POLLALL 0, 1 or 2
# (2: a single input polled plainly), the kernel held to 64 registers (4 blocks per SM); same schedule; ILU(0) apply on 2D 1000^2, 3D 100^3 (natural, RCM)
# and 3D 160^3 natural. Run from the repository root with .gpu carried:
#   bash bench/results/2026-12-01-H200-session12/job4.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job4; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job4.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
for v in "0 0" "0 1" "0 2" "2 1" "2 2"; do
  set -- $v; tag=h$1p$2
  touch src/ksp/pc/impls/subtreeilu/subtreeilu.cu
  make -j16 CUDAFLAGS="-DSUBTREEILU_HOIST=$1 -DSUBTREEILU_POLLALL=$2" >> "$r/build.log" 2>&1 || { tail -n 20 "$r/build.log"; exit 1; }
  dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
  timeout 40 build/bench/bench_factor -matrices lap2d:1000,lap3d:100 -pcs subtree_ilu -orderings natural,rcm -levels 0 -refactor_reps 0 -reps 20 -csv $r/$tag.csv $dll > $r/$tag.txt 2>&1
  timeout 30 build/bench/bench_factor -matrices lap3d:160 -pcs subtree_ilu -orderings natural -levels 0 -refactor_reps 0 -reps 20 -csv $r/$tag-160.csv $dll > $r/$tag-160.txt 2>&1
  echo "variant $tag after $SECONDS s"; SECONDS=0
done
grep -H -E "apply" $r/h*.txt | sed 's/gmres.*//; s/setup [0-9.]* s//; s/refactor.*//; s|.*gpu-job4/||'
