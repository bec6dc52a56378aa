#!/bin/bash
# session 11, job 7 (nvidia-h200): the complete make check (8 tests at a time), then the gpurcm cuda ordering
# benchmark (structurally symmetric CSR taken as the graph) and the factor benchmark with the new GPU refactorization.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session11/job7.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job7; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job7.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 250 make check TESTARGS="--timeout 150 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20; SECONDS=0
M=lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160,lap3d27:160
timeout 100 build/bench/bench_order -matrices $M -orderings rcm,gpurcm@cuda -reps 5 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "order exit $? after $SECONDS s"; SECONDS=0
timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 2 $dll -info 2>&1 | grep -E "gpurcm cuda" > $r/order-trace.txt
echo "trace exit $? after $SECONDS s"; SECONDS=0
timeout 150 build/bench/bench_factor -matrices lap2d:1000,lap3d:100,lap2d:2000,lap3d:160 -pcs subtree_ilu,subtree_icc,spsv,ilu_cusparse,icc_cusparse -orderings natural,rcm -levels 0 -refactor_reps 10 -reps 20 -csv $r/factor.csv $dll > $r/factor.txt 2>&1
echo "factor exit $? after $SECONDS s"; SECONDS=0
timeout 60 build/bench/bench_factor -matrices lap2d:1000,lap3d:100 -pcs subtree_ilu,subtree_icc,ilu_cusparse -orderings natural,rcm -levels 1 -refactor_reps 10 -reps 20 -csv $r/factor-ilu1.csv $dll > $r/factor-ilu1.txt 2>&1
echo "factor ilu1 exit $? after $SECONDS s"
grep -E "rcm|gpurcm" $r/order.txt | head -20; grep -E "refactor|analysis" $r/factor.txt | head -40
