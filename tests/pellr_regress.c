static char help[] = "MATPELLR regressions found by fuzzing (session 37), each against the same operations on MATAIJ:\n\
  1. MatTranspose() (initial, reuse, in place) of a sequential pellr matrix: an assembled pellr matrix of the same type\n\
  2. MatStoreValues()/MatRetrieveValues(): products with the retrieved values\n\
  3. in parallel, a new entry on one process only, in an off-diagonal column it already had: no hang, right products\n\
  4. in parallel, COO assembly: plain SeqAIJ blocks (no nested pellr with a format of its own)\n\
  5. MatPELLRPerturbation() with a negative row length: an error\n\
  6. (session 59) the requested format and the other settings kept through PETSc's rebuilds of the matrix (MatAXPY()\n\
     and MatCopy() with a new pattern, from a pellr or an AIJ matrix; MatTranspose() new and in place)\n\
  7. (session 59) MatLUFactor() in place: a factored SeqAIJ matrix solving as AIJ's, destroyed without a crash\n\
  8. (session 59) MatShift() of a matrix missing diagonal entries, in parallel too (it failed with \"new nonzero caused\n\
     a malloc\": PETSc lets the diagonal in only for type names beginning with mpiaij)\n\n";

#include <petscsparsegpu.h>
#include <petsc/private/matimpl.h> /* P->factortype */

static PetscInt nfail = 0;

