#!/bin/bash
# session 13, job 2 (nvidia-h200): (a) pellrcuda's sliced kernels with the entry loop unrolled by 4: SpMV forced to pellr
# (against job 1, same set); (b) subtree_ilu ILU(1) apply with and without -pc_subtree_ilu_cuda_cut_late; ILU(0) apply;
# (c) the same ILU(0) apply, the subtree_ilu tests and compute-sanitizer racecheck with the block's shared-memory values
# through shared-memory atomics (shared-atomics.patch, applied here).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session13/job2.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job2; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job2.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
I=powerlaw:1M:16,powerlaw:4M:8,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13,lap3d27:100,lap2d:2000,lap3d:160
timeout 60 build/bench/bench_spmv -matrices $I -formats pellrcuda -ops mult -case_time 0.2 -matdir .gpu/matrices -time_limit 50 -csv $r/spmv-pellr.csv $dll -mat_pellr_format pellr > $r/spmv-pellr.txt 2>&1
echo "spmv pellr exit $? after $SECONDS s"; SECONDS=0
timeout 50 make check TESTS='pellr_ops_cuda_gen|pellr_ops_cuda_long' TESTARGS="--timeout 40 --jobs 8" > "$r/check-pellr.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check-pellr.log"; tail -n 1 "$r/check-pellr.log"; SECONDS=0
G=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
for c in "" "-pc_subtree_ilu_cuda_cut_late"; do
  t=ilu1${c:+-cutlate}
  timeout 80 build/bench/bench_factor -matrices $G -pcs subtree_ilu -orderings natural,rcm -levels 1 -refactor_reps 0 -reps 20 -csv $r/$t.csv $dll $c > $r/$t.txt 2>&1
  echo "$t exit $? after $SECONDS s"; SECONDS=0
done
timeout 80 build/bench/bench_factor -matrices $G -pcs subtree_ilu,spsv -orderings natural,rcm -levels 0 -refactor_reps 3 -reps 20 -csv $r/ilu0.csv $dll > $r/ilu0.txt 2>&1
echo "ilu0 exit $? after $SECONDS s"; SECONDS=0
# (c) shared-memory atomics
patch -p1 < bench/results/2026-12-01-H200-session13/shared-atomics.patch > $r/patch.log 2>&1 || { cat $r/patch.log; exit 1; }
make -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "rebuild after $SECONDS s"; SECONDS=0
timeout 80 build/bench/bench_factor -matrices $G -pcs subtree_ilu -orderings natural,rcm -levels 0 -refactor_reps 0 -reps 20 -csv $r/ilu0-atomics.csv $dll > $r/ilu0-atomics.txt 2>&1
echo "ilu0 atomics exit $? after $SECONDS s"; SECONDS=0
timeout 70 make check TESTS='subtreeilu' TESTARGS="--timeout 60 --jobs 8" > "$r/check-atomics.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check-atomics.log"; tail -n 2 "$r/check-atomics.log"; grep "^not ok" "$r/check-atomics.log" | head; SECONDS=0
M=$PWD/.gpu/matrices
for c in "-type ilu -levels 0 -gen 2d -N 40" "-type ilu -levels 1 -ordering rcm -gen 3d -N 10" "-type icc -levels 0 -gen 3d -N 20"; do
  echo "## racecheck: subtreeilu4 $c" >> $r/sanitizer.txt
  timeout 50 compute-sanitizer --tool racecheck build/tests/subtreeilu4 $c -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -dir $M > $r/racecheck.log 2>&1
  echo "exit $?" >> $r/sanitizer.txt
  grep -E "SUMMARY|hazard|ERROR" $r/racecheck.log | sort | uniq -c | head -6 >> $r/sanitizer.txt
  tail -n 3 $r/racecheck.log >> $r/sanitizer.txt
done
echo "racecheck after $SECONDS s"
grep -h "mult " $r/spmv-pellr.txt | cut -c1-60
grep -H -E "apply|solve" $r/ilu1*.txt $r/ilu0*.txt | sed 's/gmres.*//; s/setup [0-9.]* s//; s/( 20 reps, *[0-9.na]* GFLOP\/s)//; s|.*gpu-job2/||'
cat $r/sanitizer.txt
