#!/bin/bash
# session 60, job 9 (CPU only, the GPU host's 16 cores; prepared, not run: the session's device time ran out): the
# threads backend, 16 threads, in rounds: the code before the lazy batch state (before-lazy-batch.patch), the code on
# main (the lazy batch state), and main with the spin barrier meeting in groups of 4 threads (group-barrier.patch: on
# main for a few minutes, reverted unmeasured); the serial backend.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session60/job9.sh <revision> [<rounds>]
S=bench/results/2026-12-07-GPU-session60
. bench/gpujob.sh job9 "$1"
gpujob_base $S/before-lazy-batch.patch
rm -rf /tmp/base2; mkdir -p /tmp/base2
tar cf - --exclude=./build --exclude=./.gpu --exclude="./gpu-*" . | tar xf - -C /tmp/base2
root=$PWD
(cd /tmp/base2 && patch -s -p1 --batch < $root/$S/group-barrier.patch && make -j16 lib) > $r/base2-build.log 2>&1 || { tail -n 20 $r/base2-build.log; exit 1; }
echo "grouped-barrier library built at $SECONDS s"
M=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
for round in $(seq 1 ${2:-2}); do
  for lib in main group before; do
    L=$dll; [ $lib = before ] && L="-dll_append /tmp/base/build/lib/libpetscsparsegpu.so"; [ $lib = group ] && L="-dll_append /tmp/base2/build/lib/libpetscsparsegpu.so"
    o=$r/order-$lib-$round
    timeout 100 build/bench/bench_order -matrices $M -orderings gpurcm@threads:16 -reps 7 -cusolver_max_nnz 0 -csv $o.csv $L > $o.txt 2>&1
    echo "round $round $lib exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.txt | awk '{printf " %s", $2}')"
  done
done
timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@serial -reps 3 -cusolver_max_nnz 0 -csv $r/order-serial.csv $dll > $r/order-serial.txt 2>&1
echo "serial exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $r/order-serial.txt | awk '{printf " %s", $2}')"
