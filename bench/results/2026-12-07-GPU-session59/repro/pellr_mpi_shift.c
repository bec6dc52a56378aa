static char help[] = "Case 3: MatShift on mpipellr errors 'New nonzero caused a malloc' where MPIAIJ succeeds.\n"
                     "  -type aij|pellr -m 8 -n 8 -nodiag_every 2 -empty (no entries at all)\n";
#include <petscsparsegpu.h>

int main(int argc, char **argv)
{
  Mat            A;
  MatType        tn;
  PetscInt       m = 8, n = 8, every = 2, rs, re;
  char           type[64] = "aij";
  PetscBool      empty = PETSC_FALSE, b1, b2;
  PetscErrorCode e;
  PetscMPIInt    rank;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscSparseGPUInitializePackage());
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type", type, sizeof(type), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-m", &m, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nodiag_every", &every, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-empty", &empty, NULL));
  PetscCall(MatCreate(PETSC_COMM_WORLD, &A));
  PetscCall(MatSetSizes(A, PETSC_DECIDE, PETSC_DECIDE, m, n));
  PetscCall(MatSetType(A, type));
  /* exact preallocation, default options (MAT_NEW_NONZERO_ALLOCATION_ERR true): row i has (i,i) unless i % every == 0, and (i,(i+1)%n) */
  PetscCall(MatXAIJSetPreallocation(A, 1, NULL, NULL, NULL, NULL));
  PetscCall(MatSeqAIJSetPreallocation(A, 2, NULL));
  PetscCall(MatMPIAIJSetPreallocation(A, 2, NULL, 2, NULL));
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  if (!empty)
    for (PetscInt i = rs; i < re; i++) {
      if (i % every && i < n) PetscCall(MatSetValue(A, i, i, 1.0, INSERT_VALUES));
      PetscCall(MatSetValue(A, i, (i + 1) % n, 2.0, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatGetType(A, &tn));
  /* what MatShift_Basic() tests to decide whether it may lift the no-new-nonzero flag of the blocks */
  PetscCall(PetscObjectBaseTypeCompareAny((PetscObject)A, &b1, MATSEQAIJ, MATSEQBAIJ, MATSEQSBAIJ, ""));
  PetscCall(PetscObjectBaseTypeCompareAny((PetscObject)A, &b2, MATMPIAIJ, MATMPIBAIJ, MATMPISBAIJ, ""));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "type %s: BaseTypeCompare seqaij-derived %d mpiaij-derived %d\n", tn, (int)b1, (int)b2));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  e = MatShift(A, 3.0);
  PetscCall(PetscPopErrorHandler());
  if (e) {
    const char *t;
    char       *s;
    PetscCall(PetscErrorMessage(e, &t, &s));
    PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD, "[%d] type %s: MatShift error %d: %s\n", rank, tn, (int)e, s));
  } else {
    PetscScalar v;
    PetscCall(MatGetValue(A, rs, rs, &v));
    PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD, "[%d] type %s: MatShift ok, A(%" PetscInt_FMT ",%" PetscInt_FMT ") = %g\n", rank, tn, rs, rs, (double)v));
  }
  PetscCall(PetscSynchronizedFlush(PETSC_COMM_WORLD, PETSC_STDOUT));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
