/* session 37: a stress of subtree_ilu's threads backend on a pellr matrix with new values and new patterns (derived from the fuzzing helper's pool_stress.c); build like tests/ (mpicc ... -lpetscsparsegpu -lpetsc) and run, e.g. 6 at once on 2 cores:
   ./pool_stress_pellr -cycles 60000 -n 329 -pc_subtree_ilu_type icc -pc_subtree_ilu_backend threads -pc_subtree_ilu_threads 3 -pc_subtree_ilu_setup_threads 3 */
static char help[] = "Stress of the threads backend of subtree_ilu: repeated PCApply/PCApplyTranspose with -pc_subtree_ilu_backend threads,\n"
"new values and new nonzero patterns in between. -n rows, -cycles k. Prints progress; a hang shows as no progress.\n";
#include <petscsparsegpu.h>
#include <petscksp.h>
int main(int argc, char **argv)
{
  Mat A; PC pc; Vec b, x; PetscInt n = 358, cycles = 2000, applies = 5;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscSparseGPUInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-cycles", &cycles, NULL));
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 5, NULL, &A));
  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  for (PetscInt i = 0; i < n; i++) {
    PetscCall(MatSetValue(A, i, i, 4.0, INSERT_VALUES));
    if (i > 0 && i % 7) { PetscCall(MatSetValue(A, i, i - 1, -1.0, INSERT_VALUES)); PetscCall(MatSetValue(A, i - 1, i, -1.0, INSERT_VALUES)); }
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY)); PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatConvert(A, MATPELLR, MAT_INPLACE_MATRIX, &A)); PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE)); PetscCall(PCCreate(PETSC_COMM_SELF, &pc)); PetscCall(PCSetType(pc, PCSUBTREEILU)); PetscCall(PCSetOperators(pc, A, A)); PetscCall(PCSetFromOptions(pc));
  PetscCall(MatCreateVecs(A, &x, &b)); PetscCall(VecSet(b, 1.0));
  for (PetscInt c = 0; c < cycles; c++) {
    PetscInt i = (c * 37) % n, j = (c * 101 + 13) % n;
    if (c % 3 == 0 && i != j) { /* new nonzero pattern (symmetric) */
      PetscCall(MatSetValue(A, i, j, -0.01, ADD_VALUES)); PetscCall(MatSetValue(A, j, i, -0.01, ADD_VALUES));
    } else PetscCall(MatSetValue(A, i, i, 0.001, ADD_VALUES));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY)); PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    PetscCall(PCSetUp(pc));
    for (PetscInt k = 0; k < applies; k++) { PetscCall(PCApply(pc, b, x)); PetscCall(PCApplyTranspose(pc, b, x)); }
    if (c % 200 == 0) { PetscCall(PetscPrintf(PETSC_COMM_SELF, "cycle %d\n", (int)c)); fflush(stdout); }
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "done\n"));
  PetscCall(VecDestroy(&x)); PetscCall(VecDestroy(&b)); PetscCall(PCDestroy(&pc)); PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
