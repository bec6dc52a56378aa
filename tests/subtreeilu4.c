static char help[] = "Numeric refactorization of PCSUBTREEILU (same nonzero pattern, new values) through its refactorization plan,\n\
against PETSc's own PCILU/PCICC of the new matrix (MATSOLVERPETSC on a SeqAIJ copy): PCApply, PCApplyTranspose and\n\
(icc) PCApplySymmetricLeft/Right must agree to 1e-12 relative. Rounds of new values per matrix:\n\
  1. A1 = 1.3 A + diag(0.1 (1 + i mod 5) (|a_ii| + 1))     (through the plan)\n\
  2. A1 with a zero diagonal: the first pivot is 0, the plan must leave the decision to PETSc (zero pivot error, or\n\
     PETSc's shifted factors with -shift_type nonzero/positive_definite): same failure or same results (to 1e-10)\n\
  3. A1 again (through the plan again)\n\
  -dir <path> -matrices <a,b,...> : Matrix Market files (see subtreeilu1.c; default: none)\n\
  -gen <2d|3d> -N <n1,n2,...> -conv <c> : generated Laplacians (N = 0 and 1 give n = 0 and 1)\n\
  -gen <hubs|random> -N <n1,...> -conv <c> : subtreeilu_test.h's 2D Laplacian with four hubs (rows and columns of\n\
                           N^2 - 1 entries: update steps with a hub's U row, and a hub row's many steps), or N^2 rows\n\
                           with random columns\n\
  -gen dense -N <n> -conv <c> : dense n x n (a refactorization plan's update map of about n/3 entries per factor entry:\n\
                           none is made from n of a few hundred, -expect petsc)\n\
  -gen chains -N <n> -conv <c> : tridiagonal, cut every 5000 rows into independent chains (of runs enough for several\n\
                           GPU tickets each: the refactorization plan's ticket rule)\n\
  -type <ilu|icc> -levels <k> -ordering <natural|rcm|...> -shift_type <none|nonzero|positive_definite>\n\
  -mtype <type>          : matrix type of the preconditioned matrix (default seqaij; e.g. seqaijcusparse)\n\
  -expect <plan|petsc>   : the path rounds 1 and 3 must take (default plan)\n\
  -nan_round             : also round 4, A1 with a NaN on the diagonal of its last row: the plan must leave it to\n\
                           PETSc's numeric factorization (path fallback where it expects the plan); both PCs fail\n\
                           alike or give non-finite values at the same entries and agree elsewhere (to 1e-10)\n\
  -view_lanes            : after round 1, the GPU refactorization's line of -pc_view (its lanes per chain)\n\
  -no_inode              : assemble the matrix without inodes (as aijcusparse is): its orderings are then computed on\n\
                           the uncompressed graph, and the reference must follow them\n\
The PC has the options prefix st_ (e.g. -st_pc_subtree_ilu_refactor device -st_pc_subtree_ilu_backend cuda).\n\n";

#include <petscsparsegpu.h>
#include <petscpc.h>
#include "mmio.h"
#include "subtreeilu_test.h"

typedef struct {
  char      type[16], ordering[64], shift[32], mtype[64], expect[16];
  PetscInt  levels;
  PetscBool shift_set, icc, nanround, viewlanes;
} Ctx;

/* which path the last numeric factorization of st took, from PCView(): plan, fallback, petsc, symbolic or failed;
   lanes (if not NULL): the view's line of the GPU refactorization, or "no GPU refactorization line" */
static PetscErrorCode LastPath(PC pc, char path[], size_t len, char lanes[], size_t llen)
{
  PetscViewer v;
  char       *text = NULL, *found;
  size_t      tlen = 0;
  FILE       *f;

  PetscFunctionBeginUser;
  f = open_memstream(&text, &tlen);
  PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_SYS, "open_memstream() failed");
  PetscCall(PetscViewerASCIIOpenWithFILE(PETSC_COMM_SELF, f, &v));
  PetscCall(PCView(pc, v));
  PetscCall(PetscViewerDestroy(&v));
  fclose(f);
  PetscCall(PetscStrncpy(path, "unknown", len));
  PetscCall(PetscStrstr(text, "last numeric factorization: ", &found));
  if (found) {
    found += strlen("last numeric factorization: ");
    if (!strncmp(found, "refactorization plan", 20)) PetscCall(PetscStrncpy(path, "plan", len));
    else if (strstr(found, "does not accept") && strstr(found, "does not accept") < strchr(found, '\n')) PetscCall(PetscStrncpy(path, "fallback", len));
    else if (!strncmp(found, "PETSc's numeric", 15)) PetscCall(PetscStrncpy(path, "petsc", len));
    else PetscCall(PetscStrncpy(path, "symbolic", len));
  } else {
    PetscCall(PetscStrstr(text, "factorization failed", &found));
    if (found) PetscCall(PetscStrncpy(path, "failed", len));
  }
  if (lanes) {
    PetscCall(PetscStrncpy(lanes, "no GPU refactorization line", llen));
    PetscCall(PetscStrstr(text, "GPU refactorization: ", &found));
    if (found) {
      char *end = strchr(found, '\n');

      if (end) *end = 0;
      PetscCall(PetscStrncpy(lanes, found, llen));
    }
  }
  free(text);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* max-norm relative difference of x (any vector type) from xref (host). same NULL: a non-finite difference makes it
   infinite; else only the entries finite in both count, and *same says whether the non-finite entries (some are
   required) are the same in both */
