/* Matrix Market reader shared by the tests (the tutorials keep their own small readers).

   MMRead() reads "%%MatrixMarket matrix coordinate <field> <symmetry>" files (keywords in any case):
   - field real, integer or pattern (pattern: every value is 1); complex and array (dense) files are errors;
   - symmetry general, symmetric, skew-symmetric or hermitian (real data: the same as symmetric).
   Files whose name ends in .gz are read through popen("gzip -dc 'file'"), others directly. Comment lines (%) and
   blank lines are skipped; exactly nz entries must follow the size line (what comes after them is ignored).
   The triplets are the entries in file order, 0-based:
   - duplicates stay separate triplets (MMTripletsAssemble() sums them: ADD_VALUES);
   - explicit zeros stay triplets (and become stored zeros of the assembled matrix);
   - missing diagonal entries stay missing (nothing is added).
   With expand = PETSC_TRUE each off-diagonal entry of a symmetric (skew-symmetric) file is followed directly by its
   mirror (negated for skew-symmetric), giving the full matrix; with PETSC_FALSE the stored triangle only
   (t->symmetric says whether the file holds one triangle). A general file is never symmetrized.
   Used by pellr_ops and subtreeilu1 (expanded) and gpurcm_identity (as stored: the lower triangle of a symmetric file).
   Errors are PETSc errors naming the file: cannot open, not a coordinate Matrix Market file, unsupported field or
   symmetry, bad size line, sizes beyond PetscInt, bad or out-of-range entry, missing value, too few entries. */
#pragma once
#include <petscmat.h>

typedef struct {
  PetscInt     m, n, nz; /* rows, columns, number of triplets */
  PetscInt    *i, *j;    /* 0-based row and column indices */
  PetscScalar *v;        /* values */
  PetscBool    symmetric; /* the file stores one triangle: symmetric, skew-symmetric or hermitian */
  PetscBool    skew;      /* skew-symmetric */
} MMTriplets;

