#!/bin/bash
# CPU (no GPU): steady refactorizations through the plan's CPU version (-pc_subtree_ilu_refactor device), two builds
# of the library alternated, three rounds; bench_factor's refactor_s is the median of 5 refactorizations:
#   bash refactor_compare.sh <dir of library A> <dir of library B> > refactor_compare.txt
# (<dir>/libpetscsparsegpu.so each; build/bench/bench_factor of the repository root, the current directory)
for round in 1 2 3; do
  for lib in "$1" "$2"; do
    for pc in subtree_ilu subtree_icc ilu icc; do
      build/bench/bench_factor -no_gpu -matrices lap3d:100,lap2d:1000 -pcs $pc -orderings natural -levels 0 -refactor_reps 5 -reps 1 -ksp_max_rows 0 -pc_subtree_ilu_refactor device -csv /tmp/refactor_compare.csv -dll_append $lib/libpetscsparsegpu.so > /dev/null 2>&1
      echo "$(basename $lib) r$round $(cut -d, -f1,6,12 /tmp/refactor_compare.csv | tail -2 | tr '\n' ' ')"
    done
  done
done
