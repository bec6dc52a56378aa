/* MatShift on a pellr matrix made by MatConvert from an AIJ with MAT_NEW_NONZERO_ALLOCATION_ERR false and missing
   diagonal entries. run: [mpiexec -n 2] ./repro_shift_nonew -dll_append /tmp/fuzz_pellr/libpetscsparsegpu.so */
#include <petscsparsegpu.h>
int main(int argc, char **argv)
{
  Mat            A, B, P;
  PetscInt       rs, re, n = 40;
  PetscErrorCode e;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 1, NULL, 1, NULL, &A));
  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  for (PetscInt i = rs; i < re; i++) PetscCall(MatSetValue(A, i, (i + 7) % n, 1.0, INSERT_VALUES)); /* no diagonal */
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &B));
  PetscCall(MatConvert(A, MATPELLR, MAT_INITIAL_MATRIX, &P));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  e = MatShift(A, 1.0);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatShift(original aij): %d\n", (int)e));
  e = MatShift(B, 1.0);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatShift(MatConvert to aij): %d\n", (int)e));
  e = MatShift(P, 1.0);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MatShift(MatConvert to pellr): %d\n", (int)e));
  PetscCall(PetscPopErrorHandler());
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&P));
  PetscCall(PetscFinalize());
  return 0;
}
