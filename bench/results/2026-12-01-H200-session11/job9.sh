#!/bin/bash
# session 11, job 9 (nvidia-h200): the solve kernel's groups also take rows independent of the group (RCM levels):
# the subtree_ilu tests, then the apply against cuSPARSE SpSV on the large
# set (2D 1000^2, 2000^2, 3D 100^3, 160^3; natural and RCM; ILU(0), ILU(1)).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session11/job9.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job9; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job9.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 200 make check TESTS='subtreeilu' TESTARGS="--timeout 100 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20; SECONDS=0
timeout 200 build/bench/bench_factor -matrices lap2d:1000,lap3d:100,lap2d:2000,lap3d:160 -pcs subtree_ilu,spsv -orderings natural,rcm -levels 0 -refactor_reps 4 -reps 20 -csv $r/factor.csv $dll > $r/factor.txt 2>&1
echo "factor exit $? after $SECONDS s"; SECONDS=0
timeout 100 build/bench/bench_factor -matrices lap2d:1000,lap3d:100,lap2d:2000,lap3d:160 -pcs subtree_ilu,ilu_cusparse -orderings rcm -levels 1 -refactor_reps 0 -reps 20 -csv $r/factor-ilu1.csv $dll > $r/factor-ilu1.txt 2>&1
echo "factor ilu1 exit $? after $SECONDS s"
grep -E "apply|solve" $r/factor.txt $r/factor-ilu1.txt | sed 's/gmres.*//; s/setup.*refactor/refactor/'
