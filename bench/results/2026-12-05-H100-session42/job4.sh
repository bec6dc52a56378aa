#!/bin/bash
# session 42, job 4 (one GPU): subtree_ilu's cuda setup before (ee2c96f) and after (b9eba33) the one-pass solve
# schedule made beside the columns of its triangle: every subtree_ilu test on the new code, then bench_factor's first
# setups of ILU(0)/ICC(0) on the four large grids (natural ordering) with both libraries, alternated, three rounds,
# PETSc's cuSPARSE ILU(0)/ICC(0) in the same runs; -info for the build's and the schedules' times.
# job4-before/ holds the three subtree_ilu files as at ee2c96f (made with `git show ee2c96f:src/ksp/pc/impls/subtreeilu/F`;
# not committed). Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H100-session42/job4.sh <rev>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job4; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job4.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
cat $r/info.txt
B=bench/results/2026-12-05-H100-session42/job4-before
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
rm -rf lib-after; cp -r build/lib lib-after
echo "build after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
timeout 300 make check TESTS='subtreeilu' TESTARGS="--jobs 14" > $r/check.txt 2>&1
echo "check exit $? after $SECONDS s: $(tail -1 $r/check.txt)"; grep -E "^(not ok|FAIL)" $r/check.txt | head; SECONDS=0
mkdir -p keep; for f in subtreeilu.c subtreeilugroups.c subtreeiluimpl.h; do cp src/ksp/pc/impls/subtreeilu/$f keep/; cp $B/$f src/ksp/pc/impls/subtreeilu/$f; done
make -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
rm -rf lib-before; cp -r build/lib lib-before
for f in subtreeilu.c subtreeilugroups.c subtreeiluimpl.h; do cp keep/$f src/ksp/pc/impls/subtreeilu/$f; done
echo "build before after $SECONDS s"; SECONDS=0
G=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
for round in 1 2 3; do
  for v in before after; do
    tag=$v-r$round
    timeout 120 build/bench/bench_factor -matrices $G -pcs subtree_ilu,subtree_icc$([ $round = 1 ] && echo ,ilu_cusparse,icc_cusparse) -orderings natural -levels 0 -refactor_reps 2 -reps 2 -ksp_max_rows 0 -csv $r/setup-$tag.csv -dll_append $PWD/lib-$v/libpetscsparsegpu.so -info :sys > $r/setup-$tag.txt 2>&1
    echo "$tag exit $? after $SECONDS s: $(cut -d, -f1,6,11 $r/setup-$tag.csv | grep -v ^matrix | sed 's/lap//; s/,subtree_/ /' | tr '\n' ' ')"; SECONDS=0
    grep -h "schedules of U and L\|structures of" $r/setup-$tag.txt | sed -E 's/.*(PCSUBTREEILU)/\1/' | cut -c1-200 | head -8
  done
done
