#!/bin/bash
# session 9, job B: the refit predictor (model version 2) with the memory budget on the large set; GPU tests of the
# predictor, the memory budget and the reworked build kernels; diagnosis of subtreeilu4_cuda_icc1_rcm; refactorization split
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-jobB; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/jobB.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 && make -j16 $PWD/build/tests/subtreeilu4 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
SECONDS=0
timeout 75 build/bench/bench_spmv -matrices lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13 \
  -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.3 -matdir .gpu/matrices -time_limit 55 -csv $r/spmv-auto.csv $dll -mat_view ::ascii_info > $r/spmv-auto.txt 2>&1
echo "spmv exit $? after $SECONDS s"; SECONDS=0
cd tests
for o in "" "-st_pc_subtree_ilu_cuda_scan 0" "-st_pc_subtree_ilu_cuda_chain 1" "-st_pc_subtree_ilu_refactor petsc"; do
  echo "## $o" >> $r/icc1_rcm.txt
  timeout 20 ../build/tests/subtreeilu4 -type icc -levels 1 -ordering rcm -matrices bcsstk17 -dir ../.gpu/matrices -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda $o -info 2>&1 | grep -E "max rel. difference" | sed 's/^.*PetscInfo[^:]*: //' >> $r/icc1_rcm.txt
done
cd ..
echo "diag after $SECONDS s"; SECONDS=0
timeout 40 build/bench/bench_factor -matrices lap2d:1000,lap3d:100 -pcs subtree_ilu -orderings natural -levels 0 -refactor_reps 10 -reps 10 -csv $r/factor.csv $dll -log_view > $r/factor-logview.txt 2>&1
echo "factor exit $? after $SECONDS s"; SECONDS=0
timeout 130 make check TESTS='pellrpredict|pellrcalibrate|ex3_cuda|pellr_ops_cuda_gen|pellr_ops_cuda_shared$|pellr_ops_cuda_formats_gen_|pellr_ops_cuda_long|pellr_ops_cuda_wide' TESTARGS="--timeout 60" > "$r/tests.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/tests.log"; tail -n 2 "$r/tests.log"; grep "^not ok" "$r/tests.log" | head
cat $r/icc1_rcm.txt
