#!/bin/bash
# session 42, job 5 (one GPU): job 4 found subtree_ilu's cuda setup shorter on the 1M-row grids but 0.09-0.18 s longer
# on 3D 160^3 after b9eba33. Which half does it: three libraries, alternated, three rounds, bench_factor's first setups
# of ILU(0)/ICC(0) on the four large grids: "before" (the three subtree_ilu files as at ee2c96f), "onepass" (only the
# one-pass schedule: subtreeilu.c as at ee2c96f) and "both" (b9eba33: the schedules also made beside the columns).
# job4-before/ as in job 4 (not committed). Run with .gpu carried:  bash bench/results/2026-12-05-H100-session42/job5.sh <rev>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job5; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job5.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
cat $r/info.txt
B=bench/results/2026-12-05-H100-session42/job4-before; S=src/ksp/pc/impls/subtreeilu
SECONDS=0
mkdir -p keep; for f in subtreeilu.c subtreeilugroups.c subtreeiluimpl.h; do cp $S/$f keep/; done
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
rm -rf lib-both; cp -r build/lib lib-both
cp $B/subtreeilu.c $S/; make -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
rm -rf lib-onepass; cp -r build/lib lib-onepass
cp $B/subtreeilugroups.c $B/subtreeiluimpl.h $S/; make -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
rm -rf lib-before; cp -r build/lib lib-before
for f in subtreeilu.c subtreeilugroups.c subtreeiluimpl.h; do cp keep/$f $S/; done
echo "builds after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
G=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
for round in 1 2 3; do
  for v in before onepass both; do
    tag=$v-r$round
    timeout 120 build/bench/bench_factor -matrices $G -pcs subtree_ilu,subtree_icc -orderings natural -levels 0 -refactor_reps 2 -reps 2 -ksp_max_rows 0 -csv $r/setup-$tag.csv -dll_append $PWD/lib-$v/libpetscsparsegpu.so -info :sys > $r/setup-$tag.txt 2>&1
    echo "$tag exit $? after $SECONDS s: $(cut -d, -f1,6,11 $r/setup-$tag.csv | grep -v ^matrix | sed 's/lap//; s/,subtree_/ /' | tr '\n' ' ')"; SECONDS=0
  done
done
