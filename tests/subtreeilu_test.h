/* Helpers shared by the PCSUBTREEILU tests (the Matrix Market reader is in mmio.h) */
#pragma once
#include <petscmat.h>

/* max-norm difference of b from a, relative to a (Inf when the difference is Inf or NaN) */
PETSC_UNUSED static PetscErrorCode MaxRelDiff(Vec a, Vec b, PetscReal *rel)
{
  Vec       d;
  PetscReal na, nd;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(a, &d));
  PetscCall(VecWAXPY(d, -1.0, a, b));
  PetscCall(VecNorm(d, NORM_INFINITY, &nd));
  PetscCall(VecNorm(a, NORM_INFINITY, &na));
  *rel = nd / (na > 0 ? na : 1.0);
  if (PetscIsInfOrNanReal(nd)) *rel = PETSC_INFINITY;
  PetscCall(VecDestroy(&d));
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

/*
  N^2 rows, each joined to 3 others drawn at random (a fixed linear congruential sequence; both directions: row value
  -(1 + conv)/8, column value -(1 - conv)/8), diagonals 1 above the row's absolute sum: random columns, on which the
  factor's own numbering gives the cuda solves groups of about one row (the level-sorted numbering fills them)
*/
PETSC_UNUSED static PetscErrorCode SubtreeILUGenerateRandom(PetscInt N, PetscReal conv, Mat *A)
{
  const PetscInt     n = N * N;
  unsigned long long x = 12345;
  PetscReal         *absum;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(n, &absum));
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 16, NULL, A));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  for (PetscInt r = 0; r < n; r++)
    for (PetscInt k = 0; k < 3; k++) {
      const PetscReal vr = -(1.0 + conv) / 8, vc = -(1.0 - conv) / 8;
      PetscInt        j;

      x = x * 6364136223846793005ULL + 1442695040888963407ULL;
      j = (PetscInt)((x >> 33) % (unsigned long long)n);
      if (j == r) continue;
      PetscCall(MatSetValue(*A, r, j, vr, ADD_VALUES));
      PetscCall(MatSetValue(*A, j, r, vc, ADD_VALUES));
      absum[r] += PetscAbsReal(vr);
      absum[j] += PetscAbsReal(vc);
    }
  for (PetscInt r = 0; r < n; r++) PetscCall(MatSetValue(*A, r, r, absum[r] + 1.0, ADD_VALUES));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree(absum));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The N x N 2D Laplacian (convection conv) with four hubs: nodes 0, n/3, 2n/3 and n-1, joined to every 1st, 2nd, 3rd and
  1st other node (in both directions: row value -(1 + conv)/16, column value -(1 - conv)/16, so symmetric for conv = 0).
  Every diagonal exceeds its row's absolute sum by 1 (ILU(0)/ICC(0) need no shift). With the natural ordering the
  first hub's row in U and the last hub's row in L have n - 1 entries, and the hubs' columns as many (the transposed
  solves): the rows the cuda backend sums with a whole warp.
*/
PETSC_UNUSED static PetscErrorCode SubtreeILUGenerateHubs(PetscInt N, PetscReal conv, Mat *A)
{
  const PetscInt n = N * N, hub[4] = {0, n / 3, 2 * (n / 3), n - 1}, stride[4] = {1, 2, 3, 1};
  PetscReal     *absum;
  PetscInt      *nnz;
  Mat            G;

  PetscFunctionBeginUser;
  PetscCall(SubtreeILUGenerateLaplacian(PETSC_COMM_SELF, 2, N, conv, &G));
  PetscCall(PetscCalloc2(n, &absum, n, &nnz));
  for (PetscInt r = 0; r < n; r++) nnz[r] = 5 + 4;
  for (PetscInt h = 0; h < 4; h++) nnz[hub[h]] = n;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 0, nnz, A));
  for (PetscInt r = 0; r < n; r++) { /* the Laplacian's off-diagonal entries */
    PetscInt           ncols;
    const PetscInt    *cols;
    const PetscScalar *vals;

    PetscCall(MatGetRow(G, r, &ncols, &cols, &vals));
    for (PetscInt k = 0; k < ncols; k++)
      if (cols[k] != r) {
        PetscCall(MatSetValue(*A, r, cols[k], vals[k], ADD_VALUES));
        absum[r] += PetscAbsScalar(vals[k]);
      }
    PetscCall(MatRestoreRow(G, r, &ncols, &cols, &vals));
  }
  for (PetscInt h = 0; h < 4; h++)
    for (PetscInt j = 0; j < n; j += stride[h]) {
      const PetscReal vr = -(1.0 + conv) / 16, vc = -(1.0 - conv) / 16;

      if (j == hub[h]) continue;
      PetscCall(MatSetValue(*A, hub[h], j, vr, ADD_VALUES));
      PetscCall(MatSetValue(*A, j, hub[h], vc, ADD_VALUES));
      absum[hub[h]] += PetscAbsReal(vr);
      absum[j] += PetscAbsReal(vc);
    }
  for (PetscInt r = 0; r < n; r++) PetscCall(MatSetValue(*A, r, r, absum[r] + 1.0, ADD_VALUES));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree2(absum, nnz));
  PetscCall(MatDestroy(&G));
  PetscFunctionReturn(PETSC_SUCCESS);
}
