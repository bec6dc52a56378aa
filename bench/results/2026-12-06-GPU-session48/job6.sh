#!/bin/bash
# session 48, job 6 (PREPARED, NOT RUN: no device time left): before making the cuda backend's automatic numbering
# the level numbering on wide levels too (job 5: 20-31% shorter numbering on 3D meshes), compare the two on irregular
# graphs, where the batches were chosen in session 15: power-law rows (random columns: symmetrized graph, hubs, short
# BFS), block-diagonal scale-ups (many components), a Kronecker product, and the 1M-4M meshes again. Alternated, two
# rounds; every permutation is checked against rcm by bench_order.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session48/job6.sh <revision> [<s>]
. bench/gpujob.sh job6 "$1"
B=${2:-300}
M=powerlaw:1M:16,powerlaw:4M:8,blkdiag:bcsstk17:10M,blkdiag:e30r4000:10M,kron:pde900:jpwh_991,lap3d:100,lap3d27:100,lap3d:160,lap2d:1000
for round in 1 2; do
  for v in "auto|" "levels|-mat_gpurcm_cuda_number levels"; do
    tag=${v%%|*}; opt=${v#*|}
    [ $SECONDS -gt $((B - 60)) ] && { echo "skipping $tag r$round at $SECONDS s"; continue; }
    timeout 120 build/bench/bench_order -matrices $M -orderings rcm,gpurcm@cuda -reps 5 $opt -csv $r/num-$tag-r$round.csv $dll > $r/num-$tag-r$round.txt 2>&1
    echo "== $tag r$round (exit $?, $SECONDS s)"; grep -hE "^[a-z0-9_]+:|gpurcm@cuda" $r/num-$tag-r$round.txt
  done
done
