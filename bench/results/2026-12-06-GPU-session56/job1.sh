#!/bin/bash
# session 56, job 1: the complete test suite (session 55's final library code plus the staging fork/join folded into
# one helper), gpurcm beside all its peers, and the -DGPURCM_PROFILE build's cycles per level by level size.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session56/job1.sh <revision>
. bench/gpujob.sh job1 "$1"
timeout 300 make check TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "check exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12; SECONDS=0
M=lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160
timeout 200 build/bench/bench_order -matrices $M -orderings rcm,gpurcm@cuda,gpurcm@threads:16,gpurcm@serial,cusolver_rcm -reps 5 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "bench_order exit $? after $SECONDS s"; SECONDS=0
grep -E "^[a-z].*rows|^  [a-z]" $r/order.txt | sed -E 's/ +/ /g; s/identical to rcm: //' | cut -c1-100
timeout 30 build/bench/bench_order -matrices lap3d:100,lap2d:1000 -orderings gpurcm@cuda -reps 5 -info :sys,mat $dll > $r/hostinfo.txt 2>&1
grep -h "host time" $r/hostinfo.txt | tail -n 4 | cut -c40-260
touch src/mat/graphops/order/gpurcm/gpurcm.cu; make -j16 CUDAFLAGS=-DGPURCM_PROFILE > "$r/build-profile.log" 2>&1 || tail -n 20 "$r/build-profile.log"
for m in lap2d:1000 lap3d:100 lap2d:2000; do
  timeout 60 build/bench/bench_order -matrices $m -orderings gpurcm@cuda -reps 1 -info :sys $dll > $r/profile-${m/:/}.txt 2>&1
done
grep -h "GPURCM_PROFILE" $r/profile-*.txt | head -80
echo "profile after $SECONDS s"
