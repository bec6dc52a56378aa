#!/bin/bash
# session 49, job 3 (one GPU host, 16 cores): the cuda backend after job 2 (c0c48a5: hub child lists merge-sorted by
# their thread) changed again: long child lists sorted by the whole block, long rows hooked by a block in the component
# labelling (job 2's trace: 121 ms of labelling and 174 ms of numbering on powerlaw:1M:16), and auto numbering = levels
# unless every level is narrow and the claim tables do not fit. (1) every gpurcm test; (2) A/B against c0c48a5
# (this tree with blocksort.patch (git diff c0c48a5 <rev> -- src) reversed), alternated, two rounds: power-law graphs,
# meshes (auto now takes the level numbering on 3D meshes), a Kronecker product; (3) the stage trace on powerlaw:1M:16.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session49/job3.sh <revision> [<s>]
. bench/gpujob.sh job3 "$1"
B=${2:-400}
D=bench/results/2026-12-06-GPU-session49
base=/tmp/base; rm -rf $base; mkdir -p $base
tar cf - --exclude=./build --exclude=./.gpu --exclude="./gpu-*" . | tar xf - -C $base
(cd $base && patch -s -R -p1 < $D/blocksort.patch && make -j16 > $r/base-build.log 2>&1) || tail -n 20 $r/base-build.log
echo "baseline built at $SECONDS s"
timeout 150 make check TESTS='gpurcm' TESTARGS="--timeout 120 --jobs 14" > "$r/check-gpurcm.log" 2>&1
echo "# exit status $? at $SECONDS s" >> "$r/check-gpurcm.log"; tail -n 2 "$r/check-gpurcm.log"; grep "^not ok" "$r/check-gpurcm.log" | head
M=powerlaw:1M:16,powerlaw:4M:8,kron:pde900:jpwh_991,lap3d:100,lap3d27:100,lap3d:160,lap2d:1000,lap2d:2000
for round in 1 2; do
  for v in new base; do
    [ $SECONDS -gt $((B - 70)) ] && { echo "skipping $v r$round at $SECONDS s"; continue; }
    lib=$PWD/build/lib/libpetscsparsegpu.so; [ $v = base ] && lib=$base/build/lib/libpetscsparsegpu.so
    timeout 90 build/bench/bench_order -matrices $M -orderings gpurcm@cuda -reps 5 -matdir .gpu/matrices -csv $r/ab-$v-r$round.csv -dll_append $lib > $r/ab-$v-r$round.txt 2>&1
    echo "== $v r$round (exit $?, $SECONDS s)"; grep -hE "gpurcm@cuda" $r/ab-$v-r$round.txt
  done
done
timeout 40 build/bench/bench_order -matrices powerlaw:1M:16 -orderings gpurcm@cuda -reps 2 -info $dll > $r/powerlaw1M-info.txt 2>&1
grep -E "stages in us" $r/powerlaw1M-info.txt | cut -c1-330 | head -4
