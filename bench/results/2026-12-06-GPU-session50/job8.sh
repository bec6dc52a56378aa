#!/bin/bash
# session 50, job 8 (one GPU host, 16 cores): a block of the solve kernel takes several block tickets with one atomic
# (-pc_subtree_ilu_cuda_grab, 0 = automatic). Every subtree_ilu test and tutorial (new: grab 8, 3, 5 forced); then
# grab 1 (the former behaviour), automatic, 2, 4, 8 on the power-law matrices (job 3's analysis: the apply of
# powerlaw:4M:8 is bound by the rate of one-row tickets), two rounds for 1 and automatic; the grids with 1 and
# automatic (which should take 1 there). -info says what automatic took.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session50/job8.sh <revision>
. bench/gpujob.sh job8 "$1"
timeout 150 make check TESTS='subtreeilu|tutorials' TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
SECONDS=0
run() { # name, grab, matrices, extra
  timeout 80 build/bench/bench_factor -matrices $3 -pcs ilu_cusparse,subtree_ilu -orderings natural -reps 20 -refactor_reps 0 -ksp_pcs none -pc_subtree_ilu_cuda_grab $2 -csv $r/$1.csv $dll -info :sys > $r/$1.txt 2>&1
  echo "$1 grab $2 exit $? at $SECONDS s"; grep -hE "^  subtree|block tickets at once" $r/$1.txt | cut -c1-120
}
for round in 1 2; do
  run pl-g1-r$round 1 powerlaw:100k:8,powerlaw:1M:16,powerlaw:4M:8
  run pl-g0-r$round 0 powerlaw:100k:8,powerlaw:1M:16,powerlaw:4M:8
done
for g in 2 4 8; do run pl-g$g $g powerlaw:1M:16,powerlaw:4M:8; done
for g in 1 0; do
  timeout 60 build/bench/bench_factor -matrices lap2d:1000,lap3d:100 -pcs subtree_ilu -orderings natural,rcm -reps 20 -refactor_reps 0 -ksp_pcs none -pc_subtree_ilu_cuda_grab $g -csv $r/grid-g$g.csv $dll -info :sys > $r/grid-g$g.txt 2>&1
  echo "grids grab $g exit $? at $SECONDS s"; grep -hE "^  subtree|block tickets at once" $r/grid-g$g.txt | cut -c1-120
done
