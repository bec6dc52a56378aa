#!/bin/bash
# session 42, job 8 (one GPU): the refactorization's ticket order made on the setup threads (each ticket's list of the
# tickets it depends on, then the levels in one pass over those lists): jobs 6-7 made it in one sequential pass over
# every elimination step, which lengthened the first refactorization (3D 160^3 ILU(0): ~0.14 s in jobs 4-5, 0.19-0.38 s
# in jobs 6-7). Every subtree_ilu test, then bench_factor's first and steady refactorizations of ILU(0)/ICC(0) on
# the four large grids (natural ordering), two rounds, as in jobs 4-5.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H100-session42/job8.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job8; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job8.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
cat $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
timeout 150 make check TESTS='subtreeilu' TESTARGS="--jobs 14" > $r/check.txt 2>&1
echo "check exit $? after $SECONDS s: $(tail -1 $r/check.txt)"; grep -E "^(not ok|FAIL)" $r/check.txt | head; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
for round in 1 2; do
  timeout 60 build/bench/bench_factor -matrices lap2d:1000,lap3d:100,lap2d:2000,lap3d:160 -pcs subtree_ilu,subtree_icc -orderings natural -levels 0 -refactor_reps 4 -reps 2 -ksp_max_rows 0 -csv $r/setup-r$round.csv $dll > $r/setup-r$round.txt 2>&1
  echo "r$round exit $? after $SECONDS s"; SECONDS=0
  grep -E "^  subtree" $r/setup-r$round.txt | sed -E 's/ +/ /g; s/apply.*setup/setup/'
done
