#!/bin/bash
# session 48, job 1 (one GPU host, 16 cores): (1) gpurcm on matrices flagged structurally symmetric (MAT_SYMMETRIC,
# MAT_SPD) after b949576 (the cuda backend checks the raw CSR on the GPU, the threads backend with its threads,
# instead of a serial host pass before either), beside the baseline built in the same call (this tree with
# gpurcm-flagged.patch (git diff 187ee86 3c3d618 -- src) reversed: 187ee86's gpurcm), alternated, two rounds; the same meshes unflagged for reference;
# (2) the predictor's GPU features on the 15 large matrices and smaller blocks; (3) the complete suite (b949576 and session 47's host-only changes have not run on a GPU).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session48/job1.sh <revision> [<s>]
. bench/gpujob.sh job1 "$1"
B=${2:-500}
D=bench/results/2026-12-06-GPU-session48
base=/tmp/base; rm -rf $base; mkdir -p $base
tar cf - --exclude=./build --exclude=./.gpu --exclude="./gpu-*" . | tar xf - -C $base
(cd $base && patch -s -R -p1 < $D/gpurcm-flagged.patch && make -j16 > $r/base-build.log 2>&1 && make -C bench -j16 >> $r/base-build.log 2>&1) || tail -n 20 $r/base-build.log
echo "baseline built at $SECONDS s"
M=lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000
for round in 1 2; do
  for v in new base; do
    [ $SECONDS -gt $((B - 60)) ] && { echo "skipping round $round $v at $SECONDS s"; continue; }
    dir=$PWD; [ $v = base ] && dir=$base
    (cd $dir && timeout 90 build/bench/bench_order -matrices $M -orderings gpurcm@cuda,gpurcm@threads:16 -flag_symmetric -reps 5 -csv $r/flagged-$v-r$round.csv -dll_append $dir/build/lib/libpetscsparsegpu.so > $r/flagged-$v-r$round.txt 2>&1)
    echo "$v round $round exit $? at $SECONDS s"; grep -E "^[a-z0-9_]+:|^  gpurcm" $r/flagged-$v-r$round.txt
  done
done
timeout 120 build/bench/bench_order -matrices $M -orderings rcm,gpurcm@cuda,gpurcm@threads:16 -reps 5 -csv $r/unflagged.csv $dll > $r/unflagged.txt 2>&1
echo "unflagged exit $? at $SECONDS s"; grep -E "^[a-z0-9_]+:|^  (rcm|gpurcm)" $r/unflagged.txt
timeout 60 build/bench/bench_order -matrices lap2d:1000 -orderings gpurcm@cuda -flag_symmetric -reps 3 -info $dll > $r/flagged-info.txt 2>&1
grep -E "flagged|stages in us" $r/flagged-info.txt | head -8
tar czf "$out/job1-bench.tgz" -C "$r" .
# issue 6: the predictor's GPU features on all 15 large matrices (session 38's set; session 47 timed 8 of them) and on
# session 38's smaller blocks (2^13 to 2^20 rows, never measured), against the calibration's H200 conversions
J1=$PWD/bench/results/2026-12-04-H200-session32/job1
L=lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
S=lap2d:32,lap3d7:10,lap2d:90,lap3d7:20,lap3d27:20,Pd,bcsstk17,e30r4000,bayer10,lap3d7:40,lap3d27:40,lap2d:256,blkdiag:bcsstk17:1M,blkdiag:e30r4000:2M,lap3d7:64,lap2d:724,kron:bcsstk01:e30r4000
if [ $SECONDS -lt $((B - 330)) ]; then
  timeout 90 build/bench/bench_calibrate -times $J1/large.csv -matrices $L -matdir .gpu/matrices -evaluate default -report $r/eval-large.md -feature_times $r/feature-times.csv > $r/feature-times.txt 2>&1
  echo "feature times exit $? at $SECONDS s"
  timeout 50 build/bench/bench_calibrate -times $J1/calibration.csv -matrices $S -matdir .gpu/matrices -evaluate default -report /dev/null -feature_times $r/feature-times-small.csv > $r/feature-times-small.txt 2>&1
  echo "feature times (smaller) exit $? at $SECONDS s"
  tar czf "$out/job1-features.tgz" -C "$r" .
fi
if [ $SECONDS -lt $((B - 200)) ]; then
  timeout $((B - SECONDS)) make check TESTARGS="--timeout 150 --jobs 14" > "$r/check.log" 2>&1
  echo "# exit status $? at $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
else echo "no time left for the complete suite at $SECONDS s"; fi
