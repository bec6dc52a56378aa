#!/bin/bash
# session 48, job 3 (one GPU host, 16 cores): 4e9095a makes the process's first staged upload the driver's pageable
# copy while a background thread makes the pinned buffers for the later uploads. bench_order's first call (first_s)
# and steady median, one process per mesh, three versions alternated, three rounds: this tree ("first-driver"),
# e32bd15's staging ("lazy": buffers per thread, sized to the chunks, made before the first copy; stage-first-driver.patch
# reversed) and 246c038's ("base": 64 MiB made up front; stage-all.patch reversed; that patch is now stage-final.patch of job 4, whose src is b196a68 instead of 4e9095a: reverse `git diff 246c038 4e9095a -- src/sys/utils/sparsegpustage.cu` to rerun); then every gpurcm and subtree_ilu
# test.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session48/job3.sh <revision> [<s>]
. bench/gpujob.sh job3 "$1"
B=${2:-400}
D=bench/results/2026-12-06-GPU-session48
for v in lazy base; do
  t=/tmp/$v; rm -rf $t; mkdir -p $t
  tar cf - --exclude=./build --exclude=./.gpu --exclude="./gpu-*" . | tar xf - -C $t
  p=stage-first-driver.patch; [ $v = base ] && p=stage-all.patch
  (cd $t && patch -s -R -p1 < $D/$p && make -j16 lib > $r/$v-build.log 2>&1) || tail -n 20 $r/$v-build.log
done
echo "baseline libraries built at $SECONDS s"
for round in 1 2 3; do
  for v in new lazy base; do
    L=$PWD/build/lib/libpetscsparsegpu.so; [ $v != new ] && L=/tmp/$v/build/lib/libpetscsparsegpu.so
    for m in lap2d:1000 lap3d:100 lap3d27:100; do
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
tar czf "$out/job3-bench.tgz" -C "$r" .
timeout $((B - SECONDS)) make check TESTS='gpurcm|subtreeilu' TESTARGS="--timeout 150 --jobs 14" > "$r/check.log" 2>&1
echo "# exit status $? at $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
