#!/bin/bash
# session 12, job 5 (nvidia-h200): the final solve kernel (phase 2's loads before the waits, its warp vote after; a batch polled together) with the new schedule:
# the complete make check, then the apply on the large set against cuSPARSE SpSV and PETSc's cuSPARSE
# ILU/ICC (ILU(0), ICC(0), ILU(1); natural and RCM), and the level order switched off on the 3D grids.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session12/job5.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job5; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job5.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 200 make check TESTARGS="--timeout 150 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20; SECONDS=0
M=lap2d:1000,lap3d:100,lap2d:2000,lap3d:160
timeout 150 build/bench/bench_factor -matrices $M -pcs subtree_ilu,spsv,ilu_cusparse -orderings natural,rcm -levels 0 -refactor_reps 5 -reps 20 -csv $r/factor.csv $dll > $r/factor.txt 2>&1
echo "factor exit $? after $SECONDS s"; SECONDS=0
timeout 110 build/bench/bench_factor -matrices $M -pcs subtree_ilu,ilu_cusparse -orderings natural,rcm -levels 1 -refactor_reps 3 -reps 20 -csv $r/factor-ilu1.csv $dll > $r/factor-ilu1.txt 2>&1
echo "factor ilu1 exit $? after $SECONDS s"; SECONDS=0
timeout 60 build/bench/bench_factor -matrices lap2d:1000,lap3d:100 -pcs subtree_icc,icc_cusparse -orderings natural,rcm -levels 0 -refactor_reps 3 -reps 20 -csv $r/factor-icc0.csv $dll > $r/factor-icc0.txt 2>&1
echo "factor icc0 exit $? after $SECONDS s"; SECONDS=0
timeout 40 build/bench/bench_factor -matrices lap3d:100,lap3d:160 -pcs subtree_ilu -orderings natural -levels 0 -refactor_reps 0 -reps 20 -csv $r/noorder.csv $dll -pc_subtree_ilu_cuda_level_order 0 > $r/noorder.txt 2>&1
echo "no level order exit $? after $SECONDS s"; SECONDS=0
timeout 30 build/bench/bench_factor -matrices lap3d:100 -pcs subtree_ilu -orderings natural,rcm -levels 0,1 -refactor_reps 0 -reps 2 $dll -info 2>&1 | grep -E "solve schedule" > $r/schedule-info.txt
grep -H -E "apply|solve" $r/factor*.txt $r/noorder.txt | sed 's/gmres.*//; s/setup [0-9.]* s//; s/( 20 reps, *[0-9.na]* GFLOP\/s)//; s|.*gpu-job5/||'
