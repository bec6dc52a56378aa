#!/bin/bash
# session 66, job 4 (issue 3; prepared, not run: too little device time was left): the final library. Since job 3,
# GPURCMNmIdleLevel is a template on the level tables and the numbering's narrow stretch is inlined again without them
# (out of line, GPURCMNmNarrowTables, with them): both level kernels without the tables compile to the same SASS as
# before the session (checked with cuobjdump -sass).
# (1) every gpurcm test; (2) A/B against the library before the session (before4.patch = git diff HEAD c51e07f -- src at
# the final code), 3 alternated rounds, 2D 1000^2 and 3D 100^3 (bitmap path: expected even), 2D 2000^2 and 3000^2.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-07-GPU-session66/job4.sh <revision>
. bench/gpujob.sh job4 "$1"
gpujob_base bench/results/2026-12-07-GPU-session66/before4.patch
timeout 150 make check TESTS='gpurcm' TESTARGS="--jobs 14" > $r/check.log 2>&1
echo "gpurcm tests exit $? at $SECONDS s"; grep -E "^not ok|passed|failed" $r/check.log | tail -n 12
gpujob_ab ab 3 final $PWD/build/lib/libpetscsparsegpu.so before /tmp/base/build/lib/libpetscsparsegpu.so -matrices lap2d:1000,lap3d:100,lap2d:2000,lap2d:3000 -orderings gpurcm@cuda -reps 7 -cusolver_max_nnz 0
echo "done at $SECONDS s"
