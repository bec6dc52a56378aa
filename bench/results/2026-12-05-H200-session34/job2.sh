#!/bin/bash
# session 34, job 2 (nvidia-h200; prepared in session 34, which had no GPU): gpurcm's threads backend without the
# per-call initialization of its batch signal slots (25062ef: calloc'd, zero = unset) against the code before it
# (gpurcm-calloc.patch applied in reverse to a copy of the tree), alternated twice, 16 threads and serial, on the
# meshes of issue 3's 6x goal (as session 31 job 7); then the cuda backend and PETSc's rcm on the same meshes (issue 3's 20x goal).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H200-session34/job2.sh <revision>
set -u
D=bench/results/2026-12-05-H200-session34
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job2; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job2.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
SECONDS=0
rm -rf /tmp/before && mkdir -p /tmp/before && cp -r makefile src include config bench tests tutorials /tmp/before/
(cd /tmp/before && patch -p1 -R < $OLDPWD/$D/gpurcm-calloc.patch) > $r/patch.log 2>&1 || { cat $r/patch.log; exit 1; }
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 && make -C /tmp/before -j16 lib >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
M=lap2d:1000,lap3d27:100,lap2d:2000
for round in 1 2; do
  for v in before after; do
    lib=$PWD/build/lib/libpetscsparsegpu.so; [ $v = before ] && lib=/tmp/before/build/lib/libpetscsparsegpu.so
    timeout 100 build/bench/bench_order -matrices $M -orderings gpurcm@serial,gpurcm@threads:16 -reps 3 -dll_append $lib -csv $r/order-$v-$round.csv > $r/order-$v-$round.txt 2>&1
    echo "== $v, round $round"; grep -E "^[a-z]|^  gpurcm|phases" $r/order-$v-$round.txt | sed -E 's/ +/ /g' | cut -c1-110
  done
done
timeout 90 build/bench/bench_order -matrices $M -orderings rcm,gpurcm@cuda,gpurcm@threads:16,gpurcm@serial -reps 3 -dll_append $PWD/build/lib/libpetscsparsegpu.so -csv $r/order-all.csv > $r/order-all.txt 2>&1
echo "== all"; grep -E "^[a-z]|^  (rcm|gpurcm)|phases" $r/order-all.txt | sed -E 's/ +/ /g' | cut -c1-110
echo "after $SECONDS s"
