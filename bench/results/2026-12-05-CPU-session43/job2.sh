#!/bin/bash
# session 43, job 2 (one GPU; prepared in session 43, which was lent no GPU: for the next session): the GPU
# refactorization with several chains a warp (-pc_subtree_ilu_cuda_refactor_lanes 16 or 8: a warp takes a bundle of 2
# or 4 tickets of one level of the tickets' DAG, each on its own lanes, in lockstep). Every subtree_ilu test (new: the
# lanes and NaN-pivot variants), the -info line of the kernel's grid, then steady refactorizations with 32 / 16 / 8
# lanes alternated, two rounds.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-CPU-session43/job2.sh <revision>
. bench/gpujob.sh job2 "$1"
timeout 200 make check TESTS='subtreeilu' TESTARGS="--jobs 14" > $r/check.txt 2>&1
echo "check exit $? after $SECONDS s: $(tail -1 $r/check.txt)"; grep -E "^(not ok|FAIL)" $r/check.txt | head; SECONDS=0
for lanes in 32 8; do
  timeout 60 build/bench/bench_factor -matrices lap3d:100 -pcs subtree_ilu -orderings natural -levels 0 -refactor_reps 2 -reps 1 -ksp_max_rows 0 -pc_subtree_ilu_cuda_refactor_lanes $lanes -info $dll 2>&1 | grep -E "GPU refactorization" | head -4 > $r/info-lanes$lanes.txt
  cat $r/info-lanes$lanes.txt | cut -c1-400
done
for round in 1 2; do
  for lanes in 32 16 8; do
    tag=lanes$lanes-r$round
    timeout 100 build/bench/bench_factor -matrices lap2d:1000,lap3d:100,lap3d:160 -pcs subtree_ilu,subtree_icc -orderings natural,rcm -levels 0 -refactor_reps 6 -reps 2 -ksp_max_rows 0 -pc_subtree_ilu_cuda_refactor_lanes $lanes -csv $r/refactor-$tag.csv $dll > $r/refactor-$tag.txt 2>&1
    echo "$tag exit $? after $SECONDS s: $(cut -d, -f1,6,8,12 $r/refactor-$tag.csv | grep -v ^matrix | sed 's/lap//; s/,subtree_/ /; s/natural/nat/' | tr '\n' ' ')"; SECONDS=0
    timeout 60 build/bench/bench_factor -matrices lap3d:100,lap3d:160 -pcs subtree_ilu -orderings natural -levels 1 -refactor_reps 6 -reps 2 -ksp_max_rows 0 -pc_subtree_ilu_cuda_refactor_lanes $lanes -csv $r/refactor1-$tag.csv $dll > $r/refactor1-$tag.txt 2>&1
    echo "ILU(1) $tag exit $? after $SECONDS s: $(cut -d, -f1,12 $r/refactor1-$tag.csv | grep -v ^matrix | tr '\n' ' ')"; SECONDS=0
  done
done
gzip $r/*.txt
