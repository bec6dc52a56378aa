#!/bin/bash
# session 48, job 4 (one GPU host, 16 cores): b196a68's staging (the process's first upload up to 256 MiB through the
# driver, the pinned buffers made at the next one, per copying thread, sized to the chunks, one after the other)
# against 246c038's (64 MiB made before the first upload; stage-final.patch reversed): bench_order's first call and
# steady median, one process per mesh, alternated, three rounds; an -info trace; every gpurcm and subtree_ilu test.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session48/job4.sh <revision> [<s>]
. bench/gpujob.sh job4 "$1"
B=${2:-400}
D=bench/results/2026-12-06-GPU-session48
t=/tmp/base; rm -rf $t; mkdir -p $t
tar cf - --exclude=./build --exclude=./.gpu --exclude="./gpu-*" . | tar xf - -C $t
(cd $t && patch -s -R -p1 < $D/stage-final.patch && make -j16 lib > $r/base-build.log 2>&1) || tail -n 20 $r/base-build.log
echo "baseline library built at $SECONDS s"
for round in 1 2 3; do
  for v in new base; do
    L=$PWD/build/lib/libpetscsparsegpu.so; [ $v = base ] && L=/tmp/base/build/lib/libpetscsparsegpu.so
    for m in lap2d:1000 lap3d:100 lap3d27:100 lap2d:2000; do
      [ $SECONDS -gt $((B - 200)) ] && continue
      tag=$(echo $m | tr : _)
      timeout 40 build/bench/bench_order -matrices $m -orderings gpurcm@cuda -reps 3 -csv $r/first-$v-$tag-r$round.csv -dll_append $L > $r/first-$v-$tag-r$round.txt 2>&1
      grep -h "gpurcm@cuda" $r/first-$v-$tag-r$round.txt | sed "s/^/$v r$round $m /"
    done
  done
done
timeout 40 build/bench/bench_order -matrices lap3d:100 -orderings gpurcm@cuda -reps 3 -info $dll 2>&1 | grep "stages in us" > $r/trace-new.txt
cut -c1-240 $r/trace-new.txt | head -3
echo "orderings done at $SECONDS s"
tar czf "$out/job4-bench.tgz" -C "$r" .
timeout $((B - SECONDS)) make check TESTS='gpurcm|subtreeilu' TESTARGS="--timeout 150 --jobs 14" > "$r/check.log" 2>&1
echo "# exit status $? at $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
