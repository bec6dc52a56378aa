#!/bin/bash
# session 58, job 2: fit-warps-next.patch (session 57) under synccheck with -mat_gpurcm_cuda_fit_warps 0 and 1 (job 1
# = session 57's job3.sh: synccheck still reported 32 barrier errors with fit on), fit on with the batch numbering
# (only the root finder's level BFS then skips warps: which kernel is it?), and the new subtreeilu4 cuda tests.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session58/job2.sh <revision>
S57=bench/results/2026-12-06-GPU-session57
# (main has carried the patch, with the option off by default, since session 58: applied only where it is not there)
if patch --dry-run -s -p1 < $S57/fit-warps-next.patch > /dev/null 2>&1; then patch -s -p1 < $S57/fit-warps-next.patch; rev="$1+fit-warps-next.patch"; else rev=$1; fi
. bench/gpujob.sh job2 "$rev"
E="-backends cuda -mat_gpurcm_cuda_ell 1"
for run in "0 levels -mat_gpurcm_cuda_narrow 37" "1 batch -mat_gpurcm_cuda_narrow 37" "1 levels -mat_gpurcm_cuda_narrow 37"; do
  set -- $run; f=$r/synccheck-fit$1-$2-${@: -1}.log
  timeout 45 compute-sanitizer --tool synccheck --show-backtrace device build/tests/gpurcm_identity -generated $E -mat_gpurcm_cuda_fit_warps $1 -mat_gpurcm_cuda_number $2 ${@:3} > $f 2>&1
  echo "synccheck fit $1 number $2 ${@:3}: exit $? at $SECONDS s: $(grep -cE 'identical' $f) identical; $(grep -E 'ERROR SUMMARY' $f | tail -n 1)"
  grep -m 3 -E "at 0x|in .*Kernel" $f
done
timeout 100 make check TESTS='subtreeilu4_cuda_(dense|ilu0)' TESTARGS="--timeout 60 --jobs 12" > $r/check-subtreeilu4-cuda.log 2>&1
echo "subtreeilu4 cuda check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check-subtreeilu4-cuda.log | tail -n 8
