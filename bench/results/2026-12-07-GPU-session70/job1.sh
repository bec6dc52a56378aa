#!/bin/bash
# session 70, job 1: session 69's job5.sh trimmed to what decides bfs-rows.patch (device time was short after seven
# failed starts): no levelcost2.cu/numbercost.cu, fewer A/B rounds. The patch: the root finder's
# level BFS reads a node's neighbours from a copy of 4 a node (uint4, itself left out) and issues its four claims
# together, in the narrow levels with the bitmap (graphs of up to about 1.2M nodes whose rows have at most 5 entries).
# Every gpurcm test with the patch; compute-sanitizer synccheck, memcheck and racecheck of the level kernels with it;
# A/B against the landed library (3D 100³ and 2D 2000² are not eligible: controls).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session70/job1.sh <revision> [<seconds>]
# [full [<rounds>]]
# Order (device time was short): the A/B first (rounds, default 1; 2D 1000², 2D 500², 3D 100³, with "full" 2D 2000²
# too), then the tests, then the sanitizer (memcheck first). <seconds> (default 330): the time after the build; the
# tests and sanitizer runs are cut to what is left (rem).
p=bench/results/2026-12-07-GPU-session69/bfs-rows.patch
rm -rf /tmp/landed; mkdir -p /tmp/landed
tar cf - --exclude=./build --exclude=./.gpu --exclude="./gpu-*" . | tar xf - -C /tmp/landed
patch -s -p1 --batch < $p || { echo "bfs-rows.patch does not apply"; exit 1; }
. bench/gpujob.sh job1 "$1"
(cd /tmp/landed && make -j16 lib > $r/landed-build.log 2>&1) || { tail -n 20 $r/landed-build.log; exit 1; }
echo "landed library built at $SECONDS s"
B=${2:-330}; rem() { local t=$((B - SECONDS)); [ $t -lt 1 ] && t=1; [ $t -lt $1 ] && echo $t || echo $1; }
m="-matrices lap2d:1000,lap2d:500,lap3d:100 -orderings gpurcm@cuda -reps 7 -cusolver_max_nnz 0"; [ "${3:-}" = full ] && m="-matrices lap2d:1000,lap2d:500,lap3d:100,lap2d:2000 -orderings gpurcm@cuda -reps 7 -cusolver_max_nnz 0"
gpujob_ab ab ${4:-1} rows $PWD/build/lib/libpetscsparsegpu.so landed /tmp/landed/build/lib/libpetscsparsegpu.so $m
timeout $(rem 150) make check TESTS='gpurcm' TESTARGS="--jobs 15" > $r/check.log 2>&1
echo "gpurcm tests (bfs-rows) exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
E="-backends cuda -mat_gpurcm_cuda_number levels -mat_gpurcm_cuda_ell 1"
for run in "memcheck -generated -mat_gpurcm_cuda_narrow 37" "synccheck -generated" "racecheck -f .gpu/matrices/pde900.mtx.gz"; do
  set -- $run; f=$r/sanitizer-$1.log
  timeout $(rem 60) compute-sanitizer --tool $1 build/tests/gpurcm_identity ${@:2} $E -info > $f 2>&1
  echo "$run: exit $? at $SECONDS s: $(grep -cE 'identical' $f) identical; $(grep -c 'copy of 4 neighbours' $f) passes on the row copy; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $f | tail -n 1)"
done
