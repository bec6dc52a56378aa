static char help[] = "Checks the tests' shared Matrix Market reader (tests/mmio.h) on small files written here: symmetric,\n\
skew-symmetric, pattern and integer files, duplicates, explicit zeros, missing diagonals, comments and blank lines,\n\
gzip-compressed files, and a PETSc error naming the file for each kind of bad file.\n\n";

#include <petscmat.h>
#include <unistd.h>
#include <sys/stat.h>
#include "mmio.h"

/* writes text to path (through gzip -c when the name ends in .gz) */
static PetscErrorCode WriteFile(const char path[], const char text[])
{
  FILE  *f;
  char   cmd[PETSC_MAX_PATH_LEN + 32];
  size_t len;

  PetscFunctionBeginUser;
  PetscCall(PetscStrlen(path, &len));
  if (len > 3 && !strcmp(path + len - 3, ".gz")) {
    PetscCall(PetscSNPrintf(cmd, sizeof(cmd), "gzip -c > '%s'", path));
    f = popen(cmd, "w");
  } else f = fopen(path, "w");
  PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s", path);
  PetscCheck(fputs(text, f) >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write %s", path);
  if (len > 3 && !strcmp(path + len - 3, ".gz")) PetscCheck(pclose(f) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "gzip failed on %s", path);
  else PetscCheck(fclose(f) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write %s", path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the triplets must be exactly (m, n, symmetric, skew) and the nz triplets (i, j, v) in this order */
static PetscErrorCode Expect(const char what[], const MMTriplets *t, PetscInt m, PetscInt n, PetscBool symmetric, PetscBool skew, PetscInt nz, const PetscInt i[], const PetscInt j[], const PetscScalar v[])
{
  PetscBool ok = (PetscBool)(t->m == m && t->n == n && t->symmetric == symmetric && t->skew == skew && t->nz == nz);

  PetscFunctionBeginUser;
  for (PetscInt k = 0; ok && k < nz; k++) ok = (PetscBool)(t->i[k] == i[k] && t->j[k] == j[k] && t->v[k] == v[k]);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: %s\n", what, ok ? "as expected" : "WRONG"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the assembled matrix must have exactly the nonzero pattern (row by row, sorted columns) and values given */
static PetscErrorCode ExpectMat(const char what[], Mat A, const PetscInt rowptr[], const PetscInt cols[], const PetscScalar vals[])
{
  PetscInt m;
  PetscBool ok = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &m, NULL));
  for (PetscInt r = 0; r < m; r++) {
    PetscInt           nc;
    const PetscInt    *c;
    const PetscScalar *a;
    PetscCall(MatGetRow(A, r, &nc, &c, &a));
    if (nc != rowptr[r + 1] - rowptr[r]) ok = PETSC_FALSE;
    for (PetscInt k = 0; ok && k < nc; k++) ok = (PetscBool)(c[k] == cols[rowptr[r] + k] && a[k] == vals[rowptr[r] + k]);
    PetscCall(MatRestoreRow(A, r, &nc, &c, &a));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: %s\n", what, ok ? "as expected" : "WRONG"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* reading the file must fail with the given PETSc error, and the error message must name the file */
static PetscErrorCode ExpectError(const char what[], const char path[], const char text[], PetscErrorCode expected)
{
  MMTriplets     t;
  PetscErrorCode e;
  char          *msg = NULL;

  PetscFunctionBeginUser;
  if (text) PetscCall(WriteFile(path, text));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  e = MMRead(path, PETSC_TRUE, &t);
  PetscCall(PetscPopErrorHandler());
  if (e) PetscCall(PetscErrorMessage(e, NULL, &msg)); /* msg: the message of the error */
  else PetscCall(MMTripletsDestroy(&t));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: %s\n", what, e == expected && msg && strstr(msg, path) ? "error naming the file, as expected" : "WRONG"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char       dir[PETSC_MAX_PATH_LEN], path[PETSC_MAX_PATH_LEN + 32];
  MMTriplets t;
  Mat        A;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscSNPrintf(dir, sizeof(dir), "/tmp/mmio_reader_%d", (int)getpid()));
  PetscCheck(!mkdir(dir, 0700), PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot create %s", dir);
  {
    /* symmetric with a comment, blank lines, a duplicate (2,1), an explicit zero (3,3), no (2,2) diagonal */
    const char        *text    = "%%MatrixMarket matrix coordinate real symmetric\n% a comment\n\n3 3 5\n1 1 4.0\n2 1 -1.5\n\n3 3 0\n2 1 0.5\n3 2 2e0\n";
    const PetscInt     ei[]    = {0, 1, 0, 2, 1, 0, 2, 1}, ej[] = {0, 0, 1, 2, 0, 1, 1, 2};
    const PetscScalar  ev[]    = {4, -1.5, -1.5, 0, 0.5, 0.5, 2, 2};
    const PetscInt     si[]    = {0, 1, 2, 1, 2}, sj[] = {0, 0, 2, 0, 1};
    const PetscScalar  sv[]    = {4, -1.5, 0, 0.5, 2};
    const PetscInt     rp[]    = {0, 2, 4, 6}, mc[] = {0, 1, 0, 2, 1, 2};
    const PetscScalar  mv[]    = {4, -1, -1, 2, 2, 0};

    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/sym.mtx", dir));
    PetscCall(WriteFile(path, text));
    PetscCall(MMRead(path, PETSC_TRUE, &t));
    PetscCall(Expect("symmetric, expanded: each mirror right after its entry", &t, 3, 3, PETSC_TRUE, PETSC_FALSE, 8, ei, ej, ev));
    PetscCall(MMTripletsAssemble(PETSC_COMM_SELF, &t, MATSEQAIJ, PETSC_FALSE, &A));
    PetscCall(ExpectMat("symmetric, assembled: duplicates summed, explicit zero stored, missing diagonal missing", A, rp, mc, mv));
    PetscCall(MatDestroy(&A));
    PetscCall(MMTripletsDestroy(&t));
    PetscCall(MMRead(path, PETSC_FALSE, &t));
    PetscCall(Expect("symmetric, as stored: the lower triangle only", &t, 3, 3, PETSC_TRUE, PETSC_FALSE, 5, si, sj, sv));
    PetscCall(MMTripletsDestroy(&t));
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/sym.mtx.gz", dir));
    PetscCall(WriteFile(path, text));
    PetscCall(MMRead(path, PETSC_TRUE, &t));
    PetscCall(Expect("symmetric, gzip-compressed: the same", &t, 3, 3, PETSC_TRUE, PETSC_FALSE, 8, ei, ej, ev));
    PetscCall(MMTripletsDestroy(&t));
  }
  {
    const PetscInt    ei[] = {1, 0, 2, 1}, ej[] = {0, 1, 1, 2};
    const PetscScalar ev[] = {1.5, -1.5, -2, 2};

    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/skew.mtx", dir));
    PetscCall(WriteFile(path, "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n2 1 1.5\n3 2 -2\n"));
    PetscCall(MMRead(path, PETSC_TRUE, &t));
    PetscCall(Expect("skew-symmetric, expanded: mirrors negated", &t, 3, 3, PETSC_TRUE, PETSC_TRUE, 4, ei, ej, ev));
    PetscCall(MMTripletsDestroy(&t));
  }
  {
    const PetscInt    ei[] = {0, 1, 2}, ej[] = {0, 3, 1};
    const PetscScalar ev[] = {1, 1, 1};

    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/pattern.mtx", dir));
    PetscCall(WriteFile(path, "%%MatrixMarket MATRIX Coordinate Pattern General\n3 4 3\n1 1\n2 4\n3 2\n"));
    PetscCall(MMRead(path, PETSC_TRUE, &t));
    PetscCall(Expect("pattern, rectangular, keywords in any case: values 1", &t, 3, 4, PETSC_FALSE, PETSC_FALSE, 3, ei, ej, ev));
    PetscCall(MMTripletsDestroy(&t));
  }
  {
    const PetscInt    ei[] = {1, 0}, ej[] = {0, 1};
    const PetscScalar ev[] = {7, -3};

    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/integer.mtx", dir));
    PetscCall(WriteFile(path, "%%MatrixMarket matrix coordinate integer general\n2 2 2\n2 1 7\n1 2 -3\n1 1 99\n"));
    PetscCall(MMRead(path, PETSC_TRUE, &t));
    PetscCall(Expect("integer; lines after the nz entries ignored", &t, 2, 2, PETSC_FALSE, PETSC_FALSE, 2, ei, ej, ev));
    PetscCall(MMTripletsDestroy(&t));
  }
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/missing.mtx.gz", dir));
  PetscCall(ExpectError("missing file", path, NULL, PETSC_ERR_FILE_OPEN));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/bad.mtx", dir));
  PetscCall(ExpectError("no banner", path, "3 3 1\n1 1 1\n", PETSC_ERR_FILE_UNEXPECTED));
  PetscCall(ExpectError("array format", path, "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", PETSC_ERR_SUP));
  PetscCall(ExpectError("complex field", path, "%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", PETSC_ERR_SUP));
  PetscCall(ExpectError("unknown symmetry", path, "%%MatrixMarket matrix coordinate real lower\n1 1 1\n1 1 1\n", PETSC_ERR_SUP));
  PetscCall(ExpectError("bad size line", path, "%%MatrixMarket matrix coordinate real general\n3 3\n1 1 1\n", PETSC_ERR_FILE_UNEXPECTED));
  PetscCall(ExpectError("too few entries", path, "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1\n2 2 1\n", PETSC_ERR_FILE_UNEXPECTED));
  PetscCall(ExpectError("missing value", path, "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n2 2\n", PETSC_ERR_FILE_UNEXPECTED));
  PetscCall(ExpectError("entry out of range", path, "%%MatrixMarket matrix coordinate real general\n3 3 1\n4 1 1\n", PETSC_ERR_FILE_UNEXPECTED));
  PetscCall(ExpectError("entry index 0", path, "%%MatrixMarket matrix coordinate real general\n3 3 1\n0 1 1\n", PETSC_ERR_FILE_UNEXPECTED));
  PetscCall(PetscSNPrintf(path, sizeof(path), "rm -rf '%s'", dir));
  PetscCheck(system(path) == 0, PETSC_COMM_SELF, PETSC_ERR_SYS, "Cannot remove %s", dir);
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:

TEST*/
