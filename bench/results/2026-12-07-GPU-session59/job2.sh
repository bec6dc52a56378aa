#!/bin/bash
# session 59, job 2: -mat_gpurcm_cuda_fit_warps as its own instantiation of the numbering kernel, every warp at the
# same barrier instructions (the fit one spills 1692/1640 bytes, the default 104/120 against 188/200 before).
# 1. every gpurcm test (fit on and off); 2. synccheck of the numbering with fit on and off; 3. A/B in one job against
# the kernels before (fit-template-reverse.patch), fit off and on, one round of 9 repetitions.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session59/job2.sh <revision>
S59=bench/results/2026-12-07-GPU-session59
# the kernels of fit-template.patch (reverted on main in session 59: no device time was left to run them): applied
# where they are not there
if patch --dry-run -s -p1 < $S59/fit-template.patch > /dev/null 2>&1; then patch -s -p1 < $S59/fit-template.patch; rev="$1+fit-template.patch"; else rev=$1; fi
. bench/gpujob.sh job2 "$rev"
S=bench/results/2026-12-07-GPU-session59
timeout 170 make check TESTS='gpurcm' TESTARGS="--timeout 120 --jobs 14" > $r/check-gpurcm.log 2>&1
echo "gpurcm check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check-gpurcm.log | tail -n 8
E="-backends cuda -mat_gpurcm_cuda_ell 1 -mat_gpurcm_cuda_number levels -mat_gpurcm_cuda_narrow 37"
for fit in 1 0; do
  f=$r/synccheck-fit$fit-levels-37.log
  timeout 45 compute-sanitizer --tool synccheck build/tests/gpurcm_identity -generated $E -mat_gpurcm_cuda_fit_warps $fit > $f 2>&1
  echo "synccheck fit $fit: exit $? at $SECONDS s: $(grep -cE 'identical' $f) identical; $(grep -E 'ERROR SUMMARY' $f | tail -n 1)"
  grep -m 2 -E "Barrier|at GPURCM" $f
done
gpujob_base $S59/fit-template-reverse.patch
M=lap2d:1000,lap2d:500,lap3d:100
for lib in new base; do
  L=$dll; [ $lib = base ] && L="-dll_append /tmp/base/build/lib/libpetscsparsegpu.so"
  for fit in 0 1; do
    timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 9 -cusolver_max_nnz 0 -mat_gpurcm_cuda_fit_warps $fit -csv $r/order-$lib-fit$fit.csv $L > $r/order-$lib-fit$fit.txt 2>&1
    echo "order $lib fit $fit exit $? at $SECONDS s"; grep -hE "^  gpurcm" $r/order-$lib-fit$fit.txt | cut -c1-150
  done
done
