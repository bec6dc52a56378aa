#!/bin/bash
# session 68, job 5 (issue 3): the library with spinning barrier waits and the helpers (GPURCMWaitTagged,
# GPURCMLvStateToCtl). (1) every gpurcm test; (2) 2 alternated rounds against d1a32d0 (the counting barrier with
# sleeping waits, job 4's "count"; before5.patch = git diff HEAD d1a32d0 -- src); (3) -mat_gpurcm_cuda_narrow 512 and
# 768 against the default 1024 now that a wide level's barrier is cheaper; (4) gpurcm beside its peers in one command on
# issue 3's meshes (as session 65 job 3): PETSc rcm, cuda, 16 and 4 threads, serial, cuSOLVER's host RCM, medians of 5.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session68/job5.sh <revision> [<seconds>]
# <seconds>: the call's limit; the peers' run gets what is left of it (skipped under 60 s), so that the job's folder is
# still packed at exit.
t0=$(date +%s); B=${2:-560}
d=bench/results/2026-12-07-GPU-session68
. bench/gpujob.sh job5 "$1"
gpujob_base $d/before5.patch
timeout 150 make check TESTS='gpurcm' TESTARGS="--jobs 15" > $r/check.log 2>&1
echo "gpurcm tests exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
m="-matrices lap2d:1000,lap3d:100,lap2d:2000,lap2d:3000 -orderings gpurcm@cuda -reps 7 -cusolver_max_nnz 0"
gpujob_ab ab 2 spin $PWD/build/lib/libpetscsparsegpu.so sleep /tmp/base/build/lib/libpetscsparsegpu.so $m
for round in 1 2; do
  for nw in 512 768 1024; do
    o=$r/narrow$nw-$round
    timeout 60 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap2d:2000 -orderings gpurcm@cuda -reps 7 -cusolver_max_nnz 0 -mat_gpurcm_cuda_narrow $nw -csv $o.csv $dll > $o.txt 2>&1
    echo "narrow $nw round $round exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.txt | awk '{printf " %s", $2}')"
  done
done
left=$((B - ($(date +%s) - t0) - 10)); [ $left -ge 60 ] || { echo "no time left for the peers ($left s)"; exit 0; }
timeout $left build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160 -orderings rcm,gpurcm@cuda,gpurcm@threads:16,gpurcm@threads:4,gpurcm@serial,cusolver_rcm -reps 5 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "peers exit $? at $SECONDS s"; grep -E "^[a-z0-9_]+:|^  (rcm|gpurcm|cusolver)" $r/order.txt | cut -c1-110
