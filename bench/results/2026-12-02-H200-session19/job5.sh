#!/bin/bash
# session 19, job 5 (nvidia-h200): the final revision's csr-kernel tests (pellr_ops csr formats with every kernel, KSP ex2
# with pellrcuda csr, the -mat_view line of each kernel, a wrong option value).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-02-H200-session19/job5.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job5; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job5.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
timeout 120 make check TESTS='csr|pellr_ksp_ex2' TESTARGS="--timeout 100 --jobs 12" > "$r/check.log" 2>&1
echo "# exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20
