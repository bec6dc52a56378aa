#!/bin/bash
# session 28 (CPU, the 2-core development machine): PCSetUp of subtree_ilu ICC(0) on tutorials/ex1's 3D Poisson
# problem (96^3, 884736 rows), the library before (OLD, built from 634b1d4 in a worktree) and after the change that
# makes the CPU backends' refactorization plan only at the first refactorization that uses it, alternating, 3 runs
# each per backend; PETSc's own ICC(0) beside. ex1 prints the KSP setup time (KSPSetUp + PCSetUp, wall clock).
# Usage: bash setup_ab.sh OLD_LIB NEW_LIB   (from the repository root, after make)
old=$1 new=$2
for k in 1 2 3; do
  for b in serial threads; do
    for v in old new; do
      lib=$old; [ $v = new ] && lib=$new
      t=$(build/tutorials/ex1 -dll_append $lib -n 96 -solves 1 -ksp_type cg -pc_type subtree_ilu -pc_subtree_ilu_type icc -pc_subtree_ilu_backend $b 2>&1 | sed -n 's/.*KSP setup \([0-9.]*\) s.*/\1/p')
      echo "subtree_ilu $b $v $t"
    done
  done
  t=$(build/tutorials/ex1 -dll_append $new -n 96 -solves 1 -ksp_type cg -pc_type icc 2>&1 | sed -n 's/.*KSP setup \([0-9.]*\) s.*/\1/p')
  echo "petsc_icc - - $t"
done
