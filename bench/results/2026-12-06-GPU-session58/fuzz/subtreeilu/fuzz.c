/* Throwaway fuzz driver: PC subtree_ilu vs PETSc PCILU/PCICC.
   Run: ./fuzz -dll_append /tmp/fuzz_ilu/libpetscsparsegpu.so -seed0 S -ncases K [-maxn N] [-v]
   Each case is fully determined by its seed (own xorshift RNG). */
#include <petscksp.h>
#include <string.h>
#include <unistd.h>

static unsigned long long rs;
static unsigned long long R64(void)
{
  rs ^= rs << 13;
  rs ^= rs >> 7;
  rs ^= rs << 17;
  return rs;
}
static PetscInt  RI(PetscInt m) { return m <= 0 ? 0 : (PetscInt)(R64() % (unsigned long long)m); }
static PetscReal RU(void) { return (PetscReal)(R64() >> 11) / 9007199254740992.0; }
static PetscReal RS(void) { return 2 * RU() - 1; }

/* host CSR (point entries) */
typedef struct {
  PetscInt   n, *ia, *ja;
  PetscReal *a;
} CSR;

static const char *orderings[] = {"natural", "rcm", "nd", "qmd", "rowlength", "gpurcm"};
static const char *shifts[]    = {"unset", "none", "nonzero", "positive_definite"};
static const char *gens[]      = {"randnonsym", "randspd", "lap2d", "lap3d", "rowperm", "inode", "dense", "hubs", "tridiag"};

typedef struct {
  unsigned long long seed;
  PetscInt           gen, n, bs, mtype; /* mtype 0 aij, 1 baij, 2 sbaij */
  PetscInt           icc, levels, ord, shift;
  PetscReal          shiftamount; /* <0: unset */
  PetscInt           zerodiag, missdiag, emptyrows, noinode;
  PetscReal          dd;
  PetscInt           backend; /* 0 default, 1 serial, 2 threads */
  PetscInt           det, setupthr, refactor, plancheck, rbuf, threadsrows;
  PetscReal          fill;
  PetscInt           nrounds;
} Case;

static PetscInt nmismatch = 0, ncompared = 0, nsticky = 0, nksp = 0, nbothfail = 0, ndet = 0, ndetser = 0, nrounds_ok = 0, nnative = 0;
static PetscBool bign = PETSC_FALSE, native = PETSC_FALSE;
static char     caselabel[1024];

static void Report(const char *kind, const char *fmt, ...)
{
  va_list ap;
  char    buf[1024];
  va_start(ap, fmt);
  vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  printf("MISMATCH[%s] %s :: %s\n", kind, caselabel, buf);
  fflush(stdout);
  nmismatch++;
}

/* ---------------- generators: produce symmetric-or-not pattern in a dense-ish "triplet set" per block row -------------- */
typedef struct {
  PetscInt  nb;
  PetscInt *cnt, *cap, **cols;
} Pat;

static void PatInit(Pat *p, PetscInt nb)
{
  p->nb   = nb;
  p->cnt  = calloc(nb + 1, sizeof(PetscInt));
  p->cap  = calloc(nb + 1, sizeof(PetscInt));
  p->cols = calloc(nb + 1, sizeof(PetscInt *));
}
static void PatAdd(Pat *p, PetscInt i, PetscInt j)
{
  if (i < 0 || j < 0 || i >= p->nb || j >= p->nb) return;
  for (PetscInt k = 0; k < p->cnt[i]; k++)
    if (p->cols[i][k] == j) return;
  if (p->cnt[i] == p->cap[i]) {
    p->cap[i]  = p->cap[i] ? 2 * p->cap[i] : 8;
    p->cols[i] = realloc(p->cols[i], p->cap[i] * sizeof(PetscInt));
  }
  p->cols[i][p->cnt[i]++] = j;
}
static int cmpint(const void *a, const void *b)
{
  PetscInt x = *(const PetscInt *)a, y = *(const PetscInt *)b;
  return x < y ? -1 : x > y;
}
static void PatFree(Pat *p)
{
  for (PetscInt i = 0; i < p->nb; i++) free(p->cols[i]);
  free(p->cnt);
  free(p->cap);
  free(p->cols);
}

