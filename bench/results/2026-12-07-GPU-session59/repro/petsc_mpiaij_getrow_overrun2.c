static char help[] = "Case 2: nodiag band, no preallocation; MatGetRow; MatDiagonalSet(ADD); MatAXPY(SAME, X = duplicate); MatGetRow vs a fresh copy.\n"
                     "  -type aij|pellr  -early_getrow <bool>\n";
#include <petscsparsegpu.h>

static PetscErrorCode CompareRows(Mat A, Mat Q, const char *what)
{
  PetscInt    rs, re, bad = 0;
  PetscMPIInt rank;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  for (PetscInt i = rs; i < re; i++) {
    const PetscInt    *ca, *cq;
    const PetscScalar *va, *vq;
    PetscInt           na, nq;
    PetscCall(MatGetRow(A, i, &na, &ca, &va));
    PetscCall(MatGetRow(Q, i, &nq, &cq, &vq));
    for (PetscInt k = 0; k < PetscMin(na, nq); k++)
      if (ca[k] != cq[k] || va[k] != vq[k]) {
        if (bad < 2) PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD, "[%d] %s row %" PetscInt_FMT " col %" PetscInt_FMT ": A %g  fresh copy %g\n", rank, what, i, ca[k], (double)va[k], (double)vq[k]));
        bad++;
      }
    PetscCall(MatRestoreRow(Q, i, &nq, &cq, &vq));
    PetscCall(MatRestoreRow(A, i, &na, &ca, &va));
  }
  PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD, "[%d] %s: %" PetscInt_FMT " differing entries\n", rank, what, bad));
  PetscCall(PetscSynchronizedFlush(PETSC_COMM_WORLD, PETSC_STDOUT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat       A, X, Q;
  Vec       d;
  PetscInt  n = 12, rs, re;
  char      type[64] = "aij";
  PetscBool early = PETSC_TRUE;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscSparseGPUInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type", type, sizeof(type), NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-early_getrow", &early, NULL));
  PetscCall(MatCreate(PETSC_COMM_WORLD, &A));
  PetscCall(MatSetSizes(A, PETSC_DECIDE, PETSC_DECIDE, n, n));
  PetscCall(MatSetType(A, type));
  PetscCall(MatSetUp(A)); /* no preallocation, as the fuzzer's prealloc mode 2 */
  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  for (PetscInt i = rs; i < re; i++) /* band of half-width 2 without its diagonal */
    for (PetscInt j = i - 2; j <= i + 2; j++)
      if (j >= 0 && j < n && j != i) PetscCall(MatSetValue(A, i, j, 1.0 + i + 0.01 * j, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  if (early) { /* any MatGetRow sizes Mat_MPIAIJ->rowvalues for the longest row (4) */
    const PetscInt    *c;
    const PetscScalar *v;
    PetscInt           l;
    PetscCall(MatGetRow(A, rs, &l, &c, &v));
    PetscCall(MatRestoreRow(A, rs, &l, &c, &v));
  }
  PetscCall(MatCreateVecs(A, NULL, &d));
  PetscCall(VecSet(d, 0.5));
  PetscCall(MatDiagonalSet(A, d, ADD_VALUES)); /* inserts the diagonal into the diagonal block: rows now 5 long */
  PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &X));
  PetscCall(MatAXPY(A, -0.25, X, SAME_NONZERO_PATTERN));
  PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &Q)); /* fresh copy, MatGetRow buffer sized right */
  PetscCall(CompareRows(A, Q, type));
  PetscCall(MatDestroy(&Q));
  PetscCall(MatDestroy(&X));
  PetscCall(VecDestroy(&d));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
