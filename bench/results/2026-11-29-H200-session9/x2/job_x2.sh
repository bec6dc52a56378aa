#!/bin/bash
# session 9, x2 job: the MPI tests with each rank on its own GPU (PETSc assigns device rank % 2), and MatMult on 1 vs 2 GPUs
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-x2; rm -rf $r; mkdir -p $r
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
make -j32 > "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
make -j32 build/tutorials/ex3 >> "$r/build.log" 2>&1
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
mpiexec -n 2 build/tutorials/ex3 -n 20 -reps 2 -mat_type pellrcuda $dll -device_view > $r/device_view.txt 2>&1
SECONDS=0
timeout 200 make check TESTS='mpi' TESTARGS="--timeout 100" > "$r/tests-mpi.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/tests-mpi.log"; tail -n 2 "$r/tests-mpi.log"; grep "^not ok" "$r/tests-mpi.log"
for t in aijcusparse pellrcuda; do for np in 1 2; do
  echo "## mpiexec -n $np build/tutorials/ex3 -n 200 -reps 300 -mat_type $t" >> $r/ex3-scaling.txt
  timeout 60 mpiexec -n $np build/tutorials/ex3 -n 200 -reps 300 -mat_type $t $dll 2>&1 | grep -E "time:|identical|type" >> $r/ex3-scaling.txt
done; done
cat $r/ex3-scaling.txt
make -C bench -j32 >> "$r/build.log" 2>&1
SECONDS=0
timeout 90 build/bench/bench_spmv -matrices lap2d:1000,lap3d:100,lap2d:4000,lap3d:252,blkdiag:bcsstk17:10M,kron:bcsstk01:bcsstk13,powerlaw:4M:8 -formats aijcusparse,pellrcuda -ops mult -case_time 0.3 -matdir .gpu/matrices -time_limit 60 -csv "$r/spmv-auto.csv" $dll > "$r/spmv-auto.txt" 2>&1
echo "spmv exit $? after $SECONDS s"
tar czf "$out/x2.tgz" -C "$r" .
