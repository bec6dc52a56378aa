#!/bin/bash
# session 45, job 3 (one GPU; session 44's job5.sh): the automatic lanes of the GPU refactorization (-pc_subtree_ilu_cuda_refactor_lanes 0)
# where job 4 did not measure them: ILU(1)/ICC(1) with RCM on 3D 7-point 100³ and 160³ and 27-point 100³, and
# ILU(0)/ICC(0) on 27-point 100³ (natural, RCM); automatic against 32, 8 and 16, then a second round of 32 and
# automatic while time is left. The -info line of each automatic choice is kept. Since c5e30bc the automatic choice
# keeps 32 where the factor's rows are longer than the lanes (these cases): this job shows whether 8 or 16 would win.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-GPU-session45/job3.sh <revision>
. bench/gpujob.sh job3 "$1"
total=0
for tag in 32-r1 0-r1 8-r1 16-r1 0-r2 32-r2; do
  lanes=${tag%-r*}
  [ $total -gt 330 ] && { echo "skipping $tag: $total s used"; continue; }
  SECONDS=0
  timeout 80 build/bench/bench_factor -matrices lap3d:100,lap3d27:100,lap3d:160 -pcs subtree_ilu,subtree_icc -orderings rcm -levels 1 -refactor_reps 4 -reps 1 -ksp_max_rows 0 -pc_subtree_ilu_cuda_refactor_lanes $lanes -csv $r/refactor1-lanes$tag.csv -info $dll > $r/refactor1-lanes$tag.txt 2>&1
  echo "L1 lanes $tag exit $? after $SECONDS s: $(cut -d, -f1,6,12 $r/refactor1-lanes$tag.csv | grep -v ^matrix | sed 's/lap//; s/,subtree_/ /' | tr '\n' ' ')"
  timeout 60 build/bench/bench_factor -matrices lap3d27:100 -pcs subtree_ilu,subtree_icc -orderings natural,rcm -levels 0 -refactor_reps 4 -reps 1 -ksp_max_rows 0 -pc_subtree_ilu_cuda_refactor_lanes $lanes -csv $r/refactor0-lanes$tag.csv -info $dll > $r/refactor0-lanes$tag.txt 2>&1
  echo "L0 lanes $tag exit $? after $SECONDS s: $(cut -d, -f1,6,8,12 $r/refactor0-lanes$tag.csv | grep -v ^matrix | sed 's/lap//; s/,subtree_/ /' | tr '\n' ' ')"
  total=$((total + SECONDS))
done
grep -h "RefactSharedSizes" $r/refactor*-lanes0-r1.txt | cut -c1-300 | tee $r/info-auto.txt
for f in $r/refactor*.txt; do grep -v "^\[0\] <sys>" $f | grep -v "^\[0\] Petsc" > $f.tmp; grep -h "RefactSharedSizes" $f >> $f.tmp; mv $f.tmp $f; done
gzip $r/*.txt
