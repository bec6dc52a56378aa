#!/bin/bash
# session 49, job 2 (one GPU host, 16 cores): job 1's ordering runs did not finish on powerlaw:1M:16 (gpurcm cuda still
# busy after 60-100 s): the cuda numbering sorted a node's children by insertion in one thread, quadratic for a hub
# (67,069 neighbours). Now lists longer than 32 are merge-sorted (GPURCMSortChildren). (1) every gpurcm test, the new
# power-law/hub graphs (cuda_hubs) included; (2) the power-law graphs with every backend beside rcm, and the cuda stage
# trace; (3) job 1's numbering comparison (auto against levels everywhere), alternated, two rounds; (4) the rest of
# the complete suite.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session49/job2.sh <revision> [<s>]
. bench/gpujob.sh job2 "$1"
B=${2:-570}
timeout 200 make check TESTS='gpurcm' TESTARGS="--timeout 150 --jobs 14" > "$r/check-gpurcm.log" 2>&1
echo "# exit status $? at $SECONDS s" >> "$r/check-gpurcm.log"; tail -n 2 "$r/check-gpurcm.log"; grep "^not ok" "$r/check-gpurcm.log" | head
timeout 120 build/bench/bench_order -matrices powerlaw:1M:16 -orderings rcm,gpurcm@cuda,gpurcm@threads:16,gpurcm@serial -reps 3 -csv $r/powerlaw1M.csv $dll > $r/powerlaw1M.txt 2>&1
echo "powerlaw 1M exit $? at $SECONDS s"; grep -hE "^[a-z0-9_]+:|^  (rcm|gpurcm)" $r/powerlaw1M.txt
timeout 90 build/bench/bench_order -matrices powerlaw:4M:8 -orderings gpurcm@cuda,gpurcm@threads:16 -reps 3 -csv $r/powerlaw4M.csv $dll > $r/powerlaw4M.txt 2>&1
echo "powerlaw 4M exit $? at $SECONDS s"; grep -hE "^[a-z0-9_]+:|^  (rcm|gpurcm)" $r/powerlaw4M.txt
timeout 60 build/bench/bench_order -matrices powerlaw:1M:16 -orderings gpurcm@cuda -reps 2 -mat_gpurcm_cuda_number levels -info $dll > $r/powerlaw1M-info.txt 2>&1
grep -E "gpurcm cuda|stages in us" $r/powerlaw1M-info.txt | cut -c1-330 | head -12
tar czf "$out/job2-a.tgz" -C "$r" .
M=blkdiag:bcsstk17:10M,blkdiag:e30r4000:10M,kron:pde900:jpwh_991,lap3d:100,lap3d27:100,lap3d:160,lap2d:1000
for round in 1 2; do
  for v in "auto|" "levels|-mat_gpurcm_cuda_number levels"; do
    tag=${v%%|*}; opt=${v#*|}
    [ $SECONDS -gt $((B - 300)) ] && { echo "skipping $tag r$round at $SECONDS s"; continue; }
    timeout 80 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 5 -matdir .gpu/matrices $opt -csv $r/num-$tag-r$round.csv $dll > $r/num-$tag-r$round.txt 2>&1
    echo "== $tag r$round (exit $?, $SECONDS s)"; grep -hE "^[a-z0-9_]+:|gpurcm@cuda" $r/num-$tag-r$round.txt
  done
done
tar czf "$out/job2-b.tgz" -C "$r" .
timeout $((B - SECONDS)) make check TESTS='^(?!tests-gpurcm)' TESTARGS="--timeout 150 --jobs 14" > "$r/check-rest.log" 2>&1
echo "# exit status $? at $SECONDS s" >> "$r/check-rest.log"; tail -n 3 "$r/check-rest.log"; grep "^not ok" "$r/check-rest.log" | head -20
