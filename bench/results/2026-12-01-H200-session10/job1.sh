#!/bin/bash
# session 10, job 1 (nvidia-h200): full make check with the CUDA tests (8 at a time), the subtreeilu4 icc1_rcm case with
# the corrected reference, gpurcm cuda stage trace (-info), SpMV auto choices on the two matrices below 0.95x.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session10/job1.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job1; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job1.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 330 make check TESTARGS="--timeout 150 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20; SECONDS=0
cd tests
for b in cuda serial; do
  echo "## backend $b" >> $r/icc1_rcm.txt
  timeout 30 ../build/tests/subtreeilu4 -type icc -levels 1 -ordering rcm -matrices bcsstk17 -dir ../.gpu/matrices -mtype seqaijcusparse -st_pc_subtree_ilu_backend $b -info 2>&1 | grep -E "rel. difference|fails" | sed 's/^.*CheckRound(): //' >> $r/icc1_rcm.txt
done
cd ..
echo "icc1 after $SECONDS s"; SECONDS=0
timeout 60 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000 -orderings rcm,gpurcm@cuda -reps 3 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "order exit $? after $SECONDS s"; SECONDS=0
timeout 60 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap2d:2000 -orderings gpurcm@cuda -reps 2 $dll -info 2>&1 | grep -E "gpurcm cuda|bench_order|matrix" | grep -v "^\[0\] <sys> PetscOptions" > $r/order-trace.txt
echo "trace exit $? after $SECONDS s"; SECONDS=0
timeout 60 build/bench/bench_spmv -matrices blkdiag:bcsstk17:10M,kron:pde900:jpwh_991 -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.3 -matdir .gpu/matrices -time_limit 50 -csv $r/spmv-auto.csv $dll -mat_view ::ascii_info > $r/spmv-auto.txt 2>&1
echo "spmv exit $? after $SECONDS s"
cat $r/icc1_rcm.txt; grep "total" $r/order-trace.txt | head -12
