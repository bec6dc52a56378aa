#!/bin/bash
# session 61, job 1 (CPU only, the GPU host's 16 cores): the threads backend of gpurcm, 16 threads.
#  1. the setup's parts from -info (3e2ca22: workspace, pool start, first touch, pool stop, frees) on the four meshes;
#  2. session 60's job 9: main, main with group-barrier.patch, and the code before the lazy batch state, in rounds;
#  3. the serial backend.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session61/job1.sh <revision> [<rounds>]
S=bench/results/2026-12-07-GPU-session60
. bench/gpujob.sh job1 "$1"
M=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
timeout 100 build/bench/bench_order -matrices $M -orderings gpurcm@threads:16 -reps 7 -cusolver_max_nnz 0 -info $dll > $r/order-info.txt 2>&1
echo "info run exit $? at $SECONDS s"
grep -hE "^[a-z0-9_]+: [0-9]+ rows|^  gpurcm|phases" $r/order-info.txt
grep -ho "gpurcm threads: setup.*" $r/order-info.txt | awk '{print}' | sort | uniq -c | sort -rn | head -60 > $r/setup-lines.txt
grep -ho "gpurcm threads: setup.*" $r/order-info.txt | head -40
gpujob_base $S/before-lazy-batch.patch
rm -rf /tmp/base2; mkdir -p /tmp/base2
tar cf - --exclude=./build --exclude=./.gpu --exclude="./gpu-*" . | tar xf - -C /tmp/base2
root=$PWD
(cd /tmp/base2 && patch -s -p1 --batch < $root/$S/group-barrier.patch && make -j16 lib) > $r/base2-build.log 2>&1 || { tail -n 20 $r/base2-build.log; exit 1; }
echo "grouped-barrier library built at $SECONDS s"
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
