#!/bin/bash
# session 51, job 1 (one GPU host, 16 cores): the level-sorted numbering of the cuda solves (-pc_subtree_ilu_cuda_level_sort).
# Every subtree_ilu test (the new cuda ones included); which shared matrices auto sorts (-info); then the ILU(0) apply
# with the sort off (no) and automatic (auto), alternated over two rounds, on power-law matrices (with PETSc's cuSPARSE
# ILU(0) in the same run; natural ordering, and RCM up to 1M rows) and on the shared matrices (natural and RCM), and
# one GPU refactorization round on the power-law matrices (the refactorization's gathers in the sorted numbering).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session51/job1.sh <revision>
. bench/gpujob.sh job1 "$1"
timeout 150 make check TESTS='subtreeilu' TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
SECONDS=0
timeout 60 build/bench/bench_factor -matdir .gpu/matrices -pcs subtree_ilu -orderings natural,rcm -reps 3 -refactor_reps 0 -ksp_pcs none -info :sys $dll 2>&1 | grep -E "level sort|^  subtree|^[a-zA-Z]" > $r/shared-info.txt
echo "shared info exit $? at $SECONDS s"; grep -c "sorted$" $r/shared-info.txt; grep "sorted$" $r/shared-info.txt | head -20
for round in 1 2; do
  for ls in no auto; do
    timeout 90 build/bench/bench_factor -matrices powerlaw:100k:8,powerlaw:1M:16,powerlaw:4M:8 -pcs ilu_cusparse,subtree_ilu -orderings natural -reps 20 -refactor_reps 0 -ksp_pcs none -pc_subtree_ilu_cuda_level_sort $ls -csv $r/pl-$ls-r$round.csv $dll > $r/pl-$ls-r$round.txt 2>&1
    echo "powerlaw $ls round $round exit $? at $SECONDS s"; grep -hE "^  (subtree|ilu_cu)" $r/pl-$ls-r$round.txt | cut -c1-90
    timeout 60 build/bench/bench_factor -matrices powerlaw:100k:8,powerlaw:1M:16 -pcs ilu_cusparse,subtree_ilu -orderings rcm -reps 20 -refactor_reps 0 -ksp_pcs none -pc_subtree_ilu_cuda_level_sort $ls -csv $r/plrcm-$ls-r$round.csv $dll > $r/plrcm-$ls-r$round.txt 2>&1
    echo "powerlaw rcm $ls round $round exit $? at $SECONDS s"; grep -hE "^  (subtree|ilu_cu)" $r/plrcm-$ls-r$round.txt | cut -c1-90
    timeout 60 build/bench/bench_factor -matdir .gpu/matrices -pcs subtree_ilu -orderings natural,rcm -reps 20 -refactor_reps 0 -ksp_pcs none -pc_subtree_ilu_cuda_level_sort $ls -csv $r/shared-$ls-r$round.csv $dll > $r/shared-$ls-r$round.txt 2>&1
    echo "shared $ls round $round exit $? at $SECONDS s"
  done
done
timeout 90 build/bench/bench_factor -matrices powerlaw:1M:16,powerlaw:4M:8 -pcs subtree_ilu -orderings natural -reps 20 -refactor_reps 3 -ksp_pcs subtree_ilu -csv $r/pl-refact.csv -info :sys $dll > $r/pl-refact.txt 2>&1
echo "refactor exit $? at $SECONDS s"; grep -hE "^  subtree|level sort|GPU refactorization" $r/pl-refact.txt | cut -c1-200 | head -20
