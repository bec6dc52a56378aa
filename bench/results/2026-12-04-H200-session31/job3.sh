#!/bin/bash
# session 31, job 3 (nvidia-h200): inside subtree_ilu's first setup at 128^3 (tutorials/ex1) with -info: the time of
# the host solve structures, of the value gathers, of the copies to the device and of the two schedules (on threads
# during the copies), for ICC(0) and ILU(0), default setup threads and one.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-04-H200-session31/job3.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job3; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job3.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -j16 build/tutorials/ex1 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
L="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
run() { echo "== $1"; shift; timeout 90 build/tutorials/ex1 $L -n 128 -solves 1 -dm_vec_type cuda -ksp_type cg -mat_type pellrcuda -pc_type subtree_ilu "$@" 2>&1 | grep -E "converged|time:|PCSUBTREEILU (solve structures|cuda setup|cuda solve schedule)"; }
{
for rep in 1 2; do
run "ICC(0), setup threads default" -pc_subtree_ilu_type icc -info
run "ICC(0), setup threads 1" -pc_subtree_ilu_type icc -pc_subtree_ilu_setup_threads 1 -info
run "ILU(0), setup threads default" -pc_subtree_ilu_type ilu -info
run "ILU(0), setup threads 1" -pc_subtree_ilu_type ilu -pc_subtree_ilu_setup_threads 1 -info
done
} > $r/info-setup.txt 2>&1
sed 's/^\[0\] <[a-z]*> //' $r/info-setup.txt
echo "runs after $SECONDS s"
