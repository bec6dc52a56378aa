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
