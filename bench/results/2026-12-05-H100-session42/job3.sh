#!/bin/bash
# session 42, job 3 (one GPU): job 2 found the 3D refactorizations faster with more resident blocks (4 / 6 / 9 per
# multiprocessor: 3D 100^3 ILU(0) 1.76 / 1.43 / 1.31 ms), and the kernel is register-limited at 9 (56 registers).
# The same refactorizations with the kernel's registers capped by __launch_bounds__ minimum blocks
# (-DSUBTREEILU_RK_MINBLOCKS=N: 12 -> 40 registers, 16 -> 32 registers, both with spills), two rounds, alternated.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H100-session42/job3.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job3; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job3.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
cat $r/info.txt
SECONDS=0
make -C bench -j16 > "$r/build.log" 2>&1
G=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
for mb in 1 12 16; do
  rm -rf build-mb$mb; touch src/ksp/pc/impls/subtreeilu/subtreeilu.cu
  [ $mb = 1 ] && f="" || f="-DSUBTREEILU_RK_MINBLOCKS=$mb"
  make -j16 CUDAFLAGS="$f" >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
  cp -r build/lib build-mb$mb
  echo "build mb$mb after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
done
for round in 1 2; do
for mb in 1 12 16; do
  tag=mb$mb-r$round
  timeout 100 build/bench/bench_factor -matrices $G -pcs subtree_ilu,subtree_icc -orderings natural -levels 0 -refactor_reps 6 -reps 2 -ksp_max_rows 0 -csv $r/refactor-$tag.csv -dll_append $PWD/build-mb$mb/libpetscsparsegpu.so -info :sys > $r/refactor-$tag.txt 2>&1
  echo "$tag exit $? after $SECONDS s: $(cut -d, -f1,6,12 $r/refactor-$tag.csv | grep -v ^matrix | tr '\n' ' ')"; SECONDS=0
  grep -h "blocks of" $r/refactor-$tag.txt | sed -E 's/.*refactorization: //' | head -8
done
done
