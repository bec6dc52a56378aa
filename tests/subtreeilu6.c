static char help[] = "PCSUBTREEILU regressions found by fuzzing (session 37), each against PETSc's own PCILU/PCICC (MATSOLVERPETSC):\n\
  1. SeqSBAIJ/SeqBAIJ with block size 2, new values on the same pattern: PETSc 3.22.5's MAT_REUSE_MATRIX conversion\n\
     to SeqAIJ scrambles SBAIJ values with bs > 1; the refactorization must factor the new values\n\
  2. pellr with new nonzeros: the block's arrays may come back at the same addresses (or new entries fill the\n\
     preallocated room), so the view on them must be made again from the nonzero state\n\
  3. pellr assembled without inodes, ILU(k) with rcm/nd orderings: the view must not use inodes either (they change\n\
     the ordering's graph and PETSc's numeric routine)\n\
  4. an empty block, ILU(1), refactorization plan: nothing to plan (valgrind: no uninitialized read)\n\
  -backend <serial|threads> : the PC's backend (threads: 2 threads)\n\n";

#include <petscsparsegpu.h>
#include <petscksp.h>

static PetscInt nfail = 0;

static PetscErrorCode Report(const char *what, PetscReal rel)
{
  PetscBool ok = (PetscBool)(rel <= 1e-12);

  PetscFunctionBeginUser;
  if (!ok) nfail++;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: PCApply within 1e-12 of PETSc's: %s\n", what, ok ? "yes" : "NO"));
  if (!ok) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  (relative difference %g)\n", (double)rel));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the PC under test, with the backend of -backend */
static PetscErrorCode CreateST(Mat A, const char *type, PetscInt levels, const char *ordering, PC *pc)
{
  char backend[32] = "serial", buf[32];

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-backend", backend, sizeof(backend), NULL));
  PetscCall(PCCreate(PETSC_COMM_SELF, pc));
  PetscCall(PCSetType(*pc, PCSUBTREEILU));
  PetscCall(PCSetOptionsPrefix(*pc, "st_"));
  PetscCall(PetscOptionsSetValue(NULL, "-st_pc_subtree_ilu_type", type));
  PetscCall(PetscSNPrintf(buf, sizeof(buf), "%" PetscInt_FMT, levels));
  PetscCall(PetscOptionsSetValue(NULL, "-st_pc_subtree_ilu_levels", buf));
  PetscCall(PetscOptionsSetValue(NULL, "-st_pc_subtree_ilu_mat_ordering_type", ordering));
  PetscCall(PetscOptionsSetValue(NULL, "-st_pc_subtree_ilu_backend", backend));
  PetscCall(PetscOptionsSetValue(NULL, "-st_pc_subtree_ilu_threads", "2"));
  PetscCall(PCSetOperators(*pc, A, A));
  PetscCall(PCSetFromOptions(*pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* max-norm relative difference of PCApply of st and of PETSc's PCILU/PCICC (same levels and ordering) on R */
static PetscErrorCode Compare(PC st, Mat R, const char *type, PetscInt levels, const char *ordering, PetscReal *rel)
{
  PC        ref;
  Vec       b, x, y;
  PetscReal na, nd;
  PetscBool icc;
  PetscInt  nb;

  PetscFunctionBeginUser;
  PetscCall(PetscStrcmp(type, "icc", &icc));
  PetscCall(PCCreate(PETSC_COMM_SELF, &ref));
  PetscCall(PCSetType(ref, icc ? PCICC : PCILU));
  PetscCall(PCFactorSetLevels(ref, levels));
  PetscCall(PCFactorSetMatOrderingType(ref, ordering));
  PetscCall(PCSetOperators(ref, R, R));
  PetscCall(PCSetUp(ref));
  PetscCall(PCSetUp(st));
  PetscCall(MatCreateVecs(R, &x, &b));
  PetscCall(VecDuplicate(x, &y));
  PetscCall(VecGetLocalSize(b, &nb));
  for (PetscInt i = 0; i < nb; i++) PetscCall(VecSetValue(b, i, 1.0 + (i % 7) * 0.25, INSERT_VALUES));
  PetscCall(VecAssemblyBegin(b));
  PetscCall(VecAssemblyEnd(b));
  PetscCall(PCApply(ref, b, x));
  PetscCall(PCApply(st, b, y));
  PetscCall(VecNorm(x, NORM_INFINITY, &na));
  PetscCall(VecAXPY(y, -1.0, x));
  PetscCall(VecNorm(y, NORM_INFINITY, &nd));
  *rel = (PetscIsInfOrNanReal(nd) || PetscIsInfOrNanReal(na)) ? PETSC_INFINITY : nd / (na > 0 ? na : 1);
  PetscCall(PCDestroy(&ref));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Compare() against PETSc's factorization of a SeqAIJ copy of M (M's own type may factor otherwise, e.g. SBAIJ) */
static PetscErrorCode CompareWithSeqAIJCopy(PC st, Mat M, const char *type, PetscInt levels, const char *ordering, PetscReal *rel)
{
  Mat R;

  PetscFunctionBeginUser;
  PetscCall(MatConvert(M, MATSEQAIJ, MAT_INITIAL_MATRIX, &R));
  PetscCall(Compare(st, R, type, levels, ordering, rel));
  PetscCall(MatDestroy(&R));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 1. block matrices with bs 2: a symmetric diagonally dominant pentadiagonal pattern in 2x2 blocks */
static PetscErrorCode TestBlockTypes(void)
{
  const char *types[][2] = {
    {MATSEQSBAIJ, "icc"},
    {MATSEQSBAIJ, "ilu"},
    {MATSEQBAIJ,  "ilu"},
  };

  PetscFunctionBeginUser;
  for (size_t k = 0; k < sizeof(types) / sizeof(types[0]); k++) {
    const PetscInt n = 40;
    Mat            A, S;
    PC             st;
    PetscReal      rel;
    char           what[128];

    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 6, NULL, &A));
    PetscCall(MatSetBlockSize(A, 2));
    for (PetscInt i = 0; i < n; i++)
      for (PetscInt j = PetscMax(0, 2 * (i / 2) - 2); j < PetscMin(n, 2 * (i / 2) + 4); j++) PetscCall(MatSetValue(A, i, j, i == j ? 10.0 + i % 3 : -1.0 / (1 + PetscAbsInt(i - j)), INSERT_VALUES));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
    PetscCall(MatConvert(A, types[k][0], MAT_INITIAL_MATRIX, &S));
    PetscCall(CreateST(S, types[k][1], 0, MATORDERINGNATURAL, &st));
    PetscCall(CompareWithSeqAIJCopy(st, S, types[k][1], 0, MATORDERINGNATURAL, &rel));
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s bs 2, %s(0), first setup", types[k][0], types[k][1]));
    PetscCall(Report(what, rel));
    for (PetscInt i = 0; i < n; i += 3) PetscCall(MatSetValue(S, i, i, 20.0 + i, INSERT_VALUES)); /* new values, same pattern */
    PetscCall(MatAssemblyBegin(S, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(S, MAT_FINAL_ASSEMBLY));
    PetscCall(CompareWithSeqAIJCopy(st, S, types[k][1], 0, MATORDERINGNATURAL, &rel));
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s bs 2, %s(0), new values on the same pattern", types[k][0], types[k][1]));
    PetscCall(Report(what, rel));
    PetscCall(PCDestroy(&st));
    PetscCall(MatDestroy(&S));
    PetscCall(MatDestroy(&A));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 2. pellr, new nonzeros added after the first setup (in rows with preallocated room, or reallocated) */
static PetscErrorCode TestPellrNewNonzeros(void)
{
  const PetscInt n = 40;
  PetscReal      worst = 0;
  PetscInt       same = 0;

  PetscFunctionBeginUser;
  for (PetscInt t = 0; t < 24; t++) {
    const char        *type = t < 12 ? "ilu" : "icc"; /* icc: a symmetric pattern, ICC(0)'s symbolic reads the diagonal positions */
    Mat                A0, P;
    PC                 st;
    PetscReal          rel;
    const PetscInt    *ai0, *ai1;
    const PetscScalar *aa0, *aa1;
    PetscInt           m;
    PetscBool          done;

    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, t % 2 ? 6 : 3, NULL, &A0)); /* odd trials: room for the new entries */
    for (PetscInt i = 0; i < n; i++) {
      PetscCall(MatSetValue(A0, i, i, 4.0, INSERT_VALUES));
      if (i > 0) PetscCall(MatSetValue(A0, i, i - 1, -1.0, INSERT_VALUES));
      if (i + 1 < n) PetscCall(MatSetValue(A0, i, i + 1, t < 12 ? -1.2 : -1.0, INSERT_VALUES));
    }
    PetscCall(MatAssemblyBegin(A0, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A0, MAT_FINAL_ASSEMBLY));
    PetscCall(MatConvert(A0, MATPELLR, MAT_INITIAL_MATRIX, &P));
    PetscCall(CreateST(P, type, t % 3, t % 4 < 2 ? MATORDERINGNATURAL : MATORDERINGRCM, &st));
    PetscCall(PCSetUp(st));
    PetscCall(MatGetRowIJ(P, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai0, NULL, &done));
    PetscCall(MatRestoreRowIJ(P, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai0, NULL, &done));
    PetscCall(MatSeqAIJGetArrayRead(P, &aa0));
    PetscCall(MatSeqAIJRestoreArrayRead(P, &aa0));
    PetscCall(MatSetOption(P, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
    for (PetscInt k = 0; k < 3; k++) {
      PetscInt i = (7 * k + 3 * t + 1) % n, j = (t % 2 ? i + n - 5 - k : i + 5 + k) % n;
      PetscCall(MatSetValue(P, i, j, 0.1, INSERT_VALUES));
      if (t >= 12) PetscCall(MatSetValue(P, j, i, 0.1, INSERT_VALUES));
    }
    PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
    PetscCall(MatGetRowIJ(P, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai1, NULL, &done));
    PetscCall(MatRestoreRowIJ(P, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai1, NULL, &done));
    PetscCall(MatSeqAIJGetArrayRead(P, &aa1));
    PetscCall(MatSeqAIJRestoreArrayRead(P, &aa1));
    if (ai0 == ai1 && aa0 == aa1) same++;
    PetscCall(CompareWithSeqAIJCopy(st, P, type, t % 3, t % 4 < 2 ? MATORDERINGNATURAL : MATORDERINGRCM, &rel));
    worst = PetscMax(worst, rel);
    PetscCall(PCDestroy(&st));
    PetscCall(MatDestroy(&P));
    PetscCall(MatDestroy(&A0));
  }
  PetscCall(PetscInfo(NULL, "pellr arrays at the first setup's addresses in %" PetscInt_FMT " of 24 trials\n", same));
  PetscCall(Report("pellr, new nonzeros after the first setup (24 trials, ILU(0-2) and ICC(0-2), natural and rcm)", worst));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 3. pellr without inodes (3 unknowns per node, dense couplings: inodes if allowed) against PCILU on the same matrix */
static PetscErrorCode TestPellrNoInodes(void)
{
  const PetscInt N = 6, dof = 3, n = N * N * dof;
  const char    *orderings[] = {MATORDERINGRCM, MATORDERINGND};
  Mat            A0, P;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 5 * dof, NULL, &A0));
  PetscCall(MatSetOption(A0, MAT_USE_INODES, PETSC_FALSE));
  for (PetscInt node = 0; node < N * N; node++) { /* a node coupled to itself and two pseudo-random nodes, dense blocks */
    PetscInt J[3] = {node, (node * 7919 + 13) % (N * N), (node * 104729 + 7) % (N * N)};
    for (PetscInt k = 0; k < 3; k++)
      for (PetscInt a = 0; a < dof; a++)
        for (PetscInt c = 0; c < dof; c++) {
          PetscInt r = node * dof + a, col = J[k] * dof + c;
          PetscCall(MatSetValue(A0, r, col, k == 0 ? (a == c ? 20.0 : 1.0) : -1.0 - 0.1 * a - 0.03 * c, ADD_VALUES));
        }
  }
  PetscCall(MatAssemblyBegin(A0, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A0, MAT_FINAL_ASSEMBLY));
  PetscCall(MatConvert(A0, MATPELLR, MAT_INITIAL_MATRIX, &P));
  for (PetscInt o = 0; o < 2; o++)
    for (PetscInt levels = 0; levels <= 2; levels++) {
      PC        st;
      PetscReal rel;
      char      what[128];

      PetscCall(CreateST(P, "ilu", levels, orderings[o], &st));
      PetscCall(Compare(st, P, "ilu", levels, orderings[o], &rel));
      PetscCall(PetscSNPrintf(what, sizeof(what), "pellr without inodes, ILU(%" PetscInt_FMT ") %s", levels, orderings[o]));
      PetscCall(Report(what, rel));
      PetscCall(PCDestroy(&st));
    }
  PetscCall(MatDestroy(&P));
  PetscCall(MatDestroy(&A0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 2b. pellr with inodes (3 unknowns per node of a 1D chain, dense couplings), then a new entry in one row of an inode
   (room preallocated: the arrays stay where they are), which ends that inode */
static PetscErrorCode TestPellrInodeBroken(void)
{
  const PetscInt N = 30, dof = 3, n = N * dof;
  const char    *types[] = {"ilu", "icc"};

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < 2; k++)
    for (PetscInt levels = 0; levels <= 1; levels++) {
      Mat       A0, P;
      PC        st;
      PetscReal rel;
      PetscInt  r0 = 3 * dof + 1, c0 = 7 * dof; /* row 10 (middle of node 3) gains a coupling to node 7 */
      char      what[128];

      PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 3 * dof + 2, NULL, &A0));
      for (PetscInt node = 0; node < N; node++)
        for (PetscInt nb = PetscMax(0, node - 1); nb <= PetscMin(N - 1, node + 1); nb++)
          for (PetscInt a = 0; a < dof; a++)
            for (PetscInt c = 0; c < dof; c++) PetscCall(MatSetValue(A0, node * dof + a, nb * dof + c, nb == node ? (a == c ? 12.0 : -1.0) : -1.0 - 0.1 * (a == c), INSERT_VALUES));
      PetscCall(MatAssemblyBegin(A0, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(A0, MAT_FINAL_ASSEMBLY));
      PetscCall(MatConvert(A0, MATPELLR, MAT_INITIAL_MATRIX, &P));
      PetscCall(CreateST(P, types[k], levels, MATORDERINGNATURAL, &st));
      PetscCall(PCSetUp(st));
      PetscCall(MatSetOption(P, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
      PetscCall(MatSetValue(P, r0, c0, -0.5, INSERT_VALUES));
      PetscCall(MatSetValue(P, c0, r0, -0.5, INSERT_VALUES)); /* symmetric, for ICC */
      PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
      PetscCall(CompareWithSeqAIJCopy(st, P, types[k], levels, MATORDERINGNATURAL, &rel));
      PetscCall(PetscSNPrintf(what, sizeof(what), "pellr with inodes, a new entry ending an inode, %s(%" PetscInt_FMT ")", types[k], levels));
      PetscCall(Report(what, rel));
        PetscCall(PCDestroy(&st));
      PetscCall(MatDestroy(&P));
      PetscCall(MatDestroy(&A0));
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 4. an empty block, ILU(1), the refactorization plan at the second setup */
static PetscErrorCode TestEmpty(void)
{
  Mat A;
  PC  st;
  Vec b, x;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 0, 0, 0, NULL, &A));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(CreateST(A, "ilu", 1, MATORDERINGNATURAL, &st));
  PetscCall(PetscOptionsSetValue(NULL, "-st_pc_subtree_ilu_refactor", "device"));
  PetscCall(PCSetFromOptions(st));
  PetscCall(PCSetUp(st));
  PetscCall(MatScale(A, 2.0)); /* new state, same (empty) pattern */
  PetscCall(PCSetUp(st));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(PCApply(st, b, x));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "empty block, ILU(1), refactorization: done\n"));
  PetscCall(PetscOptionsClearValue(NULL, "-st_pc_subtree_ilu_refactor"));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(PCDestroy(&st));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscSparseGPUInitializePackage());
  PetscCall(TestBlockTypes());
  PetscCall(TestPellrNewNonzeros());
  PetscCall(TestPellrInodeBroken());
  PetscCall(TestPellrNoInodes());
  PetscCall(TestEmpty());
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "failures: %" PetscInt_FMT "\n", nfail));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: serial
      args: -backend serial

   test:
      suffix: threads
      args: -backend threads
      output_file: output/subtreeilu6_serial.out

TEST*/
