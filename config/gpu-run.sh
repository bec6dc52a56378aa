#!/bin/bash
# The whole GPU check in one command on the GPU machine (after ../shared/gpu/stage.sh here; carry .gpu):
#   bash config/gpu-run.sh [REVISION-LABEL]
# Builds the library against the CUDA PETSc bundle with 16 cores, runs `make check` (every test, the
# `requires: cuda` ones included) and `make bench`, and leaves check.log, build.log, bench.log and
# bench.tgz (the results folder) in $OUT (the device tool's output folder) or ./gpu-out.
# CHECK_LIMIT, BENCH_TIME (measurement budget of make bench) and BENCH_LIMIT (hang guard) in seconds.
set -u
out=${OUT:-$PWD/gpu-out}
mkdir -p "$out"
. .gpu/setup.sh
make -j16 > "$out/build.log" 2>&1 || { tail -n 40 "$out/build.log"; exit 1; }
{ echo "# make check on the GPU machine, revision ${1:-unknown}, $(date -u)"; nvidia-smi -L; } > "$out/check.log"
timeout "${CHECK_LIMIT:-260}" make check TESTARGS="--timeout 120" >> "$out/check.log" 2>&1
echo "# make check exit status $?" >> "$out/check.log"
tail -n 4 "$out/check.log"
timeout "${BENCH_LIMIT:-300}" make bench TIME="${BENCH_TIME:-200}" MATDIR="$PWD/.gpu/matrices" RESULTS="$PWD/gpu-bench" > "$out/bench.log" 2>&1
echo "make bench exit status $?"
tar czf "$out/bench.tgz" gpu-bench
