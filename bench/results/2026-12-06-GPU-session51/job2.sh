#!/bin/bash
# session 51, job 2 (one GPU host, 16 cores): after job 1, the level sort with its final rule (auto only where more
# groups are ready a hop than the GPU holds warps; rows of more than 128 inputs in groups of their own). Every subtree_ilu
# test; which shared matrices and grids auto sorts (-info: expected none); ILU(0) apply with the sort off, automatic and
# forced on the power-law matrices (PETSc's cuSPARSE ILU(0) in the same run), alternated over two rounds; GMRES with a
# GPU refactorization round on the power-law matrices against PETSc's cuSPARSE ILU(0).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session51/job2.sh <revision>
. bench/gpujob.sh job2 "$1"
timeout 150 make check TESTS='subtreeilu' TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
SECONDS=0
timeout 60 build/bench/bench_factor -matdir .gpu/matrices -pcs subtree_ilu -orderings natural,rcm -reps 3 -refactor_reps 0 -ksp_pcs none -info :sys $dll 2>&1 | grep -E "level sort of" > $r/shared-info.txt
echo "shared info at $SECONDS s: $(grep -c 'not tried' $r/shared-info.txt) not tried, $(grep -c 'sorted$' $r/shared-info.txt) sorted, $(grep -c 'kept$' $r/shared-info.txt) kept"
timeout 90 build/bench/bench_factor -matrices lap2d:1000,lap3d:100,lap3d27:100 -pcs subtree_ilu -orderings natural,rcm -levels 0,1 -reps 3 -refactor_reps 0 -ksp_pcs none -info :sys $dll 2>&1 | grep -E "level sort of" > $r/grid-info.txt
echo "grid info at $SECONDS s: $(grep -c 'not tried' $r/grid-info.txt) not tried, $(grep -c 'sorted$' $r/grid-info.txt) sorted, $(grep -c 'kept$' $r/grid-info.txt) kept"
for round in 1 2; do
  for ls in no auto yes; do
    [ $ls = yes ] && [ $round = 2 ] && continue
    timeout 90 build/bench/bench_factor -matrices powerlaw:100k:8,powerlaw:1M:16,powerlaw:4M:8 -pcs ilu_cusparse,subtree_ilu -orderings natural -reps 20 -refactor_reps 0 -ksp_pcs none -pc_subtree_ilu_cuda_level_sort $ls -info :sys -csv $r/pl-$ls-r$round.csv $dll > $r/pl-$ls-r$round.txt 2>&1
    echo "powerlaw $ls round $round exit $? at $SECONDS s"; grep -hE "^  (subtree|ilu_cu)|level sort of" $r/pl-$ls-r$round.txt | cut -c1-170
    timeout 60 build/bench/bench_factor -matrices powerlaw:100k:8,powerlaw:1M:16 -pcs ilu_cusparse,subtree_ilu -orderings rcm -reps 20 -refactor_reps 0 -ksp_pcs none -pc_subtree_ilu_cuda_level_sort $ls -csv $r/plrcm-$ls-r$round.csv $dll > $r/plrcm-$ls-r$round.txt 2>&1
    echo "powerlaw rcm $ls round $round exit $? at $SECONDS s"; grep -hE "^  (subtree|ilu_cu)" $r/plrcm-$ls-r$round.txt | cut -c1-90
  done
done
timeout 120 build/bench/bench_factor -matrices powerlaw:1M:16,powerlaw:4M:8 -pcs ilu_cusparse,subtree_ilu -orderings natural -reps 20 -refactor_reps 3 -ksp_pcs ilu_cusparse,subtree_ilu -csv $r/pl-ksp.csv $dll > $r/pl-ksp.txt 2>&1
echo "ksp exit $? at $SECONDS s"; grep -hE "^  (subtree|ilu_cu)" $r/pl-ksp.txt | cut -c1-200
