static char help[] = "PETSc 3.22.5 MatZeroRows_SeqAIJ: write after free when a zeroed row is empty and diag != 0.\n"
                     "Run with -mat_type aij (default) or pellr (-dll_append libpetscsparsegpu.so) under valgrind.\n";
#include <petscmat.h>

int main(int argc, char **argv)
{
  Mat         A, B;
  PetscInt    nnz[3] = {1, 0, 1}, rows[2] = {1, 2};
  PetscScalar one = 1.0;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatCreate(PETSC_COMM_SELF, &A));
  PetscCall(MatSetSizes(A, 3, 3, 3, 3));
  PetscCall(MatSetType(A, MATAIJ));
  PetscCall(MatSetFromOptions(A)); /* -mat_type pellr */
  PetscCall(MatSeqAIJSetPreallocation(A, 0, nnz));
  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatSetValue(A, 0, 0, 1.0, INSERT_VALUES));
  PetscCall(MatSetValue(A, 2, 0, 1.0, INSERT_VALUES)); /* row 1 empty, no room */
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  /* row 1 is empty: MatSetValues_SeqAIJ reallocates a->a; row 2 is then written through the stale 'aa' */
  PetscCall(MatZeroRows(A, 2, rows, one, NULL, NULL));
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &B)); /* where the fuzz driver saw the corruption */
  PetscCall(MatView(A, PETSC_VIEWER_STDOUT_SELF));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
