#!/bin/bash
# session 31, job 7 (nvidia-h200): job 6 compared gpurcm's threads backend with session 29's numbers from another
# machine; this is the A/B on one machine: the library without (gpurcm.c of c15eb4e, kept here as
# gpurcm-before-fe7c89a.c) and with fe7c89a's array mapping, alternated twice, serial and 16 threads.
# The file is in the repository at revision 373e369, where this ran (removed since: it is c15eb4e's gpurcm.c, i.e.
# `git show c15eb4e:src/mat/graphops/order/gpurcm/gpurcm.c`, the current one again).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-04-H200-session31/job7.sh <revision>
set -u
D=bench/results/2026-12-04-H200-session31
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job7; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job7.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
SECONDS=0
rm -rf /tmp/before && mkdir -p /tmp/before && cp -r makefile src include config bench tests tutorials /tmp/before/ && cp $D/gpurcm-before-fe7c89a.c /tmp/before/src/mat/graphops/order/gpurcm/gpurcm.c
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 && make -C /tmp/before -j16 lib >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
M=lap2d:1000,lap3d27:100,lap2d:2000
for round in 1 2; do
  for v in before after; do
    lib=$PWD/build/lib/libpetscsparsegpu.so; [ $v = before ] && lib=/tmp/before/build/lib/libpetscsparsegpu.so
    timeout 100 build/bench/bench_order -matrices $M -orderings gpurcm@serial,gpurcm@threads:16 -reps 3 -dll_append $lib > $r/order-$v-$round.txt 2>&1
    echo "== $v, round $round"; grep -E "^[a-z]|^  gpurcm" $r/order-$v-$round.txt | sed -E 's/ +/ /g' | cut -c1-90
  done
done
echo "after $SECONDS s"
