#!/bin/bash
# session 49, job 4 (one GPU host, 16 cores): the final cuda backend of session 49 (block-sorted long child lists,
# long rows hooked by a block, auto numbering = levels when the first pass's levels are narrow and the tables fit or
# when they hold >= 2048 nodes on average). (1) every gpurcm test; (2) all peers in one run on the meshes and
# powerlaw:1M:16; powerlaw:4M:8 without rcm (its insertion sort); (3) which numbering auto takes (-info); (4) the
# power-law graphs with the batch numbering forced.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session49/job4.sh <revision> [<s>]
. bench/gpujob.sh job4 "$1"
timeout 150 make check TESTS='gpurcm' TESTARGS="--timeout 120 --jobs 14" > "$r/check-gpurcm.log" 2>&1
echo "# exit status $? at $SECONDS s" >> "$r/check-gpurcm.log"; tail -n 2 "$r/check-gpurcm.log"; grep "^not ok" "$r/check-gpurcm.log" | head
timeout 150 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160,kron:pde900:jpwh_991,powerlaw:1M:16 -orderings rcm,gpurcm@cuda,gpurcm@threads:16 -reps 3 -matdir .gpu/matrices -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "order exit $? at $SECONDS s"; grep -hE "^[a-z0-9_]+:|^  (rcm|gpurcm)" $r/order.txt
timeout 60 build/bench/bench_order -matrices powerlaw:4M:8 -orderings gpurcm@cuda,gpurcm@threads:16 -reps 3 -csv $r/powerlaw4M.csv $dll > $r/powerlaw4M.txt 2>&1
echo "powerlaw 4M exit $? at $SECONDS s"; grep -hE "^  gpurcm" $r/powerlaw4M.txt
timeout 60 build/bench/bench_order -matrices lap2d:2000,lap3d:100,lap2d:1000,powerlaw:1M:16 -orderings gpurcm@cuda -reps 1 -info $dll > $r/auto-info.txt 2>&1
grep -hE "auto takes" $r/auto-info.txt | sort | uniq -c
timeout 60 build/bench/bench_order -matrices powerlaw:1M:16,powerlaw:4M:8 -orderings gpurcm@cuda -reps 3 -mat_gpurcm_cuda_number batch -csv $r/powerlaw-batch.csv $dll > $r/powerlaw-batch.txt 2>&1
echo "powerlaw batch exit $? at $SECONDS s"; grep -hE "^  gpurcm" $r/powerlaw-batch.txt
