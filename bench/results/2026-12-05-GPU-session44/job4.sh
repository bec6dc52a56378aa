#!/bin/bash
# session 44, job 4 (one GPU): the complete suite with the scan cut taken from a warp ballot (no extra shuffles) and
# the automatic lanes of the GPU refactorization (-pc_subtree_ilu_cuda_refactor_lanes 0, the new default); applies A/B
# against the scan before any fix (this folder's scan-orig.patch applied to a copy), alternated, two rounds; steady
# refactorizations with the automatic lanes against 32, two rounds; the -info lines of the automatic choice.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-GPU-session44/job4.sh <revision>
. bench/gpujob.sh job4 "$1"
old=/tmp/oldtree; rm -rf $old; cp -r . $old; rm -rf $old/build $old/gpu-job4
(cd $old && patch -p1 < bench/results/2026-12-05-GPU-session44/scan-orig.patch && make -j16 > $r/build-old.log 2>&1) || { tail -20 $r/build-old.log; exit 1; }
dllold="-dll_append $old/build/lib/libpetscsparsegpu.so"
echo "old build after $SECONDS s"; SECONDS=0
timeout 300 make check TESTARGS="--timeout 150 --jobs 14" > "$r/check.log" 2>&1
echo "check exit $? after $SECONDS s: $(tail -n 2 $r/check.log | head -1)"; grep "^not ok" "$r/check.log" | head -20; SECONDS=0
for round in 1 2; do
  for v in new old; do
    d=$dll; [ $v = old ] && d=$dllold
    tag=$v-r$round
    timeout 100 build/bench/bench_factor -matrices lap2d:1000,lap3d:100,lap3d:160 -pcs subtree_ilu,subtree_icc -orderings natural,rcm -levels 0 -refactor_reps 0 -reps 3 -ksp_max_rows 0 -csv $r/apply-$tag.csv $d > $r/apply-$tag.txt 2>&1
    echo "$tag exit $? after $SECONDS s: $(cut -d, -f1,6,8,14 $r/apply-$tag.csv | grep -v ^matrix | sed 's/lap//; s/,subtree_/ /; s/natural/nat/' | tr '\n' ' ')"; SECONDS=0
  done
done
for round in 1 2; do
  for lanes in 0 32; do
    tag=lanes$lanes-r$round
    timeout 100 build/bench/bench_factor -matrices lap2d:1000,lap3d:100,lap3d:160 -pcs subtree_ilu,subtree_icc -orderings natural,rcm -levels 0 -refactor_reps 6 -reps 2 -ksp_max_rows 0 -pc_subtree_ilu_cuda_refactor_lanes $lanes -csv $r/refactor-$tag.csv $dll > $r/refactor-$tag.txt 2>&1
    echo "$tag exit $? after $SECONDS s: $(cut -d, -f1,6,8,12 $r/refactor-$tag.csv | grep -v ^matrix | sed 's/lap//; s/,subtree_/ /; s/natural/nat/' | tr '\n' ' ')"; SECONDS=0
  done
done
for m in lap3d:100 lap3d:160 lap2d:1000; do
  for o in natural rcm; do
    timeout 60 build/bench/bench_factor -matrices $m -pcs subtree_ilu -orderings $o -levels 0 -refactor_reps 1 -reps 1 -ksp_max_rows 0 -info $dll 2>&1 | grep -E "RefactSharedSizes" | head -1 | cut -c1-300 | tee -a $r/info-auto.txt
  done
done
gzip $r/*.txt