static PetscErrorCode RelDiff(Vec xref, Vec x, PetscReal *rel, PetscBool *same)
{
  const PetscScalar *a, *b;
  PetscInt           n, nbad = 0;
  PetscReal          nd = 0, na = 0;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(xref, &n));
  PetscCall(VecGetArrayRead(xref, &a));
  PetscCall(VecGetArrayRead(x, &b));
  if (same) *same = PETSC_TRUE;
  for (PetscInt i = 0; i < n; i++) {
    PetscReal d = PetscAbsScalar(a[i] - b[i]);

    if (same && (PetscIsInfOrNanScalar(a[i]) || PetscIsInfOrNanScalar(b[i]))) {
      if (PetscIsInfOrNanScalar(a[i]) != PetscIsInfOrNanScalar(b[i])) *same = PETSC_FALSE;
      nbad++;
      continue;
    }
    if (PetscIsInfOrNanReal(d)) nd = PETSC_INFINITY;
    else nd = PetscMax(nd, d);
    na = PetscMax(na, PetscAbsScalar(a[i]));
  }
  PetscCall(VecRestoreArrayRead(xref, &a));
  PetscCall(VecRestoreArrayRead(x, &b));
  if (same && !nbad) *same = PETSC_FALSE;
  *rel = nd / (na > 0 ? na : 1.0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CopyToVec(Vec from, Vec to)
{
  const PetscScalar *a;
  PetscScalar       *b;
  PetscInt           n;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(from, &n));
  PetscCall(VecGetArrayRead(from, &a));
  PetscCall(VecGetArrayWrite(to, &b));
  PetscCall(PetscArraycpy(b, a, n));
  PetscCall(VecRestoreArrayRead(from, &a));
  PetscCall(VecRestoreArrayWrite(to, &b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The reference is PETSc's PCILU/PCICC (MATSOLVERPETSC) of A as a SeqAIJ built anew from A's rows that uses inodes
   exactly when A does, with the ordering PETSc computes for A itself (MatGetOrdering(A, ...)). Both matter: a SeqAIJ
   finds inodes at assembly, while aijcusparse (not bound to the CPU) and a matrix assembled with -mat_no_inode use none;
   with inodes PETSc orders the inode-compressed graph (RCM of it differs on bcsstk17), and its inode factorization
   kernels rely on orderings that keep each inode's rows together, which an ordering of the full graph need not do
   (valgrind: reads past the value array). */
static IS givenRow, givenCol;

static PetscErrorCode MatGetOrdering_Given(Mat A, MatOrderingType type, IS *row, IS *col)
{
  PetscFunctionBeginUser;
  (void)A;
  (void)type;
  PetscCheck(givenRow && givenCol, PETSC_COMM_SELF, PETSC_ERR_ORDER, "No ordering given");
  PetscCall(ISDuplicate(givenRow, row));
  PetscCall(ISDuplicate(givenCol, col));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -mat_no_inode in the options database while matrices are created (set), then removed again (unset): those
   matrices use no inodes */
static PetscErrorCode NoInodes(PetscBool set)
{
  PetscFunctionBeginUser;
  if (set) PetscCall(PetscOptionsSetValue(NULL, "-mat_no_inode", "true"));
  else PetscCall(PetscOptionsClearValue(NULL, "-mat_no_inode"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a SeqAIJ built anew from A's rows (values as on the host after syncing) that uses inodes exactly when A does (A's
   ordering graph is inode-compressed) */
static PetscErrorCode FreshSeqAIJCopy(Mat A, Mat *B)
{
  PetscInt  m, n, *nnz, nnodes = 0;
  PetscBool done, inodes;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &m, &n));
  PetscCall(MatGetRowIJ(A, 0, PETSC_TRUE, PETSC_TRUE, &nnodes, NULL, NULL, &done));
  inodes = (PetscBool)(done && nnodes < m);
  PetscCall(PetscMalloc1(m, &nnz));
  for (PetscInt i = 0; i < m; i++) {
    PetscCall(MatGetRow(A, i, &nnz[i], NULL, NULL));
    PetscCall(MatRestoreRow(A, i, NULL, NULL, NULL));
  }
  PetscCall(MatCreate(PETSC_COMM_SELF, B));
  PetscCall(MatSetSizes(*B, m, n, m, n));
  if (!inodes) PetscCall(NoInodes(PETSC_TRUE));
  PetscCall(MatSetType(*B, MATSEQAIJ));
  if (!inodes) PetscCall(NoInodes(PETSC_FALSE));
  PetscCall(MatSeqAIJSetPreallocation(*B, 0, nnz));
  PetscCall(PetscFree(nnz));
  for (PetscInt i = 0; i < m; i++) {
    const PetscInt    *cols;
    const PetscScalar *vals;
    PetscInt           nc;

    PetscCall(MatGetRow(A, i, &nc, &cols, &vals));
    PetscCall(MatSetValues(*B, 1, &i, nc, cols, vals, INSERT_VALUES));
    PetscCall(MatRestoreRow(A, i, &nc, &cols, &vals));
  }
  PetscCall(MatAssemblyBegin(*B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*B, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's PCILU/PCICC of a SeqAIJ copy of A with A's own ordering, set up (errors caught: *ierr) */
static PetscErrorCode CreateRef(Mat A, Ctx *ctx, Mat *Acopy, PC *ref, PetscErrorCode *ierr)
{
  PetscFunctionBeginUser;
  PetscCall(FreshSeqAIJCopy(A, Acopy));
  PetscCall(ISDestroy(&givenRow));
  PetscCall(ISDestroy(&givenCol));
  PetscCall(MatGetOrdering(A, ctx->ordering, &givenRow, &givenCol));
  PetscCall(PCCreate(PETSC_COMM_SELF, ref));
  PetscCall(PCSetType(*ref, ctx->icc ? PCICC : PCILU));
  PetscCall(PCSetOperators(*ref, *Acopy, *Acopy));
  PetscCall(PCFactorSetMatSolverType(*ref, MATSOLVERPETSC));
  PetscCall(PCFactorSetLevels(*ref, ctx->levels));
  PetscCall(PCFactorSetMatOrderingType(*ref, "subtreeilu4_given"));
  if (ctx->shift_set) {
    PetscInt  s;
    PetscBool found;

    PetscCall(PetscEListFind(3, (const char *[]){"none", "nonzero", "positive_definite"}, ctx->shift, &s, &found));
    PetscCheck(found, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Unknown -shift_type %s", ctx->shift);
    PetscCall(PCFactorSetShiftType(*ref, (MatFactorShiftType)s));
  }
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  *ierr = PCSetUp(*ref);
  PetscCall(PetscPopErrorHandler());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* n rows, tridiagonal (1D convection-diffusion) except that row i is not coupled to row i-1 when i is a multiple of
   5000: chains of 5000 rows, each longer than a GPU ticket's runs (SUBTREEILU_REFACT_TICKET runs of at most 32 rows) */
static PetscErrorCode GenerateChains(PetscInt n, PetscReal conv, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 3, NULL, A));
  for (PetscInt r = 0; r < n; r++) {
    PetscCall(MatSetValue(*A, r, r, 2.5, INSERT_VALUES));
    if (r % 5000) {
      PetscCall(MatSetValue(*A, r, r - 1, -1.0 - conv, INSERT_VALUES));
      PetscCall(MatSetValue(*A, r - 1, r, -1.0 + conv, INSERT_VALUES));
    }
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* dense n x n, diagonally dominant, symmetric for conv = 0: a factor with about n^3/3 (ILU) or n^3/6 (ICC) updates, n/3 per
   entry, which is too many for a refactorization plan from n of a few hundred */
static PetscErrorCode GenerateDense(PetscInt n, PetscReal conv, Mat *A)
{
  PetscInt    *cols;
  PetscScalar *vals;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, n, NULL, A));
  PetscCall(PetscMalloc2(n, &cols, n, &vals));
  for (PetscInt r = 0; r < n; r++) {
    for (PetscInt c = 0; c < n; c++) {
      cols[c] = c;
      vals[c] = c == r ? 3.0 + 2.0 * PetscLogReal((PetscReal)n + 1) : -(c > r ? 1.0 + conv : 1.0) / (1.0 + PetscAbsInt(c - r));
    }
    PetscCall(MatSetValues(*A, 1, &r, n, cols, vals, INSERT_VALUES));
  }
  PetscCall(PetscFree2(cols, vals));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* st (already set up on A's current values, refactored) against PETSc's factorization of A's current values */
static PetscErrorCode CheckRound(const char name[], const char round[], Mat A, PC st, PetscErrorCode est, Ctx *ctx, const char expect[], PetscReal tol, PetscBool nonfinite)
{
  PC             ref;
  Mat            Acopy;
  PetscErrorCode eref = PETSC_SUCCESS;
  PCFailedReason rref = PC_NOERROR, rst = PC_NOERROR;
  char           path[32];

  PetscFunctionBeginUser;
  PetscCall(CreateRef(A, ctx, &Acopy, &ref, &eref));
  if (!eref) PetscCall(PCGetFailedReason(ref, &rref));
  if (!est) PetscCall(PCGetFailedReason(st, &rst));
  PetscCall(LastPath(st, path, sizeof(path), NULL, 0));
  if (eref || rref) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s %s: PETSc's factorization fails (%s); subtree_ilu fails alike: %s, path %s\n", name, round, eref ? "error" : PCFailedReasons[rref], (eref && est) || (!eref && !est && rref == rst) ? "yes" : "NO", path));
  } else if (est || rst) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s %s: PETSc factors it but subtree_ilu fails (%s): NO\n", name, round, est ? "error" : PCFailedReasons[rst]));
  } else {
    Vec         bref, xref, b, x;
    PetscRandom rnd;
    PetscReal   worst = 0, rel;
    PetscBool   pathok, same = PETSC_TRUE, s;
    const struct {
      const char *name;
      PetscErrorCode (*apply)(PC, Vec, Vec);
    } applies[] = {
      {"Apply",               PCApply              },
      {"ApplyTranspose",      PCApplyTranspose     },
      {"ApplySymmetricLeft",  PCApplySymmetricLeft },
      {"ApplySymmetricRight", PCApplySymmetricRight}
    };

    PetscCall(MatCreateVecs(Acopy, &xref, &bref));
    PetscCall(MatCreateVecs(A, &x, &b));
    PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
    PetscCall(PetscRandomSetSeed(rnd, 11));
    PetscCall(PetscRandomSeed(rnd));
    for (PetscInt trial = 0; trial < 2; trial++) {
      PetscCall(VecSetRandom(bref, rnd));
      PetscCall(CopyToVec(bref, b));
      /* the applies of both PCs (the symmetric ones only for ICC), each compared with PETSc's */
      for (PetscInt k = 0; k < (ctx->icc ? 4 : 2); k++) {
        if (nonfinite && k >= 2) continue; /* (PETSc's symmetric ICC applies refuse a pivot that is not real nonnegative
                                              with an error that leaves the input vector locked: not compared here) */
        PetscCall(applies[k].apply(ref, bref, xref));
        PetscCall(applies[k].apply(st, b, x));
        PetscCall(RelDiff(xref, x, &rel, nonfinite ? &s : NULL));
        if (nonfinite) same = (PetscBool)(same && s);
        worst = PetscMax(worst, rel);
        PetscCall(PetscInfo(st, "%s %s: %s rel. difference %g\n", name, round, applies[k].name, (double)rel));
      }
    }
    pathok = (PetscBool)!strcmp(path, expect);
    PetscCall(PetscInfo(st, "%s %s: path %s, max rel. difference %g\n", name, round, path, (double)worst));
    if (nonfinite) PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s %s: path %s%s, non-finite at the same entries: %s, max rel. difference elsewhere < %g: %s\n", name, round, path, pathok ? "" : " (UNEXPECTED)", same ? "yes" : "NO", (double)tol, worst < tol ? "yes" : "NO"));
    else PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s %s: path %s%s, max rel. difference < %g: %s\n", name, round, path, pathok ? "" : " (UNEXPECTED)", (double)tol, worst < tol ? "yes" : "NO"));
    PetscCall(PetscRandomDestroy(&rnd));
    PetscCall(VecDestroy(&bref));
    PetscCall(VecDestroy(&xref));
    PetscCall(VecDestroy(&b));
    PetscCall(VecDestroy(&x));
  }
  PetscCall(PCDestroy(&ref));
  PetscCall(MatDestroy(&Acopy));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TrySetUp(PC pc, PetscErrorCode *ierr)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  *ierr = PCSetUp(pc);
  PetscCall(PetscPopErrorHandler());
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Refactor(const char name[], Mat A, Ctx *ctx)
{
  PC             st;
  PetscErrorCode e = PETSC_SUCCESS;
  PCFailedReason r = PC_NOERROR;
  Vec            d, dz;
  PetscInt       n, rs;
  char           opt[64];

  PetscFunctionBeginUser;
  PetscCall(PCCreate(PETSC_COMM_SELF, &st));
  PetscCall(PCSetOptionsPrefix(st, "st_"));
  PetscCall(PCSetType(st, PCSUBTREEILU));
  PetscCall(PCSetOperators(st, A, A));
  PetscCall(PetscOptionsSetValue(NULL, "-st_pc_subtree_ilu_type", ctx->type));
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "%" PetscInt_FMT, ctx->levels));
  PetscCall(PetscOptionsSetValue(NULL, "-st_pc_subtree_ilu_levels", opt));
  PetscCall(PetscOptionsSetValue(NULL, "-st_pc_subtree_ilu_mat_ordering_type", ctx->ordering));
  if (ctx->shift_set) PetscCall(PetscOptionsSetValue(NULL, "-st_pc_subtree_ilu_shift_type", ctx->shift));
  PetscCall(PCSetFromOptions(st));
  PetscCall(TrySetUp(st, &e));
  if (!e) PetscCall(PCGetFailedReason(st, &r));
  if (e || r) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: the first factorization fails (%s): skipped\n", name, e ? "error" : PCFailedReasons[r]));
    PetscCall(PCDestroy(&st));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* round 1: A1 = 1.3 A + diag(0.1 (1 + i mod 5) (|a_ii| + 1)): same pattern */
  PetscCall(MatCreateVecs(A, &d, NULL));
  PetscCall(MatGetDiagonal(A, d));
  PetscCall(VecGetLocalSize(d, &n));
  PetscCall(VecGetOwnershipRange(d, &rs, NULL));
  {
    PetscScalar *a;

    PetscCall(VecGetArray(d, &a));
    for (PetscInt i = 0; i < n; i++) a[i] = 0.1 * (1 + (rs + i) % 5) * (PetscAbsScalar(a[i]) + 1.0);
    PetscCall(VecRestoreArray(d, &a));
  }
  PetscCall(MatScale(A, 1.3));
  PetscCall(MatDiagonalSet(A, d, ADD_VALUES));
  PetscCall(TrySetUp(st, &e));
  PetscCall(CheckRound(name, "round 1 (new values)", A, st, e, ctx, ctx->expect, 1e-12, PETSC_FALSE));
  if (ctx->viewlanes) {
    char path[32], lanes[256];

    PetscCall(LastPath(st, path, sizeof(path), lanes, sizeof(lanes)));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s round 1: %s\n", name, lanes));
  }

  /* round 2: zero diagonal (stored zeros: same pattern) */
  PetscCall(MatGetDiagonal(A, d));
  PetscCall(VecDuplicate(d, &dz));
  PetscCall(VecSet(dz, 0.0));
  PetscCall(MatDiagonalSet(A, dz, INSERT_VALUES));
  PetscCall(TrySetUp(st, &e));
  /* the factors are then PETSc's own (fallback): the solves' rounding differences, amplified by the shifted pivots
     (multipliers up to 1/shift), may exceed 1e-12 (as in subtreeilu1's shift tests) */
  PetscCall(CheckRound(name, "round 2 (zero diagonal)", A, st, e, ctx, !strcmp(ctx->expect, "plan") && n > 0 ? "fallback" : ctx->expect, 1e-10, PETSC_FALSE));

  /* round 3: back to A1 */
  PetscCall(MatDiagonalSet(A, d, INSERT_VALUES));
  PetscCall(TrySetUp(st, &e));
  PetscCall(CheckRound(name, "round 3 (A1 again)", A, st, e, ctx, ctx->expect, 1e-12, PETSC_FALSE));

  /* round 4 (-nan_round): a NaN pivot, which PETSc's pivot check lets through (a NaN compares false) */
  if (ctx->nanround && n > 0) {
    PetscCall(MatSetValue(A, rs + n - 1, rs + n - 1, (PetscScalar)NAN, INSERT_VALUES));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    PetscCall(TrySetUp(st, &e));
    PetscCall(CheckRound(name, "round 4 (a NaN pivot)", A, st, e, ctx, !strcmp(ctx->expect, "plan") ? "fallback" : ctx->expect, 1e-10, PETSC_TRUE));
  }
  PetscCall(VecDestroy(&d));
  PetscCall(VecDestroy(&dz));
  PetscCall(PCDestroy(&st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char      dir[PETSC_MAX_PATH_LEN] = "../../shared/matrices", *names[64], gen[8] = "";
  PetscInt  nnames = 64, Ns[16] = {20}, nN = 16;
  PetscReal conv = 0.0;
  PetscBool flg;
  Ctx       ctx = {"ilu", "natural", "", MATSEQAIJ, "plan", 0, PETSC_FALSE, PETSC_FALSE};
  PetscBool noinode = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscSparseGPUInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-dir", dir, sizeof(dir), &flg));
  if (!flg) PetscCall(MMDefaultDirectory(dir, sizeof(dir)));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type", ctx.type, sizeof(ctx.type), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-ordering", ctx.ordering, sizeof(ctx.ordering), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-shift_type", ctx.shift, sizeof(ctx.shift), &ctx.shift_set));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mtype", ctx.mtype, sizeof(ctx.mtype), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-expect", ctx.expect, sizeof(ctx.expect), NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-nan_round", &ctx.nanround, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-view_lanes", &ctx.viewlanes, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-levels", &ctx.levels, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-gen", gen, sizeof(gen), NULL));
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, "-N", Ns, &nN, &flg));
  if (!flg) nN = 1;
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-conv", &conv, NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-matrices", names, &nnames, &flg));
  if (!flg) nnames = 0;
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-no_inode", &noinode, NULL));
  PetscCall(PetscStrcmp(ctx.type, "icc", &ctx.icc));
  PetscCall(MatOrderingRegister("subtreeilu4_given", MatGetOrdering_Given));
  for (PetscInt i = 0; i < nnames; i++) {
    char       path[PETSC_MAX_PATH_LEN];
    Mat        A;
    MMTriplets t;
    PetscBool  sym;

    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s.mtx.gz", dir, names[i]));
    PetscCall(MMRead(path, PETSC_TRUE, &t));
    if (noinode) PetscCall(NoInodes(PETSC_TRUE));
    PetscCall(MMTripletsAssemble(PETSC_COMM_SELF, &t, ctx.mtype, PETSC_FALSE, &A));
    if (noinode) PetscCall(NoInodes(PETSC_FALSE));
    sym = (PetscBool)(t.symmetric && !t.skew);
    PetscCall(MMTripletsDestroy(&t));
    if (ctx.icc && !sym) PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: not symmetric: icc skipped\n", names[i]));
    else PetscCall(Refactor(names[i], A, &ctx));
    PetscCall(MatDestroy(&A));
    PetscCall(PetscFree(names[i]));
  }
  if (gen[0]) {
    for (PetscInt k = 0; k < nN; k++) {
      Mat      A, B;
      char     name[64];
      PetscInt n;

      if (!strcmp(gen, "chains")) PetscCall(GenerateChains(Ns[k], conv, &A));
      else if (!strcmp(gen, "dense")) PetscCall(GenerateDense(Ns[k], conv, &A));
      else if (!strcmp(gen, "hubs")) PetscCall(SubtreeILUGenerateHubs(Ns[k], conv, &A));
      else if (!strcmp(gen, "random")) PetscCall(SubtreeILUGenerateRandom(Ns[k], conv, &A));
      else PetscCall(SubtreeILUGenerateLaplacian(PETSC_COMM_SELF, !strcmp(gen, "3d") ? 3 : 2, Ns[k], conv, &A));
      if (noinode) PetscCall(NoInodes(PETSC_TRUE));
      PetscCall(MatConvert(A, ctx.mtype, MAT_INITIAL_MATRIX, &B));
      if (noinode) PetscCall(NoInodes(PETSC_FALSE));
      PetscCall(MatGetSize(B, &n, NULL));
      PetscCall(PetscSNPrintf(name, sizeof(name), "%s N=%" PetscInt_FMT " (n=%" PetscInt_FMT ")", gen, Ns[k], n));
      PetscCall(Refactor(name, B, &ctx));
      PetscCall(MatDestroy(&A));
      PetscCall(MatDestroy(&B));
    }
  }
  PetscCall(ISDestroy(&givenRow));
  PetscCall(ISDestroy(&givenCol));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: ilu0
      args: -type ilu -levels 0 -gen 2d -N 0,1,12 -conv 0.3 -matrices sherman1,jpwh_991,pde900 -st_pc_subtree_ilu_refactor device

   # a NaN pivot (round 4): the plan's check of non-finite values hands the factorization to PETSc
   test:
      suffix: nan_ilu0
      args: -type ilu -levels 0 -gen 2d -N 1,12 -conv 0.3 -matrices sherman1 -st_pc_subtree_ilu_refactor device -nan_round

   test:
      suffix: nan_ilu0_nonzero
      args: -type ilu -levels 0 -shift_type nonzero -gen 2d -N 12 -matrices jpwh_991 -st_pc_subtree_ilu_refactor device -nan_round

   test:
      suffix: nan_icc1_rcm
      args: -type icc -levels 1 -ordering rcm -gen 3d -N 6 -matrices bcsstk05 -st_pc_subtree_ilu_refactor device -nan_round

   # the same on the threads backend (its chunked solves with a NaN in the factor)
   test:
      suffix: nan_ilu0_threads
      args: -type ilu -levels 0 -gen 2d -N 1,12 -conv 0.3 -matrices sherman1 -st_pc_subtree_ilu_refactor device -st_pc_subtree_ilu_backend threads -st_pc_subtree_ilu_threads 2 -nan_round
      output_file: output/subtreeilu4_nan_ilu0.out

   test:
      suffix: nan_icc1_rcm_threads
      args: -type icc -levels 1 -ordering rcm -gen 3d -N 6 -matrices bcsstk05 -st_pc_subtree_ilu_refactor device -st_pc_subtree_ilu_backend threads -st_pc_subtree_ilu_threads 2 -nan_round
      output_file: output/subtreeilu4_nan_icc1_rcm.out

   # -pc_view's line of the GPU refactorization: its lanes per chain, chosen automatically (a small grid: 32) or asked
   test:
      suffix: view_lanes_cpu
      args: -type ilu -levels 0 -ordering rcm -gen 3d -N 12 -st_pc_subtree_ilu_refactor device -view_lanes

   test:
      suffix: cuda_view_lanes_auto
      requires: cuda
      args: -type ilu -levels 0 -ordering rcm -gen 3d -N 12 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -view_lanes

   test:
      suffix: cuda_view_lanes_8
      requires: cuda
      args: -type ilu -levels 0 -ordering rcm -gen 3d -N 12 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_refactor_lanes 8 -view_lanes

   test:
      suffix: cuda_nan_ilu0
      requires: cuda
      args: -type ilu -levels 0 -gen 2d -N 1,12 -conv 0.3 -matrices sherman1 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -nan_round
      output_file: output/subtreeilu4_nan_ilu0.out

   test:
      suffix: cuda_nan_icc1_rcm
      requires: cuda
      args: -type icc -levels 1 -ordering rcm -gen 3d -N 6 -matrices bcsstk05 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -nan_round
      output_file: output/subtreeilu4_nan_icc1_rcm.out

   test:
      suffix: ilu1_rcm
      args: -type ilu -levels 1 -ordering rcm -gen 3d -N 6 -conv 0.2 -matrices sherman3,orsirr_1 -st_pc_subtree_ilu_refactor device

   test:
      suffix: ilu1_natural
      args: -type ilu -levels 1 -gen 2d -N 1,15 -conv 0.2 -matrices watt_2,bcsstk13 -st_pc_subtree_ilu_refactor device

   test:
      suffix: ilu0_rcm_nonzero
      args: -type ilu -levels 0 -ordering rcm -shift_type nonzero -gen 2d -N 12 -matrices jpwh_991,add32 -st_pc_subtree_ilu_refactor device

   test:
      suffix: icc0
      args: -type icc -levels 0 -gen 2d -N 0,1,14 -matrices bcsstk13,1138_bus,bcsstk05 -st_pc_subtree_ilu_refactor device

   test:
      suffix: icc1_rcm
      args: -type icc -levels 1 -ordering rcm -gen 3d -N 6 -matrices bcsstk17,494_bus -st_pc_subtree_ilu_refactor device

   test:
      suffix: icc1_rcm_noinode
      args: -type icc -levels 1 -ordering rcm -gen 3d -N 6 -matrices bcsstk17,494_bus -st_pc_subtree_ilu_refactor device -no_inode
      output_file: output/subtreeilu4_icc1_rcm.out

   test:
      suffix: ilu1_rcm_noinode
      args: -type ilu -levels 1 -ordering rcm -matrices bcsstk17 -st_pc_subtree_ilu_refactor device -no_inode

   test:
      suffix: ilu1_rcm_pellr_noinode
      args: -type ilu -levels 1 -ordering rcm -matrices bcsstk17 -st_pc_subtree_ilu_refactor device -no_inode -mtype pellr
      output_file: output/subtreeilu4_ilu1_rcm_noinode.out

   test:
      suffix: icc1_rcm_pellr_noinode
      args: -type icc -levels 1 -ordering rcm -gen 3d -N 6 -matrices bcsstk17,494_bus -st_pc_subtree_ilu_refactor device -no_inode -mtype pellr
      output_file: output/subtreeilu4_icc1_rcm.out

   test:
      suffix: icc1_natural_none
      args: -type icc -levels 1 -shift_type none -gen 2d -N 13 -matrices bcsstk13 -st_pc_subtree_ilu_refactor device

   test:
      suffix: ilu1_rcm_global
      args: -type ilu -levels 1 -ordering rcm -gen 3d -N 6 -conv 0.2 -matrices sherman3,orsirr_1 -st_pc_subtree_ilu_refactor device -st_pc_subtree_ilu_refactor_buffer 0
      output_file: output/subtreeilu4_ilu1_rcm.out

   test:
      suffix: ilu1_natural_smallbuffer
      args: -type ilu -levels 1 -gen 2d -N 1,15 -conv 0.2 -matrices watt_2,bcsstk13 -st_pc_subtree_ilu_refactor device -st_pc_subtree_ilu_refactor_buffer 40
      output_file: output/subtreeilu4_ilu1_natural.out

   test:
      suffix: icc0_smallbuffer
      args: -type icc -levels 0 -gen 2d -N 0,1,14 -matrices bcsstk13,1138_bus,bcsstk05 -st_pc_subtree_ilu_refactor device -st_pc_subtree_ilu_refactor_buffer 30
      output_file: output/subtreeilu4_icc0.out

   test:
      suffix: icc1_rcm_global
      args: -type icc -levels 1 -ordering rcm -gen 3d -N 6 -matrices bcsstk17,494_bus -st_pc_subtree_ilu_refactor device -st_pc_subtree_ilu_refactor_buffer 0
      output_file: output/subtreeilu4_icc1_rcm.out

   test:
      suffix: ilu0_threads
      args: -type ilu -levels 0 -gen 3d -N 8 -conv 0.1 -st_pc_subtree_ilu_refactor device -st_pc_subtree_ilu_backend threads -st_pc_subtree_ilu_threads 2

   # the plan made by 5 setup threads (ranges of at least 16384 rows: several ranges on these grids)
   test:
      suffix: ilu0_setup_threads
      args: -type ilu -levels 0 -gen 2d -N 300 -conv 0.3 -st_pc_subtree_ilu_refactor device -st_pc_subtree_ilu_setup_threads 5 -st_pc_subtree_ilu_plan_check

   test:
      suffix: ilu1_rcm_setup_threads
      args: -type ilu -levels 1 -ordering rcm -gen 3d -N 40 -conv 0.2 -st_pc_subtree_ilu_refactor device -st_pc_subtree_ilu_setup_threads 5 -st_pc_subtree_ilu_plan_check

   test:
      suffix: icc1_setup_threads
      args: -type icc -levels 1 -gen 2d -N 300 -st_pc_subtree_ilu_refactor device -st_pc_subtree_ilu_setup_threads 5 -st_pc_subtree_ilu_plan_check

   test:
      suffix: icc0_rcm_setup_threads
      args: -type icc -levels 0 -ordering rcm -gen 3d -N 40 -st_pc_subtree_ilu_refactor device -st_pc_subtree_ilu_setup_threads 5 -st_pc_subtree_ilu_plan_check

   # ICC's contribution order by ranges of columns, some deferred to the calling thread (ties across ranges)
   test:
      suffix: icc2_rcm_setup_threads
      args: -type icc -levels 2 -ordering rcm -gen 3d -N 40 -st_pc_subtree_ilu_refactor device -st_pc_subtree_ilu_setup_threads 5 -st_pc_subtree_ilu_plan_check

   test:
      suffix: icc1_3d_setup_threads
      args: -type icc -levels 1 -gen 3d -N 40 -st_pc_subtree_ilu_refactor device -st_pc_subtree_ilu_setup_threads 5 -st_pc_subtree_ilu_plan_check

   test:
      suffix: chains_setup_threads
      args: -type ilu -levels 0 -gen chains -N 100000 -conv 0.2 -st_pc_subtree_ilu_refactor device -st_pc_subtree_ilu_setup_threads 5 -st_pc_subtree_ilu_plan_check

   test:
      suffix: icc_chains_setup_threads
      args: -type icc -levels 1 -gen chains -N 100000 -st_pc_subtree_ilu_refactor device -st_pc_subtree_ilu_setup_threads 5 -st_pc_subtree_ilu_plan_check

   test:
      suffix: cuda_chains_setup_threads
      requires: cuda
      args: -type ilu -levels 0 -gen chains -N 100000 -conv 0.2 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_setup_threads 5 -st_pc_subtree_ilu_plan_check
      output_file: output/subtreeilu4_chains_setup_threads.out

   test:
      suffix: cuda_ilu1_rcm_setup_threads
      requires: cuda
      args: -type ilu -levels 1 -ordering rcm -gen 3d -N 40 -conv 0.2 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_setup_threads 5 -st_pc_subtree_ilu_plan_check
      output_file: output/subtreeilu4_ilu1_rcm_setup_threads.out

   test:
      suffix: cuda_icc1_setup_threads
      requires: cuda
      args: -type icc -levels 1 -gen 2d -N 300 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_setup_threads 5 -st_pc_subtree_ilu_plan_check
      output_file: output/subtreeilu4_icc1_setup_threads.out

   test:
      suffix: ilu0_hubs
      args: -type ilu -levels 0 -gen hubs -N 1,2,24 -conv 0.3 -st_pc_subtree_ilu_refactor device -st_pc_subtree_ilu_setup_threads 3 -st_pc_subtree_ilu_plan_check

   test:
      suffix: ilu0_random_rcm
      args: -type ilu -levels 0 -ordering rcm -gen random -N 30 -conv 0.3 -st_pc_subtree_ilu_refactor device -st_pc_subtree_ilu_refactor_buffer 40

   test:
      suffix: ilu1_hubs
      args: -type ilu -levels 1 -gen hubs -N 12 -conv 0.3 -st_pc_subtree_ilu_refactor device

   test:
      suffix: icc0_hubs
      args: -type icc -levels 0 -gen hubs -N 24 -st_pc_subtree_ilu_refactor device -st_pc_subtree_ilu_setup_threads 3 -st_pc_subtree_ilu_plan_check

   test:
      suffix: icc1_hubs_rcm
      args: -type icc -levels 1 -ordering rcm -gen hubs -N 12 -st_pc_subtree_ilu_refactor device -st_pc_subtree_ilu_refactor_buffer 0

   test:
      suffix: cuda_ilu0_hubs
      requires: cuda
      args: -type ilu -levels 0 -gen hubs -N 1,2,24 -conv 0.3 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda
      output_file: output/subtreeilu4_ilu0_hubs.out

   test:
      suffix: cuda_icc0_hubs
      requires: cuda
      args: -type icc -levels 0 -gen hubs -N 24 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda
      output_file: output/subtreeilu4_icc0_hubs.out

   test:
      suffix: cuda_ilu1_hubs
      requires: cuda
      args: -type ilu -levels 1 -gen hubs -N 12 -conv 0.3 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda
      output_file: output/subtreeilu4_ilu1_hubs.out

   test:
      suffix: cuda_icc1_hubs_rcm
      requires: cuda
      args: -type icc -levels 1 -ordering rcm -gen hubs -N 12 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_refactor_buffer 0
      output_file: output/subtreeilu4_icc1_hubs_rcm.out

   test:
      suffix: cuda_ilu0_random_rcm
      requires: cuda
      args: -type ilu -levels 0 -ordering rcm -gen random -N 30 -conv 0.3 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_refactor_buffer 40
      output_file: output/subtreeilu4_ilu0_random_rcm.out

   test:
      suffix: ilu0_pellr
      args: -type ilu -levels 0 -gen 2d -N 9 -conv 0.1 -mtype pellr -st_pc_subtree_ilu_refactor device

   test:
      suffix: icc0_pellr
      args: -type icc -levels 0 -gen 2d -N 0,1,14 -matrices bcsstk13,1138_bus,bcsstk05 -mtype pellr -st_pc_subtree_ilu_refactor device
      output_file: output/subtreeilu4_icc0.out

   test:
      suffix: cuda_icc0_pellrcuda
      requires: cuda
      args: -type icc -levels 0 -gen 2d -N 0,1,14 -matrices bcsstk13,1138_bus,bcsstk05 -mtype pellrcuda -st_pc_subtree_ilu_backend cuda
      output_file: output/subtreeilu4_icc0.out

   test:
      suffix: cuda_ilu1_pellrcuda
      requires: cuda
      args: -type ilu -levels 1 -gen 2d -N 1,15 -conv 0.2 -matrices watt_2,bcsstk13 -mtype pellrcuda -st_pc_subtree_ilu_backend cuda
      output_file: output/subtreeilu4_ilu1_natural.out

   test:
      suffix: petsc
      args: -type ilu -levels 0 -gen 2d -N 10 -expect petsc

   test:
      suffix: dense_plan
      args: -type ilu -levels 0 -gen dense -N 60 -conv 0.2 -st_pc_subtree_ilu_refactor device

   test:
      suffix: dense_noplan
      args: -type {{ilu icc}separate output} -levels 0 -gen dense -N 560 -st_pc_subtree_ilu_refactor device -expect petsc

   test:
      suffix: cuda_dense_noplan
      requires: cuda
      args: -type ilu -levels 0 -gen dense -N 560 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -expect petsc
      output_file: output/subtreeilu4_dense_noplan_ilu.out

   test:
      suffix: cuda_ilu0
      requires: cuda
      args: -type ilu -levels 0 -gen 2d -N 0,1,12 -conv 0.3 -matrices sherman1,jpwh_991,pde900 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda
      output_file: output/subtreeilu4_ilu0.out

   test:
      suffix: cuda_ilu1_rcm
      requires: cuda
      args: -type ilu -levels 1 -ordering rcm -gen 3d -N 6 -conv 0.2 -matrices sherman3,orsirr_1 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda
      output_file: output/subtreeilu4_ilu1_rcm.out

   test:
      suffix: cuda_ilu1_natural_hostmat
      requires: cuda
      args: -type ilu -levels 1 -gen 2d -N 1,15 -conv 0.2 -matrices watt_2,bcsstk13 -st_pc_subtree_ilu_backend cuda
      output_file: output/subtreeilu4_ilu1_natural.out

   test:
      suffix: cuda_ilu0_rcm_nonzero
      requires: cuda
      args: -type ilu -levels 0 -ordering rcm -shift_type nonzero -gen 2d -N 12 -matrices jpwh_991,add32 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda
      output_file: output/subtreeilu4_ilu0_rcm_nonzero.out

   test:
      suffix: cuda_icc0
      requires: cuda
      args: -type icc -levels 0 -gen 2d -N 0,1,14 -matrices bcsstk13,1138_bus,bcsstk05 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda
      output_file: output/subtreeilu4_icc0.out

   test:
      suffix: cuda_icc1_rcm
      requires: cuda
      args: -type icc -levels 1 -ordering rcm -gen 3d -N 6 -matrices bcsstk17,494_bus -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda
      output_file: output/subtreeilu4_icc1_rcm.out

   test:
      suffix: cuda_icc1_natural_none
      requires: cuda
      args: -type icc -levels 1 -shift_type none -gen 2d -N 13 -matrices bcsstk13 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda
      output_file: output/subtreeilu4_icc1_natural_none.out

   test:
      suffix: cuda_ilu1_rcm_global
      requires: cuda
      args: -type ilu -levels 1 -ordering rcm -gen 3d -N 6 -conv 0.2 -matrices sherman3,orsirr_1 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_refactor_buffer 0
      output_file: output/subtreeilu4_ilu1_rcm.out

   test:
      suffix: cuda_icc0_smallbuffer
      requires: cuda
      args: -type icc -levels 0 -gen 2d -N 0,1,14 -matrices bcsstk13,1138_bus,bcsstk05 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_refactor_buffer 30
      output_file: output/subtreeilu4_icc0.out

   test:
      suffix: cuda_ilu0_big
      requires: cuda
      args: -type ilu -levels 0 -gen 2d -N 300 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda

   test:
      suffix: cuda_icc0_big
      requires: cuda
      args: -type icc -levels 0 -gen 3d -N 40 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda

   test:
      suffix: cuda_ilu1_rcm_oneblock
      requires: cuda
      args: -type ilu -levels 1 -ordering rcm -gen 3d -N 6 -conv 0.2 -matrices sherman3,orsirr_1 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_blocks_per_sm 1
      output_file: output/subtreeilu4_ilu1_rcm.out

   test:
      suffix: cuda_icc0_big_twoblocks
      requires: cuda
      args: -type icc -levels 0 -gen 3d -N 40 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_blocks_per_sm 2
      output_file: output/subtreeilu4_cuda_icc0_big.out

   # the GPU refactorization's tickets by level of their DAG (the default) and in index order, on a 3D grid (where the
   # orders differ most) and with fill
   test:
      suffix: cuda_ilu1_3d_big
      requires: cuda
      args: -type ilu -levels 1 -gen 3d -N 30 -conv 0.2 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda

   test:
      suffix: cuda_ilu1_3d_big_index_order
      requires: cuda
      args: -type ilu -levels 1 -gen 3d -N 30 -conv 0.2 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_refactor_level_order 0
      output_file: output/subtreeilu4_cuda_ilu1_3d_big.out

   test:
      suffix: cuda_icc0_big_index_order
      requires: cuda
      args: -type icc -levels 0 -gen 3d -N 40 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_refactor_level_order 0
      output_file: output/subtreeilu4_cuda_icc0_big.out

   # several chains a warp (-pc_subtree_ilu_cuda_refactor_lanes 16 or 8: bundles of tickets of one level in lockstep):
   # grids (rows of at most 8 entries a step: every row on the fast path), real matrices with longer rows (a step's
   # entries several per lane, the shuffled row sums of a shift), the general path (buffer 0, a tiny buffer), one
   # block a multiprocessor, fill; the index order ignores the option (a warp a chain)
   test:
      suffix: cuda_lanes_ilu0
      requires: cuda
      args: -type ilu -levels 0 -gen 2d -N 0,1,12 -conv 0.3 -matrices sherman1,jpwh_991,pde900 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_refactor_lanes {{16 8}shared output}
      output_file: output/subtreeilu4_ilu0.out

   test:
      suffix: cuda_lanes_icc0
      requires: cuda
      args: -type icc -levels 0 -gen 2d -N 0,1,14 -matrices bcsstk13,1138_bus,bcsstk05 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_refactor_lanes {{16 8}shared output}
      output_file: output/subtreeilu4_icc0.out

   test:
      suffix: cuda_lanes_icc1_rcm
      requires: cuda
      args: -type icc -levels 1 -ordering rcm -gen 3d -N 6 -matrices bcsstk17,494_bus -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_refactor_lanes {{16 8}shared output}
      output_file: output/subtreeilu4_icc1_rcm.out

   test:
      suffix: cuda_lanes_ilu0_rcm_nonzero
      requires: cuda
      args: -type ilu -levels 0 -ordering rcm -shift_type nonzero -gen 2d -N 12 -matrices jpwh_991,add32 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_refactor_lanes 8
      output_file: output/subtreeilu4_ilu0_rcm_nonzero.out

   test:
      suffix: cuda_lanes_icc1_natural_none
      requires: cuda
      args: -type icc -levels 1 -shift_type none -gen 2d -N 13 -matrices bcsstk13 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_refactor_lanes 16
      output_file: output/subtreeilu4_icc1_natural_none.out

   test:
      suffix: cuda_lanes_ilu1_rcm_global
      requires: cuda
      args: -type ilu -levels 1 -ordering rcm -gen 3d -N 6 -conv 0.2 -matrices sherman3,orsirr_1 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_refactor_buffer 0 -st_pc_subtree_ilu_cuda_refactor_lanes 8
      output_file: output/subtreeilu4_ilu1_rcm.out

   test:
      suffix: cuda_lanes_icc0_smallbuffer
      requires: cuda
      args: -type icc -levels 0 -gen 2d -N 0,1,14 -matrices bcsstk13,1138_bus,bcsstk05 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_refactor_buffer 30 -st_pc_subtree_ilu_cuda_refactor_lanes 8
      output_file: output/subtreeilu4_icc0.out

   test:
      suffix: cuda_lanes_ilu1_rcm_oneblock
      requires: cuda
      args: -type ilu -levels 1 -ordering rcm -gen 3d -N 6 -conv 0.2 -matrices sherman3,orsirr_1 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_blocks_per_sm 1 -st_pc_subtree_ilu_cuda_refactor_lanes 8
      output_file: output/subtreeilu4_ilu1_rcm.out

   test:
      suffix: cuda_lanes_ilu0_big
      requires: cuda
      args: -type ilu -levels 0 -gen 2d -N 300 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_refactor_lanes {{16 8}shared output}
      output_file: output/subtreeilu4_cuda_ilu0_big.out

   test:
      suffix: cuda_lanes_icc0_big
      requires: cuda
      args: -type icc -levels 0 -gen 3d -N 40 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_refactor_lanes {{16 8}shared output}
      output_file: output/subtreeilu4_cuda_icc0_big.out

   test:
      suffix: cuda_lanes_ilu1_3d_big
      requires: cuda
      args: -type ilu -levels 1 -gen 3d -N 30 -conv 0.2 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_refactor_lanes {{16 8}shared output}
      output_file: output/subtreeilu4_cuda_ilu1_3d_big.out

   test:
      suffix: cuda_lanes_icc0_big_index_order
      requires: cuda
      args: -type icc -levels 0 -gen 3d -N 40 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_refactor_level_order 0 -st_pc_subtree_ilu_cuda_refactor_lanes 8
      output_file: output/subtreeilu4_cuda_icc0_big.out

   test:
      suffix: cuda_ilu1_natural_no_cutlate
      requires: cuda
      args: -type ilu -levels 1 -gen 2d -N 1,15 -conv 0.2 -matrices watt_2,bcsstk13 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_cut_late 0
      output_file: output/subtreeilu4_ilu1_natural.out

   test:
      suffix: cuda_ilu1_rcm_no_cutlate
      requires: cuda
      args: -type ilu -levels 1 -ordering rcm -gen 3d -N 6 -conv 0.2 -matrices sherman3,orsirr_1 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_cut_late 0
      output_file: output/subtreeilu4_ilu1_rcm.out

   test:
      suffix: cuda_petsc
      requires: cuda
      args: -type ilu -levels 0 -gen 2d -N 10 -expect petsc -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_refactor petsc
      output_file: output/subtreeilu4_petsc.out

   # the first factorization by the plan on the GPU, then the rounds' refactorizations from the same plan
   test:
      suffix: cuda_first_ilu0
      requires: cuda
      args: -type ilu -levels 0 -gen 2d -N 0,1,12 -conv 0.3 -matrices sherman1,jpwh_991,pde900 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_first_factorization device
      output_file: output/subtreeilu4_ilu0.out

   test:
      suffix: cuda_first_icc1_rcm
      requires: cuda
      args: -type icc -levels 1 -ordering rcm -gen 3d -N 6 -matrices bcsstk17,494_bus -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_first_factorization device
      output_file: output/subtreeilu4_icc1_rcm.out

   test:
      suffix: cuda_first_ilu0_hubs
      requires: cuda
      args: -type ilu -levels 0 -gen hubs -N 1,2,24 -conv 0.3 -mtype seqaijcusparse -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_first_factorization device
      output_file: output/subtreeilu4_ilu0_hubs.out

TEST*/
