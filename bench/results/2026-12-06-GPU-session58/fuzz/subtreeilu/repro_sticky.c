/* PETSc's reused PCILU/PCICC stays failed after a zero pivot (stale MatFactorError of its factor),
   subtree_ilu refactors and succeeds. Run: ./repro_sticky -dll_append /tmp/fuzz_ilu/libpetscsparsegpu.so [-icc] */
#include <petscksp.h>
int main(int argc, char **argv)
{
  Mat       A;
  PC        pc[2];
  PetscBool icc = PETSC_FALSE;
  PetscInt  i0 = 0, i1 = 1;
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-icc", &icc, NULL));
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 2, 2, 2, NULL, &A));
  PetscCall(MatSetValue(A, 0, 0, 2.0, INSERT_VALUES));
  PetscCall(MatSetValue(A, 0, 1, 1.0, INSERT_VALUES));
  PetscCall(MatSetValue(A, 1, 0, 1.0, INSERT_VALUES));
  PetscCall(MatSetValue(A, 1, 1, 2.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  for (int s = 0; s < 2; s++) {
    PetscCall(PCCreate(PETSC_COMM_SELF, &pc[s]));
    PetscCall(PCSetOperators(pc[s], A, A));
  }
  PetscCall(PCSetType(pc[0], icc ? PCICC : PCILU));
  PetscCall(PCFactorSetShiftType(pc[0], MAT_SHIFT_NONE));
  PetscCall(PCSetType(pc[1], "subtree_ilu"));
  PetscCall(PetscOptionsSetValue(NULL, "-pc_subtree_ilu_type", icc ? "icc" : "ilu"));
  PetscCall(PetscOptionsSetValue(NULL, "-pc_subtree_ilu_shift_type", "none"));
  PetscCall(PCSetFromOptions(pc[1]));
  const char *what[3] = {"A (nonsingular)", "A with A(0,0)=0 (zero pivot)", "A restored (same pattern)"};
  PetscScalar v[3] = {2.0, 0.0, 2.0};
  for (int r = 0; r < 3; r++) {
    PetscCall(MatSetValue(A, 0, 0, v[r], INSERT_VALUES));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    for (int s = 0; s < 2; s++) {
      PCFailedReason fr;
      PetscCall(PCSetUp(pc[s]));
      PetscCall(PCGetFailedReason(pc[s], &fr));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-30s %-12s failed reason %s\n", what[r], s ? "subtree_ilu" : (icc ? "PETSc icc" : "PETSc ilu"), PCFailedReasons[fr]));
    }
  }
  (void)i0; (void)i1;
  for (int s = 0; s < 2; s++) PetscCall(PCDestroy(&pc[s]));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
