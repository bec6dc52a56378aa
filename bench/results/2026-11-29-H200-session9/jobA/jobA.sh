#!/bin/bash
# session 9, job A: first GPU run of the subtree_ilu GPU refactorization and the gpurcm level-synchronous kernels
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-jobA; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/jobA.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 && make -j16 $PWD/build/tests/gpurcm_identity $PWD/build/tests/subtreeilu4 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
SECONDS=0
(cd tests && timeout 60 ../build/tests/gpurcm_identity -generated -backends cuda > $r/gpurcm-quick.txt 2>&1; echo "exit $?" >> $r/gpurcm-quick.txt)
(cd tests && timeout 60 ../build/tests/subtreeilu4 -type ilu -levels 0 -gen 2d -N 30 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda > $r/refact-quick.txt 2>&1; echo "exit $?" >> $r/refact-quick.txt)
echo "quick: $(tail -1 $r/gpurcm-quick.txt) $(tail -1 $r/refact-quick.txt) after $SECONDS s"; SECONDS=0
timeout 60 build/bench/bench_factor -matrices lap2d:1000,lap3d:100 -pcs subtree_ilu,subtree_icc,spsv -orderings natural -levels 0 -refactor_reps 10 -reps 20 -csv $r/factor.csv $dll > $r/factor.txt 2>&1
echo "factor exit $? after $SECONDS s"; SECONDS=0
timeout 60 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000 -orderings rcm,gpurcm@cuda -reps 3 -csv $r/order.csv $dll -log_view > $r/order.txt 2>&1
echo "order exit $? after $SECONDS s"; SECONDS=0
timeout 40 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap2d:2000 -orderings gpurcm@cuda -reps 3 -csv $r/order-levelsnum.csv $dll -mat_gpurcm_cuda_number levels > $r/order-levelsnum.txt 2>&1
echo "order levels exit $? after $SECONDS s"; SECONDS=0
timeout 120 make check TESTS='gpurcm_identity_cuda|subtreeilu4|subtreeilu.*cuda' TESTARGS="--timeout 80" > "$r/tests.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/tests.log"; tail -n 2 "$r/tests.log"; grep "^not ok" "$r/tests.log" | head; SECONDS=0
cd tests
for tool in memcheck; do
  timeout 40 compute-sanitizer --tool $tool ../build/tests/subtreeilu4 -type ilu -levels 1 -ordering rcm -gen 3d -N 6 -matrices sherman3 -dir ../.gpu/matrices -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda 2>&1 | grep -E "SUMMARY|ERROR|NO" | head -5 >> $r/sanitizer.txt
done
echo "sanitizer after $SECONDS s"; cat $r/sanitizer.txt
