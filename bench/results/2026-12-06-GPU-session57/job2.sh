#!/bin/bash
# session 57, job 2 (one GPU host, 16 cores): e0ea16e, after job 1's Nsight Compute sampling: the numbering's shared
# tables addressed from the __shared__ array (job 1: their pointers were spilled to the stack and reloaded at every
# access, with generic loads and atomics), and the idle warps' barriers made PTX's non-aligned barrier.sync/barrier.red
# (job 1's synccheck flagged the aligned ones, reached from two places).
# 1. Every gpurcm test. 2. synccheck, memcheck and racecheck on the level kernels (fit on, ELL copy).
# 3. Against 6b5213f (session 56's final library, built here from to-6b5213f.patch), and fit off/on in one binary,
#    alternated, 2 rounds x 9 repetitions. 4. The -info stage trace. 5. Nsight Compute sampling of the numbering again.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session57/job2.sh <revision> [<s>]
. bench/gpujob.sh job2 "$1"
B=${2:-560}
gpujob_base bench/results/2026-12-06-GPU-session57/to-6b5213f.patch &
BP=$!
timeout 150 make check TESTS='gpurcm' TESTARGS="--timeout 120 --jobs 12" > $r/check-gpurcm.log 2>&1
echo "gpurcm check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check-gpurcm.log | tail -n 8
wait $BP
E="-backends cuda -mat_gpurcm_cuda_number levels -mat_gpurcm_cuda_ell 1"
for run in "synccheck -generated -mat_gpurcm_cuda_narrow 37" "synccheck -generated -mat_gpurcm_cuda_narrow 1024" "memcheck -generated -mat_gpurcm_cuda_narrow 37" "racecheck -f .gpu/matrices/pde900.mtx.gz -mat_gpurcm_cuda_narrow 37" "synccheck -generated -mat_gpurcm_cuda_claim_slots 64"; do
  [ $SECONDS -gt $((B - 300)) ] && continue
  set -- $run; f=$r/sanitizer-$1-$(echo $2 | tr -d -)-${@: -1}.log
  timeout 45 compute-sanitizer --tool $1 build/tests/gpurcm_identity ${@:2} $E > $f 2>&1
  echo "$run: exit $? at $SECONDS s: $(grep -cE 'identical' $f) identical; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $f | tail -n 1)"
done
M=lap2d:1000,lap2d:500,lap3d:100,lap3d27:100,lap3d:160
for round in 1 2; do
  for v in base fit0 fit1; do
    [ $SECONDS -gt $((B - 150)) ] && continue
    L=$PWD/build/lib/libpetscsparsegpu.so; O=""; [ $v = base ] && L=/tmp/base/build/lib/libpetscsparsegpu.so
    [ $v = fit0 ] && O="-mat_gpurcm_cuda_fit_warps 0"
    timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 9 -cusolver_max_nnz 0 $O -csv $r/order-$v-r$round.csv -dll_append $L > $r/order-$v-r$round.txt 2>&1
    echo "order $v r$round exit $? at $SECONDS s"; grep -hE "^  gpurcm" $r/order-$v-r$round.txt | cut -c1-100
  done
done
for v in base new; do
  L=$PWD/build/lib/libpetscsparsegpu.so; [ $v = base ] && L=/tmp/base/build/lib/libpetscsparsegpu.so
  timeout 30 build/bench/bench_order -matrices lap2d:1000,lap2d:500 -orderings gpurcm@cuda -reps 3 -info :sys -dll_append $L > $r/info-$v.txt 2>&1
  grep -E "stages in us" $r/info-$v.txt | sed 's/.*stages in us (synchronized)://' | cut -c1-200
done
if [ $SECONDS -lt $((B - 90)) ]; then
  touch src/mat/graphops/order/gpurcm/gpurcm.cu; make -j16 CUDAFLAGS=-lineinfo > $r/build-lineinfo.log 2>&1 || tail -n 20 $r/build-lineinfo.log
  timeout 60 ncu --clock-control none --kernel-name regex:GPURCMLevelsNumberKernel --launch-count 1 --section SourceCounters --section WarpStateStats --metrics sm__inst_executed.max,sm__cycles_elapsed.max,gpu__time_duration.sum -o $r/ncu-Number build/bench/bench_order -matrices lap2d:1000 -orderings gpurcm@cuda -reps 1 $dll > $r/ncu-Number.txt 2>&1
  echo "ncu exit $? at $SECONDS s"
  ncu -i $r/ncu-Number.ncu-rep --page source --csv --print-source sass > $r/ncu-Number-sass.csv 2> $r/ncu-Number-sass.err
  rm -f $r/ncu-Number.ncu-rep
fi
