static char help[] = "Incomplete factorization preconditioner benchmark (bench/README.md).\n\
  -matrices <specs>   : comma-separated matrix specs (benchutil.h), default: real\n\
  -pcs <names>        : ilu_cusparse,icc_cusparse (PETSc PCILU/PCICC with -pc_factor_mat_solver_type cusparse on aijcusparse),\n\
                        ilu_host,icc_host (PETSc's own factorization on aij), spsv (direct cuSPARSE SpSV on the L and U of ILU(0)),\n\
                        subtree_icc (subtree_ilu with -pc_subtree_ilu_type icc), or any other registered PCType (e.g. subtree_ilu)\n\
  -orderings <types>  : MatOrderingTypes (default natural,rcm)\n\
  -levels <k,...>     : fill levels (default 0)\n\
  -ksp_pcs <names>    : PCs that also get an end-to-end KSPSolve (CG for icc, GMRES otherwise)\n\
  -ksp_maxit <n>, -ksp_rtol <r>, -ksp_max_rows <n>, -ksp_max_level <k>, -refactor_reps <n>, -gpu_mattype <type> (default aijcusparse)\n\
  plus -matdir, -csv, -reps, -warmup, -batch, -time_limit, -case_time, -no_gpu; load our PCs with -dll_append <lib>\n";

#include "benchutil.h"
#if defined(PETSC_HAVE_CUDA)
  #include <cusparse.h>
#endif

typedef struct {
  PC  pc;
  Vec x, y;
} ApplyCtx;

/* subtree_ilu: its PCView() text (text[0] = 0 for other PCs) */
static PetscErrorCode SubtreeViewText(PC pc, char text[], size_t len)
{
  PetscViewer v;
  size_t      tlen;
  FILE       *f;
  PetscBool   is;

  PetscFunctionBegin;
  text[0] = 0;
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, "subtree_ilu", &is));
  if (!is) PetscFunctionReturn(PETSC_SUCCESS);
  f = tmpfile();
  if (!f) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIOpenWithFILE(PETSC_COMM_SELF, f, &v));
  PetscCall(PCView(pc, v));
  PetscCall(PetscViewerDestroy(&v));
  rewind(f);
  tlen       = fread(text, 1, len - 1, f);
  text[tlen] = 0;
  fclose(f);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* subtree_ilu: how its last numeric factorization was done, as its PCView() says ("" for other PCs) */
