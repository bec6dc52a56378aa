#!/bin/bash
# session 12, job 8 (nvidia-h200): the block's shared-memory values through shared-memory atomics (exchange to publish,
# compare-and-swap of the sentinel by itself to poll; job 7: relaxed loads/stores were still reported): the tests, racecheck,
# and the ILU(0) apply on 2D 1000^2 and 3D 100^3 (natural, RCM) against job 5.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session12/job8.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job8; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job8.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 60 make check TESTS='subtreeilu' TESTARGS="--timeout 50 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20; SECONDS=0
timeout 30 build/bench/bench_factor -matrices lap2d:1000,lap3d:100 -pcs subtree_ilu -orderings natural,rcm -levels 0 -refactor_reps 0 -reps 20 -csv $r/factor.csv $dll > $r/factor.txt 2>&1
echo "factor exit $? after $SECONDS s"; SECONDS=0
M=$PWD/.gpu/matrices
for c in "-type ilu -levels 0 -gen 2d -N 40" "-type ilu -levels 1 -ordering rcm -gen 3d -N 10"; do
  echo "## racecheck: subtreeilu4 $c" >> $r/sanitizer.txt
  timeout 40 compute-sanitizer --tool racecheck build/tests/subtreeilu4 $c -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -dir $M > $r/racecheck.log 2>&1
  echo "exit $?" >> $r/sanitizer.txt
  grep -E "SUMMARY|hazard" $r/racecheck.log | sort | uniq -c | head -6 >> $r/sanitizer.txt
done
echo "racecheck after $SECONDS s"
grep -H apply $r/factor.txt | sed 's/gmres.*//; s/setup.*//; s|.*gpu-job8/||'; cat $r/sanitizer.txt