static PetscErrorCode Report(const char *what, PetscBool ok)
{
  PetscFunctionBeginUser;
  if (!ok) nfail++;
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %s\n", what, ok ? "yes" : "NO"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* |A x - B x| <= 1e-13 |A x| for x with entries 1 + i mod 5, and the same for the transposed products */
static PetscErrorCode SameProducts(Mat A, Mat B, PetscBool *same)
{
  Vec       x, y, z, xt, yt, zt;
  PetscReal n1, d1, n2, d2;
  PetscInt  lo, hi;

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(MatCreateVecs(A, &yt, &xt));
  PetscCall(VecDuplicate(y, &z));
  PetscCall(VecDuplicate(yt, &zt));
  PetscCall(VecGetOwnershipRange(x, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) PetscCall(VecSetValue(x, i, 1.0 + i % 5, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(x));
  PetscCall(VecAssemblyEnd(x));
  PetscCall(VecGetOwnershipRange(xt, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) PetscCall(VecSetValue(xt, i, 2.0 - i % 3, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(xt));
  PetscCall(VecAssemblyEnd(xt));
  PetscCall(MatMult(A, x, y));
  PetscCall(MatMult(B, x, z));
  PetscCall(VecNorm(y, NORM_INFINITY, &n1));
  PetscCall(VecAXPY(z, -1.0, y));
  PetscCall(VecNorm(z, NORM_INFINITY, &d1));
  PetscCall(MatMultTranspose(A, xt, yt));
  PetscCall(MatMultTranspose(B, xt, zt));
  PetscCall(VecNorm(yt, NORM_INFINITY, &n2));
  PetscCall(VecAXPY(zt, -1.0, yt));
  PetscCall(VecNorm(zt, NORM_INFINITY, &d2));
  *same = (PetscBool)(d1 <= 1e-13 * PetscMax(n1, 1) && d2 <= 1e-13 * PetscMax(n2, 1));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&z));
  PetscCall(VecDestroy(&xt));
  PetscCall(VecDestroy(&yt));
  PetscCall(VecDestroy(&zt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* an m x n AIJ matrix (m rows per process when parallel) with a few entries per row, some rows empty */
static PetscErrorCode TestMatrix(MPI_Comm comm, PetscInt mloc, PetscInt N, Mat *A)
{
  PetscInt lo, hi;

  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(comm, mloc, PETSC_DECIDE, PETSC_DETERMINE, N, 8, NULL, 8, NULL, A));
  PetscCall(MatGetOwnershipRange(*A, &lo, &hi));
  for (PetscInt i = lo; i < hi; i++) {
    if (i % 7 == 3) continue; /* an empty row */
    for (PetscInt k = 0; k < 1 + i % 4; k++) PetscCall(MatSetValue(*A, i, (i * 5 + k * 11) % N, 1.0 + 0.25 * k - 0.01 * i, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestTranspose(void)
{
  Mat       A, P, At, Pt;
  PetscBool same, ispellr, assembled;

  PetscFunctionBeginUser;
  PetscCall(TestMatrix(PETSC_COMM_SELF, 60, 45, &A));
  PetscCall(MatConvert(A, MATPELLR, MAT_INITIAL_MATRIX, &P));
  PetscCall(MatPELLRSetFormat(P, MAT_PELLR_FORMAT_SELL));
  PetscCall(MatTranspose(A, MAT_INITIAL_MATRIX, &At));
  PetscCall(MatTranspose(P, MAT_INITIAL_MATRIX, &Pt));
  PetscCall(PetscObjectTypeCompare((PetscObject)Pt, MATSEQPELLR, &ispellr));
  PetscCall(MatAssembled(Pt, &assembled));
  PetscCall(SameProducts(At, Pt, &same));
  PetscCall(Report("MatTranspose(pellr, MAT_INITIAL_MATRIX): assembled seqpellr, the same products as AIJ's transpose", (PetscBool)(ispellr && assembled && same)));
  {
    MatPELLRFormat req, used;
    PetscCall(MatPELLRGetFormat(Pt, &req, &used));
    PetscCall(Report("  the requested format carried over", (PetscBool)(req == MAT_PELLR_FORMAT_SELL)));
  }
  PetscCall(MatScale(A, 3.0));
  PetscCall(MatScale(P, 3.0));
  PetscCall(MatTranspose(A, MAT_REUSE_MATRIX, &At));
  PetscCall(MatTranspose(P, MAT_REUSE_MATRIX, &Pt));
  PetscCall(SameProducts(At, Pt, &same));
  PetscCall(Report("MatTranspose(pellr, MAT_REUSE_MATRIX) after new values: the same products", same));
  PetscCall(MatTranspose(A, MAT_INPLACE_MATRIX, &A));
  PetscCall(MatTranspose(P, MAT_INPLACE_MATRIX, &P));
  PetscCall(PetscObjectTypeCompare((PetscObject)P, MATSEQPELLR, &ispellr));
  PetscCall(SameProducts(A, P, &same));
  PetscCall(Report("MatTranspose(pellr, MAT_INPLACE_MATRIX): seqpellr, the same products", (PetscBool)(ispellr && same)));
  PetscCall(MatDestroy(&At));
  PetscCall(MatDestroy(&Pt));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestRetrieve(MPI_Comm comm)
{
  Mat       A, P;
  PetscBool scaled, same;

  PetscFunctionBeginUser;
  PetscCall(TestMatrix(comm, 30, 50, &A));
  PetscCall(MatConvert(A, MATPELLR, MAT_INITIAL_MATRIX, &P));
  for (PetscInt k = 0; k < 2; k++) {
    Mat M = k ? P : A;
    PetscCall(MatSetOption(M, MAT_NEW_NONZERO_LOCATIONS, PETSC_FALSE));
    PetscCall(MatStoreValues(M));
    PetscCall(MatScale(M, 5.0));
  }
  PetscCall(SameProducts(A, P, &scaled)); /* the scaled values are in the PELLR copies now */
  PetscCall(MatRetrieveValues(A));
  PetscCall(MatRetrieveValues(P));
  PetscCall(SameProducts(A, P, &same));
  PetscCall(Report("MatStoreValues(), MatScale(), MatRetrieveValues(): the scaled, then the retrieved values in the products", (PetscBool)(scaled && same)));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* parallel: process 0 adds an entry in a column of its off-diagonal block it already has, the others add nothing */
static PetscErrorCode TestOneProcessNewEntry(void)
{
  Mat         A, P;
  PetscBool   same;
  PetscMPIInt rank;
  PetscInt    lo, hi, N = 40;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(TestMatrix(PETSC_COMM_WORLD, 20, N, &A));
  PetscCall(MatConvert(A, MATPELLR, MAT_INITIAL_MATRIX, &P));
  PetscCall(SameProducts(A, P, &same));
  PetscCall(MatGetOwnershipRangeColumn(P, &lo, &hi));
  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE)); /* (logically collective) */
  PetscCall(MatSetOption(P, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  if (rank == 0) {
    const PetscInt *cols;
    PetscInt        nc, col = -1, row = -1;

    for (PetscInt i = lo; i < hi && row < 0; i++) { /* a row with an off-diagonal-block entry; the new entry goes to another row, same column */
      PetscCall(MatGetRow(A, i, &nc, &cols, NULL));
      for (PetscInt k = 0; k < nc; k++)
        if (cols[k] >= hi) col = cols[k], row = i == lo ? lo + 1 : lo;
      PetscCall(MatRestoreRow(A, i, &nc, &cols, NULL));
    }
    PetscCheck(row >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "No off-diagonal entry on process 0");
    PetscCall(MatSetValue(A, row, col, 0.5, ADD_VALUES));
    PetscCall(MatSetValue(P, row, col, 0.5, ADD_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  PetscCall(SameProducts(A, P, &same));
  PetscCall(Report("a new entry on one process only (a column its off-diagonal block had): the same products", same));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* parallel: COO assembly of a pellr matrix with a format set, then the format changed */
static PetscErrorCode TestCOO(void)
{
  Mat          A, P;
  PetscInt     lo, hi, N = 40, n = 0, *ci, *cj;
  PetscScalar *cv;
  PetscBool    same;

  PetscFunctionBeginUser;
  PetscCall(TestMatrix(PETSC_COMM_WORLD, 20, N, &A));
  PetscCall(MatGetOwnershipRange(A, &lo, &hi));
  PetscCall(PetscMalloc3(4 * (hi - lo), &ci, 4 * (hi - lo), &cj, 4 * (hi - lo), &cv));
  for (PetscInt i = lo; i < hi; i++) {
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscInt           nc;
    PetscCall(MatGetRow(A, i, &nc, &cols, &vals));
    for (PetscInt k = 0; k < nc; k++) ci[n] = i, cj[n] = cols[k], cv[n++] = vals[k];
    PetscCall(MatRestoreRow(A, i, &nc, &cols, &vals));
  }
  PetscCall(MatCreate(PETSC_COMM_WORLD, &P));
  PetscCall(MatSetSizes(P, hi - lo, PETSC_DECIDE, PETSC_DETERMINE, N));
  PetscCall(MatSetType(P, MATPELLR));
  PetscCall(MatPELLRSetFormat(P, MAT_PELLR_FORMAT_ELLR));
  PetscCall(MatSetPreallocationCOO(P, n, ci, cj));
  PetscCall(MatSetValuesCOO(P, cv, INSERT_VALUES));
  PetscCall(MatPELLRSetFormat(P, MAT_PELLR_FORMAT_SELL));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  PetscCall(SameProducts(A, P, &same));
  {
    Mat         Ad;
    PetscBool   plain = PETSC_TRUE, isaij;
    PetscMPIInt size;

    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    if (size > 1) {
      PetscCall(MatGetDiagonalBlock(P, &Ad));
      PetscCall(PetscObjectTypeCompare((PetscObject)Ad, MATSEQAIJ, &isaij));
      plain = isaij;
    }
    PetscCall(Report("COO assembly with a format, then another format: the same products, a plain SeqAIJ diagonal block", (PetscBool)(same && plain)));
  }
  PetscCall(PetscFree3(ci, cj, cv));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the requested format (set by MatPELLRSetFormat()) of P and used, with the same products as the AIJ matrix A; in
   PELLR format, the long-row length 3 (a prefixed option; the default, 256, leaves no long rows in these matrices) */
static PetscErrorCode CheckKept(const char *what, Mat A, Mat P, MatPELLRFormat fmt)
{
  MatPELLRFormat req, used;
  MatPELLRInfo   info;
  PetscBool      same;

  PetscFunctionBeginUser;
  PetscCall(SameProducts(A, P, &same));
  PetscCall(MatPELLRGetFormat(P, &req, &used));
  PetscCall(MatPELLRGetInfo(P, PETSC_FALSE, &info));
  PetscCall(Report(what, (PetscBool)(same && req == fmt && used == fmt && (fmt != MAT_PELLR_FORMAT_PELLR || info.long_rows > 0))));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestSettingsKept(MPI_Comm comm)
{
  Mat         A, P, X, XP, S;
  PetscMPIInt size;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(PetscOptionsSetValue(NULL, "-kept_mat_pellr_long_row_length", "3"));
  PetscCall(TestMatrix(comm, 30, 30 * size, &A));
  PetscCall(MatConvert(A, MATPELLR, MAT_INITIAL_MATRIX, &P));
  PetscCall(MatSetOptionsPrefix(P, "kept_"));
  PetscCall(MatSetFromOptions(P));
  PetscCall(MatPELLRSetFormat(P, MAT_PELLR_FORMAT_PELLR));
  PetscCall(CheckKept("settings of a pellr matrix (format pellr, prefixed long-row length 3): set", A, P, MAT_PELLR_FORMAT_PELLR));
  /* X: a pattern of its own (a shifted diagonal band) */
  PetscCall(MatCreateAIJ(comm, 30, PETSC_DECIDE, PETSC_DETERMINE, 30 * size, 2, NULL, 2, NULL, &X));
  {
    PetscInt lo, hi, N = 30 * size;
    PetscCall(MatGetOwnershipRange(X, &lo, &hi));
    for (PetscInt i = lo; i < hi; i++) PetscCall(MatSetValue(X, i, (i + 3) % N, 2.0 + i, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(X, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(X, MAT_FINAL_ASSEMBLY));
  }
  PetscCall(MatConvert(X, MATPELLR, MAT_INITIAL_MATRIX, &XP));
  PetscCall(MatAXPY(A, 0.5, X, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatAXPY(P, 0.5, XP, DIFFERENT_NONZERO_PATTERN));
  PetscCall(CheckKept("MatAXPY(pellr, a, pellr, DIFFERENT_NONZERO_PATTERN): settings kept, the same products", A, P, MAT_PELLR_FORMAT_PELLR));
  PetscCall(MatScale(X, -2.0));
  PetscCall(MatAXPY(A, 0.25, X, UNKNOWN_NONZERO_PATTERN));
  PetscCall(MatAXPY(P, 0.25, X, UNKNOWN_NONZERO_PATTERN));
  PetscCall(CheckKept("MatAXPY(pellr, a, aij, UNKNOWN_NONZERO_PATTERN): settings kept, the same products", A, P, MAT_PELLR_FORMAT_PELLR));
  PetscCall(MatCopy(X, A, DIFFERENT_NONZERO_PATTERN));
  PetscCall(MatCopy(X, P, DIFFERENT_NONZERO_PATTERN));
  PetscCall(CheckKept("MatCopy(aij, pellr, DIFFERENT_NONZERO_PATTERN): settings kept, the same products", A, P, MAT_PELLR_FORMAT_PELLR));
  PetscCall(MatAXPY(A, 1.5, A, SAME_NONZERO_PATTERN));
  PetscCall(MatAXPY(P, 1.5, P, SAME_NONZERO_PATTERN));
  PetscCall(MatAXPY(A, -1.0, X, SUBSET_NONZERO_PATTERN));
  PetscCall(MatAXPY(P, -1.0, X, SUBSET_NONZERO_PATTERN));
  PetscCall(CheckKept("MatAXPY(pellr, a, pellr, SAME_NONZERO_PATTERN) and (pellr, a, aij, SUBSET_NONZERO_PATTERN): settings kept, the same products", A, P, MAT_PELLR_FORMAT_PELLR));
  PetscCall(MatTranspose(A, MAT_INITIAL_MATRIX, &S));
  {
    Mat St;
    PetscCall(MatTranspose(P, MAT_INITIAL_MATRIX, &St));
    PetscCall(CheckKept("MatTranspose(pellr, MAT_INITIAL_MATRIX): the transpose has the settings, the same products", S, St, MAT_PELLR_FORMAT_PELLR));
    PetscCall(MatDestroy(&St));
  }
  PetscCall(MatDestroy(&S));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&P));
  /* in place, with a pattern that is not symmetric (the transpose's pattern is new) */
  PetscCall(TestMatrix(comm, 30, 30 * size, &A));
  PetscCall(MatConvert(A, MATPELLR, MAT_INITIAL_MATRIX, &P));
  PetscCall(MatSetOptionsPrefix(P, "kept_"));
  PetscCall(MatSetFromOptions(P));
  PetscCall(MatPELLRSetFormat(P, MAT_PELLR_FORMAT_ELLR));
  PetscCall(MatTranspose(A, MAT_INPLACE_MATRIX, &A));
  PetscCall(MatTranspose(P, MAT_INPLACE_MATRIX, &P));
  PetscCall(CheckKept("MatTranspose(pellr, MAT_INPLACE_MATRIX): settings kept (format ellr), the same products", A, P, MAT_PELLR_FORMAT_ELLR));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&P));
  PetscCall(MatDestroy(&X));
  PetscCall(MatDestroy(&XP));
  PetscCall(PetscOptionsClearValue(NULL, "-kept_mat_pellr_long_row_length"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatLUFactor() in place: SeqAIJ's merges a factor's data into the matrix */
static PetscErrorCode TestLUInPlace(void)
{
  Mat       A, P;
  IS        row, col;
  Vec       b, x, y;
  PetscReal nx, d;
  PetscBool isaij;
  PetscInt  n = 40;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 3, NULL, &A));
  for (PetscInt i = 0; i < n; i++) {
    PetscCall(MatSetValue(A, i, i, 4.0 + 0.1 * i, INSERT_VALUES));
    if (i) PetscCall(MatSetValue(A, i, i - 1, -1.0, INSERT_VALUES));
    if (i < n - 2) PetscCall(MatSetValue(A, i, i + 2, -1.5, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatConvert(A, MATPELLR, MAT_INITIAL_MATRIX, &P));
  PetscCall(MatGetOrdering(A, MATORDERINGRCM, &row, &col));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &y));
  PetscCall(VecSetRandom(b, NULL));
  PetscCall(MatLUFactor(A, row, col, NULL));
  PetscCall(MatLUFactor(P, row, col, NULL));
  PetscCall(MatSolve(A, b, x));
  PetscCall(MatSolve(P, b, y));
  PetscCall(VecNorm(x, NORM_INFINITY, &nx));
  PetscCall(VecAXPY(y, -1.0, x));
  PetscCall(VecNorm(y, NORM_INFINITY, &d));
  PetscCall(PetscObjectTypeCompare((PetscObject)P, MATSEQAIJ, &isaij));
  PetscCall(Report("MatLUFactor(pellr) in place: a factored seqaij matrix, MatSolve() as AIJ's", (PetscBool)(isaij && P->factortype == MAT_FACTOR_LU && d <= 1e-14 * nx)));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&P));
  PetscCall(ISDestroy(&row));
  PetscCall(ISDestroy(&col));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatShift() with missing diagonal entries (the empty rows of TestMatrix()) */
static PetscErrorCode TestShiftMissingDiagonal(MPI_Comm comm)
{
  Mat         A, P;
  PetscBool   same;
  PetscMPIInt size;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_size(comm, &size));
  PetscCall(TestMatrix(comm, 30, 30 * size, &A));
  PetscCall(MatConvert(A, MATPELLR, MAT_INITIAL_MATRIX, &P));
  PetscCall(MatShift(A, 2.5));
  PetscCall(MatShift(P, 2.5));
  PetscCall(SameProducts(A, P, &same));
  PetscCall(Report("MatShift() of a matrix missing diagonal entries: the same products", same));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestPerturbation(void)
{
  const PetscInt len[3] = {2, -2, 3};
  PetscReal      dp;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = MatPELLRPerturbation(3, len, &dp);
  PetscCall(PetscPopErrorHandler());
  PetscCall(Report("MatPELLRPerturbation() with a negative row length: an argument error", (PetscBool)(ierr == PETSC_ERR_ARG_OUTOFRANGE)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscMPIInt size;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscSparseGPUInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (size == 1) {
    PetscCall(TestTranspose());
    PetscCall(TestPerturbation());
    PetscCall(TestLUInPlace());
  }
  PetscCall(TestSettingsKept(PETSC_COMM_WORLD));
  PetscCall(TestShiftMissingDiagonal(PETSC_COMM_WORLD));
  PetscCall(TestRetrieve(PETSC_COMM_WORLD));
  if (size > 1) PetscCall(TestOneProcessNewEntry());
  PetscCall(TestCOO());
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "failures: %" PetscInt_FMT "\n", nfail));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   # -malloc_dump: MatHeaderMerge() (MatAXPY() with a new pattern) leaked a composed-function list until session 59
   test:
      suffix: seq
      args: -malloc_debug -malloc_dump

   test:
      suffix: mpi
      nsize: 2
      args: -malloc_debug -malloc_dump

TEST*/