/* room for cap triplets of an m x n matrix (none set yet); free with MMTripletsDestroy() */
PETSC_UNUSED static PetscErrorCode MMTripletsCreate(PetscInt m, PetscInt n, PetscInt cap, MMTriplets *t)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(t, sizeof(*t)));
  t->m = m;
  t->n = n;
  PetscCall(PetscMalloc3(cap, &t->i, cap, &t->j, cap, &t->v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_UNUSED static PetscErrorCode MMTripletsDestroy(MMTriplets *t)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree3(t->i, t->j, t->v));
  t->nz = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the next line that is neither a comment nor blank (*got = PETSC_FALSE at the end of the file) */
PETSC_UNUSED static PetscErrorCode MMNextLine_Private(FILE *f, const char path[], char line[], int size, PetscBool *got)
{
  PetscFunctionBeginUser;
  *got = PETSC_FALSE;
  while (fgets(line, size, f)) {
    size_t len = strlen(line);

    if (len == (size_t)size - 1 && line[len - 1] != '\n' && !feof(f)) { /* longer than the buffer */
      PetscCheck(line[0] == '%', PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: line longer than %d characters", path, size - 2);
      for (int c = fgetc(f); c != EOF && c != '\n'; c = fgetc(f)) { } /* rest of a long comment */
    }
    if (line[0] == '%' || !line[strspn(line, " \t\r\n")]) continue;
    *got = PETSC_TRUE;
    break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* reads the opened file (MMRead() closes it and frees the triplets on error) */
PETSC_UNUSED static PetscErrorCode MMRead_Private(FILE *f, const char path[], PetscBool expand, MMTriplets *t)
{
  char      line[4096], obj[64] = "", fmt[64] = "", field[64] = "", sym[64] = "";
  PetscBool pattern, symmetric, skew, got;
  long long m, n, nz, cap;

  PetscFunctionBeginUser;
  /* banner */
  PetscCheck(fgets(line, sizeof(line), f), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s is empty (or gzip cannot read it)", path);
  PetscCheck(sscanf(line, "%%%%MatrixMarket %63s %63s %63s %63s", obj, fmt, field, sym) == 4 && !strcasecmp(obj, "matrix"), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s is not a Matrix Market matrix file (no \"%%%%MatrixMarket matrix <format> <field> <symmetry>\" first line)", path);
  PetscCheck(!strcasecmp(fmt, "coordinate"), PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: Matrix Market format %s not supported (coordinate only)", path, fmt);
  pattern = !strcasecmp(field, "pattern") ? PETSC_TRUE : PETSC_FALSE;
  PetscCheck(pattern || !strcasecmp(field, "real") || !strcasecmp(field, "integer"), PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: Matrix Market field %s not supported (real, integer or pattern)", path, field);
  skew      = !strcasecmp(sym, "skew-symmetric") ? PETSC_TRUE : PETSC_FALSE;
  symmetric = (skew || !strcasecmp(sym, "symmetric") || !strcasecmp(sym, "hermitian")) ? PETSC_TRUE : PETSC_FALSE;
  PetscCheck(symmetric || !strcasecmp(sym, "general"), PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: Matrix Market symmetry %s not supported", path, sym);
  if (line[strlen(line) - 1] != '\n') /* a banner longer than the buffer: skip its rest */
    for (int c = fgetc(f); c != EOF && c != '\n'; c = fgetc(f)) { }

  /* size line */
  PetscCall(MMNextLine_Private(f, path, line, sizeof(line), &got));
  PetscCheck(got, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: no size line", path);
  PetscCheck(sscanf(line, "%lld %lld %lld", &m, &n, &nz) == 3 && m >= 0 && n >= 0 && nz >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: bad size line: %s", path, line);
  cap = (expand && symmetric) ? 2 * nz : nz;
  PetscCheck(m <= PETSC_INT_MAX && n <= PETSC_INT_MAX && cap <= PETSC_INT_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: %lld x %lld with %lld entries is too large for %d-bit PetscInt", path, m, n, cap, (int)(8 * sizeof(PetscInt)));
  PetscCall(MMTripletsCreate((PetscInt)m, (PetscInt)n, (PetscInt)cap, t));
  t->symmetric = symmetric;
  t->skew      = skew;

  /* entries */
  for (long long k = 0; k < nz; k++) {
    long long r, c;
    double    a = 1.0;
    PetscInt  p = t->nz;

    PetscCall(MMNextLine_Private(f, path, line, sizeof(line), &got));
    PetscCheck(got, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: premature end after %lld of %lld entries", path, k, nz);
    if (pattern) PetscCheck(sscanf(line, "%lld %lld", &r, &c) == 2, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: bad entry %lld: %s", path, k + 1, line);
    else PetscCheck(sscanf(line, "%lld %lld %lf", &r, &c, &a) == 3, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: bad entry %lld (row, column and value expected): %s", path, k + 1, line);
    PetscCheck(r >= 1 && r <= m && c >= 1 && c <= n, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: entry %lld (%lld, %lld) outside the %lld x %lld matrix", path, k + 1, r, c, m, n);
    t->i[p] = (PetscInt)(r - 1), t->j[p] = (PetscInt)(c - 1), t->v[p] = a, p++;
    if (expand && symmetric && r != c) t->i[p] = (PetscInt)(c - 1), t->j[p] = (PetscInt)(r - 1), t->v[p] = skew ? -a : a, p++;
    t->nz = p;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_UNUSED static PetscErrorCode MMRead(const char path[], PetscBool expand, MMTriplets *t)
{
  FILE          *f;
  char           cmd[PETSC_MAX_PATH_LEN + 32];
  PetscBool      gz, exists;
  size_t         len;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(t, sizeof(*t)));
  PetscCall(PetscTestFile(path, 'r', &exists));
  PetscCheck(exists, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open %s", path);
  PetscCall(PetscStrlen(path, &len));
  gz = (len > 3 && !strcmp(path + len - 3, ".gz")) ? PETSC_TRUE : PETSC_FALSE;
  if (gz) {
    PetscCall(PetscSNPrintf(cmd, sizeof(cmd), "gzip -dc '%s'", path));
    f = popen(cmd, "r");
  } else f = fopen(path, "r");
  PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open %s", path);
  ierr = MMRead_Private(f, path, expand, t);
  if (gz) pclose(f);
  else fclose(f);
  if (ierr) PetscCall(MMTripletsDestroy(t));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the directory of the shared matrices when -dir is not given: the first of $SPARSEGPU_MATRICES, the checkout's
   neighbour (../../shared from tests/) and ../shared that holds MANIFEST.tsv (dir unchanged if none does) */
PETSC_UNUSED static PetscErrorCode MMDefaultDirectory(char dir[], size_t len)
{
  const char *env = getenv("SPARSEGPU_MATRICES"), *cand[] = {env, "../../shared/matrices", "../shared/matrices"};

  PetscFunctionBegin;
  for (int c = 0; c < 3; c++) {
    char      path[PETSC_MAX_PATH_LEN];
    PetscBool exists;

    if (!cand[c]) continue;
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/MANIFEST.tsv", cand[c]));
    PetscCall(PetscTestFile(path, 'r', &exists));
    if (exists) {
      PetscCall(PetscStrncpy(dir, cand[c], len));
      break;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Calls fn(dir, name, ctx) for each matrix of dir/MANIFEST.tsv (first column after the header line), in the manifest's
   order; with sel, only for those among names[0 .. nnames-1] */
typedef PetscErrorCode (*MMManifestFn)(const char dir[], const char name[], void *ctx);

PETSC_UNUSED static PetscErrorCode MMForEachManifestMatrix(const char dir[], PetscBool sel, PetscInt nnames, char *const names[], MMManifestFn fn, void *ctx)
{
  char  manifest[PETSC_MAX_PATH_LEN + 20], line[4096];
  FILE *fp;

  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(manifest, sizeof(manifest), "%s/MANIFEST.tsv", dir));
  fp = fopen(manifest, "r");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open %s", manifest);
  PetscCheck(fgets(line, sizeof(line), fp), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "Empty %s", manifest);
  while (fgets(line, sizeof(line), fp)) {
    char      name[256];
    PetscBool want = PETSC_TRUE;

    if (sscanf(line, "%255s", name) != 1) continue;
    if (sel) {
      want = PETSC_FALSE;
      for (PetscInt i = 0; i < nnames; i++)
        if (!strcmp(names[i], name)) want = PETSC_TRUE;
    }
    if (want) PetscCall(fn(dir, name, ctx));
  }
  fclose(fp);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A new matrix of the given type on comm from the triplets: each process sets the triplets of its rows (PETSc's
   default layout) with ADD_VALUES (duplicates are summed; explicit zeros become stored zeros), preallocated through
   MatXAIJSetPreallocation() with the counts (an upper bound). newnonzeros: whether later insertions of new nonzeros
   are allowed (MAT_NEW_NONZERO_ALLOCATION_ERR false) or are an error (PETSc's default). */
PETSC_UNUSED static PetscErrorCode MMTripletsAssemble(MPI_Comm comm, const MMTriplets *t, MatType type, PetscBool newnonzeros, Mat *A)
{
  PetscInt rstart, rend, cstart, cend, *dnz, *onz;

  PetscFunctionBeginUser;
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, t->m, t->n));
  PetscCall(MatSetType(*A, type));
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  PetscCall(MatGetOwnershipRangeColumn(*A, &cstart, &cend));
  PetscCall(PetscCalloc2(rend - rstart, &dnz, rend - rstart, &onz));
  for (PetscInt k = 0; k < t->nz; k++)
    if (t->i[k] >= rstart && t->i[k] < rend) {
      if (t->j[k] >= cstart && t->j[k] < cend) dnz[t->i[k] - rstart]++;
      else onz[t->i[k] - rstart]++;
    }
  for (PetscInt i = 0; i < rend - rstart; i++) dnz[i] = PetscMin(dnz[i], cend - cstart), onz[i] = PetscMin(onz[i], t->n - (cend - cstart));
  PetscCall(MatXAIJSetPreallocation(*A, 1, dnz, onz, NULL, NULL));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, newnonzeros ? PETSC_FALSE : PETSC_TRUE));
  for (PetscInt k = 0; k < t->nz; k++)
    if (t->i[k] >= rstart && t->i[k] < rend) PetscCall(MatSetValue(*A, t->i[k], t->j[k], t->v[k], ADD_VALUES));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree2(dnz, onz));
  PetscFunctionReturn(PETSC_SUCCESS);
}
