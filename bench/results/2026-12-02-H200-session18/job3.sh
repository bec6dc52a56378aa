#!/bin/bash
# session 18, job 3 (nvidia-h200): the GPU refactorization's lane path under the polling backoff and persistent grid
# sizes (-pc_subtree_ilu_cuda_backoff, -pc_subtree_ilu_cuda_blocks_per_sm), ILU(0), natural and RCM, against the
# warp path; is the lane path bound by its own instructions or by the polling?
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-02-H200-session18/job3.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job3; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job3.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
G=lap2d:1000,lap3d:100,lap3d:160
run() { # name, options
  local n=$1; shift
  timeout 40 build/bench/bench_factor -matrices $G -pcs subtree_ilu -orderings natural,rcm -levels 0 -refactor_reps 6 -reps 3 -ksp_max_rows 0 -csv $r/sweep-$n.csv $dll "$@" > $r/sweep-$n.txt 2>&1
  echo "== $n ($*): exit $? after $SECONDS s"; SECONDS=0
  grep -E "refactor" $r/sweep-$n.txt | sed 's/apply.*setup [0-9.]* s//'
}
run lanes
run lanes-backoff200 -pc_subtree_ilu_cuda_backoff 200
run lanes-backoff1000 -pc_subtree_ilu_cuda_backoff 1000
run lanes-bps2 -pc_subtree_ilu_cuda_blocks_per_sm 2
run warps -pc_subtree_ilu_cuda_refactor_lanes 0
run warps-bps2 -pc_subtree_ilu_cuda_refactor_lanes 0 -pc_subtree_ilu_cuda_blocks_per_sm 2
