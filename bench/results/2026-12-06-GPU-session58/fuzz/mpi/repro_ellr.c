/* MatConvert(MPIAIJ -> "pellr") with -mat_pellr_format ellr where only rank 1's off-diagonal block (1 row, 2 entries:
   32 x 2 = 64 ELLR slots > 8*2 + 32 = 48) is refused. The refusal is a PetscCheck on the matrix's (2-rank) communicator
   evaluated on rank 1 only.
   ./repro_ellr            : default error handler -> MPI_ABORT with errorcode 56 and NO error message printed at all
   ./repro_ellr -catch     : PetscReturnErrorHandler around MatConvert -> rank 1 returns, rank 0 blocks in
                             VecScatterCreate (PellrMPIEnsure) -> hang */
#include <petscmat.h>
int main(int argc, char **argv)
{
  Mat         A, P = NULL;
  PetscMPIInt rank;
  PetscBool   c = PETSC_FALSE;
  PetscInt    n = 40, m0 = 39, rs, re;
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-catch", &c, NULL));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, rank ? n - m0 : m0, rank ? n - m0 : m0, n, n, 3, NULL, 3, NULL, &A));
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  for (PetscInt i = rs; i < re; i++) {
    PetscCall(MatSetValue(A, i, i, 4.0, INSERT_VALUES));
    if (i > 0) PetscCall(MatSetValue(A, i, i - 1, -1.0, INSERT_VALUES));
    if (i == n - 1) PetscCall(MatSetValue(A, i, 0, -1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscOptionsSetValue(NULL, "-mat_pellr_format", "ellr"));
  if (c) {
    PetscErrorCode e;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    e = MatConvert(A, "pellr", MAT_INITIAL_MATRIX, &P);
    PetscCall(PetscPopErrorHandler());
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "[%d] MatConvert returned %d\n", rank, (int)e));
    PetscCall(MatDestroy(&P));
  } else {
    PetscCall(MatConvert(A, "pellr", MAT_INITIAL_MATRIX, &P));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "converted\n"));
    PetscCall(MatDestroy(&P));
  }
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
