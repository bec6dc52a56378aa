#!/bin/bash
# session 69, job 5 (issue 3; prepared for the next session, not run: this session's device time was spent). (1)
# levelcost2.cu (job 4, not run either: the lean one-block BFS level with the library's extras added one at a time),
# about 20 s; (2) bfs-rows.patch: the root finder's level BFS reads a node's neighbours from a copy of 4 a node
# (uint4, itself left out) and issues its four claims together, in the narrow levels with the bitmap (graphs of up to
# about 1.2M nodes whose rows have at most 5 entries: 2D 5-point meshes), as levelcost.cu measured at 1.03 against
# 1.74 us a level (job 3): every gpurcm test with the patch; compute-sanitizer synccheck, memcheck and racecheck of
# the level kernels with it; 3 alternated rounds against the landed library on 2D 1000², 2D 500², 3D 100³ (not
# eligible: 7 entries a row, the control) and 2D 2000² (not eligible: no bitmap at 4M nodes, the control).
# (1b) numbercost.cu: a lean one-block Cuthill-McKee numbering of 2D 1000²'s levels (the library's: about 3.6 us a
# level), checked against a host Cuthill-McKee, about 10 s.
# Land bfs-rows.patch only if the tests pass, the sanitizer is clean and 2D 1000² is faster; then document it under
# -mat_gpurcm_cuda_ell in README (the patch updates the manual page, the help string and its test output).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session69/job5.sh <revision>
d=bench/results/2026-12-07-GPU-session69
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"
(. .gpu/setup.sh && nvcc -O3 -arch=sm_90 -o /tmp/levelcost2 $d/levelcost2.cu && timeout 60 /tmp/levelcost2 1000 > $out/levelcost2.txt 2>&1; echo "levelcost2 exit $?"; cat $out/levelcost2.txt)
(. .gpu/setup.sh && nvcc -O3 -arch=sm_90 -o /tmp/numbercost $d/numbercost.cu && timeout 60 /tmp/numbercost 1000 > $out/numbercost.txt 2>&1; echo "numbercost exit $?"; cat $out/numbercost.txt)
rm -rf /tmp/landed; mkdir -p /tmp/landed
tar cf - --exclude=./build --exclude=./.gpu --exclude="./gpu-*" . | tar xf - -C /tmp/landed
patch -s -p1 --batch < $d/bfs-rows.patch || { echo "bfs-rows.patch does not apply"; exit 1; }
. bench/gpujob.sh job5 "$1"
(cd /tmp/landed && make -j16 lib > $r/landed-build.log 2>&1) || { tail -n 20 $r/landed-build.log; exit 1; }
echo "landed library built at $SECONDS s"
timeout 150 make check TESTS='gpurcm' TESTARGS="--jobs 15" > $r/check.log 2>&1
echo "gpurcm tests (bfs-rows) exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
E="-backends cuda -mat_gpurcm_cuda_number levels -mat_gpurcm_cuda_ell 1"
for run in "synccheck -generated" "memcheck -generated -mat_gpurcm_cuda_narrow 37" "racecheck -f .gpu/matrices/pde900.mtx.gz"; do
  set -- $run; f=$r/sanitizer-$1.log
  timeout 60 compute-sanitizer --tool $1 build/tests/gpurcm_identity ${@:2} $E -info > $f 2>&1
  echo "$run: exit $? at $SECONDS s: $(grep -cE 'identical' $f) identical; $(grep -c 'copy of 4 neighbours' $f) passes on the row copy; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $f | tail -n 1)"
done
m="-matrices lap2d:1000,lap2d:500,lap3d:100,lap2d:2000 -orderings gpurcm@cuda -reps 7 -cusolver_max_nnz 0"
gpujob_ab ab 3 rows $PWD/build/lib/libpetscsparsegpu.so landed /tmp/landed/build/lib/libpetscsparsegpu.so $m
