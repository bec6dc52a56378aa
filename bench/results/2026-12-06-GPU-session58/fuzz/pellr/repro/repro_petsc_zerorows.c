/* NOT the plugin: PETSc 3.22.5's own MatZeroRows_SeqAIJ with diag != 0 on a row whose diagonal is not stored,
   when inserting it reallocates, writes into the freed array (valgrind: Invalid write in MatZeroRows_SeqAIJ).
   Same for plain seqaij and pellr. run: valgrind ./repro_petsc_zerorows [-dll_append ... -type pellr] */
#include <petscsparsegpu.h>
int main(int argc, char **argv)
{
  Mat      A;
  PetscInt rows[2] = {1, 3};
  char     type[64] = "aij";
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type", type, sizeof(type), NULL));
  PetscCall(MatCreate(PETSC_COMM_SELF, &A));
  PetscCall(MatSetSizes(A, 5, 5, 5, 5));
  PetscCall(MatSetType(A, type));
  PetscCall(MatSeqAIJSetPreallocation(A, 1, NULL));
  for (PetscInt i = 0; i < 5; i++) PetscCall(MatSetValue(A, i, (i + 2) % 5, 1.0, INSERT_VALUES)); /* no diagonal */
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatZeroRows(A, 2, rows, 3.0, NULL, NULL));
  PetscCall(MatView(A, PETSC_VIEWER_STDOUT_SELF));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
