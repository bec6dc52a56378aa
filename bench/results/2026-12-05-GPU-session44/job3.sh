#!/bin/bash
# session 44, job 3 (one GPU): the scan fix of the solve kernel (a row without an in-group input cuts the affine scan,
# so that a NaN earlier in the group stays out of it, as in PETSc's row-by-row solve; job 1 of session 43's folder
# found subtreeilu4_cuda_nan_ilu0 failing). Every subtree_ilu test; then applies A/B against the kernel before the fix
# (this folder's scan-cut.patch reversed, built in a copy), alternated, two rounds; then the -info line of the
# refactorization grid for RCM-ordered factors with 32 and 8 lanes (for an automatic choice of the lanes).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-GPU-session44/job3.sh <revision>
. bench/gpujob.sh job3 "$1"
old=/tmp/oldtree; rm -rf $old; cp -r . $old; rm -rf $old/build $old/gpu-job3
(cd $old && patch -R -p1 < bench/results/2026-12-05-GPU-session44/scan-cut.patch && make -j16 > $r/build-old.log 2>&1) || { tail -20 $r/build-old.log; exit 1; }
dllold="-dll_append $old/build/lib/libpetscsparsegpu.so"
echo "old build after $SECONDS s"; SECONDS=0
timeout 200 make check TESTS='subtreeilu' TESTARGS="--jobs 14" > $r/check.txt 2>&1
echo "check exit $? after $SECONDS s: $(tail -1 $r/check.txt)"; grep -E "^(not ok|FAIL)" $r/check.txt | head; SECONDS=0
for round in 1 2; do
  for v in new old; do
    d=$dll; [ $v = old ] && d=$dllold
    tag=$v-r$round
    timeout 100 build/bench/bench_factor -matrices lap2d:1000,lap3d:100,lap3d:160 -pcs subtree_ilu,subtree_icc -orderings natural,rcm -levels 0 -refactor_reps 0 -reps 3 -ksp_max_rows 0 -csv $r/apply-$tag.csv $d > $r/apply-$tag.txt 2>&1
    echo "$tag exit $? after $SECONDS s: $(cut -d, -f1,6,8,14 $r/apply-$tag.csv | grep -v ^matrix | sed 's/lap//; s/,subtree_/ /; s/natural/nat/' | tr '\n' ' ')"; SECONDS=0
  done
done
for lanes in 32 8; do
  for m in lap3d:160 lap2d:1000; do
    timeout 60 build/bench/bench_factor -matrices $m -pcs subtree_ilu -orderings rcm -levels 0 -refactor_reps 1 -reps 1 -ksp_max_rows 0 -pc_subtree_ilu_cuda_refactor_lanes $lanes -info $dll 2>&1 | grep -E "RefactSharedSizes|TraceReport" | head -3 | cut -c1-400 | tee -a $r/info-rcm.txt
  done
done
gzip $r/*.txt
