#!/bin/bash
# session 59, job 1 (the complete suite first: start attempts kept failing, so device time is short): session 58's job2.sh, which never ran (synccheck of the level kernels with
# -mat_gpurcm_cuda_fit_warps 0 = main's default, and 1 with levels and batch numbering: which kernel holds the 32
# barrier errors?), then the complete GPU suite (last complete run: session 57 at 9ae3051; since then the fit-warps
# kernels, subtree_ilu's plan cap and pellr's MPI view fixes landed).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session59/job1.sh <revision> [<s>]
. bench/gpujob.sh job1 "$1"
B=${2:-560}
timeout $((B - SECONDS - 140)) make check TESTARGS="--timeout 200 --jobs 14" > $r/check.log 2>&1
echo "complete check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
E="-backends cuda -mat_gpurcm_cuda_ell 1"
for run in "0 levels -mat_gpurcm_cuda_narrow 37" "1 batch -mat_gpurcm_cuda_narrow 37" "1 levels -mat_gpurcm_cuda_narrow 37"; do
  [ $SECONDS -gt $((B - 50)) ] && continue
  set -- $run; f=$r/synccheck-fit$1-$2-${@: -1}.log
  timeout 45 compute-sanitizer --tool synccheck --show-backtrace device build/tests/gpurcm_identity -generated $E -mat_gpurcm_cuda_fit_warps $1 -mat_gpurcm_cuda_number $2 ${@:3} > $f 2>&1
  echo "synccheck fit $1 number $2 ${@:3}: exit $? at $SECONDS s: $(grep -cE 'identical' $f) identical; $(grep -E 'ERROR SUMMARY' $f | tail -n 1)"
  grep -m 3 -E "at 0x|in .*Kernel" $f
done
