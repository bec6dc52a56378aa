#!/bin/bash
# session 62, job 7: the final code (6618ee9's library) on the GPU host.
#  1. every gpurcm test (every backend);
#  2. the matrices of this session beside every backend and rcm in one run: cuda, 16 threads (components together and
#     one at a time), serial, rcm.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session62/job7.sh <revision>
. bench/gpujob.sh job7 "$1"
timeout 200 make check TESTS='gpurcm|ex2' TESTARGS="--timeout 150 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 5
M=blkdiag:bcsstk17:8M,blkdiag:bcsstk17:32M,kron:bcsstk01:bcsstk17,powerlaw:1M:16,lap3d:100,lap2d:1000
timeout 150 build/bench/bench_order -matrices $M -orderings gpurcm@cuda,gpurcm@threads:16,gpurcm@serial,rcm -reps 7 -cusolver_max_nnz 0 -matdir .gpu/matrices -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "all exit $? at $SECONDS s"; grep -hE '^[a-z]|^  (gpurcm|rcm)' $r/order.txt | awk '/rows/{printf "\n%s", $1} /^  /{printf " %s %s", $1, $2}'; echo
timeout 60 build/bench/bench_order -matrices blkdiag:bcsstk17:8M,blkdiag:bcsstk17:32M -orderings gpurcm@threads:16 -reps 7 -cusolver_max_nnz 0 -matdir .gpu/matrices -csv $r/order-off.csv $dll -mat_gpurcm_threads_components 0 > $r/order-off.txt 2>&1
echo "components off exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $r/order-off.txt | awk '{printf " %s", $2}')"
