#!/bin/bash
# session 47, job 3 (one GPU host, 16 cores): gpurcm beside its peers in one command (issue 3), after the serial
# backend's two speedups (session 46: degree pass and a BFS pass skipped; session 47: the CSR itself as the graph), and
# the threads backend at 2, 4, 8 and 16 threads against the serial one, to set -mat_gpurcm_backend auto's rule.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session47/job3.sh <revision> [<s>]
. bench/gpujob.sh job3 "$1"
B=${2:-500}
timeout $((B - 20)) build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160,lap2d:300,lap3d:45,lap2d:150 -orderings rcm,gpurcm@cuda,gpurcm@threads:16,gpurcm@threads:8,gpurcm@threads:4,gpurcm@threads:2,gpurcm@serial,cusolver_rcm -reps 5 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "bench_order exit $? at $SECONDS s"
grep -E "^[a-z0-9_]+:|^  (rcm|gpurcm|cusolver)" $r/order.txt
# the threads backend's numbering on 16 and 8 threads (53% of the 16-thread time on 2D 1000² in session 46): parents
# per batch (default 64), and level by level
for opt in "-mat_gpurcm_batch 128" "-mat_gpurcm_batch 256" "-mat_gpurcm_batch 32" "-mat_gpurcm_threads_number levels"; do
  [ $SECONDS -gt $((B - 40)) ] && { echo "skipping '$opt' at $SECONDS s"; continue; }
  tag=$(echo $opt | tr -d ' -' | tr _ -)
  timeout 60 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap2d:2000 -orderings gpurcm@threads:16,gpurcm@threads:8 -reps 5 -csv $r/order-$tag.csv $opt $dll > $r/order-$tag.txt 2>&1
  echo "== $opt (exit $? at $SECONDS s)"; grep -E "^[a-z0-9_]+:|^  gpurcm|phases" $r/order-$tag.txt
done
