#!/bin/bash
# session 11, job 10 (nvidia-h200): solve groups take independent rows only when they hold no chain (job 9 let a grid
# line's first row join the previous line's chain: natural orderings became serial): the subtree_ilu tests, then the
# ILU(0) apply against cuSPARSE SpSV. Run from the repository root with .gpu carried:
#   bash bench/results/2026-12-01-H200-session11/job10.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job10; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job10.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 100 make check TESTS='subtreeilu' TESTARGS="--timeout 60 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20; SECONDS=0
timeout 90 build/bench/bench_factor -matrices lap2d:1000,lap3d:100,lap3d:160 -pcs subtree_ilu,spsv -orderings natural,rcm -levels 0 -refactor_reps 0 -reps 10 -csv $r/factor.csv $dll > $r/factor.txt 2>&1
echo "factor exit $? after $SECONDS s"
grep -E "apply|solve" $r/factor.txt | sed 's/gmres.*//; s/setup.*refactor/refactor/'
