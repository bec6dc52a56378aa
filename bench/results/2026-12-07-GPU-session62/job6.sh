#!/bin/bash
# session 62, job 6: job 5 found the meshes slower at 16 threads in the runs with -mat_gpurcm_threads_components on,
# although a mesh's single component takes the same path either way. ABBA order, meshes alone and block-diagonal
# matrices alone, with -info (the threads' wait mode, spin or sleep, is chosen per ordering from /proc/loadavg).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session62/job6.sh <revision>
. bench/gpujob.sh job6 "$1"
sleep 15
for set in mesh blk; do
  M=lap3d:100,lap2d:1000; [ $set = blk ] && M=blkdiag:bcsstk17:8M,blkdiag:bcsstk17:32M,lap3d:100
  i=0
  for c in off on on off off on; do
    i=$((i+1)); o=$r/order-$set-$c-$i; C=1; [ $c = off ] && C=0
    timeout 60 build/bench/bench_order -matrices $M -orderings gpurcm@threads:16 -reps 9 -cusolver_max_nnz 0 -matdir .gpu/matrices -csv $o.csv $dll -mat_gpurcm_threads_components $C -info > $o.txt 2>&1
    echo "$set $i $c exit $? at $SECONDS s:$(grep -hE '^  gpurcm' $o.txt | awk '{printf " %s", $2}') sleep-waits: $(grep -c 'waits sleep' $o.txt) spin-waits: $(grep -c 'waits spin' $o.txt) loadavg: $(cat /proc/loadavg)"
  done
done
for f in $r/order-*.txt; do grep -v PetscInfo $f | grep -v "^\[0\]" > $f.short; grep -h "waits\|more components" $f | sort | uniq -c > $f.info; rm $f; done
