#!/bin/bash
# The whole GPU check in one command on the GPU machine (after ../shared/gpu/stage.sh here; carry .gpu):
#   bash config/gpu-run.sh [REVISION-LABEL]
# Builds the library against the CUDA PETSc bundle with 16 cores, runs `make check` (every test, the
# `requires: cuda` ones included) and `make bench`, and leaves check.log, build.log, bench.log and
# bench.tgz (the results folder) in $OUT (the device tool's output folder) or ./gpu-out.
# NEW_REFS (a test-name regex) writes missing GPU-only references first (refs.tgz); CHECK_LIMIT, BENCH_TIME (measurement budget of make bench) and BENCH_LIMIT (hang guard) in seconds.
set -u
out=${OUT:-$PWD/gpu-out}
mkdir -p "$out"
. .gpu/setup.sh
make -j16 > "$out/build.log" 2>&1 || { tail -n 40 "$out/build.log"; exit 1; }
# References that only a GPU run can produce (GPU tests sharing one reference between a peer and our type):
# written where missing, then verified by the full run below; they come back in refs.tgz to be reviewed.
if [ -n "${NEW_REFS:-}" ]; then
  make check TESTS="$NEW_REFS" TESTARGS="--update-missing --timeout 60" > "$out/newrefs.log" 2>&1
  tar czf "$out/refs.tgz" tests/output tests/petsc_examples/output tutorials/output
fi
{ echo "# make check on the GPU machine, revision ${1:-unknown}, $(date -u)"; nvidia-smi -L; } > "$out/check.log"
timeout "${CHECK_LIMIT:-260}" make check TESTARGS="--timeout 120" >> "$out/check.log" 2>&1
echo "# make check exit status $?" >> "$out/check.log"
tail -n 4 "$out/check.log"
# compute-sanitizer on the sync-free kernels (subtree_ilu on a 16x16 grid, every cuda variant of the test)
if command -v compute-sanitizer >/dev/null; then
  make -s "$PWD/build/tests/subtreeilu2"
  for tool in memcheck racecheck synccheck; do
    (cd tests && timeout 40 compute-sanitizer --tool $tool ../build/tests/subtreeilu2 -N 16 -det_pc_subtree_ilu_deterministic \
      -det_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_backend cuda -zst_pc_subtree_ilu_backend cuda -sst_pc_subtree_ilu_backend cuda \
      -pst_pc_subtree_ilu_backend cuda 2>&1 | grep -E "SUMMARY|agree|identical|NO" ) >> "$out/check.log" 2>&1
  done
fi
timeout "${BENCH_LIMIT:-300}" make bench TIME="${BENCH_TIME:-200}" MATDIR="$PWD/.gpu/matrices" RESULTS="$PWD/gpu-bench" > "$out/bench.log" 2>&1
echo "make bench exit status $?"
tar czf "$out/bench.tgz" gpu-bench
