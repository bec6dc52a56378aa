#!/bin/bash
# session 56, job 3: gpurcm's narrow levels reading rows from a packed ELL copy (-mat_gpurcm_cuda_ell): every gpurcm
# test, the A/B in one binary (ell 0/1 alternated, two rounds), -info, and the profile build's cycles per level.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session56/job3.sh <revision>
. bench/gpujob.sh job3 "$1"
timeout 200 make check TESTS='gpurcm' TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12; SECONDS=0
M=lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160,lap2d:500
for round in 1 2; do
  for e in 0 1; do
    timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 9 -mat_gpurcm_cuda_ell $e -csv $r/ab-e$e-r$round.csv $dll > $r/ab-e$e-r$round.txt 2>&1 || echo "A/B e$e r$round failed"
  done
done
echo "A/B after $SECONDS s"; SECONDS=0
for f in $r/ab-e*-r*.txt; do echo "== $(basename $f)"; grep -E "^[a-z].*rows|^  gpurcm" $f | sed -E 's/ +/ /g; s/identical to rcm: //' | cut -c1-90; done
timeout 30 build/bench/bench_order -matrices lap2d:1000,lap3d:100 -orderings gpurcm@cuda -reps 3 -info :sys,mat $dll > $r/hostinfo.txt 2>&1
grep -h "ELL\|host time\|auto takes\|stage" $r/hostinfo.txt | tail -n 12 | cut -c1-260
touch src/mat/graphops/order/gpurcm/gpurcm.cu; make -j16 CUDAFLAGS=-DGPURCM_PROFILE > "$r/build-profile.log" 2>&1 || tail -n 20 "$r/build-profile.log"
for e in 0 1; do
  timeout 60 build/bench/bench_order -matrices lap2d:1000 -orderings gpurcm@cuda -reps 1 -mat_gpurcm_cuda_ell $e -info :sys $dll > $r/profile-lap2d1000-e$e.txt 2>&1
done
for f in $r/profile-*.txt; do echo "== $(basename $f)"; grep -h "GPURCM_PROFILE" $f | tail -n 36 | sed -E 's/GPURCM_PROFILE //; s/levels of //' | awk 'NR%4==1'; done
echo "profile after $SECONDS s"
