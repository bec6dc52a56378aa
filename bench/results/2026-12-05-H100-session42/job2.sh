#!/bin/bash
# session 42, job 2 (one GPU): job 1's profile showed the 3D refactorization issue-bound (57% of issue slots busy,
# a fifth of the instructions spent polling) and the 2D one latency-bound; does a polling backoff or a smaller
# persistent grid help either? Steady refactorizations (bench_factor refactor_s) of ILU(0)/ICC(0), natural
# ordering, under -pc_subtree_ilu_cuda_backoff and -pc_subtree_ilu_cuda_blocks_per_sm, SpSV's analysis in the same run.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H100-session42/job2.sh <revision>
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
G=lap2d:1000,lap3d:100,lap3d:160
timeout 60 build/bench/bench_factor -matrices $G -pcs spsv -orderings natural -levels 0 -refactor_reps 4 -reps 3 -ksp_max_rows 0 -csv $r/spsv.csv $dll > $r/spsv.txt 2>&1
for round in 1 2; do
for o in "backoff 0" "backoff 20" "backoff 50" "backoff 100" "blocks_per_sm 4" "blocks_per_sm 6"; do
  set -- $o; tag=$1$2-r$round
  timeout 100 build/bench/bench_factor -matrices $G -pcs subtree_ilu,subtree_icc -orderings natural -levels 0 -refactor_reps 6 -reps 2 -ksp_max_rows 0 -pc_subtree_ilu_cuda_$1 $2 -csv $r/refactor-$tag.csv $dll > $r/refactor-$tag.txt 2>&1
  echo "$tag exit $? after $SECONDS s: $(cut -d, -f1,6,12 $r/refactor-$tag.csv | grep -v ^matrix | tr '\n' ' ')"; SECONDS=0
done
done
