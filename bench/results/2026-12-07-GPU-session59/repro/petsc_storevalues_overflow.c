static char help[] = "fuzz seed 43 fmt 3 case 163 (heap corruption later reported in MatDuplicate/malloc), reduced:\n"
  "PETSc 3.22.5 MatStoreValues_SeqAIJ allocates saved_values once (nz at the first call) and copies the current nz\n"
  "into it at every later call: after the pattern grew (here MatDiagonalSet inserting missing diagonals) it overflows.\n"
  "Plain AIJ by default; -mat_type pellr -dll_append .../libpetscsparsegpu.so gives the same. Run under valgrind.\n";
#include <petscmat.h>

int main(int argc, char **argv)
{
  Mat      A;
  Vec      d;
  PetscInt n = 50;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(MatCreate(PETSC_COMM_SELF, &A));
  PetscCall(MatSetSizes(A, n, n, n, n));
  PetscCall(MatSetType(A, MATAIJ));
  PetscCall(MatSetFromOptions(A));
  PetscCall(MatSeqAIJSetPreallocation(A, 1, NULL));
  PetscCall(MatSetValue(A, 0, 0, 1.0, INSERT_VALUES)); /* one entry: every other diagonal missing */
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));

  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_LOCATIONS, PETSC_FALSE));
  PetscCall(MatStoreValues(A)); /* saved_values: 1+1 scalars */
  PetscCall(MatRetrieveValues(A));
  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_LOCATIONS, PETSC_TRUE));

  PetscCall(MatCreateVecs(A, NULL, &d));
  PetscCall(VecSet(d, 2.0));
  PetscCall(MatDiagonalSet(A, d, INSERT_VALUES)); /* pattern grows to n entries */
  PetscCall(VecDestroy(&d));

  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_LOCATIONS, PETSC_FALSE));
  PetscCall(MatStoreValues(A)); /* copies n scalars into the 2-scalar buffer */
  PetscCall(MatRetrieveValues(A));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
