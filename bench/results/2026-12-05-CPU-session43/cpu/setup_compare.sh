#!/bin/bash
# CPU (no GPU): subtree_ilu's setup (PCSetUp, and its SubtreeILUSetup event: the solve structures) with the serial
# backend, two builds of the library alternated: ILU(0)/ICC(0) on 3D 7-point 100^3 and 2D 5-point 1000^2.
#   bash setup_compare.sh <dir of library A> <dir of library B> <rounds> > setup_compare.txt
# Each library is <dir>/libpetscsparsegpu.so (PETSc derives the registration function from the file name);
# tutorials/ex4 from build/tutorials of the repository root (the current directory).
for round in $(seq $3); do
  for lib in "$1" "$2"; do
    for g in "-dim 3 -n 100" "-dim 2 -n 1000"; do
      for t in ilu icc; do
        echo -n "$(basename $lib) $g $t "
        build/tutorials/ex4 $g -applies 0 -ksp_max_it 0 -pc_type subtree_ilu -pc_subtree_ilu_type $t -pc_subtree_ilu_backend serial -log_view -dll_append $lib/libpetscsparsegpu.so 2>&1 | grep -E "^(PCSetUp|SubtreeILUSetup) " | awk '{printf "%s %s ", $1, $4}'
        echo
      done
    done
  done
done