/* block pattern generator on nb block rows */
static void GenPattern(Case *c, PetscInt nb, Pat *p, PetscBool sym)
{
  PatInit(p, nb);
  switch (c->gen) {
  case 0: /* random nonsym */
  case 1: /* random spd */
  case 4: {
    PetscInt k = 1 + RI(5);
    for (PetscInt i = 0; i < nb; i++) {
      PatAdd(p, i, i);
      PetscInt kk = RI(2 * k + 1);
      for (PetscInt t = 0; t < kk; t++) {
        PetscInt j = RU() < 0.5 ? RI(nb) : i + RI(11) - 5; /* local + random */
        PatAdd(p, i, j);
        if (sym) PatAdd(p, j, i);
      }
    }
  } break;
  case 2: case 3: { /* grid laplacian; nb may not be a perfect power: use N = floor, rest as a chain */
    PetscInt dim = c->gen == 2 ? 2 : 3, N = 1;
    while ((dim == 2 ? (N + 1) * (N + 1) : (N + 1) * (N + 1) * (N + 1)) <= nb) N++;
    for (PetscInt r = 0; r < nb; r++) {
      PatAdd(p, r, r);
      PetscInt i = r % N, j = (r / N) % N;
      PatAdd(p, r, r - 1 >= 0 && i > 0 ? r - 1 : -1);
      if (i < N - 1 && r + 1 < nb) PatAdd(p, r, r + 1);
      if (j > 0) PatAdd(p, r, r - N);
      if (j < N - 1) PatAdd(p, r, r + N);
      if (dim == 3) { PatAdd(p, r, r - N * N); PatAdd(p, r, r + N * N); }
      if (r >= (dim == 2 ? N * N : N * N * N)) { PatAdd(p, r, r - 1); PatAdd(p, r - 1, r); }
    }
  } break;
  case 5: { /* inodes: groups of identical rows; group graph random/local */
    PetscInt *g = malloc(nb * sizeof(PetscInt)), ng = 0, *gs = malloc((nb + 1) * sizeof(PetscInt));
    for (PetscInt i = 0; i < nb;) {
      PetscInt s = 1 + RI(5);
      if (i + s > nb) s = nb - i;
      gs[ng] = i;
      for (PetscInt t = 0; t < s; t++) g[i + t] = ng;
      ng++;
      i += s;
    }
    gs[ng] = nb;
    Pat gp;
    PatInit(&gp, ng);
    for (PetscInt BI = 0; BI < ng; BI++) {
      PatAdd(&gp, BI, BI);
      PetscInt kk = RI(4);
      for (PetscInt t = 0; t < kk; t++) {
        PetscInt J = RU() < 0.5 ? RI(ng) : BI + RI(5) - 2;
        PatAdd(&gp, BI, J);
        if (sym || RU() < 0.5) PatAdd(&gp, J, BI);
      }
    }
    for (PetscInt BI = 0; BI < ng; BI++)
      for (PetscInt k = 0; k < gp.cnt[BI]; k++) {
        PetscInt J = gp.cols[BI][k];
        for (PetscInt i = gs[BI]; i < gs[BI + 1]; i++)
          for (PetscInt j = gs[J]; j < gs[J + 1]; j++) PatAdd(p, i, j);
      }
    PatFree(&gp);
    free(g);
    free(gs);
  } break;
  case 6: /* dense */
    for (PetscInt i = 0; i < nb; i++)
      for (PetscInt j = 0; j < nb; j++)
        if (RU() < 0.8 || i == j) { PatAdd(p, i, j); if (sym) PatAdd(p, j, i); }
    break;
  case 7: { /* hubs: 2D-ish chain plus a few dense rows/cols */
    for (PetscInt i = 0; i < nb; i++) { PatAdd(p, i, i); PatAdd(p, i, i - 1); PatAdd(p, i, i + 1); PatAdd(p, i, i + 7); PatAdd(p, i, i - 7); }
    PetscInt nh = 1 + RI(3);
    for (PetscInt h = 0; h < nh; h++) {
      PetscInt hub = RI(nb), st = 1 + RI(3);
      for (PetscInt j = 0; j < nb; j += st) {
        PatAdd(p, hub, j);
        if (sym || RU() < 0.7) PatAdd(p, j, hub);
      }
    }
  } break;
  default: /* tridiag */
    for (PetscInt i = 0; i < nb; i++) { PatAdd(p, i, i); PatAdd(p, i, i - 1); PatAdd(p, i, i + 1); }
  }
  if (sym) /* make sure */
    for (PetscInt i = 0; i < nb; i++)
      for (PetscInt k = 0; k < p->cnt[i]; k++) PatAdd(p, p->cols[i][k], i);
  for (PetscInt i = 0; i < nb; i++) qsort(p->cols[i], p->cnt[i], sizeof(PetscInt), cmpint);
}

/* values for point CSR from block pattern (nb, bs); sym: symmetric values; dd: diagonal dominance factor;
   removes diagonal / sets zero etc. later */
static void FillValues(Case *c, CSR *A, PetscBool sym, PetscReal dd)
{
  PetscInt n = A->n;
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt k = A->ia[i]; k < A->ia[i + 1]; k++) {
      PetscInt j = A->ja[k];
      if (j == i) A->a[k] = 0;
      else if (sym && j < i) {
        /* find (j,i) */
        PetscInt lo = A->ia[j], hi = A->ia[j + 1] - 1;
        while (lo <= hi) {
          PetscInt m = (lo + hi) / 2;
          if (A->ja[m] == i) { A->a[k] = A->a[m]; break; }
          if (A->ja[m] < i) lo = m + 1; else hi = m - 1;
        }
      } else A->a[k] = (c->gen == 2 || c->gen == 3) ? -1.0 + (sym ? 0 : 0.3 * RS()) : RS();
    }
  /* a few explicit zeros off-diagonal */
  if (RU() < 0.2)
    for (PetscInt i = 0; i < n; i++)
      for (PetscInt k = A->ia[i]; k < A->ia[i + 1]; k++)
        if (A->ja[k] > i && RU() < 0.1) {
          A->a[k] = 0;
          if (sym) {
            PetscInt j = A->ja[k];
            for (PetscInt m = A->ia[j]; m < A->ia[j + 1]; m++) if (A->ja[m] == i) A->a[m] = 0;
          }
        }
  for (PetscInt i = 0; i < n; i++) {
    PetscReal s = 0;
    PetscInt  kd = -1;
    for (PetscInt k = A->ia[i]; k < A->ia[i + 1]; k++) {
      if (A->ja[k] == i) kd = k;
      else s += PetscAbsReal(A->a[k]);
    }
    if (kd >= 0) A->a[kd] = dd * s + (sym ? 0.5 + RU() : (RU() < 0.5 ? -1 : 1) * (0.5 + RU()));
    if (kd >= 0 && sym && dd < 1 && RU() < 0.1) A->a[kd] = -A->a[kd]; /* indefinite */
  }
}

/* build host CSR of point matrix from block pattern */
static void BuildCSR(Case *c, Pat *p, PetscInt bs, CSR *A)
{
  PetscInt nb = p->nb, n = nb * bs, nnz = 0;
  A->n  = n;
  A->ia = malloc((n + 1) * sizeof(PetscInt));
  for (PetscInt BI = 0; BI < nb; BI++) nnz += p->cnt[BI] * bs * bs;
  A->ja = malloc((nnz + 1) * sizeof(PetscInt));
  A->a  = malloc((nnz + 1) * sizeof(PetscReal));
  A->ia[0] = 0;
  PetscInt k = 0;
  for (PetscInt BI = 0; BI < nb; BI++)
    for (PetscInt r = 0; r < bs; r++) {
      for (PetscInt t = 0; t < p->cnt[BI]; t++)
        for (PetscInt s = 0; s < bs; s++) A->ja[k++] = p->cols[BI][t] * bs + s;
      A->ia[BI * bs + r + 1] = k;
    }
  (void)c;
}

