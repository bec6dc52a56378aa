#!/bin/bash
# session 41, job 1 (one GPU): where gpurcm cuda's time goes on the 2D meshes (issue 3's unmet 20x rcm): the stage
# trace of -info (each stage synchronized) on 2D 1000^2, 3D 100^3 and 2D 2000^2, and the effect of the developer
# knobs of the narrow-level kernels; PETSc's rcm in the same run.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H100-session41/job1.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job1; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job1.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
cat $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 60 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap2d:2000 -orderings rcm,gpurcm@cuda -reps 5 -csv $r/order.csv $dll > $r/order.txt 2>&1
echo "order exit $? after $SECONDS s"; SECONDS=0
grep -E "^[a-z].*rows|^  [a-z]|phases" $r/order.txt | sed -E 's/ +/ /g; s/identical to rcm: //' | cut -c1-120
timeout 60 build/bench/bench_order -matrices lap2d:1000,lap3d:100,lap2d:2000 -orderings gpurcm@cuda -reps 3 -info :sys $dll > $r/trace.txt 2>&1
echo "trace exit $? after $SECONDS s"; SECONDS=0
grep -h "GPURCMTraceReport\|^[a-z].*rows" $r/trace.txt | sed -E 's/.*\(([0-9]+ nodes)/\1/' | cut -c1-230
grep -h "gpurcm" $r/trace.txt | grep -v TraceReport | sort | uniq -c | sort -rn | head -20
tar czf "$out/job1-part.tgz" -C "$r" .
