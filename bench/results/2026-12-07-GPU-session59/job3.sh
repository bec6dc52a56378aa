#!/bin/bash
# session 59, job 3: job2.sh trimmed to the device time left (about 300 s): every gpurcm test (fit on and off),
# synccheck of the numbering with fit on and off, then, as time allows, fit off/on on 2D meshes (new kernels only).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session59/job3.sh <revision> [<s>]
S59=bench/results/2026-12-07-GPU-session59
# the kernels of fit-template.patch (reverted on main in session 59: no device time was left to run them): applied
# where they are not there
if patch --dry-run -s -p1 < $S59/fit-template.patch > /dev/null 2>&1; then patch -s -p1 < $S59/fit-template.patch; rev="$1+fit-template.patch"; else rev=$1; fi
. bench/gpujob.sh job3 "$rev"
B=${2:-230}
timeout 150 make check TESTS='gpurcm' TESTARGS="--timeout 120 --jobs 14" > $r/check-gpurcm.log 2>&1
echo "gpurcm check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check-gpurcm.log | tail -n 8
E="-backends cuda -mat_gpurcm_cuda_ell 1 -mat_gpurcm_cuda_number levels -mat_gpurcm_cuda_narrow 37"
for fit in 1 0; do
  f=$r/synccheck-fit$fit-levels-37.log
  timeout 30 compute-sanitizer --tool synccheck build/tests/gpurcm_identity -generated $E -mat_gpurcm_cuda_fit_warps $fit > $f 2>&1
  echo "synccheck fit $fit: exit $? at $SECONDS s: $(grep -cE 'identical' $f) identical; $(grep -E 'ERROR SUMMARY' $f | tail -n 1)"
  grep -m 2 -E "Barrier|at GPURCM" $f
done
for fit in 0 1 0 1; do
  [ $SECONDS -gt $((B - 25)) ] && continue
  timeout 25 build/bench/bench_order -matrices lap2d:1000,lap2d:500 -orderings gpurcm@cuda -reps 9 -cusolver_max_nnz 0 -mat_gpurcm_cuda_fit_warps $fit $dll >> $r/order-fit$fit.txt 2>&1
  echo "order fit $fit exit $? at $SECONDS s"; grep -hE "^  gpurcm" $r/order-fit$fit.txt | tail -n 2 | cut -c1-150
done
