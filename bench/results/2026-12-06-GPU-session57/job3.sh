#!/bin/bash
# session 57, job 3 (PREPARED, NOT RUN: this session's device time ran out after four starts found no machine).
# fit-warps-next.patch (e0ea16e, reverted untested): the numbering's shared tables addressed from the __shared__ array
# (job 1's Nsight sampling: their pointers were spilled to the stack and reloaded at every access, with generic loads and
# atomics), and the barriers that the idle warps reach from their own code made PTX's non-aligned barrier.sync /
# barrier.red (job 1's synccheck reported the aligned __syncthreads()), and -mat_gpurcm_cuda_fit_warps on by default.
# Applies the patch, then: every gpurcm test; synccheck, memcheck, racecheck; against the unpatched library (built here
# from fit-warps-base.patch, the patch reversed) with fit off and on, alternated, 2 rounds x 9 repetitions.
# If it is clean and faster: git apply the patch on main, and update the README's -mat_gpurcm_cuda_fit_warps row.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session57/job3.sh <revision> [<s>]
S=bench/results/2026-12-06-GPU-session57
patch -s -p1 < $S/fit-warps-next.patch || { echo "fit-warps-next.patch does not apply"; exit 1; }
. bench/gpujob.sh job3 "$1+fit-warps-next.patch"
B=${2:-400}
gpujob_base $S/fit-warps-base.patch > $r/base.txt 2>&1 &
BP=$!
timeout 120 make check TESTS='gpurcm' TESTARGS="--timeout 90 --jobs 12" > $r/check-gpurcm.log 2>&1
echo "gpurcm check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check-gpurcm.log | tail -n 8
E="-backends cuda -mat_gpurcm_cuda_number levels -mat_gpurcm_cuda_ell 1"
for run in "synccheck -generated -mat_gpurcm_cuda_narrow 37" "synccheck -generated -mat_gpurcm_cuda_claim_slots 64" "memcheck -generated -mat_gpurcm_cuda_narrow 37" "racecheck -f .gpu/matrices/pde900.mtx.gz -mat_gpurcm_cuda_narrow 37"; do
  set -- $run; f=$r/sanitizer-$1-$(echo $2 | tr -d -)-${@: -1}.log
  timeout 45 compute-sanitizer --tool $1 build/tests/gpurcm_identity ${@:2} $E > $f 2>&1
  echo "$run: exit $? at $SECONDS s: $(grep -cE 'identical' $f) identical; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $f | tail -n 1)"
done
wait $BP; cat $r/base.txt
M=lap2d:1000,lap2d:500,lap3d:100,lap3d27:100,lap3d:160
for round in 1 2; do
  for v in base-fit0 base-fit1 new-fit0 new-fit1; do
    [ $SECONDS -gt $((B - 40)) ] && continue
    L=$PWD/build/lib/libpetscsparsegpu.so; [ ${v%-*} = base ] && L=/tmp/base/build/lib/libpetscsparsegpu.so
    timeout 30 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 9 -cusolver_max_nnz 0 -mat_gpurcm_cuda_fit_warps ${v: -1} -csv $r/order-$v-r$round.csv -dll_append $L > $r/order-$v-r$round.txt 2>&1
    echo "order $v r$round exit $? at $SECONDS s"; grep -hE "^  gpurcm" $r/order-$v-r$round.txt | cut -c1-100
  done
done
for v in base new; do
  [ $SECONDS -gt $((B - 25)) ] && continue
  L=$PWD/build/lib/libpetscsparsegpu.so; [ $v = base ] && L=/tmp/base/build/lib/libpetscsparsegpu.so
  timeout 20 build/bench/bench_order -matrices lap2d:1000,lap2d:500 -orderings gpurcm@cuda -reps 3 -info :sys -dll_append $L > $r/info-$v.txt 2>&1
  grep -E "stages in us" $r/info-$v.txt | sed 's/.*stages in us (synchronized)://' | cut -c1-200
done
