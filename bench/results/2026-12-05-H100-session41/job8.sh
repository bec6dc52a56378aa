#!/bin/bash
# session 41, job 8 (GPU machine): every subtree_ilu test (the new subtreeilu3_auto_icc among them) at the final code.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-05-H100-session41/job8.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job8; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job8.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; nproc; } > $r/info.txt 2>&1
cat $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s" | tee -a $r/info.txt; SECONDS=0
timeout 200 make check TESTS='subtree' TESTARGS="--timeout 150 --jobs 14" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 3 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
grep "subtreeilu3_auto" "$r/check.log"
