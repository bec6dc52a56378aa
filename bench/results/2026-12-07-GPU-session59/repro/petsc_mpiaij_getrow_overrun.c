static char help[] = "Case 1: MatGetRow_MPIAIJ returns a stale-sized buffer after MatDiagonalSet/MatZeroRowsColumns inserted diagonals.\n"
                     "  -type aij|pellr  -early_getrow <bool> (call MatGetRow once before the diagonal is inserted)\n";
#include <petscsparsegpu.h>

/* 8x8 on 2 ranks, no diagonal entries, exactly preallocated; every row has 2 entries: (i, i+1 mod 8), (i, i+5 mod 8) */
static PetscErrorCode Build(const char *type, Mat *A)
{
  PetscInt rs, re;
  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, 8, 8));
  PetscCall(MatSetType(*A, type));
  PetscCall(MatMPIAIJSetPreallocation(*A, 2, NULL, 2, NULL));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(MatGetOwnershipRange(*A, &rs, &re));
  for (PetscInt i = rs; i < re; i++) {
    PetscCall(MatSetValue(*A, i, (i + 1) % 8, 10.0 * i + 1, INSERT_VALUES));
    PetscCall(MatSetValue(*A, i, (i + 5) % 8, 10.0 * i + 5, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* compare MatGetRow with MatGetValues entry by entry */
static PetscErrorCode CheckRows(Mat A, const char *name)
{
  PetscInt rs, re, bad = 0;
  PetscMPIInt rank;
  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  for (PetscInt i = rs; i < re; i++) {
    const PetscInt    *c;
    const PetscScalar *v;
    PetscInt           n;
    PetscScalar        w;
    PetscCall(MatGetRow(A, i, &n, &c, &v));
    for (PetscInt k = 0; k < n; k++) {
      PetscCall(MatGetValue(A, i, c[k], &w));
      if (w != v[k]) {
        PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD, "[%d] %s: row %" PetscInt_FMT " col %" PetscInt_FMT ": MatGetRow %g (bits as ints: %d,%d)  MatGetValues %g\n", rank, name, i, c[k], (double)v[k], ((int *)&v[k])[0], ((int *)&v[k])[1], (double)w));
        bad++;
      }
    }
    PetscCall(MatRestoreRow(A, i, &n, &c, &v));
  }
  PetscCall(PetscSynchronizedPrintf(PETSC_COMM_WORLD, "[%d] %s: %" PetscInt_FMT " bad MatGetRow values\n", rank, name, bad));
  PetscCall(PetscSynchronizedFlush(PETSC_COMM_WORLD, PETSC_STDOUT));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat       A;
  Vec       d, x, y, y2;
  char      type[64] = "aij";
  PetscBool early = PETSC_TRUE, zrc = PETSC_FALSE;
  PetscReal nrm;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscSparseGPUInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type", type, sizeof(type), NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-early_getrow", &early, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-zrc", &zrc, NULL)); /* insert the diagonal by MatZeroRowsColumns(diag=2) instead */
  PetscCall(Build(type, &A));
  if (early) PetscCall(CheckRows(A, "before")); /* allocates Mat_MPIAIJ->rowvalues for max row length 2 */
  PetscCall(MatCreateVecs(A, &x, &d));
  if (!zrc) {
    PetscCall(VecSet(d, 0.0));
    PetscCall(MatDiagonalSet(A, d, ADD_VALUES)); /* MatDiagonalSet_MPIAIJ -> MatDiagonalSet(aij->A): inserts the diagonals into the diagonal block only */
  } else {
    PetscInt rows[1] = {0}, n = 0, rank_rows[1];
    PetscMPIInt rank;
    PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
    rank_rows[0] = rank ? 4 : 0;
    rows[0]      = rank_rows[0];
    n            = 1;
    PetscCall(MatZeroRowsColumns(A, n, rows, 2.0, NULL, NULL));
  }
  PetscCall(CheckRows(A, "after"));
  /* the products are right: MatMult vs the explicit sum of MatGetValues */
  PetscCall(VecDuplicate(d, &y));
  PetscCall(VecDuplicate(d, &y2));
  PetscCall(VecSetRandom(x, NULL));
  PetscCall(MatMult(A, x, y));
  {
    Mat B;
    PetscCall(MatConvert(A, MATAIJ, MAT_INITIAL_MATRIX, &B)); /* a fresh copy: its rowvalues are sized right */
    PetscCall(CheckRows(B, "fresh copy"));
    PetscCall(MatMult(B, x, y2));
    PetscCall(MatDestroy(&B));
  }
  PetscCall(VecAXPY(y2, -1.0, y));
  PetscCall(VecNorm(y2, NORM_INFINITY, &nrm));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "type %s: |MatMult(A) - MatMult(copy)| = %g\n", type, (double)nrm));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&y2));
  PetscCall(VecDestroy(&d));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
