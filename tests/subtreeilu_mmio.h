/* Small Matrix Market reader for the tests and tutorial of PCSUBTREEILU (gzip-compressed files through gzip -dc) */
#pragma once
#include <petscmat.h>

/* Reads a real/integer/pattern coordinate Matrix Market file (general, symmetric or skew-symmetric) into a SeqAIJ
   matrix; stored zeros are kept. *symmetric tells whether the file was stored as symmetric. */
PETSC_UNUSED static PetscErrorCode SubtreeILUReadMatrixMarket(const char path[], Mat *A, PetscBool *symmetric)
{
  FILE       *f;
  char        line[1024], cmd[PETSC_MAX_PATH_LEN + 32], field[64] = "", sym[64] = "";
  PetscInt    m = 0, n = 0, nz = 0, *ii, *jj, *nnz;
  PetscScalar *vv;
  PetscBool   gz, pattern, issym, skew;
  size_t      len;

  PetscFunctionBeginUser;
  PetscCall(PetscStrlen(path, &len));
  gz = (len > 3 && !strcmp(path + len - 3, ".gz")) ? PETSC_TRUE : PETSC_FALSE;
  if (gz) {
    PetscCall(PetscSNPrintf(cmd, sizeof(cmd), "gzip -dc '%s'", path));
    f = popen(cmd, "r");
  } else f = fopen(path, "r");
  PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open %s", path);
  PetscCheck(fgets(line, sizeof(line), f), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "Empty file %s", path);
  PetscCheck(sscanf(line, "%%%%MatrixMarket matrix coordinate %63s %63s", field, sym) == 2, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s is not a coordinate Matrix Market file", path);
  pattern = !strcmp(field, "pattern") ? PETSC_TRUE : PETSC_FALSE;
  PetscCheck(pattern || !strcmp(field, "real") || !strcmp(field, "integer"), PETSC_COMM_SELF, PETSC_ERR_SUP, "Matrix Market field %s not supported", field);
  issym = !strcmp(sym, "symmetric") ? PETSC_TRUE : PETSC_FALSE;
  skew  = !strcmp(sym, "skew-symmetric") ? PETSC_TRUE : PETSC_FALSE;
  do {
    PetscCheck(fgets(line, sizeof(line), f), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "No size line in %s", path);
  } while (line[0] == '%');
  {
    long long lm, ln, lnz;
    PetscCheck(sscanf(line, "%lld %lld %lld", &lm, &ln, &lnz) == 3, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "Bad size line in %s", path);
    m = (PetscInt)lm, n = (PetscInt)ln, nz = (PetscInt)lnz;
  }
  PetscCall(PetscMalloc3(2 * nz, &ii, 2 * nz, &jj, 2 * nz, &vv));
  PetscCall(PetscCalloc1(m, &nnz));
  PetscInt c = 0;
  for (PetscInt k = 0; k < nz; k++) {
    long long r, cc;
    double    v = 1.0;
    PetscCheck(fgets(line, sizeof(line), f), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "Premature end of %s", path);
    if (pattern) PetscCheck(sscanf(line, "%lld %lld", &r, &cc) == 2, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "Bad entry in %s", path);
    else PetscCheck(sscanf(line, "%lld %lld %lf", &r, &cc, &v) == 3, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "Bad entry in %s", path);
    ii[c] = (PetscInt)r - 1, jj[c] = (PetscInt)cc - 1, vv[c] = v, nnz[ii[c]]++, c++;
    if ((issym || skew) && r != cc) ii[c] = (PetscInt)cc - 1, jj[c] = (PetscInt)r - 1, vv[c] = skew ? -v : v, nnz[ii[c]]++, c++;
  }
  nz = c; /* number of entries after expansion */
  if (gz) pclose(f);
  else fclose(f);
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, m, n, 0, nnz, A));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_TRUE));
  for (PetscInt k = 0; k < nz; k++) PetscCall(MatSetValue(*A, ii[k], jj[k], vv[k], ADD_VALUES));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree3(ii, jj, vv));
  PetscCall(PetscFree(nnz));
  if (symmetric) *symmetric = issym;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 2D 5-point (dim 2, N^2 rows) or 3D 7-point (dim 3, N^3 rows) Laplacian with a convection term of strength conv
   (conv = 0: symmetric positive definite) */
PETSC_UNUSED static PetscErrorCode SubtreeILUGenerateLaplacian(MPI_Comm comm, PetscInt dim, PetscInt N, PetscReal conv, Mat *A)
{
  PetscInt n = dim == 2 ? N * N : N * N * N, rs, re;

  PetscFunctionBeginUser;
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, n, n));
  PetscCall(MatSetType(*A, MATAIJ));
  PetscCall(MatSetFromOptions(*A));
  PetscCall(MatSeqAIJSetPreallocation(*A, 7, NULL));
  PetscCall(MatMPIAIJSetPreallocation(*A, 7, NULL, 6, NULL));
  PetscCall(MatGetOwnershipRange(*A, &rs, &re));
  for (PetscInt r = rs; r < re; r++) {
    PetscInt i = r % N, j = (r / N) % N, k = dim == 3 ? r / (N * N) : 0;
    PetscCall(MatSetValue(*A, r, r, 2.0 * dim, INSERT_VALUES));
    if (i > 0) PetscCall(MatSetValue(*A, r, r - 1, -1.0 - conv, INSERT_VALUES));
    if (i < N - 1) PetscCall(MatSetValue(*A, r, r + 1, -1.0 + conv, INSERT_VALUES));
    if (j > 0) PetscCall(MatSetValue(*A, r, r - N, -1.0 - 0.5 * conv, INSERT_VALUES));
    if (j < N - 1) PetscCall(MatSetValue(*A, r, r + N, -1.0 + 0.5 * conv, INSERT_VALUES));
    if (dim == 3 && k > 0) PetscCall(MatSetValue(*A, r, r - N * N, -1.0, INSERT_VALUES));
    if (dim == 3 && k < N - 1) PetscCall(MatSetValue(*A, r, r + N * N, -1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}
