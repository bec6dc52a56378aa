#!/bin/bash
# session 42 (CPU, no GPU): the one-pass cuda solve schedule (subtreeilugroups.c at b9eba33 and later) against the
# three-pass one of ee2c96f, array for array, on generated grids and random triangular patterns (with and without
# wrong-side entries), and their times on 1M-row grids. Run from the repository root after `make all`:
#   bash bench/results/2026-12-05-H100-session42/cpu/schedule_compare.sh
set -eu
d=$(mktemp -d); here=bench/results/2026-12-05-H100-session42/cpu
git show ee2c96f:src/ksp/pc/impls/subtreeilu/subtreeilugroups.c | sed -e 's/PCSubtreeILUGroups\(Create\|SetUp\|Finish\|Compute\|Destroy\)_Private/Old\1/g' \
  -e 's/PrimaryPos/OldPrimaryPos/g; s/ReverseBoundaries/OldReverseBoundaries/g; s/\bLinked\b/OldLinked/g' -e '/#include "subtreeiluimpl.h"/d' > $d/old_renamed.c
P=${PETSC_DIR:-$HOME/.cache/petscsparsegpu/petsc-3.22.5-opt}
sed "s|/work/main/|$PWD/|" $here/schedule_compare.c > $d/cmp.c
mpicc -O3 -I$P/include -I$PWD/src/include -I$PWD/include -I$d $d/cmp.c -o $d/cmp -Wl,-rpath,$P/lib -L$P/lib -lpetsc -lm
$d/cmp
