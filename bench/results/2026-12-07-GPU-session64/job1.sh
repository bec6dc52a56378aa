#!/bin/bash
# session 64, job 1 (issue 3: the threads backend's level barrier). This revision's barrier (per-thread flags, b45c340)
# against the central counter of before (central-barrier.patch = `git diff <this> 6428273 -- src`, built in this job; the flags barrier with 86f27a5's spin count):
# (1) 16 threads on the meshes, rounds alternating the two libraries; (2) every gpurcm test at this revision;
# (3) the -DGPURCM_PROFILE builds of both (per barrier and thread: work, wait, arrival skew, wait after the last
# arrival), 16 threads, beside the serial backend; (4) session 63's barrier_micro.c (central, tree, butterfly, flags;
# arrivals together and skewed).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session64/job1.sh <revision> [<rounds>]
S=bench/results/2026-12-07-GPU-session64
. bench/gpujob.sh job1 "$1"
gpujob_base $S/central-barrier.patch
(make -j16 lib CFLAGS=-DGPURCM_PROFILE BUILD=$PWD/build-prof && make -C /tmp/base -j16 lib CFLAGS=-DGPURCM_PROFILE BUILD=/tmp/base/build-prof) > $r/prof-build.log 2>&1 || { tail -n 20 $r/prof-build.log; echo "no profile libraries"; }
echo "profile libraries built at $SECONDS s"
M=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
# (1) flags (this revision) against central, alternated
for round in $(seq 1 ${2:-3}); do
  for lib in flags central; do
    L=$dll; [ $lib = central ] && L="-dll_append /tmp/base/build/lib/libpetscsparsegpu.so"
    o=$r/order-$lib-$round
    timeout 90 build/bench/bench_order -matrices $M -orderings gpurcm@threads:16 -reps 7 -cusolver_max_nnz 0 -csv $o.csv $L > $o.txt 2>&1
    echo "round $round $lib exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.txt | awk '{printf " %s", $2}') min:$(grep -hE '^  gpurcm' $o.txt | sed 's/.*(min \([0-9.]*\).*/\1/' | tr '\n' ' ')"
  done
done
# (2) every gpurcm test
timeout 150 make check TESTS='gpurcm' TESTARGS="--timeout 120 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 5
# (3) the profiles (each ordering prints its line; a mesh's lines follow its header), and the serial backend once
for lib in flags central; do
  L=$PWD/build-prof/lib/libpetscsparsegpu.so; [ $lib = central ] && L=/tmp/base/build-prof/lib/libpetscsparsegpu.so
  timeout 100 build/bench/bench_order -matrices $M -orderings gpurcm@threads:16 -reps 5 -cusolver_max_nnz 0 -dll_append $L > $r/profile-$lib.txt 2>&1
  echo "profile $lib exit $? at $SECONDS s"
done
timeout 100 build/bench/bench_order -matrices $M -orderings gpurcm@serial -reps 5 -cusolver_max_nnz 0 $dll > $r/serial.txt 2>&1
echo "serial exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $r/serial.txt | awk '{printf " %s", $2}')"
# (4) barrier_micro: work 0/300/1000 loop steps, arrivals together (0) and skewed (1)
cc -O2 -pthread bench/results/2026-12-07-GPU-session63/barrier_micro.c -o /tmp/barrier_micro
for w in 0 300 1000; do for k in 0 1; do timeout 20 /tmp/barrier_micro 16 50000 $w 4 $k; done; done > $r/barrier.txt 2>&1
echo "micro at $SECONDS s"
for lib in flags central; do echo "== profile $lib"; grep -E "^lap|GPURCM_PROFILE threads|^  gpurcm" $r/profile-$lib.txt | sed 's/identical to rcm: yes//'; done
cat $r/barrier.txt
