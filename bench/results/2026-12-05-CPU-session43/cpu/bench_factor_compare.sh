#!/bin/bash
# CPU (no GPU): bench_factor -no_gpu, PETSc's ilu/icc beside subtree_ilu (auto backend, i.e. what a user gets), with
# two builds of the library alternated, three rounds:
#   bash bench_factor_compare.sh <dir of library A> <dir of library B> <outdir>
# (<dir>/libpetscsparsegpu.so each; build/bench/bench_factor of the repository root, the current directory)
for round in 1 2 3; do
  for lib in "$1" "$2"; do
    build/bench/bench_factor -no_gpu -matrices lap3d:100,lap2d:1000 -pcs ilu,icc,subtree_ilu,subtree_icc -orderings natural -levels 0 -refactor_reps 2 -reps 3 -ksp_max_rows 0 -csv $3/$(basename $lib)-r$round.csv -dll_append $lib/libpetscsparsegpu.so > /dev/null 2>&1
  done
done
