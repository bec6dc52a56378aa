#!/bin/bash
# session 35, job 2 (nvidia-h200; prepared in session 35, not run: the device time was spent): compute-sanitizer
# memcheck (leak check) of the staged uploads that session 34 gave subtree_ilu (its plan's and its solve structures'
# copies, above 1 MiB: PetscSparseGPUStagedUpload() in src/sys/utils/sparsegpustage.cu) and of gpurcm's staged CSR
# upload, on cases large enough to take them (the GPU tests passed in session 35; memcheck never ran on them).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H200-session35/job2.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job2; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job2.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -j16 build/tests/subtreeilu4 build/tests/gpurcm_identity >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
M=$PWD/.gpu/matrices
cases=(
  "build/tests/subtreeilu4 -type ilu -levels 0 -gen 3d -N 40 -conv 0.2 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_setup_threads 5 -st_pc_subtree_ilu_plan_check -dir $M"
  "build/tests/subtreeilu4 -type icc -levels 1 -gen 2d -N 300 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_setup_threads 5 -dir $M"
  "build/tests/subtreeilu4 -type ilu -levels 1 -ordering rcm -gen 3d -N 40 -conv 0.2 -mtype pellrcuda -st_pc_subtree_ilu_backend cuda -dir $M"
  "build/tests/gpurcm_identity -f $M/bcsstk17.mtx.gz -generated -backends cuda -mat_gpurcm_cuda_upload staged -mat_gpurcm_threads 4"
)
i=0
for c in "${cases[@]}"; do
  i=$((i+1)); echo "## memcheck: $c" >> $r/sanitizer.txt
  timeout 120 compute-sanitizer --tool memcheck --leak-check full $c > $r/memcheck-$i.log 2>&1
  echo "exit $?" >> $r/sanitizer.txt
  grep -E "ERROR SUMMARY|LEAK SUMMARY|round|identical" $r/memcheck-$i.log | head -12 >> $r/sanitizer.txt
done
echo "memcheck after $SECONDS s"; cat $r/sanitizer.txt
