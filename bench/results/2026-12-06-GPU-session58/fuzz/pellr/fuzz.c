static char help[] = "Throwaway fuzzer: pellr vs aij.\n";
#include <petscsparsegpu.h>
#include <math.h>

/* ---------------- deterministic RNG (same on every rank) */
static unsigned long long rs;
static unsigned long long rnext(void)
{
  rs ^= rs << 13;
  rs ^= rs >> 7;
  rs ^= rs << 17;
  return rs;
}
static PetscInt  ri(PetscInt n) { return n <= 0 ? 0 : (PetscInt)(rnext() % (unsigned long long)n); }
static PetscReal ru(void) { return (PetscReal)(rnext() >> 11) / 9007199254740992.0; }

/* ---------------- global bookkeeping */
static PetscMPIInt rank, size;
static long        ncompares = 0, nmismatch = 0, nerr = 0, ncases = 0, nrefused = 0;
static long        cmp_by_fmt[5];
static char        curdesc[4096];
static char        ops_done[4096];
static int         cur_fmt;
static PetscBool   verbose = PETSC_FALSE;
static PetscBool   case_aborted;
static PetscInt    gcase;
static PetscInt    badx = 0, maxn = 20000; /* put Inf/NaN in x */

#define NCAT 200
static char cats[NCAT][48];
static long catn[NCAT];
static int  ncat = 0;
static void Report(const char *kind, const char *what, double d)
{
  char key[48];
  int  k;
  snprintf(key, sizeof(key), "%s:%s", kind, what);
  for (char *q = key; *q; q++) if ((*q >= '0' && *q <= '9') || *q == '(' || *q == ';') { *q = 0; break; }
  for (k = 0; k < ncat; k++) if (!strcmp(cats[k], key)) break;
  if (k == ncat && ncat < NCAT) strcpy(cats[ncat++], key);
  if (k < NCAT) catn[k]++;
  if (k < NCAT && catn[k] > 3) return;
  printf("[%d] %s case %" PetscInt_FMT " fmt %s op %s (rel %g) | %s | ops:%s\n", rank, kind, gcase, MatPELLRFormats[cur_fmt], what, d, curdesc, ops_done);
  fflush(stdout);
}

static PetscBool expect_sup = PETSC_FALSE;
static Mat      *g_A;
static PetscErrorCode EllrOK(Mat, PetscBool *);
/* call a pellr-side expression, catching its error */
#define TP(name, expr) \
  do { \
    PetscErrorCode _e; \
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL)); \
    _e = (expr); \
    PetscCall(PetscPopErrorHandler()); \
    if (_e && expect_sup && _e == PETSC_ERR_SUP) { \
      PetscBool _ok; \
      PetscCall(EllrOK(*g_A, &_ok)); \
      if (!_ok) { \
        nrefused++; \
        case_aborted = PETSC_TRUE; \
        if (verbose) printf("ellr refused (documented) at %s\n", name); \
        PetscFunctionReturn(PETSC_SUCCESS); \
      } \
    } \
    if (_e) { \
      const char *_t; \
      char       *_s; \
      PetscErrorMessage(_e, &_t, &_s); \
      char _b[1200]; \
      snprintf(_b, sizeof(_b), "%s -> error %d: %s / %s", name, (int)_e, _t ? _t : "", _s ? _s : ""); \
      Report("ERROR", _b, 0); \
      nerr++; \
      case_aborted = PETSC_TRUE; \
      PetscFunctionReturn(PETSC_SUCCESS); \
    } \
  } while (0)

static long naijerr = 0;
#define TA(expr) \
  do { \
    PetscErrorCode _e; \
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL)); \
    _e = (expr); \
    PetscCall(PetscPopErrorHandler()); \
    if (_e) { \
      const char *_t; \
      char       *_s; \
      PetscErrorMessage(_e, &_t, &_s); \
      if (verbose) printf("[%d] AIJ-side error (case skipped) case %" PetscInt_FMT ": %s: %s | ops:%s\n", rank, gcase, #expr, _s ? _s : "", ops_done); \
      naijerr++; \
      case_aborted = PETSC_TRUE; \
      PetscFunctionReturn(PETSC_SUCCESS); \
    } \
  } while (0)

static void Mismatch(const char *what, double d)
{
  nmismatch++;
  Report("MISMATCH", what, d);
}

static int SameVal(PetscScalar a, PetscScalar b)
{
  if (isnan(a) && isnan(b)) return 1;
  return a == b;
}

/* ---------------- matrix generation: global triplets */
typedef struct {
  PetscInt     m, n, nz, cap;
  PetscInt    *i, *j;
  PetscScalar *v;
} Trip;

static void TAdd(Trip *t, PetscInt i, PetscInt j, PetscScalar v)
{
  if (t->nz == t->cap) {
    t->cap = 2 * t->cap + 16;
    t->i   = realloc(t->i, t->cap * sizeof(PetscInt));
    t->j   = realloc(t->j, t->cap * sizeof(PetscInt));
    t->v   = realloc(t->v, t->cap * sizeof(PetscScalar));
  }
  t->i[t->nz] = i, t->j[t->nz] = j, t->v[t->nz++] = v;
}

static PetscReal pzero = 0.1, pbad = 0.0;
static PetscScalar RVal(void)
{
  PetscReal u = ru();
  if (pbad > 0 && ru() < pbad) {
    PetscInt k = ri(3);
    return k == 0 ? NAN : (k == 1 ? INFINITY : -INFINITY);
  }
  if (u < pzero) return 0.0;
  return 2 * ru() - 1 + (ri(4) == 0 ? 100 * ru() : 0);
}

static const char *kinds[] = {"random", "emptyrows", "longrow", "powerlaw", "banded", "diagonal", "densesmall", "stencil", "allempty", "blockrows", "nodiag_band"};
#define NKINDS 11

static PetscInt RSize(void)
{
  PetscInt s[] = {0, 1, 2, 3, 31, 32, 33, 63, 64, 65, 97};
  PetscInt k   = ri(20);
  if (k < 6) return s[ri(11)];
  if (k < 15) return 1 + ri(300);
  if (k < 19) return 1 + ri(3000);
  return 1 + ri(20000);
}

static void Gen(Trip *t, PetscInt kind)
{
  PetscInt m = t->m, n = t->n;
  if (!m || !n) return;
  switch (kind) {
  case 0: {
    PetscInt maxl = 1 + ri(PetscMin(n, 12));
    for (PetscInt i = 0; i < m; i++) {
      PetscInt l = ri(maxl + 1);
      for (PetscInt k = 0; k < l; k++) TAdd(t, i, ri(n), RVal());
    }
  } break;
  case 1:
    for (PetscInt i = 0; i < m; i++)
      if (ri(2)) {
        PetscInt l = 1 + ri(PetscMin(n, 6));
        for (PetscInt k = 0; k < l; k++) TAdd(t, i, ri(n), RVal());
      }
    break;
  case 2: {
    PetscInt lr = ri(m), ll = PetscMin(n, 1 + ri(n));
    if (ri(2)) ll = n;
    for (PetscInt i = 0; i < m; i++) {
      if (i == lr) {
        for (PetscInt k = 0; k < ll; k++) TAdd(t, i, ri(2) ? k : ri(n), RVal());
      } else {
        PetscInt l = ri(4);
        for (PetscInt k = 0; k < l; k++) TAdd(t, i, ri(n), RVal());
      }
    }
  } break;
  case 3:
    for (PetscInt i = 0; i < m; i++) {
      PetscReal u = ru();
      PetscInt  l = (PetscInt)PetscMin((PetscReal)n, floor(1.0 / pow(u + 1e-9, 0.9)) - 1);
      if (l > 3000) l = 3000;
      for (PetscInt k = 0; k < l; k++) TAdd(t, i, ri(n), RVal());
    }
    break;
  case 4:
  case 10: {
    PetscInt b = ri(6);
    for (PetscInt i = 0; i < m; i++)
      for (PetscInt j = i - b; j <= i + b; j++)
        if (j >= 0 && j < n && !(kind == 10 && j == i)) TAdd(t, i, j, RVal());
  } break;
  case 5:
    for (PetscInt i = 0; i < PetscMin(m, n); i++) TAdd(t, i, i, RVal());
    break;
  case 6:
    for (PetscInt i = 0; i < PetscMin(m, 40); i++)
      for (PetscInt j = 0; j < PetscMin(n, 40); j++) TAdd(t, i, j, RVal());
    for (PetscInt i = 40; i < m; i++) TAdd(t, i, i % n, RVal());
    break;
  case 7: {
    PetscInt nx = 1 + ri(40);
    for (PetscInt i = 0; i < m; i++) {
      PetscInt off[5] = {0, -1, 1, -nx, nx};
      for (PetscInt k = 0; k < 5; k++) {
        PetscInt j = i + off[k];
        if (j >= 0 && j < n) TAdd(t, i, j, k == 0 ? 4.0 : -1.0);
      }
    }
  } break;
  case 8:
    break;
  case 9:
    for (PetscInt i = 0; i < m; i++) {
      PetscInt l = ri(10) == 0 ? PetscMin(n, 200 + ri(800)) : ri(3);
      PetscInt s = ri(n);
      for (PetscInt k = 0; k < l; k++) TAdd(t, i, (s + k) % n, RVal());
    }
    break;
  }
}

