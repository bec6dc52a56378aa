#!/bin/bash
# session 57, job 3 (one GPU host, 16 cores): job 2 cut to what fits the device time left (job 2 never started: three
# starts found no machine). e0ea16e: the numbering's shared tables addressed from the __shared__ array; the idle warps'
# barriers and the narrow levels' made PTX's non-aligned barrier.sync/barrier.red (job 1's synccheck flagged the
# aligned ones, reached from two places). Every gpurcm test; synccheck and memcheck; against 6b5213f (session 56's
# final library, built here from to-6b5213f.patch) and fit off/on in one binary, alternated, 2 rounds x 9 repetitions.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session57/job3.sh <revision> [<s>]
. bench/gpujob.sh job3 "$1"
B=${2:-250}
gpujob_base bench/results/2026-12-06-GPU-session57/to-6b5213f.patch > $r/base.txt 2>&1 &
BP=$!
timeout 100 make check TESTS='gpurcm' TESTARGS="--timeout 90 --jobs 12" > $r/check-gpurcm.log 2>&1
echo "gpurcm check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check-gpurcm.log | tail -n 8
E="-backends cuda -mat_gpurcm_cuda_number levels -mat_gpurcm_cuda_ell 1"
for run in "synccheck -generated -mat_gpurcm_cuda_narrow 37" "memcheck -generated -mat_gpurcm_cuda_narrow 37"; do
  set -- $run; f=$r/sanitizer-$1-$(echo $2 | tr -d -)-${@: -1}.log
  timeout 30 compute-sanitizer --tool $1 build/tests/gpurcm_identity ${@:2} $E > $f 2>&1
  echo "$run: exit $? at $SECONDS s: $(grep -cE 'identical' $f) identical; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $f | tail -n 1)"
done
wait $BP; cat $r/base.txt
M=lap2d:1000,lap2d:500,lap3d:100,lap3d27:100,lap3d:160
for round in 1 2; do
  for v in base fit0 fit1; do
    [ $SECONDS -gt $((B - 40)) ] && continue
    L=$PWD/build/lib/libpetscsparsegpu.so; O=""; [ $v = base ] && L=/tmp/base/build/lib/libpetscsparsegpu.so
    [ $v = fit0 ] && O="-mat_gpurcm_cuda_fit_warps 0"
    timeout 30 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 9 -cusolver_max_nnz 0 $O -csv $r/order-$v-r$round.csv -dll_append $L > $r/order-$v-r$round.txt 2>&1
    echo "order $v r$round exit $? at $SECONDS s"; grep -hE "^  gpurcm" $r/order-$v-r$round.txt | cut -c1-100
  done
done
for v in base new; do
  [ $SECONDS -gt $((B - 25)) ] && continue
  L=$PWD/build/lib/libpetscsparsegpu.so; [ $v = base ] && L=/tmp/base/build/lib/libpetscsparsegpu.so
  timeout 20 build/bench/bench_order -matrices lap2d:1000,lap2d:500 -orderings gpurcm@cuda -reps 3 -info :sys -dll_append $L > $r/info-$v.txt 2>&1
  grep -E "stages in us" $r/info-$v.txt | sed 's/.*stages in us (synchronized)://' | cut -c1-200
done
for run in "synccheck -generated -mat_gpurcm_cuda_claim_slots 64" "racecheck -f .gpu/matrices/pde900.mtx.gz -mat_gpurcm_cuda_narrow 37"; do
  [ $SECONDS -gt $((B - 20)) ] && continue
  set -- $run; f=$r/sanitizer-$1-$(echo $2 | tr -d -)-${@: -1}.log
  timeout 20 compute-sanitizer --tool $1 build/tests/gpurcm_identity ${@:2} $E > $f 2>&1
  echo "$run: exit $? at $SECONDS s: $(grep -cE 'identical' $f) identical; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $f | tail -n 1)"
done
