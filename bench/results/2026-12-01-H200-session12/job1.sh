#!/bin/bash
# session 12, job 1 (nvidia-h200): the complete make check at this revision (session 11's last commits never ran on
# a GPU), then subtree_ilu's apply and refactorization against the persistent grid size
# (-pc_subtree_ilu_cuda_blocks_per_sm 0 = all that fit, 1, 2, 4), with cuSPARSE SpSV and PETSc's cuSPARSE ILU in the
# same run. Run from the repository root with .gpu carried:
#   bash bench/results/2026-12-01-H200-session12/job1.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job1; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job1.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 230 make check TESTARGS="--timeout 150 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20; SECONDS=0
M=lap2d:1000,lap3d:100,lap3d:160
timeout 90 build/bench/bench_factor -matrices $M -pcs spsv,ilu_cusparse -orderings natural,rcm -levels 0 -refactor_reps 5 -reps 20 -csv $r/peers.csv $dll > $r/peers.txt 2>&1
echo "peers exit $? after $SECONDS s"; SECONDS=0
for b in 0 1 2 4; do
  timeout 60 build/bench/bench_factor -matrices $M -pcs subtree_ilu -orderings natural,rcm -levels 0 -refactor_reps 10 -reps 20 -csv $r/bps$b.csv $dll -pc_subtree_ilu_cuda_blocks_per_sm $b > $r/bps$b.txt 2>&1
  echo "blocks_per_sm $b exit $? after $SECONDS s"; SECONDS=0
done
for b in 0 1 2; do
  timeout 45 build/bench/bench_factor -matrices lap2d:1000,lap3d:100 -pcs subtree_ilu -orderings natural,rcm -levels 1 -refactor_reps 5 -reps 20 -csv $r/ilu1-bps$b.csv $dll -pc_subtree_ilu_cuda_blocks_per_sm $b > $r/ilu1-bps$b.txt 2>&1
  echo "ilu1 blocks_per_sm $b exit $? after $SECONDS s"; SECONDS=0
done
grep -H -E "apply|solve" $r/peers.txt $r/bps*.txt $r/ilu1-bps*.txt | sed 's/gmres.*//; s/setup [0-9.]* s//; s/( 20 reps, *[0-9.na]* GFLOP\/s)//; s|.*gpu-job1/||'
