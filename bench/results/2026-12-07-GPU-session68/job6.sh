#!/bin/bash
# session 68, job 6 (issue 3; prepared for the next session, not run: no device machine was lent after job 4). The
# spinning barrier waits and the helpers (spin-helpers.patch: 2e5f1b9's src against the final code, GPURCM_BARRIER_SLEEP 0,
# GPURCMBackoff/GPURCMWaitTagged/GPURCMLvStateToCtl) against the landed library (the counting barrier with sleeping
# waits, job 4's "count"). (1) every gpurcm test with the patch; (2) compute-sanitizer synccheck, memcheck and
# racecheck of the level kernels with it; (3) 2 alternated rounds against the landed library; (4)
# -mat_gpurcm_cuda_narrow 512 and 768 against the default 1024 now that a wide level's barrier is cheaper; (5) gpurcm
# beside its peers in one command on issue 3's meshes (as session 65 job 3), medians of 5.
# Land spin-helpers.patch only if (1) passes, (2) is clean and (3) is not slower. About 450 s with the builds and the sanitizer, plus the peers.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session68/job6.sh <revision> [<seconds>]
# <seconds>: the call's limit; the peers' run gets what is left of it (skipped under 60 s), so that the job's folder is
# still packed at exit.
t0=$(date +%s); B=${2:-560}
d=bench/results/2026-12-07-GPU-session68
rm -rf /tmp/landed; mkdir -p /tmp/landed
tar cf - --exclude=./build --exclude=./.gpu --exclude="./gpu-*" . | tar xf - -C /tmp/landed
patch -s -p1 --batch < $d/spin-helpers.patch || { echo "spin-helpers.patch does not apply"; exit 1; }
. bench/gpujob.sh job6 "$1"
(cd /tmp/landed && make -j16 lib > $r/landed-build.log 2>&1) || { tail -n 20 $r/landed-build.log; exit 1; }
echo "landed library built at $SECONDS s"
timeout 150 make check TESTS='gpurcm' TESTARGS="--jobs 15" > $r/check.log 2>&1
echo "gpurcm tests (spin-helpers) exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
# compute-sanitizer on the level kernels with the patch (the counting barrier has not run under it): narrow 37 gives
# the generated meshes wide levels, so every barrier kind runs
E="-backends cuda -mat_gpurcm_cuda_number levels -mat_gpurcm_cuda_ell 1"
for run in "synccheck -generated -mat_gpurcm_cuda_narrow 37" "memcheck -generated -mat_gpurcm_cuda_narrow 37" "racecheck -f .gpu/matrices/pde900.mtx.gz -mat_gpurcm_cuda_narrow 37"; do
  set -- $run; f=$r/sanitizer-$1.log
  timeout 60 compute-sanitizer --tool $1 build/tests/gpurcm_identity ${@:2} $E > $f 2>&1
  echo "$run: exit $? at $SECONDS s: $(grep -cE 'identical' $f) identical; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $f | tail -n 1)"
done
m="-matrices lap2d:1000,lap3d:100,lap2d:2000,lap2d:3000 -orderings gpurcm@cuda -reps 7 -cusolver_max_nnz 0"
gpujob_ab ab 2 spin $PWD/build/lib/libpetscsparsegpu.so landed /tmp/landed/build/lib/libpetscsparsegpu.so $m
for round in 1 2; do
  for nw in 512 768 1024; do
    o=$r/narrow$nw-$round
    timeout 60 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap2d:2000 -orderings gpurcm@cuda -reps 7 -cusolver_max_nnz 0 -mat_gpurcm_cuda_narrow $nw -csv $o.csv $dll > $o.txt 2>&1
    echo "narrow $nw round $round exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.txt | awk '{printf " %s", $2}')"
  done
done
left=$((B - ($(date +%s) - t0) - 10)); [ $left -ge 60 ] || { echo "no time left for the peers ($left s)"; exit 0; }
timeout $left build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160 -orderings rcm,gpurcm@cuda,gpurcm@threads:16,gpurcm@threads:4,gpurcm@serial,cusolver_rcm -reps 5 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "peers exit $? at $SECONDS s"; grep -E "^[a-z0-9_]+:|^  (rcm|gpurcm|cusolver)" $r/order.txt | cut -c1-110
