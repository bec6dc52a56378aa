#!/bin/bash
# session 16, job 6 (nvidia-h200): the pellr tests (pellr_ops, predictor, calibration, the PETSc examples with pellrcuda)
# at the final code revision, within the session's last device minutes (the check is cut at 105 s).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session16/job6.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job6; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job6.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
timeout 105 make check TESTS='pellr' TESTARGS="--timeout 100 --jobs 12" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep -c "^ok" "$r/check.log"; grep -A3 "^not ok" "$r/check.log" | head -30
