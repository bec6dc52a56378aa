#!/bin/bash
# session 49, job 1 (one GPU host, 16 cores): (1) the cuda backend's numbering, auto (the level numbering only where
# every level of the first pass is narrow, else the batches) against the level numbering everywhere
# (-mat_gpurcm_cuda_number levels), on irregular graphs (power-law rows: hubs and short BFS; block-diagonal
# scale-ups: many components; a Kronecker product) and the 1M-4M meshes; two alternated rounds, each permutation
# checked against rcm by bench_order (session 48's job6.sh, with rcm only as the reference);
# (2) the complete suite on the final library of session 48 (the staging change b196a68 ran only the gpurcm and
# subtree_ilu tests on a GPU).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session49/job1.sh <revision> [<s>]
. bench/gpujob.sh job1 "$1"
B=${2:-560}
M=powerlaw:1M:16,powerlaw:4M:8,blkdiag:bcsstk17:10M,blkdiag:e30r4000:10M,kron:pde900:jpwh_991,lap3d:100,lap3d27:100,lap3d:160,lap2d:1000
for round in 1 2; do
  for v in "auto|" "levels|-mat_gpurcm_cuda_number levels"; do
    tag=${v%%|*}; opt=${v#*|}
    [ $SECONDS -gt 200 ] && { echo "skipping $tag r$round at $SECONDS s"; continue; }
    timeout 100 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 5 -matdir .gpu/matrices $opt -csv $r/num-$tag-r$round.csv $dll > $r/num-$tag-r$round.txt 2>&1
    echo "== $tag r$round (exit $?, $SECONDS s)"; grep -hE "^[a-z0-9_]+:|gpurcm@cuda" $r/num-$tag-r$round.txt
  done
done
timeout 60 build/bench/bench_order -matrices powerlaw:1M:16,blkdiag:bcsstk17:10M,lap3d:100 -orderings gpurcm@cuda -reps 2 -matdir .gpu/matrices -mat_gpurcm_cuda_number levels -info $dll > $r/info-levels.txt 2>&1
grep -E "numbering|stages in us|root finder" $r/info-levels.txt | cut -c1-300 | head -24
tar czf "$out/job1-num.tgz" -C "$r" .
timeout $((B - SECONDS)) make check TESTARGS="--timeout 150 --jobs 14" > "$r/check.log" 2>&1
echo "# exit status $? at $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