/* remove (missing diag) entries: for point matrices only (bs 1, aij) */
static void DropEntries(CSR *A, PetscInt *dropdiag, PetscInt nd, PetscInt *empty, PetscInt ne)
{
  PetscInt k = 0, n = A->n, start = 0;
  char    *dd = calloc(n + 1, 1), *er = calloc(n + 1, 1);
  for (PetscInt t = 0; t < nd; t++) dd[dropdiag[t]] = 1;
  for (PetscInt t = 0; t < ne; t++) er[empty[t]] = 1;
  for (PetscInt i = 0; i < n; i++) {
    PetscInt e = A->ia[i + 1];
    for (PetscInt q = start; q < e; q++) {
      PetscInt j = A->ja[q];
      if (er[i]) continue;
      if (j == i && dd[i]) continue;
      A->ja[k] = j;
      A->a[k]  = A->a[q];
      k++;
    }
    start       = e;
    A->ia[i + 1] = k;
  }
  free(dd);
  free(er);
}

static PetscErrorCode CreateMat(Case *c, CSR *A, Mat *M)
{
  Mat       B;
  PetscInt *nnz;

  PetscFunctionBeginUser;
  nnz = malloc((A->n + 1) * sizeof(PetscInt));
  for (PetscInt i = 0; i < A->n; i++) nnz[i] = A->ia[i + 1] - A->ia[i];
  PetscCall(MatCreate(PETSC_COMM_SELF, &B));
  PetscCall(MatSetSizes(B, A->n, A->n, A->n, A->n));
  PetscCall(MatSetType(B, MATSEQAIJ));
  if (c->bs > 1) PetscCall(MatSetBlockSize(B, c->bs));
  PetscCall(MatSeqAIJSetPreallocation(B, 0, nnz));
  if (c->noinode) PetscCall(MatSetOption(B, MAT_USE_INODES, PETSC_FALSE));
  for (PetscInt i = 0; i < A->n; i++) PetscCall(MatSetValues(B, 1, &i, nnz[i], A->ja + A->ia[i], A->a + A->ia[i], INSERT_VALUES));
  PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
  free(nnz);
  if (c->mtype == 0) *M = B;
  else {
    if (c->mtype == 2) PetscCall(MatSetOption(B, MAT_SYMMETRIC, PETSC_TRUE));
    PetscCall(MatConvert(B, c->mtype == 1 ? MATSEQBAIJ : MATSEQSBAIJ, MAT_INITIAL_MATRIX, M));
    PetscCall(MatDestroy(&B));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* set all values of M from host CSR (pattern unchanged) */
static PetscErrorCode SetValuesFrom(Case *c, CSR *A, Mat M)
{
  PetscFunctionBeginUser;
  if (c->mtype == 2) PetscCall(MatSetOption(M, MAT_IGNORE_LOWER_TRIANGULAR, PETSC_TRUE));
  for (PetscInt i = 0; i < A->n; i++) PetscCall(MatSetValues(M, 1, &i, A->ia[i + 1] - A->ia[i], A->ja + A->ia[i], A->a + A->ia[i], INSERT_VALUES));
  PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------ PCs ------------------------------------ */
static char   setnames[64][128];
static PetscInt nset = 0;
static PetscErrorCode SetOpt(const char *name, const char *val)
{
  PetscFunctionBeginUser;
  PetscCall(PetscOptionsSetValue(NULL, name, val));
  if (nset < 64) strcpy(setnames[nset++], name);
  PetscFunctionReturn(PETSC_SUCCESS);
}
static PetscErrorCode ClearOpts(void)
{
  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < nset; i++) PetscCall(PetscOptionsClearValue(NULL, setnames[i]));
  nset = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetSTOptions(Case *c, const char *pre, PetscInt backend)
{
  char name[128], v[64];
#define O(opt, val) do { PetscCall(PetscSNPrintf(name, sizeof(name), "-%spc_subtree_ilu_%s", pre, opt)); PetscCall(SetOpt(name, val)); } while (0)
  PetscFunctionBeginUser;
  O("type", c->icc ? "icc" : "ilu");
  PetscCall(PetscSNPrintf(v, sizeof(v), "%d", (int)c->levels));
  O("levels", v);
  O("mat_ordering_type", orderings[c->ord]);
  if (c->shift) O("shift_type", shifts[c->shift]);
  if (c->shiftamount >= 0) { PetscCall(PetscSNPrintf(v, sizeof(v), "%g", c->shiftamount)); O("shift_amount", v); }
  if (backend == 1) O("backend", "serial");
  if (backend == 2) { O("backend", "threads"); O("threads", "2"); }
  if (c->det) O("deterministic", "1");
  if (c->setupthr) { PetscCall(PetscSNPrintf(v, sizeof(v), "%d", (int)c->setupthr)); O("setup_threads", v); }
  if (c->refactor == 1) O("refactor", "device");
  if (c->refactor == 2) O("refactor", "petsc");
  if (c->refactor == 3) O("refactor", "auto");
  if (c->plancheck) O("plan_check", "1");
  if (c->rbuf >= 0) { PetscCall(PetscSNPrintf(v, sizeof(v), "%d", (int)c->rbuf)); O("refactor_buffer", v); }
  if (c->fill > 0) { PetscCall(PetscSNPrintf(v, sizeof(v), "%g", c->fill)); O("fill", v); }
  if (c->threadsrows) O("threads_rows", "1");
#undef O
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MakeST(Case *c, Mat A, const char *pre, PetscInt backend, PC *pc)
{
  PetscFunctionBeginUser;
  PetscCall(SetSTOptions(c, pre, backend));
  PetscCall(PCCreate(PETSC_COMM_SELF, pc));
  PetscCall(PCSetOptionsPrefix(*pc, pre));
  PetscCall(PCSetType(*pc, "subtree_ilu"));
  PetscCall(PCSetOperators(*pc, A, A));
  PetscCall(PCSetFromOptions(*pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MakeRef(Case *c, Mat A, PC *pc)
{
  PetscFunctionBeginUser;
  PetscCall(PCCreate(PETSC_COMM_SELF, pc));
  PetscCall(PCSetType(*pc, c->icc ? PCICC : PCILU));
  PetscCall(PCSetOperators(*pc, A, A));
  PetscCall(PCFactorSetMatSolverType(*pc, MATSOLVERPETSC));
  PetscCall(PCFactorSetLevels(*pc, c->levels));
  PetscCall(PCFactorSetMatOrderingType(*pc, orderings[c->ord]));
  if (c->shift) PetscCall(PCFactorSetShiftType(*pc, (MatFactorShiftType)(c->shift - 1)));
  if (c->shiftamount >= 0) PetscCall(PCFactorSetShiftAmount(*pc, c->shiftamount));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TrySetUp(PC pc, PetscErrorCode *e, PCFailedReason *r)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  *e = PCSetUp(pc);
  PetscCall(PetscPopErrorHandler());
  *r = PC_NOERROR;
  if (!*e) PetscCall(PCGetFailedReason(pc, r));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TryApply(PetscErrorCode (*op)(PC, Vec, Vec), PC pc, Vec b, Vec x, PetscErrorCode *e)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  *e = op(pc, b, x);
  PetscCall(PetscPopErrorHandler());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* relative max-norm difference with nonfinite handling: returns rel (Inf if nonfinite positions differ) */
static PetscErrorCode RelDiff(Vec xr, Vec x, PetscReal *rel, PetscInt *nnonfin)
{
  const PetscScalar *a, *b;
  PetscInt           n;
  PetscReal          nd = 0, na = 0;
  PetscBool          bad = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(xr, &n));
  PetscCall(VecGetArrayRead(xr, &a));
  PetscCall(VecGetArrayRead(x, &b));
  *nnonfin = 0;
  for (PetscInt i = 0; i < n; i++) {
    PetscBool fa = !PetscIsInfOrNanScalar(a[i]), fb = !PetscIsInfOrNanScalar(b[i]);
    if (!fa || !fb) {
      (*nnonfin)++;
      if (fa != fb) bad = PETSC_TRUE;
      continue;
    }
    nd = PetscMax(nd, PetscAbsScalar(a[i] - b[i]));
    na = PetscMax(na, PetscAbsScalar(a[i]));
  }
  PetscCall(VecRestoreArrayRead(xr, &a));
  PetscCall(VecRestoreArrayRead(x, &b));
  *rel = bad ? PETSC_INFINITY : nd / (na > 0 ? na : 1.0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FillVec(Vec b)
{
  PetscScalar *a;
  PetscInt     n;
  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(b, &n));
  PetscCall(VecGetArray(b, &a));
  for (PetscInt i = 0; i < n; i++) a[i] = RS();
  PetscCall(VecRestoreArray(b, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const char *opnames[] = {"Apply", "ApplyTranspose", "ApplySymmetricLeft", "ApplySymmetricRight"};

/* compare applies: returns worst. fresh vectors per op (an erroring apply leaves its input locked) */
static PetscErrorCode CompareApplies(Case *c, const char *round, PC ref, Mat Ar, PC st, PetscReal tol, PetscReal *worstout)
{
  PetscErrorCode (*ops[4])(PC, Vec, Vec) = {PCApply, PCApplyTranspose, PCApplySymmetricLeft, PCApplySymmetricRight};
  PetscReal worst = 0;
  Mat       A;
  PetscInt  n;
  PetscScalar *vals;

  PetscFunctionBeginUser;
  PetscCall(PCGetOperators(st, &A, NULL));
  PetscCall(MatGetSize(A, &n, NULL));
  vals = malloc((n + 1) * sizeof(PetscScalar));
  for (PetscInt trial = 0; trial < 2; trial++) {
    for (PetscInt i = 0; i < n; i++) vals[i] = RS();
    for (PetscInt k = 0; k < (c->icc ? 4 : 2); k++) {
      PetscErrorCode e1, e2;
      PetscReal      rel = 0;
      PetscInt       nnf = 0;
      Vec            b, x, br, xr;
      PetscScalar   *a;
      PetscCall(MatCreateVecs(A, &x, &b));
      PetscCall(MatCreateVecs(Ar, &xr, &br));
      PetscCall(VecGetArray(b, &a)); for (PetscInt i = 0; i < n; i++) a[i] = vals[i]; PetscCall(VecRestoreArray(b, &a));
      PetscCall(VecGetArray(br, &a)); for (PetscInt i = 0; i < n; i++) a[i] = vals[i]; PetscCall(VecRestoreArray(br, &a));
      PetscCall(VecSet(x, 12345.0));
      PetscCall(TryApply(ops[k], ref, br, xr, &e1));
      PetscCall(TryApply(ops[k], st, b, x, &e2));
      if (e1 || e2) {
        if (!e1 != !e2) {
          char *m1 = NULL, *m2 = NULL;
          if (e1) PetscCall(PetscErrorMessage(e1, NULL, &m1));
          if (e2) PetscCall(PetscErrorMessage(e2, NULL, &m2));
          Report("apply-error", "%s %s: ref err %d (%s), st err %d (%s)", round, opnames[k], (int)e1, m1 ? m1 : "", (int)e2, m2 ? m2 : "");
        } else printf("  %s %s: both applies error (ref %d st %d)\n", round, opnames[k], (int)e1, (int)e2);
      } else {
        Vec x1;
        PetscCall(VecDuplicate(x, &x1));
        PetscCall(VecGetArray(x1, &a));
        { const PetscScalar *q; PetscCall(VecGetArrayRead(xr, &q)); for (PetscInt i = 0; i < n; i++) a[i] = q[i]; PetscCall(VecRestoreArrayRead(xr, &q)); }
        PetscCall(VecRestoreArray(x1, &a));
        PetscCall(RelDiff(x1, x, &rel, &nnf));
        PetscCall(VecDestroy(&x1));
        ncompared++;
        if (!(rel <= tol)) {
          /* sensitivity of PETSc's own result: perturb b by 1e-15 relative, apply ref again */
          PetscReal xn, sens = -1, rr; PetscInt nn2;
          Vec bp, xp;
          PetscCall(VecNorm(xr, NORM_INFINITY, &xn));
          for (int rep = 0; rep < 4; rep++) {
          PetscCall(MatCreateVecs(Ar, &xp, &bp));
          PetscCall(VecGetArray(bp, &a)); for (PetscInt i = 0; i < n; i++) a[i] = vals[i] * (1 + 1e-15 * RS()); PetscCall(VecRestoreArray(bp, &a));
          PetscCall(TryApply(ops[k], ref, bp, xp, &e1));
          if (!e1) { PetscCall(RelDiff(xr, xp, &rr, &nn2)); sens = PetscMax(sens, rr); }
          PetscCall(VecDestroy(&bp)); PetscCall(VecDestroy(&xp));
          }
          Report(sens > 1e-9 ? "apply-illcond" : "apply", "%s %s trial %d: rel diff %.3e (nonfinite entries %d) |x_ref|=%.2e PETSc-self-sensitivity(1e-15 perturbation of b)=%.2e", round, opnames[k], (int)trial, (double)rel, (int)nnf, (double)xn, (double)sens);
        }
        worst = PetscMax(worst, rel);
      }
      /* a locked vector cannot be destroyed cleanly? VecDestroy works regardless */
      PetscCall(VecDestroy(&b)); PetscCall(VecDestroy(&x)); PetscCall(VecDestroy(&br)); PetscCall(VecDestroy(&xr));
    }
  }
  free(vals);
  *worstout = worst;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* reference matrix: for AIJ the same Mat; for BAIJ/SBAIJ a fresh AIJ copy */
static PetscErrorCode RefMat(Case *c, Mat A, Mat *Ar)
{
  PetscFunctionBeginUser;
  if (c->mtype == 0) {
    PetscCall(PetscObjectReference((PetscObject)A));
    *Ar = A;
  } else PetscCall(MatConvert(A, MATSEQAIJ, MAT_INITIAL_MATRIX, Ar));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* KSP + error-if-failure checks on a (possibly) failing matrix */
static PetscErrorCode CheckKSP(Case *c, Mat A, Mat Ar, const char *round)
{
  KSP                ksp[2];
  KSPConvergedReason reason[2];
  PCFailedReason     pr[2];
  PetscErrorCode     e[2];
  Vec                b, x;

  PetscFunctionBeginUser;
  nksp++;
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(FillVec(b));
  for (PetscInt s = 0; s < 2; s++) {
    PC pc;
    PetscCall(KSPCreate(PETSC_COMM_SELF, &ksp[s]));
    PetscCall(KSPSetType(ksp[s], KSPGMRES));
    PetscCall(KSPSetTolerances(ksp[s], 1e-8, PETSC_CURRENT, PETSC_CURRENT, 5));
    if (s == 0) {
      PetscCall(KSPSetOperators(ksp[s], Ar, Ar));
      PetscCall(KSPGetPC(ksp[s], &pc));
      PetscCall(PCSetType(pc, c->icc ? PCICC : PCILU));
      PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERPETSC));
      PetscCall(PCFactorSetLevels(pc, c->levels));
      PetscCall(PCFactorSetMatOrderingType(pc, orderings[c->ord]));
      if (c->shift) PetscCall(PCFactorSetShiftType(pc, (MatFactorShiftType)(c->shift - 1)));
      if (c->shiftamount >= 0) PetscCall(PCFactorSetShiftAmount(pc, c->shiftamount));
    } else {
      PetscCall(KSPSetOperators(ksp[s], A, A));
      PetscCall(KSPGetPC(ksp[s], &pc));
      PetscCall(SetSTOptions(c, "kst_", c->backend));
      PetscCall(PCSetOptionsPrefix(pc, "kst_"));
      PetscCall(PCSetType(pc, "subtree_ilu"));
      PetscCall(PCSetFromOptions(pc));
    }
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    e[s] = KSPSolve(ksp[s], b, x);
    PetscCall(PetscPopErrorHandler());
    reason[s] = KSP_CONVERGED_ITERATING;
    pr[s]     = PC_NOERROR;
    if (!e[s]) {
      PetscCall(KSPGetConvergedReason(ksp[s], &reason[s]));
      PetscCall(PCGetFailedReason(pc, &pr[s]));
    }
  }
  if (!e[0] != !e[1] || (!e[0] && ((reason[0] == KSP_DIVERGED_PC_FAILED) != (reason[1] == KSP_DIVERGED_PC_FAILED) || pr[0] != pr[1])))
    Report("ksp", "%s: KSPSolve ref err %d reason %s pcfailed %s; st err %d reason %s pcfailed %s", round, (int)e[0], e[0] ? "-" : KSPConvergedReasons[reason[0]], e[0] ? "-" : PCFailedReasons[pr[0]], (int)e[1], e[1] ? "-" : KSPConvergedReasons[reason[1]], e[1] ? "-" : PCFailedReasons[pr[1]]);
  for (PetscInt s = 0; s < 2; s++) PetscCall(KSPDestroy(&ksp[s]));

  /* error if failure */
  {
    PC             p[2];
    PetscErrorCode ee[2];
    PCFailedReason rr[2];
    PetscCall(MakeRef(c, Ar, &p[0]));
    PetscCall(MakeST(c, A, "est_", c->backend, &p[1]));
    for (PetscInt s = 0; s < 2; s++) {
      PetscCall(PCSetErrorIfFailure(p[s], PETSC_TRUE));
      PetscCall(TrySetUp(p[s], &ee[s], &rr[s]));
    }
    if (ee[0] != ee[1] || rr[0] != rr[1]) Report("erroriffailure", "%s: ref err %d (%s), st err %d (%s)", round, (int)ee[0], PCFailedReasons[rr[0]], (int)ee[1], PCFailedReasons[rr[1]]);
    for (PetscInt s = 0; s < 2; s++) PetscCall(PCDestroy(&p[s]));
  }
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one round: ref (fresh or reused) vs st (reused). returns whether both ok */
static PetscErrorCode Round(Case *c, const char *round, Mat A, PC st, PC *refp, Mat *Arp, PetscBool *ok)
{
  PetscErrorCode e1, e2;
  PCFailedReason r1, r2;

  PetscFunctionBeginUser;
  *ok = PETSC_FALSE;
  if (c->mtype != 0 || !*refp) { /* fresh reference */
    PetscCall(PCDestroy(refp));
    PetscCall(MatDestroy(Arp));
    PetscCall(RefMat(c, A, Arp));
    PetscCall(MakeRef(c, *Arp, refp));
  }
  PetscCall(TrySetUp(*refp, &e1, &r1));
  PetscCall(TrySetUp(st, &e2, &r2));
  if ((!e1 != !e2 || r1 != r2) && c->mtype == 0) {
    /* PETSc's reused PCILU/PCICC keeps a stale MatFactorError (a failed numeric factorization makes every later
       same-pattern PCSetUp fail without refactoring): compare with a fresh PETSc PC too */
    PC             fr;
    PetscErrorCode e3;
    PCFailedReason r3;
    PetscCall(MakeRef(c, *Arp, &fr));
    PetscCall(TrySetUp(fr, &e3, &r3));
    if (!e3 == !e2 && r3 == r2) {
      printf("  NOTE-STICKY %s: reused PETSc PC says e%d/%s, fresh PETSc PC e%d/%s = st\n", round, (int)e1, PCFailedReasons[r1], (int)e3, PCFailedReasons[r3]);
      nsticky++;
      PetscCall(PCDestroy(refp));
      *refp = fr;
      e1 = e3;
      r1 = r3;
    } else PetscCall(PCDestroy(&fr));
  }
  if (e1 || e2 || r1 || r2) {
    if (!e1 != !e2 || r1 != r2) {
      char *m1 = NULL, *m2 = NULL;
      if (e1) PetscCall(PetscErrorMessage(e1, NULL, &m1));
      if (e2) PetscCall(PetscErrorMessage(e2, NULL, &m2));
      Report("setup", "%s: ref err %d (%s) reason %s; st err %d (%s) reason %s", round, (int)e1, m1 ? m1 : "", PCFailedReasons[r1], (int)e2, m2 ? m2 : "", PCFailedReasons[r2]);
    } else if (e1 != e2) Report("setup-errcode", "%s: ref err %d st err %d", round, (int)e1, (int)e2);
    if (e1) { /* a PC whose setup errored: start the reference afresh next time */
      PetscCall(PCDestroy(refp));
    }
    nbothfail++;
    printf("  %s: both fail? ref e%d/%s st e%d/%s\n", round, (int)e1, PCFailedReasons[r1], (int)e2, PCFailedReasons[r2]);
    { PetscInt nn; PetscCall(MatGetSize(A, &nn, NULL)); if (nn <= 3000) PetscCall(CheckKSP(c, A, *Arp, round)); }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  {
    PetscReal worst = 0;
    PetscCall(CompareApplies(c, round, *refp, *Arp, st, 1e-10, &worst));
    printf("  %s: worst %.2e\n", round, (double)worst);
  }
  *ok = PETSC_TRUE;
  nrounds_ok++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* deterministic bitwise checks */
static PetscErrorCode CheckDet(Case *c, Mat A, PC st, const char *round)
{
  Vec                b, x0, x;
  const PetscScalar *a0, *a;
  PetscInt           n;
  PetscErrorCode (*ops[2])(PC, Vec, Vec) = {PCApply, PCApplyTranspose};

  PetscFunctionBeginUser;
  PetscCall(MatCreateVecs(A, &x0, &b));
  PetscCall(VecDuplicate(x0, &x));
  PetscCall(FillVec(b));
  PetscCall(VecGetLocalSize(b, &n));
  ndet++;
  for (PetscInt k = 0; k < 2; k++) {
    PetscCall(ops[k](st, b, x0));
    for (PetscInt r = 0; r < 6; r++) {
      PetscCall(VecSet(x, 0.0));
      PetscCall(ops[k](st, b, x));
      PetscCall(VecGetArrayRead(x0, &a0));
      PetscCall(VecGetArrayRead(x, &a));
      PetscBool same = (PetscBool)!memcmp(a0, a, n * sizeof(PetscScalar));
      PetscCall(VecRestoreArrayRead(x0, &a0));
      PetscCall(VecRestoreArrayRead(x, &a));
      if (!same) { Report("det-repeat", "%s %s repeat %d not bitwise identical", round, opnames[k], (int)r); break; }
    }
  }
  if (c->backend == 2) { /* threads deterministic vs serial: bitwise */
    PC ser;
    PetscErrorCode e; PCFailedReason rr;
    PetscCall(MakeST(c, A, "ser_", 1, &ser));
    PetscCall(TrySetUp(ser, &e, &rr));
    if (!e && !rr) {
      ndetser++;
      for (PetscInt k = 0; k < 2; k++) {
        PetscCall(ops[k](st, b, x0));
        PetscCall(ops[k](ser, b, x));
        PetscCall(VecGetArrayRead(x0, &a0));
        PetscCall(VecGetArrayRead(x, &a));
        PetscBool same = (PetscBool)!memcmp(a0, a, n * sizeof(PetscScalar));
        PetscCall(VecRestoreArrayRead(x0, &a0));
        PetscCall(VecRestoreArrayRead(x, &a));
        if (!same) Report("det-vs-serial", "%s %s threads(det) not bitwise equal to serial", round, opnames[k]);
      }
    }
    PetscCall(PCDestroy(&ser));
  }
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&x0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscInt PickN(PetscInt maxn)
{
  PetscReal u = RU();
  PetscInt  n;
  if (u < 0.08) n = 1 + RI(3);
  else if (u < 0.4) n = 1 + RI(12);
  else if (u < 0.8) n = 13 + RI(300);
  else if (u < 0.96) n = 300 + RI(3000);
  else n = 3000 + RI(17000);
  if (bign) n = 3000 + RI(17000);
  if (RU() < 0.01) n = 0;
  return PetscMin(n, maxn);
}

static void GenCase(unsigned long long seed, PetscInt maxn, Case *c)
{
  memset(c, 0, sizeof(*c));
  rs = seed * 0x9E3779B97F4A7C15ULL + 0x1234567ULL;
  if (!rs) rs = 1;
  for (int i = 0; i < 5; i++) R64();
  c->seed  = seed;
  c->gen   = RI(9);
  c->icc   = RU() < 0.4;
  if (c->icc && (c->gen == 0 || c->gen == 4)) c->gen = 1;
  c->mtype = 0;
  c->bs    = 1;
  {
    PetscReal u = RU();
    if (u < 0.12) { c->mtype = 1; c->bs = 2 + RI(2); }
    else if (u < 0.2 && c->icc) { c->mtype = 2; c->bs = 1 + RI(3); }
  }
  c->n      = PickN(maxn);
  if (c->gen == 6) c->n = PetscMin(c->n, 40);
  c->n = (c->n / c->bs) * c->bs;
  if (c->bs > 1 && c->n == 0 && RU() < 0.9) c->n = c->bs;
  c->levels = RU() < 0.5 ? 0 : 1 + RI(3);
  c->ord    = RI(6);
  if (c->ord == 3 && c->n > 3000) c->ord = 2; /* PETSc's own QMD takes minutes on big random graphs */
  c->shift  = RI(4);
  c->shiftamount = RU() < 0.15 ? (RU() < 0.5 ? 0.1 : 1e-3) : -1;
  c->dd     = RU() < 0.75 ? 1.0 + RU() : 0.3 + 0.6 * RU();
  if (c->mtype == 0) {
    c->zerodiag  = RU() < 0.15 ? 1 + RI(3) : 0;
    c->missdiag  = RU() < 0.08 ? 1 + RI(2) : 0;
    c->emptyrows = RU() < 0.05 ? 1 + RI(2) : 0;
  } else c->zerodiag = RU() < 0.1 ? 1 : 0;
  c->noinode   = RU() < 0.15;
  {
    PetscReal u = RU();
    c->backend = u < 0.35 ? 0 : (u < 0.55 ? 1 : 2);
  }
  c->det         = RU() < 0.35;
  c->setupthr    = RU() < 0.5 ? 0 : 1 + RI(2);
  c->refactor    = RI(4);
  c->plancheck   = RU() < 0.4;
  c->rbuf        = RU() < 0.3 ? (RU() < 0.5 ? 0 : RI(64)) : -1;
  c->fill        = RU() < 0.2 ? (RU() < 0.5 ? 1.0 : 5.0) : -1;
  c->threadsrows = c->backend == 2 && RU() < 0.2;
  c->nrounds     = 2 + RI(3);
  {
    PetscBool f = PETSC_FALSE;
    PetscOptionsGetBool(NULL, NULL, "-force_serial", &f, NULL);
    if (f) { c->backend = 1; c->threadsrows = 0; }
    f = PETSC_FALSE;
    PetscOptionsGetBool(NULL, NULL, "-focus_refactor", &f, NULL);
    if (f) {
      c->refactor = 1; c->plancheck = 1; c->setupthr = 2; c->backend = 2; c->threadsrows = 0;
      if (c->gen == 7 || c->gen == 6) c->levels = 0; /* dense/hub factors: plan memory ~ flops */
      if (c->levels > 2) c->levels = 2;
    }
  }
}

static PetscErrorCode RunCase(unsigned long long seed, PetscInt maxn)
{
  Case      c;
  Pat       p;
  CSR       H;
  Mat       A = NULL, Ar = NULL;
  PC        st = NULL, ref = NULL;
  PetscBool sym, ok;
  PetscInt  nb;

  PetscFunctionBeginUser;
  GenCase(seed, maxn, &c);
  alarm(240); /* a hang: SIGALRM kills the process, the runner records the seed */
  sym = (PetscBool)(c.icc || c.gen == 1 || ((c.gen == 2 || c.gen == 3) && RU() < 0.5));
  {
    PetscBool f = PETSC_FALSE;
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-icc_nonsym", &f, NULL));
    if (f && c.icc) { sym = PETSC_FALSE; if (c.mtype == 2) { c.mtype = 0; c.bs = 1; } if (c.gen == 1) c.gen = 0; }
  }
  PetscCall(PetscSNPrintf(caselabel, sizeof(caselabel),
                          "seed=%llu gen=%s n=%d mtype=%s bs=%d type=%s levels=%d ord=%s shift=%s amount=%g dd=%.2f zerodiag=%d missdiag=%d empty=%d noinode=%d backend=%s det=%d setupthr=%d refactor=%s plancheck=%d rbuf=%d fill=%g trows=%d rounds=%d",
                          seed, gens[c.gen], (int)c.n, c.mtype == 0 ? "aij" : c.mtype == 1 ? "baij" : "sbaij", (int)c.bs, c.icc ? "icc" : "ilu", (int)c.levels, orderings[c.ord], shifts[c.shift], c.shiftamount, c.dd, (int)c.zerodiag, (int)c.missdiag, (int)c.emptyrows, (int)c.noinode,
                          c.backend == 0 ? "default" : c.backend == 1 ? "serial" : "threads", (int)c.det, (int)c.setupthr, c.refactor == 0 ? "unset" : c.refactor == 1 ? "device" : c.refactor == 2 ? "petsc" : "auto", (int)c.plancheck, (int)c.rbuf, c.fill, (int)c.threadsrows, (int)c.nrounds));
  printf("CASE %s\n", caselabel);
  fflush(stdout);
  nb = c.n / c.bs;
  GenPattern(&c, nb, &p, sym);
  BuildCSR(&c, &p, c.bs, &H);
  PatFree(&p);
  FillValues(&c, &H, sym, c.dd);
  if (c.gen == 4 && !sym && H.n > 1) { /* random row permutation: rows swapped (ILU only) */
    PetscInt *perm = malloc(H.n * sizeof(PetscInt)), *ia = malloc((H.n + 1) * sizeof(PetscInt)), *ja = malloc((H.ia[H.n] + 1) * sizeof(PetscInt));
    PetscReal *a = malloc((H.ia[H.n] + 1) * sizeof(PetscReal));
    for (PetscInt i = 0; i < H.n; i++) perm[i] = i;
    PetscInt nsw = RU() < 0.5 ? 1 + RI(3) : H.n;
    for (PetscInt t = 0; t < nsw; t++) { PetscInt i = RI(H.n), j = RI(H.n), x = perm[i]; perm[i] = perm[j]; perm[j] = x; }
    ia[0] = 0;
    for (PetscInt i = 0; i < H.n; i++) {
      PetscInt s = H.ia[perm[i]], e = H.ia[perm[i] + 1];
      memcpy(ja + ia[i], H.ja + s, (e - s) * sizeof(PetscInt));
      memcpy(a + ia[i], H.a + s, (e - s) * sizeof(PetscReal));
      ia[i + 1] = ia[i] + e - s;
    }
    free(H.ia); free(H.ja); free(H.a); free(perm);
    H.ia = ia; H.ja = ja; H.a = a;
  }
  if (c.missdiag || c.emptyrows) {
    PetscInt dd[4], ee[4];
    for (PetscInt t = 0; t < c.missdiag; t++) dd[t] = RI(H.n);
    for (PetscInt t = 0; t < c.emptyrows; t++) ee[t] = RI(H.n);
    if (H.n) DropEntries(&H, dd, c.missdiag, ee, c.emptyrows);
  }
  if (c.zerodiag && H.n) {
    for (PetscInt t = 0; t < c.zerodiag; t++) {
      PetscInt i = RI(H.n);
      for (PetscInt k = H.ia[i]; k < H.ia[i + 1]; k++) if (H.ja[k] == i) H.a[k] = 0;
    }
  }
  PetscCall(CreateMat(&c, &H, &A));

  PetscCall(MakeST(&c, A, "st_", c.backend, &st));
  PetscCall(Round(&c, "round0(initial)", A, st, &ref, &Ar, &ok));
  if (ok && native && c.mtype != 0 && c.ord == 0 && (c.levels == 0 || c.bs == 1)) {
    PC nref; PetscErrorCode e; PCFailedReason r; PetscReal w = 0;
    PetscCall(MakeRef(&c, A, &nref));
    PetscCall(TrySetUp(nref, &e, &r));
    if (!e && !r) { nnative++; PetscCall(CompareApplies(&c, "round0-native-type-ref", nref, A, st, 1e-10, &w)); printf("  native ref worst %.2e\n", (double)w); }
    else printf("  native ref fails e%d %s\n", (int)e, PCFailedReasons[r]);
    PetscCall(PCDestroy(&nref));
  }
  if (ok && c.det) PetscCall(CheckDet(&c, A, st, "round0"));
  for (PetscInt r = 1; r <= c.nrounds; r++) {
    char     rname[64];
    PetscInt kind = RI(5);
    const char *kn[] = {"MatScale", "newvalues", "zerodiag", "MatShift", "newvalues-nondominant"};
    PetscCall(PetscSNPrintf(rname, sizeof(rname), "round%d(%s)", (int)r, kn[kind]));
    if (kind == 0) {
      PetscReal s = 0.5 + 1.5 * RU();
      if (RU() < 0.1) s = -s;
      PetscCall(MatScale(A, s));
      for (PetscInt k = 0; k < H.ia[H.n]; k++) H.a[k] *= s;
    } else if (kind == 1 || kind == 4) {
      FillValues(&c, &H, sym, kind == 4 ? 0.4 : 1.0 + RU());
      PetscCall(SetValuesFrom(&c, &H, A));
    } else if (kind == 2) {
      if (H.n) {
        PetscInt i = RI(H.n);
        for (PetscInt k = H.ia[i]; k < H.ia[i + 1]; k++) if (H.ja[k] == i) H.a[k] = 0;
      }
      PetscCall(SetValuesFrom(&c, &H, A));
    } else {
      PetscReal s = RU() * 2;
      PetscBool hasd = PETSC_TRUE;
      for (PetscInt i = 0; i < H.n; i++) {
        PetscBool f = PETSC_FALSE;
        for (PetscInt k = H.ia[i]; k < H.ia[i + 1]; k++) if (H.ja[k] == i) { H.a[k] += s; f = PETSC_TRUE; }
        if (!f) hasd = PETSC_FALSE;
      }
      if (hasd) PetscCall(SetValuesFrom(&c, &H, A)); /* MatShift would add missing diagonals: keep pattern */
      else { /* revert */
        for (PetscInt i = 0; i < H.n; i++) for (PetscInt k = H.ia[i]; k < H.ia[i + 1]; k++) if (H.ja[k] == i) H.a[k] -= s;
        PetscCall(MatScale(A, 2.0));
        for (PetscInt k = 0; k < H.ia[H.n]; k++) H.a[k] *= 2.0;
      }
    }
    PetscCall(Round(&c, rname, A, st, &ref, &Ar, &ok));
    if (ok && c.det) PetscCall(CheckDet(&c, A, st, rname));
  }
  PetscCall(PCDestroy(&st));
  PetscCall(PCDestroy(&ref));
  PetscCall(MatDestroy(&Ar));
  PetscCall(MatDestroy(&A));
  PetscCall(ClearOpts());
  free(H.ia); free(H.ja); free(H.a);
  printf("DONE seed=%llu\n", seed);
  fflush(stdout);
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt seed0 = 1, ncases = 10, maxn = 20000;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-seed0", &seed0, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-ncases", &ncases, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-maxn", &maxn, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-bign", &bign, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-native", &native, NULL));
  for (PetscInt s = seed0; s < seed0 + ncases; s++) PetscCall(RunCase((unsigned long long)s, maxn));
  printf("SUMMARY cases=%d compared_applies=%d mismatches=%d sticky_notes=%d rounds_compared=%d rounds_bothfail=%d ksp_checks=%d det_checks=%d det_vs_serial=%d native_checks=%d\n", (int)ncases, (int)ncompared, (int)nmismatch, (int)nsticky, (int)nrounds_ok, (int)nbothfail, (int)nksp, (int)ndet, (int)ndetser, (int)nnative);
  PetscCall(PetscFinalize());
  return 0;
}
