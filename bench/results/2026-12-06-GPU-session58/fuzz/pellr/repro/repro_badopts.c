/* bad option values: run with e.g. -mat_pellr_format bogus | -mat_pellr_long_row_length 0 | -mat_pellr_transpose bogus
   | -mat_pellr_diagonal_slices bogus | -setformat 99 ; expects a PETSc error, never a crash */
#include <petscsparsegpu.h>
int main(int argc, char **argv)
{
  Mat      A, P;
  Vec      x, y;
  PetscInt rs, re, n = 50, sf = -1;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-setformat", &sf, NULL));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 2, NULL, 2, NULL, &A));
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  for (PetscInt i = rs; i < re; i++) {
    PetscCall(MatSetValue(A, i, i, 2.0, INSERT_VALUES));
    PetscCall(MatSetValue(A, i, (i + 3) % n, -1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatConvert(A, MATPELLR, MAT_INITIAL_MATRIX, &P));
  PetscCall(MatSetFromOptions(P));
  if (sf >= 0) PetscCall(MatPELLRSetFormat(P, (MatPELLRFormat)sf));
  PetscCall(MatCreateVecs(P, &x, &y));
  PetscCall(VecSet(x, 1.0));
  PetscCall(MatMult(P, x, y));
  PetscCall(MatMultTranspose(P, y, x));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "no error\n"));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(MatDestroy(&P));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
