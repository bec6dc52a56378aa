#!/bin/bash
# session 41, job 6 (one GPU): the session's final code: the complete test suite (subtree_ilu's host code changed:
# backend auto timed on the first applies), and gpurcm cuda beside PETSc's rcm on the 1M- and 4M-row meshes with the
# phase shares of steady calls (bench_order's untimed first call).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H100-session41/job6.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job6; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job6.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
cat $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 60 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160 -orderings rcm,gpurcm@cuda -reps 5 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "order exit $? after $SECONDS s"; SECONDS=0
grep -E "^[a-z].*rows|^  [a-z]|phases" $r/order.txt | sed -E 's/ +/ /g; s/identical to rcm: //' | cut -c1-120
tar czf "$out/job6-part.tgz" -C "$r" .
timeout 280 make check TESTARGS="--timeout 150 --jobs 14" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
