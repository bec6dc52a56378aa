#!/bin/bash
# session 42, job 6 (one GPU): the GPU refactorization's tickets taken by level of their dependency DAG
# (-pc_subtree_ilu_cuda_refactor_level_order, new) against index order: job 1's profile showed a fifth of the 3D
# kernel's instructions spent polling, by warps holding chains far from the wavefront. Every subtree_ilu test, then
# steady refactorizations (bench_factor refactor_s) of ILU(0)/ICC(0), natural and RCM, and ILU(1) natural, on the four
# large grids, on/off alternated, two rounds; SpSV's analysis in the same run.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H100-session42/job6.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job6; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job6.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
cat $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
timeout 300 make check TESTS='subtreeilu' TESTARGS="--jobs 14" > $r/check.txt 2>&1
echo "check exit $? after $SECONDS s: $(tail -1 $r/check.txt)"; grep -E "^(not ok|FAIL)" $r/check.txt | head; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
G=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
timeout 100 build/bench/bench_factor -matrices $G -pcs spsv -orderings natural,rcm -levels 0 -refactor_reps 4 -reps 3 -ksp_max_rows 0 -csv $r/spsv.csv $dll > $r/spsv.txt 2>&1
echo "spsv exit $? after $SECONDS s"; SECONDS=0
for round in 1 2; do
  for lo in 0 1; do
    tag=order$lo-r$round
    timeout 150 build/bench/bench_factor -matrices $G -pcs subtree_ilu,subtree_icc -orderings natural,rcm -levels 0 -refactor_reps 6 -reps 2 -ksp_max_rows 0 -pc_subtree_ilu_cuda_refactor_level_order $lo -csv $r/refactor-$tag.csv -info :sys $dll > $r/refactor-$tag.txt 2>&1
    echo "$tag exit $? after $SECONDS s: $(cut -d, -f1,6,8,12 $r/refactor-$tag.csv | grep -v ^matrix | sed 's/lap//; s/,subtree_/ /; s/natural/nat/' | tr '\n' ' ')"; SECONDS=0
    timeout 100 build/bench/bench_factor -matrices $G -pcs subtree_ilu -orderings natural -levels 1 -refactor_reps 6 -reps 2 -ksp_max_rows 0 -pc_subtree_ilu_cuda_refactor_level_order $lo -csv $r/refactor1-$tag.csv $dll > $r/refactor1-$tag.txt 2>&1
    echo "ILU(1) $tag exit $? after $SECONDS s: $(cut -d, -f1,12 $r/refactor1-$tag.csv | grep -v ^matrix | tr '\n' ' ')"; SECONDS=0
  done
done
grep -h "tickets in" $r/refactor-order1-r1.txt | sed -E 's/.*refactorization: //' | cut -c1-120 | head -16
gzip $r/*.txt
