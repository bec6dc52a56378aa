#!/bin/bash
# session 62, job 5: the threads backend's components ordered together (d18eb36, -mat_gpurcm_threads_components).
#  1. every gpurcm test (every backend) at this revision;
#  2. A/B in rounds in one binary, components together (on) or one at a time by all threads (off), 16 and 4 threads,
#     on block-diagonal matrices (many components) and on meshes (one component: nothing should change);
#  3. the serial backend on the same matrices.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session62/job5.sh <revision> [<rounds>]
. bench/gpujob.sh job5 "$1"
timeout 200 make check TESTS='gpurcm|ex2' TESTARGS="--timeout 150 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 5
M=blkdiag:bcsstk17:8M,blkdiag:bcsstk13:8M,blkdiag:bcsstk17:32M,lap3d:100,lap2d:1000
for round in $(seq 1 ${2:-2}); do
  for th in 16 4; do
    for c in on off; do
      o=$r/order-$c-$th-$round; C=1; [ $c = off ] && C=0
      timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@threads:$th -reps 7 -cusolver_max_nnz 0 -matdir .gpu/matrices -csv $o.csv $dll -mat_gpurcm_threads_components $C > $o.txt 2>&1
      echo "round $round $th threads $c exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.txt | awk '{printf " %s", $2}')"
    done
  done
done
timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@serial,rcm -reps 5 -cusolver_max_nnz 0 -matdir .gpu/matrices -csv $r/order-serial.csv $dll > $r/order-serial.txt 2>&1
echo "serial exit $? at $SECONDS s:$(grep -hE '^  (gpurcm|rcm)' $r/order-serial.txt | awk '{printf " %s %s", $1, $2}')"
timeout 30 build/bench/bench_order -matrices blkdiag:bcsstk17:8M -orderings gpurcm@threads:16 -reps 3 -matdir .gpu/matrices -csv $r/info.csv $dll -info > $r/info-components.txt 2>&1
grep -h "more components\|threads: setup" $r/info-components.txt | tail -n 3