static PetscErrorCode LastRefactorPath(PC pc, char path[], size_t len)
{
  char text[4096], *found;

  PetscFunctionBegin;
  path[0] = 0;
  PetscCall(SubtreeViewText(pc, text, sizeof(text)));
  PetscCall(PetscStrstr(text, "last numeric factorization: ", &found));
  if (found) {
    size_t k = 0;

    found += strlen("last numeric factorization: ");
    for (; found[k] && found[k] != ';' && found[k] != '\n' && k + 1 < len; k++) path[k] = found[k] == ',' ? ' ' : found[k]; /* (a CSV field) */
    path[k] = 0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* subtree_ilu: the factor's entries as PETSc's factor stores them (ILU: L + U + diagonal, ICC: U + diagonal; from what
   PCView() says), or NAN */
static PetscErrorCode SubtreeFactorNonzeros(PC pc, PetscInt m, PetscBool icc, double *fnnz)
{
  char          text[4096], *found;
  long long int nl, nu;

  PetscFunctionBegin;
  *fnnz = NAN;
  PetscCall(SubtreeViewText(pc, text, sizeof(text)));
  PetscCall(PetscStrstr(text, "nonzeros L ", &found));
  if (found && sscanf(found, "nonzeros L %lld U %lld", &nl, &nu) == 2) *fnnz = (icc ? 0.0 : (double)nl) + (double)nu + (double)m;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ApplyOp(void *p)
{
  ApplyCtx *c = (ApplyCtx *)p;

  PetscFunctionBegin;
  PetscCall(PCApply(c->pc, c->x, c->y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  BenchCtx    *ctx;
  BenchMatrix *bm;
  const char  *pc, *mattype, *ordering;
  PetscInt     levels;
  PetscInt     depthL, depthU;
  PetscBool    symmetric;
} CaseInfo;

static void Row(CaseInfo *ci, const char status[], double setup, double refactor, double update, double apply, double amin, PetscInt reps, double gflops, double fnnz, const char ksptype[], PetscInt its, const char kspreason[], double ksp_s, double relerr, const char note[])
{
  fprintf(ci->ctx->csv,
          "%s,%s,%" PetscInt_FMT ",%" PetscInt64_FMT ",%s,%s,%s,%s,%" PetscInt_FMT ",%s,%.6e,%.6e,%.6e,%.6e,%.6e,%" PetscInt_FMT ",%.4f,%.0f,%" PetscInt_FMT ",%" PetscInt_FMT ",%s,%" PetscInt_FMT ",%s,%.6e,%.3e,%.4f,%s\n",
          ci->bm->name, ci->bm->kind, ci->bm->m, ci->bm->nnz, ci->symmetric ? "yes" : "no", ci->pc, ci->mattype, ci->ordering, ci->levels, status, setup, refactor, update, apply, amin, reps, gflops, fnnz, ci->depthL, ci->depthU, ksptype, its, kspreason, ksp_s, relerr, ci->bm->gen_s, note);
  fflush(ci->ctx->csv);
}

/* Longest dependency chain (number of levels) of the lower and upper triangular parts of the pattern of A under the
   symmetric permutation perm (new -> old); for ILU(0)/ICC(0) this is the critical path of the triangular solves */
static PetscErrorCode TriangularDepths(Mat A, const PetscInt perm[], PetscInt *dL, PetscInt *dU)
{
  const PetscInt *ia, *ja;
  PetscInt        m, *inv, *lev;
  PetscBool       done;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ia, &ja, &done));
  PetscCall(PetscMalloc2(m, &inv, m, &lev));
  for (PetscInt i = 0; i < m; i++) inv[perm ? perm[i] : i] = i;
  *dL = *dU = 0;
  for (PetscInt i = 0; i < m; i++) { /* new row i = old row perm[i] */
    PetscInt o = perm ? perm[i] : i, l = 0;
    for (PetscInt p = ia[o]; p < ia[o + 1]; p++)
      if (inv[ja[p]] < i) l = PetscMax(l, lev[inv[ja[p]]]);
    lev[i] = l + 1;
    *dL    = PetscMax(*dL, lev[i]);
  }
  for (PetscInt i = m - 1; i >= 0; i--) {
    PetscInt o = perm ? perm[i] : i, l = 0;
    for (PetscInt p = ia[o]; p < ia[o + 1]; p++)
      if (inv[ja[p]] > i) l = PetscMax(l, lev[inv[ja[p]]]);
    lev[i] = l + 1;
    *dU    = PetscMax(*dU, lev[i]);
  }
  PetscCall(PetscFree2(inv, lev));
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ia, &ja, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool InList(const char name[], char *list[], PetscInt n)
{
  for (PetscInt i = 0; i < n; i++)
    if (!strcmp(name, list[i])) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* ------------------------------------------------------------------------------------------------ PETSc PCs */
static PetscErrorCode RunPC(CaseInfo *ci, Mat M, Vec b, PetscBool doksp, PetscInt kspmaxit, PetscReal ksprtol, PetscInt refreps)
{
  BenchCtx      *ctx = ci->ctx;
  PC             pc;
  PCType         type;
  const char    *solver = NULL, *icctype = NULL;
  char           opt[256], val[64], status[128] = "ok", note[256] = "";
  PetscErrorCode ierr;
  PetscLogDouble t0, t1;
  PCFailedReason reason = PC_NOERROR;
  ApplyCtx       ac = {NULL, NULL, NULL};
  double         setup = NAN, refactor = NAN, refactor_first = NAN, apply = NAN, amin = NAN, gflops = NAN, fnnz = NAN, ksp_s = NAN;
  PetscInt       reps = 0, its = -1;
  const char    *ksptype = "-", *kspreason = "-";
  PetscBool      isfactor = PETSC_FALSE, isdev, isicc;

  PetscFunctionBegin;
  if (!strcmp(ci->pc, "ilu_cusparse")) type = PCILU, solver = MATSOLVERCUSPARSE, isfactor = PETSC_TRUE;
  else if (!strcmp(ci->pc, "icc_cusparse")) type = PCICC, solver = MATSOLVERCUSPARSE, isfactor = PETSC_TRUE;
  else if (!strcmp(ci->pc, "ilu_host")) type = PCILU, solver = MATSOLVERPETSC, isfactor = PETSC_TRUE;
  else if (!strcmp(ci->pc, "icc_host")) type = PCICC, solver = MATSOLVERPETSC, isfactor = PETSC_TRUE;
  else if (!strcmp(ci->pc, "subtree_icc")) type = "subtree_ilu", icctype = "icc";
  else type = ci->pc;
  isicc = (PetscBool)(!strcmp(type, PCICC) || icctype != NULL || strstr(ci->pc, "icc") != NULL);

  PetscCall(PCCreate(PETSC_COMM_SELF, &pc));
  PetscCall(PCSetOperators(pc, M, M));
  PetscCall(PCSetType(pc, type));
  if (isfactor) {
    PetscCall(PCFactorSetMatSolverType(pc, solver));
    PetscCall(PCFactorSetLevels(pc, ci->levels));
    PetscCall(PCFactorSetMatOrderingType(pc, ci->ordering));
  } else { /* a plugin PC reads -pc_<type>_levels / _mat_ordering_type / _type from its SetFromOptions */
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-pc_%s_levels", type));
    PetscCall(PetscSNPrintf(val, sizeof(val), "%" PetscInt_FMT, ci->levels));
    PetscCall(PetscOptionsSetValue(NULL, opt, val));
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-pc_%s_mat_ordering_type", type));
    PetscCall(PetscOptionsSetValue(NULL, opt, ci->ordering));
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-pc_%s_type", type));
    PetscCall(PetscOptionsSetValue(NULL, opt, icctype ? icctype : "ilu"));
  }
  PetscCall(PCSetFromOptions(pc));
  PetscCall(BenchSync(ctx));
  PetscCall(PetscTime(&t0));
  BenchTry(ierr, PCSetUp(pc));
  if (!ierr) ierr = BenchSync(ctx);
  PetscCall(PetscTime(&t1));
  setup = t1 - t0;
  if (ierr) PetscCall(BenchErrorNote(ierr, "PCSetUp", note, sizeof(note)));
  if (!ierr) PetscCall(PCGetFailedReason(pc, &reason));
  if (ierr) PetscCall(PetscStrncpy(status, "failed_setup", sizeof(status)));
  else if (reason != PC_NOERROR) PetscCall(PetscSNPrintf(status, sizeof(status), "failed_%s", PCFailedReasons[reason]));
  if (ierr || reason != PC_NOERROR) {
    Row(ci, status, setup, NAN, NAN, NAN, NAN, 0, NAN, NAN, "-", -1, "-", NAN, NAN, ierr ? note : "factorization failed");
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-13s %-8s %s(%" PetscInt_FMT ") %s %s\n", ci->pc, ci->ordering, isicc ? "ICC" : "ILU", ci->levels, status, ierr ? note : ""));
    goto cleanup;
  }
  if (isfactor) {
    Mat     F;
    MatInfo info;
    if (!PCFactorGetMatrix(pc, &F) && !MatGetInfo(F, MAT_LOCAL, &info) && info.nz_used > 0) fnnz = info.nz_used;
  } else PetscCall(SubtreeFactorNonzeros(pc, ci->bm->m, isicc, &fnnz));
  PetscCall(MatCreateVecs(M, &ac.x, &ac.y));
  PetscCall(BenchVecCopyAny(b, ac.x));
  PetscCall(BenchVecIsDevice(ac.x, &isdev));
  ac.pc = pc;
  BenchTry(ierr, BenchTimeOp(ctx, isdev, ApplyOp, &ac, 0, &apply, &amin, &reps));
  if (ierr) {
    PetscCall(BenchErrorNote(ierr, "PCApply", note, sizeof(note)));
    Row(ci, "failed_apply", setup, NAN, NAN, NAN, NAN, 0, NAN, fnnz, "-", -1, "-", NAN, NAN, note);
    goto cleanup;
  }
  {
    PetscReal nrm;
    PetscCall(VecNorm(ac.y, NORM_INFINITY, &nrm));
    if (PetscIsInfOrNanReal(nrm)) PetscCall(PetscStrncpy(status, "nonfinite_result", sizeof(status)));
  }
  /* flops per apply: ILU(0)/ICC(0) touch every stored entry once (2 flops) and divide by m pivots */
  if (ci->levels == 0) gflops = (2.0 * (double)ci->bm->nnz - ci->bm->m) / apply / 1e9;
  else if (fnnz > 0) gflops = (isicc ? 4.0 * fnnz - 3.0 * ci->bm->m : 2.0 * fnnz - ci->bm->m) / apply / 1e9;
  /* refactorization: new values, same pattern (MatScale by 2 then 1/2: exact, restores the values). The first one
     is reported apart (refactor_first): subtree_ilu makes its refactorization plan there; the median is of the others */
  if (refreps > 0) {
    double  *t;
    PetscInt nr = 2 * ((refreps + 1) / 2) + 2;
    PetscCall(PetscMalloc1(nr, &t));
    for (PetscInt r = 0; r < nr; r++) {
      PetscCall(MatScale(M, r % 2 ? 0.5 : 2.0));
      PetscCall(BenchSync(ctx));
      PetscCall(PetscTime(&t0));
      ierr = PCSetUp(pc);
      if (!ierr) ierr = BenchSync(ctx);
      PetscCall(PetscTime(&t1));
      t[r] = ierr ? NAN : t1 - t0;
    }
    refactor_first = t[0];
    refactor       = BenchMedian(t + 1, nr - 1);
    PetscCall(PetscFree(t));
  }
  if (doksp) {
    KSP                ksp;
    Vec                u;
    KSPConvergedReason kr;
    ksptype = isicc ? KSPCG : KSPGMRES;
    PetscCall(KSPCreate(PETSC_COMM_SELF, &ksp));
    PetscCall(KSPSetOperators(ksp, M, M));
    PetscCall(KSPSetType(ksp, ksptype));
    PetscCall(KSPSetPC(ksp, pc));
    PetscCall(KSPSetTolerances(ksp, ksprtol, PETSC_CURRENT, PETSC_CURRENT, kspmaxit));
    PetscCall(VecDuplicate(ac.x, &u));
    PetscCall(VecSet(u, 0.0));
    PetscCall(KSPSetUp(ksp));
    PetscCall(BenchSync(ctx));
    PetscCall(PetscTime(&t0));
    BenchTry(ierr, KSPSolve(ksp, ac.x, u));
    if (!ierr) ierr = BenchSync(ctx);
    PetscCall(PetscTime(&t1));
    if (!ierr) {
      ksp_s = t1 - t0;
      PetscCall(KSPGetIterationNumber(ksp, &its));
      PetscCall(KSPGetConvergedReason(ksp, &kr));
      kspreason = KSPConvergedReasons[kr];
    } else kspreason = "error";
    PetscCall(VecDestroy(&u));
    PetscCall(KSPDestroy(&ksp));
  }
  {
    char path[128] = "";

    if (refreps > 0) PetscCall(LastRefactorPath(pc, path, sizeof(path)));
    if (refreps > 0) PetscCall(PetscSNPrintf(note, sizeof(note), "%s; first refactor %.4e s%s%s", isdev ? "device" : "host", refactor_first, path[0] ? "; refactor: " : "", path));
    else PetscCall(PetscSNPrintf(note, sizeof(note), "%s", isdev ? "device" : "host"));
  }
  Row(ci, status, setup, refactor, NAN, apply, amin, reps, gflops, fnnz, ksptype, its, kspreason, ksp_s, NAN, note);
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-13s %-8s %s(%" PetscInt_FMT ") apply %9.4f ms (%3" PetscInt_FMT " reps, %6.2f GFLOP/s)  setup %.4f s  refactor %.4f s (first %.4f s)", ci->pc, ci->ordering, isicc ? "ICC" : "ILU", ci->levels, 1e3 * apply, reps, gflops, setup, refactor, refactor_first));
  if (doksp) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s %" PetscInt_FMT " its %.3f s (%s)", ksptype, its, ksp_s, kspreason));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s\n", status[0] == 'o' ? "" : status));
cleanup:
  if (!isfactor) {
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-pc_%s_levels", type));
    PetscCall(PetscOptionsClearValue(NULL, opt));
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-pc_%s_mat_ordering_type", type));
    PetscCall(PetscOptionsClearValue(NULL, opt));
    PetscCall(PetscSNPrintf(opt, sizeof(opt), "-pc_%s_type", type));
    PetscCall(PetscOptionsClearValue(NULL, opt));
  }
  PetscCall(VecDestroy(&ac.x));
  PetscCall(VecDestroy(&ac.y));
  ierr = PCDestroy(&pc);
  (void)ierr;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------------------------------ cuSPARSE SpSV */
/* ILU(0) of a CSR matrix in place (IKJ variant, sorted rows, diagonal required); returns the row of a missing or zero pivot, or -1 */
static PetscInt ILU0InPlace(PetscInt m, const PetscInt *ia, const PetscInt *ja, PetscScalar *a, PetscInt *diag, PetscInt *work)
{
  for (PetscInt i = 0; i < m; i++) {
    diag[i] = -1;
    for (PetscInt p = ia[i]; p < ia[i + 1]; p++)
      if (ja[p] == i) diag[i] = p;
    if (diag[i] < 0) return i;
  }
  for (PetscInt j = 0; j < m; j++) work[j] = -1;
  for (PetscInt i = 0; i < m; i++) {
    for (PetscInt p = ia[i]; p < ia[i + 1]; p++) work[ja[p]] = p;
    for (PetscInt p = ia[i]; p < diag[i]; p++) {
      PetscInt k = ja[p];
      a[p] /= a[diag[k]];
      for (PetscInt q = diag[k] + 1; q < ia[k + 1]; q++)
        if (work[ja[q]] >= 0) a[work[ja[q]]] -= a[p] * a[q];
    }
    for (PetscInt p = ia[i]; p < ia[i + 1]; p++) work[ja[p]] = -1;
    if (a[diag[i]] == 0.0 || PetscIsInfOrNanScalar(a[diag[i]])) return i;
  }
  return -1;
}

/* x = U^{-1} L^{-1} b with the factors stored in one CSR (L unit lower, U upper with diagonal) */
static void LUSolveHost(PetscInt m, const PetscInt *ia, const PetscInt *ja, const PetscScalar *a, const PetscInt *diag, const PetscScalar *b, PetscScalar *x)
{
  for (PetscInt i = 0; i < m; i++) {
    PetscScalar s = b[i];
    for (PetscInt p = ia[i]; p < diag[i]; p++) s -= a[p] * x[ja[p]];
    x[i] = s;
  }
  for (PetscInt i = m - 1; i >= 0; i--) {
    PetscScalar s = x[i];
    for (PetscInt p = diag[i] + 1; p < ia[i + 1]; p++) s -= a[p] * x[ja[p]];
    x[i] = s / a[diag[i]];
  }
}

/* Max relative difference between our ILU(0) solve and PETSc's own PCILU (natural ordering on the same, already
   permuted, matrix): checks that the spsv baseline solves with the same factors as PETSc's ILU(0) */
static PetscErrorCode CompareWithPETScILU0(Mat Ap, Vec b, const PetscInt *ia, const PetscInt *ja, const PetscScalar *lu, const PetscInt *diag, PetscReal *rel)
{
  PC                 pc;
  Vec                y;
  PetscScalar       *x;
  const PetscScalar *bb, *yy;
  PetscInt           m;
  PetscErrorCode     ierr;
  PetscReal          d = 0, r = 0;

  PetscFunctionBegin;
  *rel = NAN;
  PetscCall(MatGetLocalSize(Ap, &m, NULL));
  PetscCall(PCCreate(PETSC_COMM_SELF, &pc));
  PetscCall(PCSetOperators(pc, Ap, Ap));
  PetscCall(PCSetType(pc, PCILU));
  PetscCall(PCFactorSetMatOrderingType(pc, MATORDERINGNATURAL));
  BenchTry(ierr, PCSetUp(pc));
  if (!ierr) {
    PetscCall(VecDuplicate(b, &y));
    PetscCall(PCApply(pc, b, y));
    PetscCall(PetscMalloc1(m, &x));
    PetscCall(VecGetArrayRead(b, &bb));
    LUSolveHost(m, ia, ja, lu, diag, bb, x);
    PetscCall(VecRestoreArrayRead(b, &bb));
    PetscCall(VecGetArrayRead(y, &yy));
    for (PetscInt i = 0; i < m; i++) d = PetscMax(d, PetscAbsScalar(x[i] - yy[i])), r = PetscMax(r, PetscAbsScalar(yy[i]));
    PetscCall(VecRestoreArrayRead(y, &yy));
    *rel = r > 0 ? d / r : d;
    PetscCall(PetscFree(x));
    PetscCall(VecDestroy(&y));
  }
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PetscInt           m;
  const PetscInt    *ia, *ja, *diag;
  const PetscScalar *a, *b;
  PetscScalar       *x;
} HostSolveCtx;

static PetscErrorCode HostSolveOp(void *p)
{
  HostSolveCtx *h = (HostSolveCtx *)p;

  PetscFunctionBegin;
  LUSolveHost(h->m, h->ia, h->ja, h->a, h->diag, h->b, h->x);
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(PETSC_HAVE_CUDA)
typedef struct {
  cusparseHandle_t     h;
  cusparseSpMatDescr_t L, U;
  cusparseDnVecDescr_t b, t, x;
  cusparseSpSVDescr_t  sL, sU;
} SpSVCtx;

static PetscErrorCode SpSVSolveOp(void *p)
{
  SpSVCtx     *c     = (SpSVCtx *)p;
  const double alpha = 1.0;

  PetscFunctionBegin;
  PetscCallCUSPARSE(cusparseSpSV_solve(c->h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, c->L, c->b, c->t, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, c->sL));
  PetscCallCUSPARSE(cusparseSpSV_solve(c->h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, c->U, c->t, c->x, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, c->sU));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

static PetscErrorCode RunSpSV(CaseInfo *ci, Vec bvec)
{
  BenchCtx          *ctx = ci->ctx;
  Mat                Ap  = NULL;
  IS                 r = NULL, c = NULL;
  const PetscInt    *ia, *ja;
  const PetscScalar *va;
  PetscScalar       *lu;
  PetscInt           m, *diag, *work, bad;
  PetscBool          done, natural;
  PetscLogDouble     t0, t1;
  double             hostilu;
  PetscReal          vspetsc = NAN;

  PetscFunctionBegin;
  if (ci->levels != 0) {
    Row(ci, "unsupported", NAN, NAN, NAN, NAN, NAN, 0, NAN, NAN, "-", -1, "-", NAN, NAN, "spsv baseline is ILU(0) only");
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscStrcmp(ci->ordering, MATORDERINGNATURAL, &natural));
  if (natural) {
    PetscCall(PetscObjectReference((PetscObject)ci->bm->A));
    Ap = ci->bm->A;
  } else {
    PetscCall(MatGetOrdering(ci->bm->A, ci->ordering, &r, &c));
    PetscCall(MatPermute(ci->bm->A, r, c, &Ap));
    PetscCall(ISDestroy(&r));
    PetscCall(ISDestroy(&c));
  }
  PetscCall(MatGetRowIJ(Ap, 0, PETSC_FALSE, PETSC_FALSE, &m, &ia, &ja, &done));
  PetscCall(MatSeqAIJGetArrayRead(Ap, &va));
  PetscCall(PetscMalloc3(ia[m], &lu, m, &diag, m, &work));
  PetscCall(PetscArraycpy(lu, va, ia[m]));
  PetscCall(MatSeqAIJRestoreArrayRead(Ap, &va));
  PetscCall(PetscTime(&t0));
  bad = ILU0InPlace(m, ia, ja, lu, diag, work);
  PetscCall(PetscTime(&t1));
  hostilu = t1 - t0;
  if (bad >= 0) {
    char note[128];
    PetscCall(PetscSNPrintf(note, sizeof(note), "ILU(0) missing or zero pivot in row %" PetscInt_FMT, bad));
    Row(ci, "failed_zero_pivot", NAN, NAN, NAN, NAN, NAN, 0, NAN, NAN, "-", -1, "-", NAN, NAN, note);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-13s %-8s ILU(0) %s\n", ci->pc, ci->ordering, note));
  } else if (!ctx->gpu) { /* host reference: the same two triangular solves on one core */
    HostSolveCtx       h;
    const PetscScalar *bb;
    double             t, tmin;
    PetscInt           reps;
    char               note[128];

    PetscCall(PetscMalloc1(m, &h.x));
    PetscCall(VecGetArrayRead(bvec, &bb));
    h.m = m, h.ia = ia, h.ja = ja, h.a = lu, h.diag = diag, h.b = bb;
    PetscCall(BenchTimeOp(ctx, PETSC_FALSE, HostSolveOp, &h, 0, &t, &tmin, &reps));
    PetscCall(VecRestoreArrayRead(bvec, &bb));
    PetscCall(PetscFree(h.x));
    ci->mattype = "csr_host";
    PetscCall(CompareWithPETScILU0(Ap, bvec, ia, ja, lu, diag, &vspetsc));
    PetscCall(PetscSNPrintf(note, sizeof(note), "no GPU: host ILU(0) (setup_s) and host triangular solves (apply_s); relerr = vs PETSc ILU(0)"));
    Row(ci, "ok", hostilu, NAN, NAN, t, tmin, reps, (2.0 * (double)ia[m] - m) / t / 1e9, (double)ia[m], "-", -1, "-", NAN, vspetsc, note);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-13s %-8s ILU(0) host solve %9.4f ms (%3" PetscInt_FMT " reps)  host ILU(0) %.4f s (no GPU)\n", ci->pc, ci->ordering, 1e3 * t, reps, hostilu));
  } else {
#if defined(PETSC_HAVE_CUDA)
    SpSVCtx            s;
    PetscInt          *dia, *dja;
    PetscScalar       *dlu, *db, *dt, *dx, *hx, *hb;
    const PetscScalar *bb;
    void              *bufL, *bufU;
    size_t             szL, szU;
    const double       alpha = 1.0;
    cusparseIndexType_t itype = sizeof(PetscInt) == 4 ? CUSPARSE_INDEX_32I : CUSPARSE_INDEX_64I;
    cusparseFillMode_t  lower = CUSPARSE_FILL_MODE_LOWER, upper = CUSPARSE_FILL_MODE_UPPER;
    cusparseDiagType_t  unit = CUSPARSE_DIAG_TYPE_UNIT, nonunit = CUSPARSE_DIAG_TYPE_NON_UNIT;
    cudaEvent_t         e0, e1;
    float               ms;
    double              analysis = NAN, reanalysis[3], update[3], solve, smin, rel = 0, rm = 0;
    PetscInt            reps;
    char                note[256];

    PetscCallCUDA(cudaMalloc((void **)&dia, sizeof(PetscInt) * (m + 1)));
    PetscCallCUDA(cudaMalloc((void **)&dja, sizeof(PetscInt) * ia[m]));
    PetscCallCUDA(cudaMalloc((void **)&dlu, sizeof(PetscScalar) * ia[m]));
    PetscCallCUDA(cudaMalloc((void **)&db, sizeof(PetscScalar) * m));
    PetscCallCUDA(cudaMalloc((void **)&dt, sizeof(PetscScalar) * m));
    PetscCallCUDA(cudaMalloc((void **)&dx, sizeof(PetscScalar) * m));
    PetscCallCUDA(cudaMemcpy(dia, ia, sizeof(PetscInt) * (m + 1), cudaMemcpyHostToDevice));
    PetscCallCUDA(cudaMemcpy(dja, ja, sizeof(PetscInt) * ia[m], cudaMemcpyHostToDevice));
    PetscCallCUDA(cudaMemcpy(dlu, lu, sizeof(PetscScalar) * ia[m], cudaMemcpyHostToDevice));
    PetscCall(VecGetArrayRead(bvec, &bb));
    PetscCallCUDA(cudaMemcpy(db, bb, sizeof(PetscScalar) * m, cudaMemcpyHostToDevice));
    PetscCall(VecRestoreArrayRead(bvec, &bb));
    PetscCallCUSPARSE(cusparseCreate(&s.h));
    PetscCallCUSPARSE(cusparseSetStream(s.h, PetscDefaultCudaStream));
    /* like PETSc's own ILU(0) path: one CSR holding both factors, two descriptors with fill mode and diagonal type */
    PetscCallCUSPARSE(cusparseCreateCsr(&s.L, m, m, ia[m], dia, dja, dlu, itype, itype, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    PetscCallCUSPARSE(cusparseSpMatSetAttribute(s.L, CUSPARSE_SPMAT_FILL_MODE, &lower, sizeof(lower)));
    PetscCallCUSPARSE(cusparseSpMatSetAttribute(s.L, CUSPARSE_SPMAT_DIAG_TYPE, &unit, sizeof(unit)));
    PetscCallCUSPARSE(cusparseCreateCsr(&s.U, m, m, ia[m], dia, dja, dlu, itype, itype, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    PetscCallCUSPARSE(cusparseSpMatSetAttribute(s.U, CUSPARSE_SPMAT_FILL_MODE, &upper, sizeof(upper)));
    PetscCallCUSPARSE(cusparseSpMatSetAttribute(s.U, CUSPARSE_SPMAT_DIAG_TYPE, &nonunit, sizeof(nonunit)));
    PetscCallCUSPARSE(cusparseCreateDnVec(&s.b, m, db, CUDA_R_64F));
    PetscCallCUSPARSE(cusparseCreateDnVec(&s.t, m, dt, CUDA_R_64F));
    PetscCallCUSPARSE(cusparseCreateDnVec(&s.x, m, dx, CUDA_R_64F));
    PetscCallCUSPARSE(cusparseSpSV_createDescr(&s.sL));
    PetscCallCUSPARSE(cusparseSpSV_createDescr(&s.sU));
    PetscCallCUSPARSE(cusparseSpSV_bufferSize(s.h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, s.L, s.b, s.t, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, s.sL, &szL));
    PetscCallCUSPARSE(cusparseSpSV_bufferSize(s.h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, s.U, s.t, s.x, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, s.sU, &szU));
    PetscCallCUDA(cudaMalloc(&bufL, PetscMax(szL, 1)));
    PetscCallCUDA(cudaMalloc(&bufU, PetscMax(szU, 1)));
    PetscCallCUDA(cudaEventCreate(&e0));
    PetscCallCUDA(cudaEventCreate(&e1));
    /* analysis (setup); then per refactorization either a new analysis (what PETSc does) or cusparseSpSV_updateMatrix */
    for (int k = 0; k < 4; k++) {
      PetscCallCUDA(cudaEventRecord(e0, PetscDefaultCudaStream));
      PetscCallCUSPARSE(cusparseSpSV_analysis(s.h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, s.L, s.b, s.t, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, s.sL, bufL));
      PetscCallCUSPARSE(cusparseSpSV_analysis(s.h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, s.U, s.t, s.x, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, s.sU, bufU));
      PetscCallCUDA(cudaEventRecord(e1, PetscDefaultCudaStream));
      PetscCallCUDA(cudaEventSynchronize(e1));
      PetscCallCUDA(cudaEventElapsedTime(&ms, e0, e1));
      if (k == 0) analysis = 1e-3 * ms;
      else reanalysis[k - 1] = 1e-3 * ms;
    }
    for (int k = 0; k < 3; k++) {
      PetscCallCUDA(cudaEventRecord(e0, PetscDefaultCudaStream));
      PetscCallCUSPARSE(cusparseSpSV_updateMatrix(s.h, s.sL, dlu, CUSPARSE_SPSV_UPDATE_GENERAL));
      PetscCallCUSPARSE(cusparseSpSV_updateMatrix(s.h, s.sU, dlu, CUSPARSE_SPSV_UPDATE_GENERAL));
      PetscCallCUDA(cudaEventRecord(e1, PetscDefaultCudaStream));
      PetscCallCUDA(cudaEventSynchronize(e1));
      PetscCallCUDA(cudaEventElapsedTime(&ms, e0, e1));
      update[k] = 1e-3 * ms;
    }
    PetscCall(BenchTimeOp(ctx, PETSC_TRUE, SpSVSolveOp, &s, 0, &solve, &smin, &reps));
    /* check against the same factors solved on the host */
    PetscCall(PetscMalloc2(m, &hx, m, &hb));
    PetscCallCUDA(cudaMemcpy(hb, db, sizeof(PetscScalar) * m, cudaMemcpyDeviceToHost));
    PetscCallCUDA(cudaMemcpy(hx, dx, sizeof(PetscScalar) * m, cudaMemcpyDeviceToHost));
    {
      PetscScalar *ref;
      PetscCall(PetscMalloc1(m, &ref));
      LUSolveHost(m, ia, ja, lu, diag, hb, ref);
      for (PetscInt i = 0; i < m; i++) {
        PetscReal d = PetscAbsScalar(hx[i] - ref[i]);
        if (PetscIsInfOrNanReal(d)) d = PETSC_INFINITY;
        rel = PetscMax(rel, d);
        rm  = PetscMax(rm, PetscAbsScalar(ref[i]));
      }
      rel = rm > 0 ? rel / rm : rel;
      PetscCall(PetscFree(ref));
    }
    PetscCall(PetscFree2(hx, hb));
    if (m <= 1100000) PetscCall(CompareWithPETScILU0(Ap, bvec, ia, ja, lu, diag, &vspetsc));
    PetscCall(PetscSNPrintf(note, sizeof(note), "refactor_s = new analysis (as PETSc does); update_s = SpSV_updateMatrix; host ILU(0) %.3e s; host solve vs PETSc ILU(0) %.1e", hostilu, (double)vspetsc));
    Row(ci, "ok", analysis, BenchMedian(reanalysis, 3), BenchMedian(update, 3), solve, smin, reps, (2.0 * (double)ia[m] - m) / solve / 1e9, (double)ia[m], "-", -1, "-", NAN, rel, note);
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-13s %-8s ILU(0) solve %9.4f ms (%3" PetscInt_FMT " reps, %6.2f GFLOP/s)  analysis %.4f s  re-analysis %.4f s  updateMatrix %.5f s  rel.diff %.1e\n", ci->pc, ci->ordering, 1e3 * solve, reps,
                          (2.0 * (double)ia[m] - m) / solve / 1e9, analysis, BenchMedian(reanalysis, 3), BenchMedian(update, 3), rel));
    PetscCallCUDA(cudaEventDestroy(e0));
    PetscCallCUDA(cudaEventDestroy(e1));
    PetscCallCUSPARSE(cusparseSpSV_destroyDescr(s.sL));
    PetscCallCUSPARSE(cusparseSpSV_destroyDescr(s.sU));
    PetscCallCUSPARSE(cusparseDestroyDnVec(s.b));
    PetscCallCUSPARSE(cusparseDestroyDnVec(s.t));
    PetscCallCUSPARSE(cusparseDestroyDnVec(s.x));
    PetscCallCUSPARSE(cusparseDestroySpMat(s.L));
    PetscCallCUSPARSE(cusparseDestroySpMat(s.U));
    PetscCallCUSPARSE(cusparseDestroy(s.h));
    PetscCallCUDA(cudaFree(bufL));
    PetscCallCUDA(cudaFree(bufU));
    PetscCallCUDA(cudaFree(dia));
    PetscCallCUDA(cudaFree(dja));
    PetscCallCUDA(cudaFree(dlu));
    PetscCallCUDA(cudaFree(db));
    PetscCallCUDA(cudaFree(dt));
    PetscCallCUDA(cudaFree(dx));
#endif
  }
  PetscCall(PetscFree3(lu, diag, work));
  PetscCall(MatRestoreRowIJ(Ap, 0, PETSC_FALSE, PETSC_FALSE, &m, &ia, &ja, &done));
  PetscCall(MatDestroy(&Ap));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  BenchCtx  ctx;
  char     *specs[BENCH_MAX_LIST], *mats[BENCH_MAX_LIST], *pcs[BENCH_MAX_LIST], *ords[BENCH_MAX_LIST], *lev[BENCH_MAX_LIST], *kpcs[BENCH_MAX_LIST];
  char      gpumat[64] = MATAIJCUSPARSE;
  PetscInt  nspecs, nmats, npcs, nords, nlev, nkpcs, kspmaxit = 200, refreps = 2, kspmaxrows = PETSC_INT_MAX, kspmaxlevel = PETSC_INT_MAX;
  PetscReal ksprtol = 1e-8;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(BenchInitialize(&ctx, "factor.csv",
                            "matrix,kind,rows,nnz,symmetric,pc,mattype,ordering,levels,status,setup_s,refactor_s,update_s,apply_s,apply_min_s,reps,gflops,factor_nnz,depth_L,depth_U,ksp_type,ksp_its,ksp_reason,ksp_s,relerr,gen_s,note"));
  PetscCall(BenchGetList("-matrices", "real", specs, &nspecs));
  PetscCall(BenchExpandMatrixSpecs(&ctx, specs, nspecs, mats, &nmats));
  PetscCall(BenchGetList("-pcs", ctx.gpu ? "ilu_cusparse,icc_cusparse,spsv,ilu_host,icc_host" : "ilu_host,icc_host,spsv", pcs, &npcs));
  PetscCall(BenchGetList("-orderings", "natural,rcm", ords, &nords));
  PetscCall(BenchGetList("-levels", "0", lev, &nlev));
  PetscCall(BenchGetList("-ksp_pcs", "ilu_cusparse,icc_cusparse,subtree_ilu,subtree_icc", kpcs, &nkpcs));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Factorization benchmark options", NULL);
  PetscCall(PetscOptionsInt("-ksp_maxit", "Iteration limit of the end-to-end KSPSolve", NULL, kspmaxit, &kspmaxit, NULL));
  PetscCall(PetscOptionsReal("-ksp_rtol", "Relative tolerance of the end-to-end KSPSolve", NULL, ksprtol, &ksprtol, NULL));
  PetscCall(PetscOptionsInt("-ksp_max_rows", "End-to-end KSPSolve only on matrices with at most this many rows", NULL, kspmaxrows, &kspmaxrows, NULL));
  PetscCall(PetscOptionsInt("-ksp_max_level", "End-to-end KSPSolve only for fill levels up to this", NULL, kspmaxlevel, &kspmaxlevel, NULL));
  PetscCall(PetscOptionsInt("-refactor_reps", "Refactorizations timed (new values, same pattern)", NULL, refreps, &refreps, NULL));
  PetscCall(PetscOptionsString("-gpu_mattype", "Matrix type for GPU preconditioners other than the built-in names", NULL, gpumat, gpumat, sizeof(gpumat), NULL));
  PetscOptionsEnd();

  for (PetscInt im = 0; im < nmats; im++) {
    BenchMatrix bm;
    PetscBool   ok, sym = PETSC_FALSE;
    Mat         B = NULL, Bg = NULL;
    Vec         b;

    if (!BenchTimeLeft(&ctx)) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# time limit reached: skipping %s\n", mats[im]));
      fprintf(ctx.csv, "%s,,,,,,,,,skipped_time_limit,,,,,,,,,,,,,,,,,\n", mats[im]);
      continue;
    }
    PetscCall(BenchMatrixCreate(&ctx, mats[im], &bm, &ok));
    if (!ok) continue;
    if (bm.m != bm.n) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: not square, skipped\n", bm.name));
      PetscCall(BenchMatrixDestroy(&bm));
      continue;
    }
    PetscCall(MatIsSymmetric(bm.A, 0.0, &sym));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %" PetscInt_FMT " rows, nnz %" PetscInt64_FMT ", %ssymmetric, made in %.2f s\n", bm.name, bm.m, bm.nnz, sym ? "" : "not ", bm.gen_s));
    PetscCall(MatCreateVecs(bm.A, &b, NULL));
    PetscCall(BenchFillRandom(b, 5));
    for (PetscInt io = 0; io < nords; io++) {
      PetscInt dL = -1, dU = -1;
      IS       r, c;
      if (!BenchTimeLeft(&ctx)) break;
      PetscErrorCode ierr;
      BenchTry(ierr, MatGetOrdering(bm.A, ords[io], &r, &c));
      if (ierr) {
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# ordering %s failed or unknown: skipped\n", ords[io]));
        continue;
      } else {
        const PetscInt *p;
        PetscCall(ISGetIndices(r, &p));
        PetscCall(TriangularDepths(bm.A, p, &dL, &dU));
        PetscCall(ISRestoreIndices(r, &p));
        PetscCall(ISDestroy(&r));
        PetscCall(ISDestroy(&c));
      }
      for (PetscInt il = 0; il < nlev; il++) {
        for (PetscInt ip = 0; ip < npcs; ip++) {
          CaseInfo  ci   = {&ctx, &bm, pcs[ip], "", ords[io], atoi(lev[il]), dL, dU, sym};
          PetscBool gpuc = (PetscBool)(strstr(pcs[ip], "cusparse") != NULL), isspsv = (PetscBool)!strcmp(pcs[ip], "spsv"), host = (PetscBool)(strstr(pcs[ip], "_host") != NULL);
          PetscErrorCode (*fn)(void) = NULL;
          const char *pctype = !strcmp(pcs[ip], "subtree_icc") ? "subtree_ilu" : pcs[ip];

          if (!BenchTimeLeft(&ctx)) break;
          ci.mattype = isspsv ? "csr" : (host || (!gpuc && !ctx.gpu) ? MATAIJ : (gpuc ? MATAIJCUSPARSE : gpumat));
          if (!isspsv && !host && !gpuc) PetscCall(PetscFunctionListFind(PCList, pctype, &fn));
          if (!isspsv && !host && !gpuc && !fn) {
            Row(&ci, "unavailable", NAN, NAN, NAN, NAN, NAN, 0, NAN, NAN, "-", -1, "-", NAN, NAN, "PC type not registered (library not loaded or not built)");
            continue;
          }
          if (strstr(pcs[ip], "icc") && !sym) {
            Row(&ci, "skipped_nonsymmetric", NAN, NAN, NAN, NAN, NAN, 0, NAN, NAN, "-", -1, "-", NAN, NAN, "ICC needs a symmetric matrix");
            continue;
          }
          if (isspsv) {
            PetscCall(RunSpSV(&ci, b));
            continue;
          }
          if (gpuc && !ctx.gpu) {
            Row(&ci, "skipped_no_gpu", NAN, NAN, NAN, NAN, NAN, 0, NAN, NAN, "-", -1, "-", NAN, NAN, "no GPU");
            continue;
          }
          if (!host && ctx.gpu) { /* device matrices, converted once per matrix */
            PetscBool   cusp = (PetscBool)(gpuc || !strcmp(gpumat, MATAIJCUSPARSE));
            Mat        *D    = cusp ? &B : &Bg;
            const char *t    = cusp ? MATAIJCUSPARSE : gpumat;
            PetscErrorCode ierr = PETSC_SUCCESS;
            if (!*D) BenchTry(ierr, MatConvert(bm.A, t, MAT_INITIAL_MATRIX, D));
            if (ierr) {
              char note[256];
              PetscCall(BenchErrorNote(ierr, "MatConvert", note, sizeof(note)));
              *D = NULL;
              Row(&ci, "failed_convert", NAN, NAN, NAN, NAN, NAN, 0, NAN, NAN, "-", -1, "-", NAN, NAN, note);
              continue;
            }
            PetscCall(RunPC(&ci, *D, b, (PetscBool)(InList(pcs[ip], kpcs, nkpcs) && bm.m <= kspmaxrows && ci.levels <= kspmaxlevel), kspmaxit, ksprtol, refreps));
          } else PetscCall(RunPC(&ci, bm.A, b, (PetscBool)(InList(pcs[ip], kpcs, nkpcs) && bm.m <= kspmaxrows && ci.levels <= kspmaxlevel), kspmaxit, ksprtol, refreps));
        }
      }
    }
    PetscCall(MatDestroy(&Bg));
    PetscCall(MatDestroy(&B));
    PetscCall(VecDestroy(&b));
    PetscCall(BenchMatrixDestroy(&bm));
  }
  PetscCall(BenchFreeList(specs, nspecs));
  PetscCall(BenchFreeList(mats, nmats));
  PetscCall(BenchFreeList(pcs, npcs));
  PetscCall(BenchFreeList(ords, nords));
  PetscCall(BenchFreeList(lev, nlev));
  PetscCall(BenchFreeList(kpcs, nkpcs));
  PetscCall(BenchFinalize(&ctx));
  PetscCall(PetscFinalize());
  return 0;
}