/* ---------------- building */
static PetscErrorCode Prealloc(Mat M, Trip *t, PetscInt mode)
{
  PetscInt rs0, re0, cs, ce, *d, *o;
  PetscFunctionBeginUser;
  if (mode == 2) { /* no preallocation */
    PetscCall(MatSetUp(M));
    PetscCall(MatSetOption(M, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  {
    PetscLayout rl, cl;
    PetscCall(MatGetLayouts(M, &rl, &cl));
    PetscCall(PetscLayoutSetUp(rl));
    PetscCall(PetscLayoutSetUp(cl));
  }
  PetscCall(MatGetOwnershipRange(M, &rs0, &re0));
  PetscCall(MatGetOwnershipRangeColumn(M, &cs, &ce));
  PetscCall(PetscCalloc2(re0 - rs0 + 1, &d, re0 - rs0 + 1, &o));
  for (PetscInt k = 0; k < t->nz; k++)
    if (t->i[k] >= rs0 && t->i[k] < re0) {
      if (t->j[k] >= cs && t->j[k] < ce) d[t->i[k] - rs0]++;
      else o[t->i[k] - rs0]++;
    }
  for (PetscInt i = 0; i < re0 - rs0; i++) {
    d[i] = PetscMin(d[i], ce - cs);
    o[i] = PetscMin(o[i], t->n - (ce - cs));
    if (mode == 1) d[i] /= 2, o[i] /= 2; /* under-preallocated */
  }
  PetscCall(MatXAIJSetPreallocation(M, 1, d, o, NULL, NULL));
  PetscCall(PetscFree2(d, o));
  if (mode == 1) PetscCall(MatSetOption(M, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Fill(Mat M, Trip *t, InsertMode im, PetscBool all)
{
  PetscInt rs0, re0;
  PetscFunctionBeginUser;
  PetscCall(MatGetOwnershipRange(M, &rs0, &re0));
  for (PetscInt k = 0; k < t->nz; k++)
    if ((all && rank == 0) || (!all && t->i[k] >= rs0 && t->i[k] < re0)) PetscCall(MatSetValue(M, t->i[k], t->j[k], t->v[k], im));
  PetscCall(MatAssemblyBegin(M, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(M, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Build(Trip *t, MatType type, PetscInt pmode, InsertMode im, PetscBool all, Mat *M)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreate(PETSC_COMM_WORLD, M));
  PetscCall(MatSetSizes(*M, PETSC_DECIDE, PETSC_DECIDE, t->m, t->n));
  PetscCall(MatSetType(*M, type));
  PetscCall(Prealloc(*M, t, pmode));
  PetscCall(Fill(*M, t, im, all));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------- comparisons */
static PetscErrorCode CompareEntries(Mat A, Mat P, const char *what, PetscBool exact)
{
  PetscInt rs0, re0, ma, na, mp, np;
  int      bad = 0, gbad;
  double   worst = 0;
  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &ma, &na));
  TP("MatGetSize", MatGetSize(P, &mp, &np));
  if (ma != mp || na != np) bad = 1;
  PetscCall(MatGetOwnershipRange(A, &rs0, &re0));
  for (PetscInt r = rs0; r < re0 && !bad; r++) {
    const PetscInt    *ca, *cp;
    const PetscScalar *va, *vp;
    PetscInt           la, lp;
    PetscCall(MatGetRow(A, r, &la, &ca, &va));
    TP("MatGetRow", MatGetRow(P, r, &lp, &cp, &vp));
    if (la != lp) bad = 2;
    for (PetscInt k = 0; k < la && !bad; k++) {
      if (ca[k] != cp[k]) bad = 3;
      else if (!SameVal(va[k], vp[k])) {
        double d = fabs(va[k] - vp[k]) / PetscMax(fabs(va[k]), 1e-300);
        if (exact || !(d < 1e-13)) bad = 4;
        worst = PetscMax(worst, d);
      }
    }
    TP("MatRestoreRow", MatRestoreRow(P, r, &lp, &cp, &vp));
    PetscCall(MatRestoreRow(A, r, &la, &ca, &va));
  }
  PetscCallMPI(MPIU_Allreduce(&bad, &gbad, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD));
  ncompares++;
  cmp_by_fmt[cur_fmt]++;
  if (bad) {
    char b[256];
    snprintf(b, sizeof(b), "%s(entries differ: %s)", what, bad == 1 ? "size" : bad == 2 ? "row length" : bad == 3 ? "column" : "value");
    Mismatch(b, worst);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* |A| |x| bound (rows) and |A|^T |x| (columns), from global arrays x */
static PetscErrorCode AbsBound(Mat A, const PetscScalar *x, PetscBool trans, PetscReal *out, PetscInt *maxlen)
{
  PetscInt rs0, re0, M, N;
  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(MatGetOwnershipRange(A, &rs0, &re0));
  PetscReal *loc;
  PetscInt  *cnt, *gcnt;
  PetscCall(PetscCalloc3(N + 1, &loc, N + 1, &cnt, N + 1, &gcnt));
  *maxlen = 0;
  for (PetscInt r = rs0; r < re0; r++) {
    const PetscInt    *c;
    const PetscScalar *v;
    PetscInt           l;
    PetscCall(MatGetRow(A, r, &l, &c, &v));
    *maxlen = PetscMax(*maxlen, l);
    if (!trans) {
      PetscReal s = 0;
      for (PetscInt k = 0; k < l; k++) s += PetscAbsScalar(v[k]) * PetscAbsScalar(x[c[k]]);
      out[r - rs0] = s;
    } else
      for (PetscInt k = 0; k < l; k++) loc[c[k]] += PetscAbsScalar(v[k]) * PetscAbsScalar(x[r]), cnt[c[k]]++;
    PetscCall(MatRestoreRow(A, r, &l, &c, &v));
  }
  if (trans) {
    PetscInt cs, ce;
    PetscReal *g;
    PetscCall(PetscMalloc1(N + 1, &g));
    PetscCallMPI(MPIU_Allreduce(loc, g, N, MPIU_REAL, MPI_SUM, PETSC_COMM_WORLD));
    PetscCallMPI(MPIU_Allreduce(cnt, gcnt, N, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
    PetscCall(MatGetOwnershipRangeColumn(A, &cs, &ce));
    for (PetscInt j = cs; j < ce; j++) out[j - cs] = g[j];
    *maxlen = 0;
    for (PetscInt j = 0; j < N; j++) *maxlen = PetscMax(*maxlen, gcnt[j]);
    PetscCall(PetscFree(g));
  } else {
    PetscInt ml = *maxlen;
    PetscCallMPI(MPIU_Allreduce(&ml, maxlen, 1, MPIU_INT, MPI_MAX, PETSC_COMM_WORLD));
  }
  PetscCall(PetscFree3(loc, cnt, gcnt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CmpVec(Vec ya, Vec yp, const PetscReal *bound, PetscInt L, const char *what)
{
  const PetscScalar *a, *p;
  PetscInt           n;
  int                bad = 0, gbad;
  double             worst = 0, gw;
  PetscFunctionBeginUser;
  PetscCall(VecGetLocalSize(ya, &n));
  PetscCall(VecGetArrayRead(ya, &a));
  PetscCall(VecGetArrayRead(yp, &p));
  for (PetscInt i = 0; i < n; i++) {
    if (SameVal(a[i], p[i])) continue;
    if (!isfinite(a[i]) || !isfinite(p[i])) {
      bad = 1;
      worst = INFINITY;
      continue;
    }
    PetscReal tol = (bound ? 2.0 * (L + 4) * PETSC_MACHINE_EPSILON * bound[i] : 0) + 1e-300;
    PetscReal d   = PetscAbsScalar(a[i] - p[i]);
    if (bound && bound[i] > 0) worst = PetscMax(worst, d / bound[i]);
    else worst = PetscMax(worst, d);
    if (d > tol) bad = 1;
  }
  PetscCall(VecRestoreArrayRead(ya, &a));
  PetscCall(VecRestoreArrayRead(yp, &p));
  PetscCallMPI(MPIU_Allreduce(&bad, &gbad, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD));
  PetscCallMPI(MPIU_Allreduce(&worst, &gw, 1, MPI_DOUBLE, MPI_MAX, PETSC_COMM_WORLD));
  ncompares++;
  cmp_by_fmt[cur_fmt]++;
  if (gbad && rank == 0) Mismatch(what, gw);
  else if (gbad) nmismatch++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetVecGlobal(Vec v, const PetscScalar *g)
{
  PetscInt     s, e;
  PetscScalar *a;
  PetscFunctionBeginUser;
  PetscCall(VecGetOwnershipRange(v, &s, &e));
  PetscCall(VecGetArray(v, &a));
  for (PetscInt i = s; i < e; i++) a[i - s] = g[i];
  PetscCall(VecRestoreArray(v, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscScalar *RandArr(PetscInt n)
{
  PetscScalar *a = malloc((n + 1) * sizeof(PetscScalar));
  for (PetscInt i = 0; i < n; i++) a[i] = 2 * ru() - 1;
  if (badx && n) {
    PetscInt k = ri(n);
    a[k] = ri(2) ? INFINITY : NAN;
  }
  return a;
}

static PetscErrorCode CheckProducts(Mat A, Mat P, const char *tag)
{
  PetscInt     M, N, rs0, re0, cs, ce, L, LT;
  Vec          x, y, ya, z, xt, yt, yta, zt;
  PetscScalar *gx, *gz, *gxt, *gzt;
  PetscReal   *b, *bt, *bz, *bzt;
  char         w[256];
  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(MatGetOwnershipRange(A, &rs0, &re0));
  PetscCall(MatGetOwnershipRangeColumn(A, &cs, &ce));
  gx  = RandArr(N);
  gz  = RandArr(M);
  gxt = RandArr(M);
  gzt = RandArr(N);
  PetscCall(MatCreateVecs(A, &x, &y));
  PetscCall(VecDuplicate(y, &ya));
  PetscCall(VecDuplicate(y, &z));
  PetscCall(VecDuplicate(y, &xt));
  PetscCall(VecDuplicate(x, &yt));
  PetscCall(VecDuplicate(x, &yta));
  PetscCall(VecDuplicate(x, &zt));
  PetscCall(SetVecGlobal(x, gx));
  PetscCall(SetVecGlobal(z, gz));
  PetscCall(SetVecGlobal(xt, gxt));
  PetscCall(SetVecGlobal(zt, gzt));
  PetscCall(PetscMalloc4(re0 - rs0 + 1, &b, ce - cs + 1, &bt, re0 - rs0 + 1, &bz, ce - cs + 1, &bzt));
  PetscCall(AbsBound(A, gx, PETSC_FALSE, b, &L));
  PetscCall(AbsBound(A, gxt, PETSC_TRUE, bt, &LT));
  for (PetscInt i = 0; i < re0 - rs0; i++) bz[i] = b[i] + PetscAbsScalar(gz[rs0 + i]);
  for (PetscInt i = 0; i < ce - cs; i++) bzt[i] = bt[i] + PetscAbsScalar(gzt[cs + i]);

  PetscCall(VecSet(y, 7.0)); /* garbage in output */
  PetscCall(VecSet(ya, 7.0));
  PetscCall(MatMult(A, x, ya));
  TP("MatMult", MatMult(P, x, y));
  snprintf(w, sizeof(w), "%s:MatMult", tag);
  PetscCall(CmpVec(ya, y, b, L, w));
  PetscCall(MatMultAdd(A, x, z, ya));
  TP("MatMultAdd", MatMultAdd(P, x, z, y));
  snprintf(w, sizeof(w), "%s:MatMultAdd", tag);
  PetscCall(CmpVec(ya, y, bz, L, w));
  PetscCall(VecCopy(z, y));
  PetscCall(VecCopy(z, ya));
  PetscCall(MatMultAdd(A, x, ya, ya));
  TP("MatMultAdd(y=z)", MatMultAdd(P, x, y, y));
  snprintf(w, sizeof(w), "%s:MatMultAdd(y==z)", tag);
  PetscCall(CmpVec(ya, y, bz, L, w));

  PetscCall(VecSet(yt, -3.0));
  PetscCall(VecSet(yta, -3.0));
  PetscCall(MatMultTranspose(A, xt, yta));
  TP("MatMultTranspose", MatMultTranspose(P, xt, yt));
  snprintf(w, sizeof(w), "%s:MatMultTranspose", tag);
  PetscCall(CmpVec(yta, yt, bt, LT, w));
  PetscCall(MatMultTransposeAdd(A, xt, zt, yta));
  TP("MatMultTransposeAdd", MatMultTransposeAdd(P, xt, zt, yt));
  snprintf(w, sizeof(w), "%s:MatMultTransposeAdd", tag);
  PetscCall(CmpVec(yta, yt, bzt, LT, w));
  PetscCall(VecCopy(zt, yt));
  PetscCall(VecCopy(zt, yta));
  PetscCall(MatMultTransposeAdd(A, xt, yta, yta));
  TP("MatMultTransposeAdd(y=z)", MatMultTransposeAdd(P, xt, yt, yt));
  snprintf(w, sizeof(w), "%s:MatMultTransposeAdd(y==z)", tag);
  PetscCall(CmpVec(yta, yt, bzt, LT, w));
  /* second mult: cached state */
  PetscCall(MatMult(A, x, ya));
  TP("MatMult#2", MatMult(P, x, y));
  snprintf(w, sizeof(w), "%s:MatMult#2", tag);
  PetscCall(CmpVec(ya, y, b, L, w));

  if (M == N) {
    PetscCall(MatGetDiagonal(A, ya));
    TP("MatGetDiagonal", MatGetDiagonal(P, y));
    snprintf(w, sizeof(w), "%s:MatGetDiagonal", tag);
    PetscCall(CmpVec(ya, y, NULL, 0, w));
  } else if (size == 1) { /* rectangular: whatever AIJ does */
    PetscErrorCode ea;
    Vec            d1, d2;
    PetscCall(MatCreateVecs(A, NULL, &d1));
    PetscCall(VecDuplicate(d1, &d2));
    PetscCall(VecSet(d1, 5.0));
    PetscCall(VecSet(d2, 5.0));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ea = MatGetDiagonal(A, d1);
    PetscCall(PetscPopErrorHandler());
    if (!ea) {
      TP("MatGetDiagonal(rect)", MatGetDiagonal(P, d2));
      snprintf(w, sizeof(w), "%s:MatGetDiagonal(rect)", tag);
      PetscCall(CmpVec(d1, d2, NULL, 0, w));
    }
    PetscCall(VecDestroy(&d1));
    PetscCall(VecDestroy(&d2));
  }
  {
    NormType  nt[3] = {NORM_1, NORM_INFINITY, NORM_FROBENIUS};
    PetscReal na, np;
    for (int k = 0; k < 3; k++) {
      PetscCall(MatNorm(A, nt[k], &na));
      TP("MatNorm", MatNorm(P, nt[k], &np));
      ncompares++;
      cmp_by_fmt[cur_fmt]++;
      if (!(na == np || (isnan(na) && isnan(np)) || fabs(na - np) <= 1e-13 * fabs(na))) {
        snprintf(w, sizeof(w), "%s:MatNorm(%s) aij %.17g pellr %.17g", tag, NormTypes[nt[k]], na, np);
        Mismatch(w, fabs(na - np) / fabs(na));
      }
    }
  }
  /* MatGetValues on random (i, j) of local rows */
  if (M && N) {
    PetscInt    ii[5], jj[7];
    PetscScalar va[35], vp[35];
    for (int k = 0; k < 5; k++) { PetscInt u = ri(1 << 30); ii[k] = rs0 + (re0 > rs0 ? u % (re0 - rs0) : 0); }
    for (int k = 0; k < 7; k++) jj[k] = ri(N);
    if (re0 > rs0) {
      PetscCall(MatGetValues(A, 5, ii, 7, jj, va));
      TP("MatGetValues", MatGetValues(P, 5, ii, 7, jj, vp));
      ncompares++;
      cmp_by_fmt[cur_fmt]++;
      for (int k = 0; k < 35; k++)
        if (!SameVal(va[k], vp[k])) {
          snprintf(w, sizeof(w), "%s:MatGetValues", tag);
          Mismatch(w, 0);
          break;
        }
    }
  }
  PetscCall(CompareEntries(A, P, tag, PETSC_TRUE));
  PetscCall(PetscFree4(b, bt, bz, bzt));
  free(gx), free(gz), free(gxt), free(gzt);
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&ya));
  PetscCall(VecDestroy(&z));
  PetscCall(VecDestroy(&xt));
  PetscCall(VecDestroy(&yt));
  PetscCall(VecDestroy(&yta));
  PetscCall(VecDestroy(&zt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckType(Mat P, const char *how)
{
  MatType   t;
  PetscBool ok;
  PetscFunctionBeginUser;
  PetscCall(MatGetType(P, &t));
  PetscCall(PetscStrcmp(t, size > 1 ? MATMPIPELLR : MATSEQPELLR, &ok));
  ncompares++;
  cmp_by_fmt[cur_fmt]++;
  if (!ok) {
    char w[256];
    snprintf(w, sizeof(w), "type after %s is %s", how, t);
    Mismatch(w, 0);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ELLR feasibility of the local blocks (doc rule), global AND */
static PetscErrorCode EllrOK(Mat A, PetscBool *ok)
{
  Mat       blk[2];
  PetscInt  nb = 1;
  PetscBool loc = PETSC_TRUE;
  PetscFunctionBeginUser;
  if (size > 1) {
    PetscCall(MatMPIAIJGetSeqAIJ(A, &blk[0], &blk[1], NULL));
    nb = 2;
  } else blk[0] = A;
  for (PetscInt k = 0; k < nb; k++) {
    const PetscInt *ai;
    PetscInt        m, maxlen = 0;
    PetscInt64      slots, nnz;
    PetscCall(MatGetLocalSize(blk[k], &m, NULL));
    PetscCall(MatSeqAIJGetCSRAndMemType(blk[k], &ai, NULL, NULL, NULL));
    for (PetscInt i = 0; i < m; i++) maxlen = PetscMax(maxlen, ai[i + 1] - ai[i]);
    nnz   = m ? ai[m] - ai[0] : 0;
    slots = (PetscInt64)((m + 31) / 32) * 32 * maxlen;
    if (slots > 8 * nnz + 32 * (PetscInt64)m) loc = PETSC_FALSE;
  }
  PetscCallMPI(MPIU_Allreduce(&loc, ok, 1, MPIU_BOOL, MPI_LAND, PETSC_COMM_WORLD));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* before products with ellr: if infeasible, on one rank check that it's refused with SUP, then switch to pellr */
static PetscErrorCode EllrGuard(Mat A, Mat P)
{
  PetscBool ok;
  PetscFunctionBeginUser;
  if (cur_fmt != MAT_PELLR_FORMAT_ELLR) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(EllrOK(A, &ok));
  if (ok) PetscFunctionReturn(PETSC_SUCCESS);
  if (size == 1) {
    Vec            x, y;
    PetscErrorCode e;
    PetscCall(MatCreateVecs(P, &x, &y));
    PetscCall(VecSet(x, 1.0));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    e = MatMult(P, x, y);
    PetscCall(PetscPopErrorHandler());
    if (e == PETSC_ERR_SUP) nrefused++;
    else {
      char w[512];
      MatPELLRFormat rq = 0, us = 0;
      MatPELLRInfo   inf;
      MatType        tt;
      PetscCall(MatGetType(P, &tt));
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      (void)MatPELLRGetFormat(P, &rq, &us);
      (void)MatPELLRGetInfo(P, PETSC_FALSE, &inf);
      PetscCall(PetscPopErrorHandler());
      snprintf(w, sizeof(w), "ellr infeasible but MatMult returned %d (expected PETSC_ERR_SUP=%d); type %s requested %s used %s info.format %s slots %lld nnz %lld maxlen %d", (int)e, (int)PETSC_ERR_SUP, tt, MatPELLRFormats[rq], MatPELLRFormats[us], MatPELLRFormats[inf.format], (long long)inf.slots, (long long)inf.nonzeros, (int)inf.max_row_length);
      Mismatch(w, 0);
    }
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&y));
  }
  PetscCall(MatPELLRSetFormat(P, MAT_PELLR_FORMAT_PELLR));
  cur_fmt = MAT_PELLR_FORMAT_PELLR;
  strcat(ops_done, " [ellr-refused->pellr]");
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Check(Mat A, Mat P, const char *tag)
{
  PetscFunctionBeginUser;
  PetscCall(CheckType(P, tag));
  {
    MatPELLRFormat r = 0;
    PetscErrorCode e;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    e = MatPELLRGetFormat(P, &r, NULL);
    PetscCall(PetscPopErrorHandler());
    if (!e && (int)r != cur_fmt) {
      char b[160];
      snprintf(b, sizeof(b), "requested format changed from %s to %s by the last op(s)", MatPELLRFormats[cur_fmt], MatPELLRFormats[r]);
      Mismatch(b, 0);
      PetscCall(MatPELLRSetFormat(P, (MatPELLRFormat)cur_fmt));
    }
  }
  PetscCall(EllrGuard(A, P));
  PetscCall(CheckProducts(A, P, tag));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* random rows list (global indices), each rank gives some */
static PetscInt RandRows(PetscInt M, PetscInt *rows, PetscInt max)
{
  PetscInt n = M ? ri(max + 1) : 0;
  for (PetscInt k = 0; k < n; k++) rows[k] = ri(M);
  return n;
}

static PetscErrorCode MakeOther(PetscInt M, PetscInt N, PetscInt kind, MatType type, Mat *B)
{
  Trip t = {M, N, 0, 0, NULL, NULL, NULL};
  PetscFunctionBeginUser;
  Gen(&t, kind);
  PetscCall(Build(&t, type, 0, ADD_VALUES, PETSC_FALSE, B));
  free(t.i), free(t.j), free(t.v);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CmpDenseMats(Mat Ca, Mat Cp, const char *what)
{
  /* compare any two matrices entrywise with a tolerance relative to the max abs entry of Ca's row */
  PetscInt rs0, re0, M, N, Mp, Np;
  int      bad = 0, gbad;
  double   worst = 0;
  PetscFunctionBeginUser;
  PetscCall(MatGetSize(Ca, &M, &N));
  PetscCall(MatGetSize(Cp, &Mp, &Np));
  if (M != Mp || N != Np) bad = 1;
  PetscCall(MatGetOwnershipRange(Ca, &rs0, &re0));
  PetscScalar *ra = malloc((N + 1) * sizeof(PetscScalar)), *rp = malloc((N + 1) * sizeof(PetscScalar));
  for (PetscInt r = rs0; r < re0 && !bad; r++) {
    const PetscInt    *c;
    const PetscScalar *v;
    PetscInt           l;
    PetscReal          mx = 0;
    for (PetscInt j = 0; j < N; j++) ra[j] = rp[j] = 0;
    PetscCall(MatGetRow(Ca, r, &l, &c, &v));
    for (PetscInt k = 0; k < l; k++) ra[c[k]] = v[k], mx = PetscMax(mx, PetscAbsScalar(v[k]));
    PetscCall(MatRestoreRow(Ca, r, &l, &c, &v));
    PetscCall(MatGetRow(Cp, r, &l, &c, &v));
    for (PetscInt k = 0; k < l; k++) rp[c[k]] = v[k];
    PetscCall(MatRestoreRow(Cp, r, &l, &c, &v));
    for (PetscInt j = 0; j < N; j++)
      if (!SameVal(ra[j], rp[j])) {
        double d = PetscAbsScalar(ra[j] - rp[j]) / PetscMax(mx, 1e-300);
        worst    = PetscMax(worst, d);
        if (!(d < 1e-11)) bad = 1;
      }
  }
  free(ra), free(rp);
  PetscCallMPI(MPIU_Allreduce(&bad, &gbad, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD));
  ncompares++;
  cmp_by_fmt[cur_fmt]++;
  if (gbad) Mismatch(what, worst);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int      nview = 0;
static PetscInt NOPS  = 28;

/* one random operation on both A and P (index op), then maybe Check */
static PetscErrorCode DoOp(Mat *pA, Mat *pP, PetscInt op, Trip *t)
{
  Mat      A = *pA, P = *pP;
  PetscInt M, N, rs0, re0;
  char     tag[64];
  PetscFunctionBeginUser;
  TA(MatGetSize(A, &M, &N));
  TA(MatGetOwnershipRange(A, &rs0, &re0));
  snprintf(tag, sizeof(tag), "op%d", (int)op);
  switch (op) {
  case 0: { /* scale */
    PetscScalar a = ri(5) == 0 ? 0.0 : 2 * ru() - 1;
    TA(MatScale(A, a));
    TP("MatScale", MatScale(P, a));
    strcat(ops_done, " scale");
  } break;
  case 1: { /* shift */
    PetscScalar a = 2 * ru() - 1;
    TA(MatShift(A, a));
    TP("MatShift", MatShift(P, a));
    strcat(ops_done, " shift");
  } break;
  case 2: { /* diagonal scale */
    Vec          l, r;
    PetscScalar *gl = RandArr(M), *gr = RandArr(N);
    PetscInt     w = ri(3);
    for (PetscInt i = 0; i < M; i++) if (!isfinite(gl[i])) gl[i] = 0.5;
    for (PetscInt i = 0; i < N; i++) if (!isfinite(gr[i])) gr[i] = 0.5;
    TA(MatCreateVecs(A, &r, &l));
    PetscCall(SetVecGlobal(l, gl));
    PetscCall(SetVecGlobal(r, gr));
    TA(MatDiagonalScale(A, w == 1 ? NULL : l, w == 2 ? NULL : r));
    TP("MatDiagonalScale", MatDiagonalScale(P, w == 1 ? NULL : l, w == 2 ? NULL : r));
    PetscCall(VecDestroy(&l));
    PetscCall(VecDestroy(&r));
    free(gl), free(gr);
    strcat(ops_done, w == 0 ? " diagscale(l,r)" : w == 1 ? " diagscale(-,r)" : " diagscale(l,-)");
  } break;
  case 3: { /* setvalues on existing entries, same pattern */
    PetscInt    cnt = 1 + ri(20);
    InsertMode  im  = ri(2) ? INSERT_VALUES : ADD_VALUES;
    for (PetscInt c = 0; c < cnt && t->nz; c++) {
      PetscInt k = ri(t->nz);
      PetscScalar v = 2 * ru() - 1;
      if (t->i[k] >= rs0 && t->i[k] < re0) {
        TA(MatSetValue(A, t->i[k], t->j[k], v, im));
        TP("MatSetValue", MatSetValue(P, t->i[k], t->j[k], v, im));
      }
    }
    TA(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    TA(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    TP("MatAssemblyBegin", MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
    TP("MatAssemblyEnd", MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
    strcat(ops_done, im == INSERT_VALUES ? " setvals-same(insert)" : " setvals-same(add)");
  } break;
  case 4: { /* new nonzeros */
    PetscInt cnt = 1 + ri(30);
    PetscBool flush = (PetscBool)(ri(3) == 0), remote = (PetscBool)(ri(3) == 0);
    TA(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
    TP("MatSetOption", MatSetOption(P, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
    if (M && N) {
      for (PetscInt c = 0; c < cnt; c++) {
        PetscInt    u = ri(1 << 30), i = remote ? u % M : (re0 > rs0 ? rs0 + u % (re0 - rs0) : -1), j = ri(N);
        PetscScalar v = ri(8) == 0 ? 0.0 : 2 * ru() - 1;
        if (i >= 0 && (remote ? rank == (PetscMPIInt)(c % size) : 1)) {
          TA(MatSetValue(A, i, j, v, ADD_VALUES));
          TP("MatSetValue(new)", MatSetValue(P, i, j, v, ADD_VALUES));
        }
        if (flush && c == cnt / 2) {
          TA(MatAssemblyBegin(A, MAT_FLUSH_ASSEMBLY));
          TA(MatAssemblyEnd(A, MAT_FLUSH_ASSEMBLY));
          TP("MatAssemblyBegin(flush)", MatAssemblyBegin(P, MAT_FLUSH_ASSEMBLY));
          TP("MatAssemblyEnd(flush)", MatAssemblyEnd(P, MAT_FLUSH_ASSEMBLY));
        }
      }
    }
    TA(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    TA(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    TP("MatAssemblyBegin", MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
    TP("MatAssemblyEnd", MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
    strcat(ops_done, flush ? " newnz(flush)" : " newnz");
    if (remote) strcat(ops_done, "(remote)");
  } break;
  case 5: { /* zero entries then refill a subset */
    TA(MatZeroEntries(A));
    TP("MatZeroEntries", MatZeroEntries(P));
    strcat(ops_done, " zeroentries");
    if (ri(2)) {
      for (PetscInt k = 0; k < t->nz; k += 1 + ri(3)) {
        PetscScalar v = 2 * ru() - 1;
        if (t->i[k] >= rs0 && t->i[k] < re0) {
          TA(MatSetValue(A, t->i[k], t->j[k], v, INSERT_VALUES));
          TP("MatSetValue", MatSetValue(P, t->i[k], t->j[k], v, INSERT_VALUES));
        }
      }
      TA(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
      TA(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
      TP("MatAssemblyBegin", MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
      TP("MatAssemblyEnd", MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
      strcat(ops_done, "+refill");
    }
  } break;
  case 6: { /* zero rows */
    PetscInt    rows[12], nr = RandRows(M, rows, 6);
    PetscScalar diag = ri(3) == 0 ? 0.0 : (ri(2) ? 1.0 : 3.5);
    if (M != N) diag = 0.0;
    if (diag != 0.0) { /* PETSc 3.22.5 MatZeroRows_SeqAIJ writes to a freed array when it inserts a missing diagonal: store them first */
      Vec zz;
      TA(MatCreateVecs(A, NULL, &zz));
      PetscCall(VecSet(zz, 0.0));
      TA(MatDiagonalSet(A, zz, ADD_VALUES));
      TP("MatDiagonalSet(0)", MatDiagonalSet(P, zz, ADD_VALUES));
      PetscCall(VecDestroy(&zz));
    } /* PETSc 3.22.5 MatZeroRows_MPIAIJ use-after-free on rectangular with diag (AIJ itself) */
    PetscBool   xb   = (PetscBool)(M == N && ri(2)), keep = (PetscBool)(ri(3) == 0);
    Vec         x = NULL, ba = NULL, bp = NULL;
    if (keep) {
      TA(MatSetOption(A, MAT_KEEP_NONZERO_PATTERN, PETSC_TRUE));
      TP("MatSetOption(keep)", MatSetOption(P, MAT_KEEP_NONZERO_PATTERN, PETSC_TRUE));
    }
    if (xb) {
      PetscScalar *g = RandArr(N), *g2 = RandArr(M);
      TA(MatCreateVecs(A, &x, &ba));
      PetscCall(VecDuplicate(ba, &bp));
      PetscCall(SetVecGlobal(x, g));
      PetscCall(SetVecGlobal(ba, g2));
      PetscCall(SetVecGlobal(bp, g2));
      free(g), free(g2);
    }
    TA(MatZeroRows(A, nr, rows, diag, x, ba));
    TP("MatZeroRows", MatZeroRows(P, nr, rows, diag, x, bp));
    if (xb) {
      PetscCall(CmpVec(ba, bp, NULL, 0, "MatZeroRows(b)"));
      PetscCall(VecDestroy(&x));
      PetscCall(VecDestroy(&ba));
      PetscCall(VecDestroy(&bp));
    }
    if (keep) {
      TA(MatSetOption(A, MAT_KEEP_NONZERO_PATTERN, PETSC_FALSE));
      TP("MatSetOption(keep)", MatSetOption(P, MAT_KEEP_NONZERO_PATTERN, PETSC_FALSE));
    }
    strcat(ops_done, keep ? " zerorows(keep)" : " zerorows");
    if (xb) strcat(ops_done, "(x,b)");
  } break;
  case 7: { /* zero rows columns (square) */
    if (M != N) break;
    PetscInt    rows[12], nr = RandRows(M, rows, 6);
    PetscScalar diag = ri(3) == 0 ? 0.0 : 2.0;
    if (diag != 0.0) {
      Vec zz;
      TA(MatCreateVecs(A, NULL, &zz));
      PetscCall(VecSet(zz, 0.0));
      TA(MatDiagonalSet(A, zz, ADD_VALUES));
      TP("MatDiagonalSet(0)", MatDiagonalSet(P, zz, ADD_VALUES));
      PetscCall(VecDestroy(&zz));
    }
    PetscBool   xb   = (PetscBool)ri(2);
    Vec         x = NULL, ba = NULL, bp = NULL;
    if (xb) {
      PetscScalar *g = RandArr(N), *g2 = RandArr(M);
      for (PetscInt i = 0; i < N; i++) if (!isfinite(g[i])) g[i] = 1;
      for (PetscInt i = 0; i < M; i++) if (!isfinite(g2[i])) g2[i] = 1;
      TA(MatCreateVecs(A, &x, &ba));
      PetscCall(VecDuplicate(ba, &bp));
      PetscCall(SetVecGlobal(x, g));
      PetscCall(SetVecGlobal(ba, g2));
      PetscCall(SetVecGlobal(bp, g2));
      free(g), free(g2);
    }
    TA(MatZeroRowsColumns(A, nr, rows, diag, x, ba));
    TP("MatZeroRowsColumns", MatZeroRowsColumns(P, nr, rows, diag, x, bp));
    if (xb) {
      PetscCall(CmpVec(ba, bp, NULL, 0, "MatZeroRowsColumns(b)"));
      PetscCall(VecDestroy(&x));
      PetscCall(VecDestroy(&ba));
      PetscCall(VecDestroy(&bp));
    }
    strcat(ops_done, xb ? " zerorowscols(x,b)" : " zerorowscols");
  } break;
  case 8: { /* AXPY same pattern: X = dup of P (pellr) or of A (aij) */
    Mat         X, XA;
    PetscScalar a = 2 * ru() - 1;
    PetscBool   xaij = (PetscBool)ri(2);
    TA(MatDuplicate(A, MAT_COPY_VALUES, &XA));
    TA(MatScale(XA, 0.3));
    if (xaij) {
      X = XA;
      PetscCall(PetscObjectReference((PetscObject)X));
    } else {
      TP("MatDuplicate", MatDuplicate(P, MAT_COPY_VALUES, &X));
      TP("MatScale", MatScale(X, 0.3));
    }
    TA(MatAXPY(A, a, XA, SAME_NONZERO_PATTERN));
    TP("MatAXPY(same)", MatAXPY(P, a, X, SAME_NONZERO_PATTERN));
    PetscCall(MatDestroy(&X));
    PetscCall(MatDestroy(&XA));
    strcat(ops_done, xaij ? " axpy-same(X aij)" : " axpy-same(X pellr)");
  } break;
  case 9: { /* AXPY different / subset / unknown pattern */
    Mat           XA, XP;
    PetscScalar   a   = 2 * ru() - 1;
    MatStructure  str = ri(3) == 0 ? UNKNOWN_NONZERO_PATTERN : DIFFERENT_NONZERO_PATTERN;
    PetscInt      kind = ri(NKINDS), sub = ri(3) == 0;
    PetscBool     xpellr = (PetscBool)ri(2);
    unsigned long long save;
    if (sub) { /* subset: a scaled copy with some entries zeroed (pattern kept) */
      TA(MatDuplicate(A, MAT_COPY_VALUES, &XA));
      str = SUBSET_NONZERO_PATTERN;
    } else {
      save = rs;
      PetscCall(MakeOther(M, N, kind, MATAIJ, &XA));
      (void)save;
    }
    if (xpellr) TA(MatConvert(XA, MATPELLR, MAT_INITIAL_MATRIX, &XP));
    else {
      XP = XA;
      PetscCall(PetscObjectReference((PetscObject)XP));
    }
    TA(MatAXPY(A, a, XA, str));
    TP("MatAXPY(diff)", MatAXPY(P, a, XP, str));
    PetscCall(MatDestroy(&XA));
    PetscCall(MatDestroy(&XP));
    {
      char b[96];
      snprintf(b, sizeof(b), " axpy(%s,X %s)", MatStructures[str], xpellr ? "pellr" : "aij");
      strcat(ops_done, b);
    }
  } break;
  case 10: { /* MatCopy into P from: AIJ same pattern, or from pellr with different pattern */
    PetscInt w = ri(3);
    if (w == 0) { /* P <- scaled copy of A (aij), same pattern */
      Mat X;
      TA(MatDuplicate(A, MAT_COPY_VALUES, &X));
      TA(MatScale(X, -1.5));
      TA(MatCopy(X, A, SAME_NONZERO_PATTERN));
      TP("MatCopy(aij->pellr,same)", MatCopy(X, P, SAME_NONZERO_PATTERN));
      PetscCall(MatDestroy(&X));
      strcat(ops_done, " copy(aij->P,same)");
    } else { /* different pattern */
      Mat XA, XP;
      PetscCall(MakeOther(M, N, ri(NKINDS), MATAIJ, &XA));
      TA(MatConvert(XA, MATPELLR, MAT_INITIAL_MATRIX, &XP));
      TA(MatCopy(XA, A, DIFFERENT_NONZERO_PATTERN));
      if (w == 1) TP("MatCopy(pellr->pellr,diff)", MatCopy(XP, P, DIFFERENT_NONZERO_PATTERN));
      else TP("MatCopy(aij->pellr,diff)", MatCopy(XA, P, DIFFERENT_NONZERO_PATTERN));
      PetscCall(MatDestroy(&XA));
      PetscCall(MatDestroy(&XP));
      strcat(ops_done, w == 1 ? " copy(pellr->P,diff)" : " copy(aij->P,diff)");
    }
  } break;
  case 11: { /* duplicate: replace P by a duplicate (copy values), or by DO_NOT_COPY + MatCopy; check the dups */
    Mat       Q, QA;
    PetscInt  w = ri(3);
    MatDuplicateOption d = w == 0 ? MAT_COPY_VALUES : (w == 1 ? MAT_DO_NOT_COPY_VALUES : MAT_SHARE_NONZERO_PATTERN);
    TA(MatDuplicate(A, d, &QA));
    TP("MatDuplicate", MatDuplicate(P, d, &Q));
    PetscCall(CheckType(Q, "MatDuplicate"));
    PetscCall(EllrGuard(QA, Q));
    PetscCall(CheckProducts(QA, Q, w == 0 ? "dup(copy)" : (w == 1 ? "dup(nocopy)" : "dup(share)")));
    if (case_aborted) {
      PetscCall(MatDestroy(&Q));
      PetscCall(MatDestroy(&QA));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    if (w) { /* fill the duplicate by MatCopy */
      TA(MatCopy(A, QA, SAME_NONZERO_PATTERN));
      TP("MatCopy(P->dup,same)", MatCopy(P, Q, SAME_NONZERO_PATTERN));
    }
    /* modify the dup: the original must not change */
    TA(MatScale(QA, 2.0));
    TP("MatScale(dup)", MatScale(Q, 2.0));
    PetscCall(CheckProducts(A, P, "orig-after-dup-modified"));
    if (case_aborted) {
      PetscCall(MatDestroy(&Q));
      PetscCall(MatDestroy(&QA));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(MatDestroy(pP));
    PetscCall(MatDestroy(pA));
    *pP = Q;
    *pA = QA;
    strcat(ops_done, w == 0 ? " dup(copy)->P" : (w == 1 ? " dup(nocopy)+copy->P" : " dup(share)+copy->P"));
  } break;
  case 12: { /* transpose */
    Mat       TA, TPm;
    PetscBool reuse = (PetscBool)ri(2);
    TA(MatTranspose(A, MAT_INITIAL_MATRIX, &TA));
    TP("MatTranspose", MatTranspose(P, MAT_INITIAL_MATRIX, &TPm));
    PetscCall(CompareEntries(TA, TPm, "MatTranspose", PETSC_TRUE));
    {
      MatType tt;
      PetscCall(MatGetType(TPm, &tt));
      strcat(ops_done, " transpose[type ");
      strcat(ops_done, tt);
      strcat(ops_done, "]");
    }
    if (reuse) {
      TA(MatScale(A, 1.25));
      TP("MatScale", MatScale(P, 1.25));
      TA(MatTranspose(A, MAT_REUSE_MATRIX, &TA));
      TP("MatTranspose(reuse)", MatTranspose(P, MAT_REUSE_MATRIX, &TPm));
      PetscCall(CompareEntries(TA, TPm, "MatTranspose(reuse)", PETSC_TRUE));
      strcat(ops_done, "+reuse");
    }
    {
      PetscBool ispellr;
      PetscCall(PetscObjectTypeCompareAny((PetscObject)TPm, &ispellr, MATSEQPELLR, MATMPIPELLR, ""));
      if (ispellr) {
        PetscInt sf = cur_fmt;
        PetscCall(EllrGuard(TA, TPm));
        cur_fmt = sf; /* restore: EllrGuard changed the transpose only */
        PetscCall(CheckProducts(TA, TPm, "transposed-matrix"));
      }
    }
    PetscCall(MatDestroy(&TA));
    PetscCall(MatDestroy(&TPm));
  } break;
  case 13: { /* convert to AIJ and MatEqual */
    Mat       Q;
    PetscBool eq, eq2;
    TP("MatConvert(P->aij)", MatConvert(P, MATAIJ, MAT_INITIAL_MATRIX, &Q));
    TA(MatEqual(A, Q, &eq));
    ncompares++;
    cmp_by_fmt[cur_fmt]++;
    if (!eq) Mismatch("MatConvert(P->aij) MatEqual false", 0);
    PetscCall(CompareEntries(A, Q, "MatConvert(P->aij)", PETSC_TRUE));
    {
      MatType qt;
      PetscBool ok;
      PetscCall(MatGetType(Q, &qt));
      PetscCall(PetscStrcmp(qt, size > 1 ? MATMPIAIJ : MATSEQAIJ, &ok));
      if (!ok) Mismatch("MatConvert(P->aij) type", 0);
    }
    if (size == 1) { /* MatEqual(P, A) directly (MPIAIJ MatEqual is fragile with ghost lists) */
      TP("MatEqual(P,A)", MatEqual(P, A, &eq2));
      ncompares++;
      cmp_by_fmt[cur_fmt]++;
      if (!eq2) Mismatch("MatEqual(P,A) false", 0);
    }
    PetscCall(MatDestroy(&Q));
    strcat(ops_done, " convert->aij");
  } break;
  case 14: { /* matmatmult with dense */
    Mat      B, CA, CP;
    PetscInt k = 1 + ri(4);
    PetscCall(MatCreateDense(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, N, k, NULL, &B));
    {
      PetscInt bs, be;
      PetscCall(MatGetOwnershipRange(B, &bs, &be));
      for (PetscInt i = 0; i < N; i++)
        for (PetscInt j = 0; j < k; j++) {
          PetscScalar v = 2 * ru() - 1;
          if (i >= bs && i < be) PetscCall(MatSetValue(B, i, j, v, INSERT_VALUES));
        }
      PetscCall(MatAssemblyBegin(B, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(B, MAT_FINAL_ASSEMBLY));
    }
    PetscCall(EllrGuard(A, P));
    TA(MatMatMult(A, B, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &CA));
    TP("MatMatMult(P,dense)", MatMatMult(P, B, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &CP));
    PetscCall(CmpDenseMats(CA, CP, "MatMatMult(P,dense)"));
    TA(MatScale(A, 0.5));
    TP("MatScale", MatScale(P, 0.5));
    TA(MatMatMult(A, B, MAT_REUSE_MATRIX, PETSC_DETERMINE, &CA));
    TP("MatMatMult(P,dense,reuse)", MatMatMult(P, B, MAT_REUSE_MATRIX, PETSC_DETERMINE, &CP));
    PetscCall(CmpDenseMats(CA, CP, "MatMatMult(P,dense,reuse)"));
    PetscCall(MatDestroy(&CA));
    PetscCall(MatDestroy(&CP));
    { /* transpose-mat-mult with dense of M rows */
      Mat B2;
      PetscCall(MatCreateDense(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, M, k, NULL, &B2));
      PetscInt bs, be;
      PetscCall(MatGetOwnershipRange(B2, &bs, &be));
      for (PetscInt i = 0; i < M; i++)
        for (PetscInt j = 0; j < k; j++) {
          PetscScalar v = 2 * ru() - 1;
          if (i >= bs && i < be) PetscCall(MatSetValue(B2, i, j, v, INSERT_VALUES));
        }
      PetscCall(MatAssemblyBegin(B2, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(B2, MAT_FINAL_ASSEMBLY));
      TA(MatTransposeMatMult(A, B2, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &CA));
      TP("MatTransposeMatMult(P,dense)", MatTransposeMatMult(P, B2, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &CP));
      PetscCall(CmpDenseMats(CA, CP, "MatTransposeMatMult(P,dense)"));
      PetscCall(MatDestroy(&CA));
      PetscCall(MatDestroy(&CP));
      PetscCall(MatDestroy(&B2));
    }
    PetscCall(MatDestroy(&B));
    strcat(ops_done, " matmatmult(dense)");
  } break;
  case 15: { /* matmatmult with AIJ (P*B, B*P) and P*P if square */
    Mat      B, B2, CA, CP;
    PetscInt k = 1 + ri(50);
    PetscCall(MakeOther(N, k, ri(NKINDS), MATAIJ, &B));
    TA(MatMatMult(A, B, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &CA));
    TP("MatMatMult(P,aij)", MatMatMult(P, B, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &CP));
    PetscCall(CmpDenseMats(CA, CP, "MatMatMult(P,aij)"));
    PetscCall(MatDestroy(&CA));
    PetscCall(MatDestroy(&CP));
    PetscCall(MatDestroy(&B));
    PetscCall(MakeOther(k, M, ri(NKINDS), MATAIJ, &B2));
    PetscCall(MatMatMult(B2, A, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &CA));
    TP("MatMatMult(aij,P)", MatMatMult(B2, P, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &CP));
    PetscCall(CmpDenseMats(CA, CP, "MatMatMult(aij,P)"));
    PetscCall(MatDestroy(&CA));
    PetscCall(MatDestroy(&CP));
    PetscCall(MatDestroy(&B2));
    if (M == N && M <= 5000) {
      TA(MatMatMult(A, A, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &CA));
      TP("MatMatMult(P,P)", MatMatMult(P, P, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &CP));
      PetscCall(CmpDenseMats(CA, CP, "MatMatMult(P,P)"));
      TA(MatScale(A, -1.0));
      TP("MatScale", MatScale(P, -1.0));
      TA(MatMatMult(A, A, MAT_REUSE_MATRIX, PETSC_DETERMINE, &CA));
      TP("MatMatMult(P,P,reuse)", MatMatMult(P, P, MAT_REUSE_MATRIX, PETSC_DETERMINE, &CP));
      PetscCall(CmpDenseMats(CA, CP, "MatMatMult(P,P,reuse)"));
      PetscCall(MatDestroy(&CA));
      PetscCall(MatDestroy(&CP));
      TA(MatPtAP(A, A, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &CA));
      TP("MatPtAP(P,P)", MatPtAP(P, P, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &CP));
      PetscCall(CmpDenseMats(CA, CP, "MatPtAP(P,P)"));
      PetscCall(MatDestroy(&CA));
      PetscCall(MatDestroy(&CP));
    }
    strcat(ops_done, " matmatmult(aij)");
  } break;
  case 16: { /* view */
    PetscViewer v;
    PetscCall(PetscViewerASCIIOpen(PETSC_COMM_WORLD, "/dev/null", &v));
    PetscCall(PetscViewerPushFormat(v, ri(2) ? PETSC_VIEWER_ASCII_INFO : PETSC_VIEWER_ASCII_INFO_DETAIL));
    PetscCall(EllrGuard(A, P));
    TP("MatView(ascii_info)", MatView(P, v));
    PetscCall(PetscViewerPopFormat(v));
    if (M * N < 200000 && size == 1) TP("MatView(ascii)", MatView(P, v));
    PetscCall(PetscViewerDestroy(&v));
    if (nview++ < 3 && verbose) {
      PetscCall(PetscViewerPushFormat(PETSC_VIEWER_STDOUT_WORLD, PETSC_VIEWER_ASCII_INFO));
      PetscCall(MatView(P, PETSC_VIEWER_STDOUT_WORLD));
      PetscCall(PetscViewerPopFormat(PETSC_VIEWER_STDOUT_WORLD));
    }
    strcat(ops_done, " view");
  } break;
  case 17: { /* format switch */
    PetscInt f = ri(5);
    TP("MatPELLRSetFormat", MatPELLRSetFormat(P, (MatPELLRFormat)f));
    cur_fmt = (int)f;
    {
      char b[48];
      snprintf(b, sizeof(b), " setformat(%s)", MatPELLRFormats[f]);
      strcat(ops_done, b);
    }
  } break;
  case 18: { /* transpose mode / long row length / diag slices via options + MatSetFromOptions */
    const char *tm[] = {"explicit", "atomic"};
    const char *lr[] = {"1", "2", "3", "8", "33", "256"};
    const char *ds[] = {"off", "on", "auto"};
    char        b[128];
    const char *t1 = tm[ri(2)], *t2 = lr[ri(6)], *t3 = ds[ri(3)];
    PetscCall(PetscOptionsSetValue(NULL, "-mat_pellr_transpose", t1));
    PetscCall(PetscOptionsSetValue(NULL, "-mat_pellr_long_row_length", t2));
    PetscCall(PetscOptionsSetValue(NULL, "-mat_pellr_diagonal_slices", t3));
    PetscCall(PetscOptionsSetValue(NULL, "-mat_pellr_format", MatPELLRFormats[cur_fmt]));
    TP("MatSetFromOptions", MatSetFromOptions(P));
    PetscCall(PetscOptionsClearValue(NULL, "-mat_pellr_transpose"));
    PetscCall(PetscOptionsClearValue(NULL, "-mat_pellr_long_row_length"));
    PetscCall(PetscOptionsClearValue(NULL, "-mat_pellr_diagonal_slices"));
    snprintf(b, sizeof(b), " setfromoptions(%s,lrl %s,diag %s)", t1, t2, t3);
    strcat(ops_done, b);
  } break;
  case 19: { /* submatrix */
    IS       ir, ic;
    Mat      SA, SP;
    PetscInt nr0 = 0, nc0 = 0, *ix, *jx, cs, ce;
    TA(MatGetOwnershipRangeColumn(A, &cs, &ce));
    PetscCall(PetscMalloc2(re0 - rs0 + 1, &ix, ce - cs + 1, &jx));
    for (PetscInt i = 0; i < M; i++) { PetscBool keep = (PetscBool)(ri(3) != 0); if (keep && i >= rs0 && i < re0) ix[nr0++] = i; }
    for (PetscInt j = 0; j < N; j++) { PetscBool keep = (PetscBool)(ri(3) != 0); if (keep && j >= cs && j < ce) jx[nc0++] = j; }
    PetscCall(ISCreateGeneral(PETSC_COMM_WORLD, nr0, ix, PETSC_COPY_VALUES, &ir));
    PetscCall(ISCreateGeneral(PETSC_COMM_WORLD, nc0, jx, PETSC_COPY_VALUES, &ic));
    TA(MatCreateSubMatrix(A, ir, ic, MAT_INITIAL_MATRIX, &SA));
    TP("MatCreateSubMatrix", MatCreateSubMatrix(P, ir, ic, MAT_INITIAL_MATRIX, &SP));
    PetscCall(CompareEntries(SA, SP, "MatCreateSubMatrix", PETSC_TRUE));
    {
      PetscBool ispellr;
      PetscCall(PetscObjectTypeCompareAny((PetscObject)SP, &ispellr, MATSEQPELLR, MATMPIPELLR, ""));
      if (ispellr) {
        int sf = cur_fmt;
        PetscCall(EllrGuard(SA, SP));
        PetscCall(CheckProducts(SA, SP, "submatrix"));
        cur_fmt = sf;
      }
      strcat(ops_done, ispellr ? " submatrix[pellr]" : " submatrix[other]");
    }
    PetscCall(MatDestroy(&SA));
    PetscCall(MatDestroy(&SP));
    PetscCall(ISDestroy(&ir));
    PetscCall(ISDestroy(&ic));
    PetscCall(PetscFree2(ix, jx));
  } break;
  case 20: { /* convert P -> aij -> pellr (replace P), inplace variants */
    Mat Q;
    PetscInt w = ri(3);
    if (w == 0) {
      TP("MatConvert(P->aij,inplace)", MatConvert(P, MATAIJ, MAT_INPLACE_MATRIX, pP));
      TP("MatConvert(aij->pellr,inplace)", MatConvert(*pP, MATPELLR, MAT_INPLACE_MATRIX, pP));
      strcat(ops_done, " convert-inplace-roundtrip");
    } else if (w == 1) {
      TP("MatConvert(P->aij)", MatConvert(P, MATAIJ, MAT_INITIAL_MATRIX, &Q));
      TP("MatSetType(aij->pellr)", MatSetType(Q, MATPELLR));
      {
        PetscBool as;
        PetscCall(MatAssembled(Q, &as));
        if (!as) { /* PETSc's MatSetType: pellr is not a name-prefix subclass of aij, so the data is discarded */
          static int once = 0;
          if (!once++ && rank == 0) printf("NOTE: MatSetType(assembled aij, pellr) gives an unassembled empty matrix (data discarded)\n");
          PetscCall(MatDestroy(&Q));
          TP("MatConvert(P->pellr,initial)", MatConvert(P, MATPELLR, MAT_INITIAL_MATRIX, &Q));
        }
      }
      PetscCall(MatDestroy(pP));
      *pP = Q;
      strcat(ops_done, " convert->aij,settype->pellr");
    } else {
      TP("MatConvert(P->pellr,initial)", MatConvert(P, MATPELLR, MAT_INITIAL_MATRIX, &Q));
      PetscCall(MatDestroy(pP));
      *pP = Q;
      strcat(ops_done, " convert(P->pellr initial)");
    }
    PetscCall(MatPELLRSetFormat(*pP, (MatPELLRFormat)cur_fmt));
    PetscCall(CheckType(*pP, "convert roundtrip"));
  } break;
  case 21: { /* MatGetInfo / MatGetRowMaxAbs / GetRowSum-ish: compare MatGetInfo nz */
    MatInfo ia, ip;
    TA(MatGetInfo(A, MAT_GLOBAL_SUM, &ia));
    TP("MatGetInfo", MatGetInfo(P, MAT_GLOBAL_SUM, &ip));
    ncompares++;
    cmp_by_fmt[cur_fmt]++;
    if (ia.nz_used != ip.nz_used) Mismatch("MatGetInfo nz_used", 0);
    {
      Vec      va, vp;
      PetscInt *ia2 = NULL;
      TA(MatCreateVecs(A, NULL, &va));
      PetscCall(VecDuplicate(va, &vp));
      TA(MatGetRowMaxAbs(A, va, ia2));
      PetscInt   rs1, re1, Lr;
      PetscReal *bnd;
      PetscScalar *ones = malloc((N + 1) * sizeof(PetscScalar));
      for (PetscInt j = 0; j < N; j++) ones[j] = 1;
      PetscCall(MatGetOwnershipRange(A, &rs1, &re1));
      PetscCall(PetscMalloc1(re1 - rs1 + 1, &bnd));
      PetscCall(AbsBound(A, ones, PETSC_FALSE, bnd, &Lr));
      free(ones);
      TP("MatGetRowMaxAbs", MatGetRowMaxAbs(P, vp, ia2));
      PetscCall(CmpVec(va, vp, NULL, 0, "MatGetRowMaxAbs"));
      TA(MatGetRowSum(A, va));
      TP("MatGetRowSum", MatGetRowSum(P, vp));
      PetscCall(CmpVec(va, vp, bnd, Lr, "MatGetRowSum"));
      PetscCall(PetscFree(bnd));
      PetscCall(VecDestroy(&va));
      PetscCall(VecDestroy(&vp));
    }
    strcat(ops_done, " getinfo/rowmaxabs/rowsum");
  } break;
  case 22: { /* store/retrieve values */
    TA(MatSetOption(A, MAT_NEW_NONZERO_LOCATIONS, PETSC_FALSE));
    TP("MatSetOption(nnl)", MatSetOption(P, MAT_NEW_NONZERO_LOCATIONS, PETSC_FALSE));
    TA(MatStoreValues(A));
    TP("MatStoreValues", MatStoreValues(P));
    TA(MatScale(A, 3.0));
    TP("MatScale", MatScale(P, 3.0));
    PetscCall(Check(A, P, "after-store-scale"));
    if (case_aborted) PetscFunctionReturn(PETSC_SUCCESS);
    TA(MatRetrieveValues(A));
    TP("MatRetrieveValues", MatRetrieveValues(P));
    TA(MatSetOption(A, MAT_NEW_NONZERO_LOCATIONS, PETSC_TRUE));
    TP("MatSetOption(nnl)", MatSetOption(P, MAT_NEW_NONZERO_LOCATIONS, PETSC_TRUE));
    strcat(ops_done, " store/retrieve");
  } break;
  case 23: { /* MatSeqAIJGetArray direct modification (sequential) / MatAYPX */
    PetscScalar a = 2 * ru() - 1;
    Mat         X;
    TA(MatDuplicate(A, MAT_COPY_VALUES, &X));
    TA(MatAYPX(A, a, X, SAME_NONZERO_PATTERN));
    TP("MatAYPX", MatAYPX(P, a, X, SAME_NONZERO_PATTERN));
    PetscCall(MatDestroy(&X));
    strcat(ops_done, " aypx");
    if (size == 1) {
      PetscScalar *aa, *ap;
      PetscInt     nz;
      MatInfo info;
      TA(MatGetInfo(A, MAT_LOCAL, &info));
      nz = (PetscInt)info.nz_used;
      TA(MatSeqAIJGetArray(A, &aa));
      TP("MatSeqAIJGetArray", MatSeqAIJGetArray(P, &ap));
      for (PetscInt k = 0; k < nz; k += 3) aa[k] += 1.0, ap[k] += 1.0;
      TA(MatSeqAIJRestoreArray(A, &aa));
      TP("MatSeqAIJRestoreArray", MatSeqAIJRestoreArray(P, &ap));
      strcat(ops_done, " seqaijgetarray-modify");
    }
  } break;
  case 24: { /* realpart / chop / conjugate: no-ops for real but go through ops */
    TA(MatFilter(A, 0.05, PETSC_TRUE, PETSC_FALSE));
    TP("MatFilter", MatFilter(P, 0.05, PETSC_TRUE, PETSC_FALSE));
    strcat(ops_done, " filter(0.05,compress)");
  } break;
  case 25: { /* MatDiagonalSet */
    if (M != N) break;
    Vec          d;
    PetscScalar *g = RandArr(M);
    InsertMode   im = ri(2) ? INSERT_VALUES : ADD_VALUES;
    for (PetscInt i = 0; i < M; i++) if (!isfinite(g[i])) g[i] = 1;
    TA(MatCreateVecs(A, NULL, &d));
    PetscCall(SetVecGlobal(d, g));
    TA(MatDiagonalSet(A, d, im));
    TP("MatDiagonalSet", MatDiagonalSet(P, d, im));
    PetscCall(VecDestroy(&d));
    free(g);
    strcat(ops_done, im == INSERT_VALUES ? " diagonalset(insert)" : " diagonalset(add)");
  } break;
  case 27: { /* set values then MatSetValues with ADD to explicit zero-valued new location + ignore zero option */
    TA(MatSetOption(A, MAT_IGNORE_ZERO_ENTRIES, PETSC_TRUE));
    TP("MatSetOption(ignore0)", MatSetOption(P, MAT_IGNORE_ZERO_ENTRIES, PETSC_TRUE));
    TA(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
    TP("MatSetOption", MatSetOption(P, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
    if (M && N)
      for (PetscInt c = 0; c < 5; c++) {
        PetscInt u = ri(1 << 30), i = rs0 + (re0 > rs0 ? u % (re0 - rs0) : 0), j = ri(N);
        if (re0 <= rs0) continue;
        TA(MatSetValue(A, i, j, c % 2 ? 0.0 : 1.0, INSERT_VALUES));
        TP("MatSetValue", MatSetValue(P, i, j, c % 2 ? 0.0 : 1.0, INSERT_VALUES));
      }
    TA(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    TA(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    TP("MatAssemblyBegin", MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
    TP("MatAssemblyEnd", MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
    TA(MatSetOption(A, MAT_IGNORE_ZERO_ENTRIES, PETSC_FALSE));
    TP("MatSetOption(ignore0)", MatSetOption(P, MAT_IGNORE_ZERO_ENTRIES, PETSC_FALSE));
    strcat(ops_done, " ignorezero-setvals");
  } break;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RunCase(PetscInt c, unsigned long long seed, PetscInt fmt_force, PetscInt kind_force, PetscInt nops)
{
  Trip       t = {0};
  Mat        A, P;
  PetscInt   kind, build, pmode;
  InsertMode im;
  PetscBool  all;
  PetscFunctionBeginUser;
  gcase = c;
  rs    = seed * 6364136223846793005ULL + (unsigned long long)c * 1442695040888963407ULL + 12345;
  for (int k = 0; k < 5; k++) rnext();
  case_aborted = PETSC_FALSE;
  ops_done[0]  = 0;
  kind         = kind_force >= 0 ? kind_force : ri(NKINDS);
  t.m          = RSize();
  t.n          = ri(3) == 0 ? RSize() : t.m;
  if (kind == 3 || kind == 9) { t.m = PetscMin(t.m, 5000); t.n = PetscMin(t.n, 5000); }
  if (t.m > maxn) t.m = maxn;
  if (t.n > maxn) t.n = maxn;
  if (t.m > 20000) t.m = 20000;
  if (t.n > 20000) t.n = 20000;
  pzero = ri(3) == 0 ? 0.3 : 0.05;
  Gen(&t, kind);
  /* duplicates sometimes */
  if (t.nz && ri(4) == 0)
    for (PetscInt k = 0, nd = 1 + ri(10); k < nd; k++) {
      PetscInt q = ri(t.nz);
      TAdd(&t, t.i[q], t.j[q], 2 * ru() - 1);
    }
  cur_fmt = fmt_force >= 0 ? (int)fmt_force : (int)ri(5);
  build   = ri(5);
  pmode   = ri(3);
  im      = ri(2) ? ADD_VALUES : INSERT_VALUES;
  all     = (PetscBool)(size > 1 && ri(5) == 0);
  snprintf(curdesc, sizeof(curdesc), "kind %s %" PetscInt_FMT "x%" PetscInt_FMT " nz %" PetscInt_FMT " build %" PetscInt_FMT " prealloc %" PetscInt_FMT " %s%s", kinds[kind], t.m, t.n, t.nz, build, pmode, im == ADD_VALUES ? "add" : "insert", all ? " rank0-sets-all" : "");
  if (verbose && rank == 0) printf("case %" PetscInt_FMT ": %s fmt %s\n", c, curdesc, MatPELLRFormats[cur_fmt]);
  fflush(stdout);

  PetscCall(Build(&t, MATAIJ, pmode, im, all, &A));
  g_A        = &A;
  expect_sup = (PetscBool)(size == 1);
  if (size > 1 && cur_fmt == MAT_PELLR_FORMAT_ELLR) {
    PetscBool ok;
    PetscCall(EllrOK(A, &ok));
    if (!ok) cur_fmt = MAT_PELLR_FORMAT_PELLR;
  }
  PetscCall(PetscOptionsSetValue(NULL, "-mat_pellr_format", MatPELLRFormats[cur_fmt]));
  switch (build) {
  case 0: TP("MatConvert(aij->pellr)", MatConvert(A, MATPELLR, MAT_INITIAL_MATRIX, &P)); break;
  case 1: TP("Build(pellr)", Build(&t, MATPELLR, pmode, im, all, &P)); break;
  case 2: {
    PetscCall(MatCreate(PETSC_COMM_WORLD, &P));
    PetscCall(MatSetSizes(P, PETSC_DECIDE, PETSC_DECIDE, t.m, t.n));
    PetscCall(MatSetType(P, MATAIJ));
    TP("MatSetType(aij, pellr)", MatSetType(P, MATPELLR));
    TP("Prealloc", Prealloc(P, &t, pmode));
    TP("Fill", Fill(P, &t, im, all));
  } break;
  case 3: {
    PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &P));
    TP("MatConvert(inplace)", MatConvert(P, MATPELLR, MAT_INPLACE_MATRIX, &P));
  } break;
  case 4: { /* MatSetFromOptions with -mat_type pellr */
    PetscCall(MatCreate(PETSC_COMM_WORLD, &P));
    PetscCall(MatSetSizes(P, PETSC_DECIDE, PETSC_DECIDE, t.m, t.n));
    PetscCall(PetscOptionsSetValue(NULL, "-mat_type", "pellr"));
    TP("MatSetFromOptions(-mat_type pellr)", MatSetFromOptions(P));
    PetscCall(PetscOptionsClearValue(NULL, "-mat_type"));
    TP("Prealloc", Prealloc(P, &t, pmode));
    TP("Fill", Fill(P, &t, im, all));
  } break;
  }
  PetscCall(PetscOptionsClearValue(NULL, "-mat_pellr_format"));
  if (case_aborted) goto end;
  PetscCall(CheckType(P, "build"));
  {
    MatPELLRFormat r;
    PetscBool      asa, asp;
    PetscCall(MatAssembled(A, &asa));
    PetscCall(MatAssembled(P, &asp));
    if (asa != asp) Mismatch("MatAssembled differs after build", 0);
    PetscCall(MatPELLRGetFormat(P, &r, NULL));
    if ((int)r != cur_fmt) {
      char b[128];
      snprintf(b, sizeof(b), "requested format after build is %s, expected %s (from -mat_pellr_format)", MatPELLRFormats[r], MatPELLRFormats[cur_fmt]);
      Mismatch(b, 0);
      cur_fmt = r;
    }
  }
  if (ri(2)) { /* check immediately or only after the first op (lazy state trick) */
    PetscCall(Check(A, P, "initial"));
    if (case_aborted) goto end;
  }
  for (PetscInt k = 0; k < nops; k++) {
    PetscInt op = ri(NOPS);
    if (op == 26) op = 0;
    if ((op == 15 || op == 14) && (t.m > 5000 || t.n > 5000)) op = 3;
    if (size > 1 && cur_fmt == MAT_PELLR_FORMAT_ELLR && (op == 4 || op == 5 || op == 6 || op == 7 || op == 9 || op == 10 || op == 11 || op == 17 || op == 20 || op == 24 || op == 27 || op == 12 || op == 19)) {
      PetscCall(MatPELLRSetFormat(P, MAT_PELLR_FORMAT_PELLR));
      cur_fmt = MAT_PELLR_FORMAT_PELLR;
      strcat(ops_done, " [mpi: ellr->pellr]");
    }
    if (size > 1 && op == 17) op = 18;
    if (verbose) { printf("[%d]  op %d (done:%s)\n", rank, (int)op, ops_done); fflush(stdout); }
    PetscCall(DoOp(&A, &P, op, &t));
    if (case_aborted) break;
    if (ri(3) || k == nops - 1) {
      char tag[32];
      snprintf(tag, sizeof(tag), "after-op%d", (int)k);
      PetscCall(Check(A, P, tag));
      if (case_aborted) break;
    }
  }
end:
  {
    int ab = case_aborted, gab;
    PetscCallMPI(MPIU_Allreduce(&ab, &gab, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD));
  }
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&P));
  free(t.i), free(t.j), free(t.v);
  ncases++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt  ncase = 100, first = 0, fmt = -1, kind = -1, nops = 6, seed = 1;
  PetscReal bad   = 0;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-ncases", &ncase, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-first", &first, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-fmt", &fmt, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-kind", &kind, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nops", &nops, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-seed", &seed, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-badx", &badx, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-maxn", &maxn, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-pbad", &bad, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-v", &verbose, NULL));
  pbad = bad;
  for (PetscInt c = first; c < first + ncase; c++) PetscCall(RunCase(c, (unsigned long long)seed, fmt, kind, nops));
  if (rank == 0) {
    printf("SUMMARY seed %" PetscInt_FMT " size %d: aij-side-errors(skipped) %ld cases %ld compares %ld mismatches %ld errors %ld ellr-refusals %ld | by fmt:", seed, size, naijerr, ncases, ncompares, nmismatch, nerr, nrefused);
    for (int k = 0; k < 5; k++) printf(" %s=%ld", MatPELLRFormats[k], cmp_by_fmt[k]);
    printf("\n");
  }
  for (int k = 0; k < ncat; k++) printf("[%d] CATEGORY %-48s %ld\n", rank, cats[k], catn[k]);
  PetscCall(PetscFinalize());
  return 0;
}
