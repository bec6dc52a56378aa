#!/bin/bash
# session 56, job 4: the packed ELL copy for the level numbering only: every gpurcm test (the complete suite ran in job 1;
# only gpurcm changed since), the A/B in one binary
# (-mat_gpurcm_cuda_ell 0/1 alternated, two rounds), -info stage traces.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session56/job4.sh <revision>
. bench/gpujob.sh job4 "$1"
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
for e in 0 1; do
  timeout 30 build/bench/bench_order -matrices lap2d:1000,lap3d:100 -orderings gpurcm@cuda -reps 3 -mat_gpurcm_cuda_ell $e -info :sys $dll > $r/hostinfo-e$e.txt 2>&1
  grep -h "ELL\|stages in us" $r/hostinfo-e$e.txt | tail -n 3 | cut -c1-250
done
