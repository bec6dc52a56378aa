#!/bin/bash
# session 54, job 2 (one GPU host, 16 cores): job 1 again after the claims made at the write only where balanced across blocks, with the threads backend too. gpurcm level kernels with one round trip in the barrier's serial part
# and the numbering's claims made as a wide level is written (two grid barriers a wide level instead of three); the
# permutation as one IS for rows and columns. Every gpurcm test; bench_order against 9ea8b05 built in the same job,
# rounds alternated; the cuda stage trace (-info) of new and base on 3D meshes; compute-sanitizer on the level kernels.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session54/job2.sh <revision> [<s>]
. bench/gpujob.sh job2 "$1"
B=${2:-540}
gpujob_base bench/results/2026-12-06-GPU-session54/to-9ea8b05.patch
timeout 170 make check TESTS='gpurcm' TESTARGS="--timeout 120 --jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
M=lap3d:100,lap3d:160,lap3d27:100,lap2d:1000,lap2d:2000,powerlaw:1M:16
for round in 1 2 3; do
  for v in new base; do
    L=$PWD/build/lib/libpetscsparsegpu.so; [ $v = base ] && L=/tmp/base/build/lib/libpetscsparsegpu.so
    [ $SECONDS -gt $((B - 60)) ] && continue
    O=gpurcm@cuda,gpurcm@threads:16; [ $round = 1 ] && [ $v = new ] && O=rcm,gpurcm@cuda,gpurcm@threads:16
    timeout 100 build/bench/bench_order -matrices $M -orderings $O -reps 7 -cusolver_max_nnz 0 -csv $r/order-$v-r$round.csv -dll_append $L > $r/order-$v-r$round.txt 2>&1
    echo "order $v r$round exit $? at $SECONDS s"; grep -hE "^[a-z]|^  (rcm|gpurcm)" $r/order-$v-r$round.txt | cut -c1-150
  done
done
for v in new base; do
  L=$PWD/build/lib/libpetscsparsegpu.so; [ $v = base ] && L=/tmp/base/build/lib/libpetscsparsegpu.so
  [ $SECONDS -gt $((B - 20)) ] && continue
  timeout 40 build/bench/bench_order -matrices lap3d:100,lap3d:160 -orderings gpurcm@cuda -reps 3 -info :sys -dll_append $L > $r/info-$v.txt 2>&1
  echo "info $v exit $? at $SECONDS s"; grep -hE "gpurcm.*(ms|stage)" $r/info-$v.txt | tail -n 8 | cut -c1-250
done
# compute-sanitizer on the changed level kernels: every level wide (narrow 0) or most (37), levels numbering, hubs
for tool in memcheck synccheck racecheck; do
  for a in "-generated -mat_gpurcm_cuda_narrow 37" "-hubs -mat_gpurcm_cuda_narrow 0"; do
    [ $SECONDS -gt $((B - 40)) ] && continue
    f=$r/sanitizer-$tool-$(echo $a | cut -d' ' -f1 | tr -d -)-$(echo $a | awk '{print $3}').log
    timeout 60 compute-sanitizer --tool $tool build/tests/gpurcm_identity $a -backends cuda -mat_gpurcm_cuda_number levels > $f 2>&1
    echo "$tool $a exit $? at $SECONDS s: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|hazard' $f | tail -n 1)"
  done
done
