/* MatCopy(..., DIFFERENT_NONZERO_PATTERN) / MatAXPY(..., DIFFERENT|UNKNOWN_NONZERO_PATTERN) into a pellr matrix
   reset its requested storage format (MatPELLRSetFormat / -mat_pellr_format) to auto.
   run: ./repro_format_reset -dll_append /tmp/fuzz_pellr/libpetscsparsegpu.so */
#include <petscsparsegpu.h>
static PetscErrorCode Mk(PetscInt n, PetscInt off, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, n, n, 3, NULL, 3, NULL, A));
  for (PetscInt i = 0; i < n; i++) {
    PetscInt rs, re;
    PetscCall(MatGetOwnershipRange(*A, &rs, &re));
    if (i < rs || i >= re) continue;
    PetscCall(MatSetValue(*A, i, i, 2.0, INSERT_VALUES));
    if (i + off < n) PetscCall(MatSetValue(*A, i, i + off, -1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}
int main(int argc, char **argv)
{
  Mat            A, X, P;
  MatPELLRFormat r;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(Mk(100, 1, &A));
  PetscCall(Mk(100, 5, &X));
  for (int t = 0; t < 3; t++) {
    PetscCall(MatConvert(A, MATPELLR, MAT_INITIAL_MATRIX, &P));
    PetscCall(MatPELLRSetFormat(P, MAT_PELLR_FORMAT_SELL));
    PetscCall(MatPELLRGetFormat(P, &r, NULL));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "before: requested %s\n", MatPELLRFormats[r]));
    if (t == 0) PetscCall(MatCopy(X, P, DIFFERENT_NONZERO_PATTERN));
    if (t == 1) PetscCall(MatAXPY(P, 1.0, X, DIFFERENT_NONZERO_PATTERN));
    if (t == 2) PetscCall(MatAXPY(P, 1.0, X, SAME_NONZERO_PATTERN == 0 ? UNKNOWN_NONZERO_PATTERN : UNKNOWN_NONZERO_PATTERN));
    PetscCall(MatPELLRGetFormat(P, &r, NULL));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "after %s: requested %s (expected sell)\n", t == 0 ? "MatCopy(DIFFERENT)" : t == 1 ? "MatAXPY(DIFFERENT)" : "MatAXPY(UNKNOWN)", MatPELLRFormats[r]));
    PetscCall(MatDestroy(&P));
  }
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&X));
  PetscCall(PetscFinalize());
  return 0;
}
