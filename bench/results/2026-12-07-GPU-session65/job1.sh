#!/bin/bash
# session 65, job 1 (issue 3). (1) every gpurcm test at this revision: session 64's final library (the threads
# backend's column IS copied by its pool, never run on a GPU) plus this session's L1 prefetch in the cuda level kernels;
# (2) the prefetch against the code before it (before-prefetch.patch = `git diff 9db9902 9db9902~1 -- src`), cuda on
# the meshes, rounds alternated, with rcm once; (3) session 64's copy A/B (before-copy.patch, made against 42a03e2:
# applies to this src), 16 threads on the 1M-row meshes, rounds alternated, and the serial backend once.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session65/job1.sh <revision> [<rounds>]
S=bench/results/2026-12-07-GPU-session65
. bench/gpujob.sh job1 "$1"
gpujob_base $S/before-prefetch.patch && mv /tmp/base /tmp/base-prefetch
gpujob_base bench/results/2026-12-07-GPU-session64/before-copy.patch && mv /tmp/base /tmp/base-copy
timeout 150 make check TESTS='gpurcm' TESTARGS="--timeout 120 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 5
line() { echo "$1 exit $2 at $SECONDS s:$(grep -hE '^  (gpurcm|rcm)' $3 | awk '{printf " %s", $2}') min:$(grep -hE '^  (gpurcm|rcm)' $3 | sed 's/.*(min \([0-9.]*\).*/\1/' | tr '\n' ' ')"; }
M=lap2d:1000,lap2d:500,lap3d:100,lap2d:2000
timeout 60 build/bench/bench_order -matrices $M -orderings rcm -reps 3 -cusolver_max_nnz 0 $dll > $r/rcm.txt 2>&1; line rcm $? $r/rcm.txt
for round in $(seq 1 ${2:-3}); do
  for lib in prefetch before; do
    L=$dll; [ $lib = before ] && L="-dll_append /tmp/base-prefetch/build/lib/libpetscsparsegpu.so"
    o=$r/cuda-$lib-$round
    timeout 90 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 9 -cusolver_max_nnz 0 -csv $o.csv $L > $o.txt 2>&1; line "cuda round $round $lib" $? $o.txt
  done
done
for round in $(seq 1 ${2:-3}); do
  for lib in copy before; do
    L=$dll; [ $lib = before ] && L="-dll_append /tmp/base-copy/build/lib/libpetscsparsegpu.so"
    o=$r/threads-$lib-$round
    timeout 90 build/bench/bench_order -matrices lap2d:1000,lap3d:100 -orderings gpurcm@threads:16 -reps 9 -cusolver_max_nnz 0 -csv $o.csv $L > $o.txt 2>&1; line "threads round $round $lib" $? $o.txt
  done
done
timeout 60 build/bench/bench_order -matrices lap2d:1000,lap3d:100 -orderings gpurcm@serial -reps 5 -cusolver_max_nnz 0 $dll > $r/serial.txt 2>&1; line serial $? $r/serial.txt
