#!/bin/bash
# session 48, job 2 (one GPU host, 16 cores): the first call of an ordering, what an application that orders once pays.
# e32bd15 makes the pinned staging buffers of host uploads per copying thread, sized to the chunks in use and made by
# the threads themselves at their first use, instead of 64 MiB made up front (job 1: the first upload of 2D 1000²'s CSR
# took 22 ms, later ones 1.1 ms). (1) bench_order's first call (first_s) and steady median, one process per mesh so
# that each first call is the process's first upload, new against the baseline library (this tree with
# stage-lazy.patch reversed), alternated, three rounds, and the driver's pageable copy for comparison; (2) subtree_ilu's
# first refactorization (its plan goes through the same staged upload), new against baseline, two rounds; (3) -info
# stage traces; (4) every gpurcm and subtree_ilu test.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-06-GPU-session48/job2.sh <revision> [<s>]
. bench/gpujob.sh job2 "$1"
B=${2:-400}
D=bench/results/2026-12-06-GPU-session48
base=/tmp/base; rm -rf $base; mkdir -p $base
tar cf - --exclude=./build --exclude=./.gpu --exclude="./gpu-*" . | tar xf - -C $base
(cd $base && patch -s -R -p1 < $D/stage-lazy.patch && make -j16 lib > $r/base-build.log 2>&1) || tail -n 20 $r/base-build.log
echo "baseline library built at $SECONDS s"
NEWL=$PWD/build/lib/libpetscsparsegpu.so; BASEL=$base/build/lib/libpetscsparsegpu.so
for round in 1 2 3; do
  for v in new base; do
    L=$NEWL; [ $v = base ] && L=$BASEL
    for m in lap2d:1000 lap3d:100 lap3d27:100; do
      [ $SECONDS -gt $((B - 200)) ] && continue
      tag=$(echo $m | tr : _)
      timeout 40 build/bench/bench_order -matrices $m -orderings gpurcm@cuda -reps 3 -csv $r/first-$v-$tag-r$round.csv -dll_append $L > $r/first-$v-$tag-r$round.txt 2>&1
      grep -h "gpurcm@cuda" $r/first-$v-$tag-r$round.txt | sed "s/^/$v r$round $m /"
    done
  done
done
for m in lap2d:1000 lap3d:100 lap3d27:100; do
  tag=$(echo $m | tr : _)
  timeout 40 build/bench/bench_order -matrices $m -orderings gpurcm@cuda -reps 3 -mat_gpurcm_cuda_upload pageable -csv $r/first-pageable-$tag.csv $dll > $r/first-pageable-$tag.txt 2>&1
  grep -h "gpurcm@cuda" $r/first-pageable-$tag.txt | sed "s/^/pageable $m /"
done
for v in new base; do
  L=$NEWL; [ $v = base ] && L=$BASEL
  timeout 40 build/bench/bench_order -matrices lap3d:100 -orderings gpurcm@cuda -reps 3 -info -dll_append $L 2>&1 | grep "stages in us" > $r/trace-$v.txt
  echo "$v trace:"; cut -c1-260 $r/trace-$v.txt | head -3
done
echo "orderings done at $SECONDS s"
for round in 1 2; do
  for v in new base; do
    [ $SECONDS -gt $((B - 170)) ] && continue
    L=$NEWL; [ $v = base ] && L=$BASEL
    timeout 60 build/bench/bench_factor -matrices lap3d:100 -pcs subtree_ilu -orderings natural -reps 5 -refactor_reps 3 -csv $r/factor-$v-r$round.csv -dll_append $L > $r/factor-$v-r$round.txt 2>&1
    grep -h "subtree_ilu" $r/factor-$v-r$round.txt | sed "s/^/$v r$round /"
  done
done
tar czf "$out/job2-bench.tgz" -C "$r" .
timeout $((B - SECONDS)) make check TESTS='gpurcm|subtreeilu' TESTARGS="--timeout 150 --jobs 14" > "$r/check.log" 2>&1
echo "# exit status $? at $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
