static char help[] = "Session 43's fuzz driver (CPU): PCSUBTREEILU ILU(k) against PETSc's PCILU on random sequences of applies,\n\
transposed applies, new values (same pattern, through the plan or PETSc), backend and row-level switches, on random\n\
matrices: the factors' column copies are made at their first use since edd3ccb, and the plan's non-finite checks are\n\
inline since 8ac47f9.\n\
  -trials <n> (default 200) -seed <s> (default 1)\n\
Build (from the repository root, after make):\n\
  mpicc -O2 -I$PETSC_DIR/include -Iinclude fuzz_lazy_columns.c -L$PETSC_DIR/lib -lpetsc -Lbuild/lib -lpetscsparsegpu -o /tmp/fuzz\n\
Run: /tmp/fuzz -trials 300 (prints one line per trial and the number of failures).\n\n";

#include <petscsparsegpu.h>
#include <petscpc.h>
#include "subtreeilu_test.h" /* MaxRelDiff() */

static unsigned long long rng;
static PetscInt           R(PetscInt m) /* 0 .. m-1 */
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (PetscInt)(rng % (unsigned long long)m);
}

/* random nonsymmetric pattern with a dominant diagonal: each row i gets up to k random columns within a band b (or
   anywhere with probability 1/4), values in [-1, 1], diagonal 1 + row sum */
static PetscErrorCode RandomMatrix(PetscInt n, Mat *A)
{
  PetscInt k = 1 + R(6), div = 1 + R(20), b = 1 + R(PetscMax(1, n / div));

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, k + 1, NULL, A));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  for (PetscInt i = 0; i < n; i++) {
    PetscReal s = 0;

    for (PetscInt t = 0; t < k; t++) {
      PetscInt    near = i - b + R(2 * b + 1), j = R(4) ? PetscMin(n - 1, PetscMax(0, near)) : R(n); /* (R() outside the macros: they evaluate twice) */
      PetscScalar v = (PetscScalar)(R(2001) - 1000) / 1000.0;

      if (j == i) continue;
      PetscCall(MatSetValue(*A, i, j, v, ADD_VALUES));
      s += PetscAbsScalar(v);
    }
    PetscCall(MatSetValue(*A, i, i, 1.0 + s + (PetscReal)R(100) / 100.0, ADD_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt trials = 200, seed = 1, nfail = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscSparseGPUInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-trials", &trials, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-seed", &seed, NULL));
  rng = 88172645463325252ULL + (unsigned long long)seed;
  for (PetscInt trial = 0; trial < trials; trial++) {
    PetscInt    n = R(4) ? 1 + R(3000) : R(3), levels = R(3), nops = 4 + R(12), ops[32], nop = 0;
    const char *ord[] = {"natural", "rcm", "nd"}, *o = ord[R(3)];
    Mat         A;
    PC          ref, st;
    Vec         b, x1, x2;
    PetscReal   worst = 0, rel = 0;
    char        buf[64];

    PetscCall(RandomMatrix(n, &A));
    PetscCall(PCCreate(PETSC_COMM_SELF, &ref));
    PetscCall(PCSetType(ref, PCILU));
    PetscCall(PCSetOperators(ref, A, A));
    PetscCall(PCFactorSetLevels(ref, levels));
    PetscCall(PCFactorSetMatOrderingType(ref, o));
    PetscCall(PCSetUp(ref));
    PetscCall(PCCreate(PETSC_COMM_SELF, &st));
    PetscCall(PCSetOptionsPrefix(st, "st_"));
    PetscCall(PCSetType(st, PCSUBTREEILU));
    PetscCall(PCSetOperators(st, A, A));
    PetscCall(PetscOptionsClearValue(NULL, "-st_pc_subtree_ilu_threads_rows"));
    PetscCall(PetscSNPrintf(buf, sizeof(buf), "%" PetscInt_FMT, levels));
    PetscCall(PetscOptionsSetValue(NULL, "-st_pc_subtree_ilu_levels", buf));
    PetscCall(PetscOptionsSetValue(NULL, "-st_pc_subtree_ilu_mat_ordering_type", o));
    PetscCall(PetscOptionsSetValue(NULL, "-st_pc_subtree_ilu_backend", R(2) ? "serial" : "threads"));
    PetscCall(PetscOptionsSetValue(NULL, "-st_pc_subtree_ilu_threads", "2"));
    PetscCall(PetscOptionsSetValue(NULL, "-st_pc_subtree_ilu_refactor", R(2) ? "device" : "petsc"));
    if (R(4) == 0) PetscCall(PetscOptionsSetValue(NULL, "-st_pc_subtree_ilu_threads_rows", NULL));
    PetscCall(PCSetFromOptions(st));
    PetscCall(PCSetUp(st));
    PetscCall(MatCreateVecs(A, &x1, &b));
    PetscCall(VecDuplicate(x1, &x2));
    for (PetscInt k = 0; k < nops; k++) {
      PetscInt op = R(6);

      ops[nop++] = op;
      switch (op) {
      case 0: /* apply */
      case 1: /* transposed apply */
        if (n) {
          PetscInt    i = R(n);
          PetscScalar v = 1.0 + R(7);

          PetscCall(VecSetValue(b, i, v, INSERT_VALUES));
        }
        PetscCall(VecAssemblyBegin(b));
        PetscCall(VecAssemblyEnd(b));
        PetscCall(VecShift(b, 0.25));
        PetscCall((op ? PCApplyTranspose : PCApply)(ref, b, x1));
        PetscCall((op ? PCApplyTranspose : PCApply)(st, b, x2));
        PetscCall(MaxRelDiff(x1, x2, &rel));
        worst = PetscMax(worst, rel);
        break;
      case 2: /* new values, same pattern */
      case 3:
        PetscCall(MatScale(A, 1.0 + (PetscReal)R(50) / 100.0));
        PetscCall(MatShift(A, (PetscReal)R(10) / 10.0));
        PetscCall(PCSetUp(ref));
        PetscCall(PCSetUp(st));
        break;
      case 4: /* switch the backend */
        PetscCall(PetscOptionsSetValue(NULL, "-st_pc_subtree_ilu_backend", R(2) ? "serial" : "threads"));
        PetscCall(PCSetFromOptions(st));
        PetscCall(PCSetUp(st));
        break;
      case 5: /* the row-level threads solve on or off */
        if (R(2)) PetscCall(PetscOptionsSetValue(NULL, "-st_pc_subtree_ilu_threads_rows", NULL));
        else PetscCall(PetscOptionsClearValue(NULL, "-st_pc_subtree_ilu_threads_rows"));
        PetscCall(PCSetFromOptions(st));
        PetscCall(PCSetUp(st));
        break;
      }
    }
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "trial %3" PetscInt_FMT ": n %4" PetscInt_FMT " ILU(%" PetscInt_FMT ") %-7s ops", trial, n, levels, o));
    for (PetscInt k = 0; k < nop; k++) PetscCall(PetscPrintf(PETSC_COMM_SELF, " %" PetscInt_FMT, ops[k]));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, ": worst %.2e %s\n", (double)worst, worst < 1e-10 ? "ok" : "FAIL"));
    if (!(worst < 1e-10)) nfail++;
    PetscCall(VecDestroy(&b));
    PetscCall(VecDestroy(&x1));
    PetscCall(VecDestroy(&x2));
    PetscCall(PCDestroy(&ref));
    PetscCall(PCDestroy(&st));
    PetscCall(MatDestroy(&A));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "failures: %" PetscInt_FMT " of %" PetscInt_FMT "\n", nfail, trials));
  PetscCall(PetscFinalize());
  return 0;
}
