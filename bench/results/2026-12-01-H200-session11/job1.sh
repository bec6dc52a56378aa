#!/bin/bash
# session 11, job 1 (nvidia-h200): the GPU refactorization with tickets of whole chains and fence-free publication
# (sentinel values): its CUDA tests, then refactorization vs SpSV analysis and PETSc cuSPARSE (bench_factor).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session11/job1.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job1; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job1.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 200 make check TESTS='subtreeilu' TESTARGS="--timeout 100 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20; SECONDS=0
timeout 150 build/bench/bench_factor -matrices lap2d:1000,lap3d:100,lap2d:2000,lap3d:160 -pcs subtree_ilu,subtree_icc,spsv,ilu_cusparse -orderings natural -levels 0 -refactor_reps 10 -reps 20 -csv $r/factor.csv $dll > $r/factor.txt 2>&1
echo "factor exit $? after $SECONDS s"; SECONDS=0
timeout 100 build/bench/bench_factor -matrices lap2d:1000,lap3d:100 -pcs subtree_ilu,spsv -orderings rcm -levels 0,1 -refactor_reps 10 -reps 20 -csv $r/factor-rcm.csv $dll > $r/factor-rcm.txt 2>&1
echo "factor rcm exit $? after $SECONDS s"
grep -E "refactor|spsv" $r/factor.txt | head -40
