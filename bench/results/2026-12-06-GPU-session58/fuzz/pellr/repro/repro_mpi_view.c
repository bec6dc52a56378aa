/* MatView() with the default ASCII format on a parallel pellr matrix (mpipellr) fails:
   "This function requires a MATMPIAIJ matrix as input"; MPIAIJ views fine.
   run: mpiexec -n 2 ./repro_mpi_view -dll_append /tmp/fuzz_pellr/libpetscsparsegpu.so */
#include <petscsparsegpu.h>
int main(int argc, char **argv)
{
  Mat      A, P;
  PetscInt rs, re, n = 8;
  MatType  t;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 2, NULL, 2, NULL, &A));
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  for (PetscInt i = rs; i < re; i++) {
    PetscCall(MatSetValue(A, i, i, 2.0, INSERT_VALUES));
    PetscCall(MatSetValue(A, i, (i + 3) % n, -1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatView(A, PETSC_VIEWER_STDOUT_WORLD)); /* fine */
  PetscCall(MatConvert(A, MATPELLR, MAT_INITIAL_MATRIX, &P));
  PetscCall(MatGetType(P, &t));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "type %s\n", t));
  PetscCall(MatView(P, PETSC_VIEWER_STDOUT_WORLD)); /* error on 2 ranks */
  PetscCall(MatDestroy(&P));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
