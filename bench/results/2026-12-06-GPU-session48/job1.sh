#!/bin/bash
# session 48, job 1 (one GPU host, 16 cores): (1) gpurcm on matrices flagged structurally symmetric (MAT_SYMMETRIC,
# MAT_SPD) after b949576 (the cuda backend checks the raw CSR on the GPU, the threads backend with its threads,
# instead of a serial host pass before either), beside the baseline built in the same call (this tree with
# gpurcm-flagged.patch reversed: 187ee86's gpurcm), alternated, two rounds; the same meshes unflagged for reference;
# (2) the complete suite (b949576 and session 47's host-only changes have not run on a GPU).
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
if [ $SECONDS -lt $((B - 200)) ]; then
  timeout $((B - SECONDS)) make check TESTARGS="--timeout 150 --jobs 14" > "$r/check.log" 2>&1
  echo "# exit status $? at $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
else echo "no time left for the complete suite at $SECONDS s"; fi
