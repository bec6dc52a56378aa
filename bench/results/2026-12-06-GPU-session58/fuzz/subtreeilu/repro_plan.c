/* Refactorization plan (-pc_subtree_ilu_refactor device) on a dense factor: time and memory of the first
   refactorization vs PETSc's refactorization.
   ./repro_plan -dll_append /tmp/fuzz_ilu/libpetscsparsegpu.so -n 600 -pc_subtree_ilu_refactor device|petsc */
#include <petscksp.h>
#include <sys/resource.h>
static double MaxRSS(void) { struct rusage u; getrusage(RUSAGE_SELF, &u); return u.ru_maxrss / 1024.0; }
int main(int argc, char **argv)
{
  Mat       A;
  PC        pc;
  PetscInt  n = 600, lev = 0;
  PetscLogDouble t0, t1, t2;
  Vec       b, x, x2;
  PC        ref;
  PetscReal nd, nx;
  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-levels", &lev, NULL));
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, n, NULL, &A));
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt j = 0; j < n; j++) PetscCall(MatSetValue(A, i, j, i == j ? 2.0 * n : 1.0 / (1 + i + 2 * j), INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(PCCreate(PETSC_COMM_SELF, &pc));
  PetscCall(PCSetType(pc, "subtree_ilu"));
  PetscCall(PCSetOperators(pc, A, A));
  PetscCall(PCSetFromOptions(pc));
  PetscCall(PetscTime(&t0));
  PetscCall(PCSetUp(pc));
  PetscCall(PetscTime(&t1));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "n %d: first setup %.3f s, max RSS %.0f MB\n", (int)n, t1 - t0, MaxRSS()));
  PetscCall(MatScale(A, 1.5));
  PetscCall(PetscTime(&t1));
  PetscCall(PCSetUp(pc)); /* first refactorization: the plan is made here */
  PetscCall(PetscTime(&t2));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "n %d: first refactorization %.3f s, max RSS %.0f MB\n", (int)n, t2 - t1, MaxRSS()));
  /* check against PETSc */
  PetscCall(PCCreate(PETSC_COMM_SELF, &ref));
  PetscCall(PCSetType(ref, PCILU));
  PetscCall(PCSetOperators(ref, A, A));
  PetscCall(PCSetUp(ref));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &x2));
  PetscCall(VecSet(b, 1.0));
  PetscCall(PCApply(ref, b, x));
  PetscCall(PCApply(pc, b, x2));
  PetscCall(VecAXPY(x2, -1.0, x));
  PetscCall(VecNorm(x2, NORM_INFINITY, &nd));
  PetscCall(VecNorm(x, NORM_INFINITY, &nx));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "rel diff vs PCILU %.2e\n", (double)(nd / nx)));
  PetscCall(VecDestroy(&b)); PetscCall(VecDestroy(&x)); PetscCall(VecDestroy(&x2));
  PetscCall(PCDestroy(&ref));
  PetscCall(PCDestroy(&pc));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
