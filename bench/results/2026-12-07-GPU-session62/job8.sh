#!/bin/bash
# session 62, job 8: the cuda backend's hand-over of many components to the host under auto (-mat_gpurcm_cuda_max_components).
#  1. every gpurcm test (every backend), the new blocks tests included;
#  2. block-diagonal matrices with auto (hand-over), cuda (kept on the GPU), 16 threads, serial.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session62/job8.sh <revision>
. bench/gpujob.sh job8 "$1"
timeout 200 make check TESTS='gpurcm|ex2' TESTARGS="--timeout 150 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 5
M=blkdiag:bcsstk17:8M,blkdiag:bcsstk17:32M,lap3d:100
timeout 100 build/bench/bench_order -matrices $M -orderings gpurcm@auto,gpurcm@cuda,gpurcm@threads:16,gpurcm@serial -reps 7 -cusolver_max_nnz 0 -matdir .gpu/matrices -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "all exit $? at $SECONDS s"; grep -hE '^[a-z]|^  (gpurcm|rcm)' $r/order.txt | awk '/rows/{printf "\n%s", $1} /^  /{printf " %s %s", $1, $2}'; echo
