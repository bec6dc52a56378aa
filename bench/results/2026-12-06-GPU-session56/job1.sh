#!/bin/bash
# session 56, job 1: the complete test suite (the staging fork/join folded into one helper; gpurcm's edge rows),
# the edge rows A/B in one binary (-mat_gpurcm_cuda_edge_rows 0/1, alternated), gpurcm beside all its peers, and the
# -DGPURCM_PROFILE build's cycles per level by level size, without and with the edge rows.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session56/job1.sh <revision>
. bench/gpujob.sh job1 "$1"
timeout 280 make check TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12; SECONDS=0
M=lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160
for round in 1 2; do
  for e in 0 1; do
    timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 9 -mat_gpurcm_cuda_edge_rows $e -csv $r/ab-e$e-r$round.csv $dll > $r/ab-e$e-r$round.txt 2>&1 || echo "A/B e$e r$round failed"
  done
done
echo "A/B after $SECONDS s"; SECONDS=0
grep -h "gpurcm@cuda" $r/ab-e*-r*.txt | head -0
for f in $r/ab-e*-r*.txt; do echo "== $(basename $f)"; grep -E "^[a-z].*rows|^  gpurcm" $f | sed -E 's/ +/ /g; s/identical to rcm: //' | cut -c1-90; done
timeout 200 build/bench/bench_order -matrices $M -orderings rcm,gpurcm@cuda,gpurcm@threads:16,gpurcm@serial,cusolver_rcm -reps 5 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "bench_order exit $? after $SECONDS s"; SECONDS=0
grep -E "^[a-z].*rows|^  [a-z]" $r/order.txt | sed -E 's/ +/ /g; s/identical to rcm: //' | cut -c1-100
timeout 30 build/bench/bench_order -matrices lap3d:100,lap2d:1000 -orderings gpurcm@cuda -reps 5 -info :sys,mat $dll > $r/hostinfo.txt 2>&1
grep -h "host time\|edge rows\|auto takes" $r/hostinfo.txt | tail -n 8 | cut -c1-260
touch src/mat/graphops/order/gpurcm/gpurcm.cu; make -j16 CUDAFLAGS=-DGPURCM_PROFILE > "$r/build-profile.log" 2>&1 || tail -n 20 "$r/build-profile.log"
for m in lap2d:1000 lap3d:100; do
  for e in 0 1; do
    timeout 60 build/bench/bench_order -matrices $m -orderings gpurcm@cuda -reps 1 -mat_gpurcm_cuda_edge_rows $e -info :sys $dll > $r/profile-${m/:/}-e$e.txt 2>&1
  done
done
for f in $r/profile-*.txt; do echo "== $(basename $f)"; grep -h "GPURCM_PROFILE" $f | tail -n 40; done
echo "profile after $SECONDS s"
