/*
  PCSUBTREEILU: ILU(k)/ICC(k) preconditioner whose triangular solves are synchronization-free subtree
  partial-sum solves (no level analysis, no level barriers, nobody ever waits for work not yet taken).

  The factors are PETSc's own (MATSOLVERPETSC ILU/ICC of the sequential matrix or of the rank's diagonal block, with
  the same MatFactorInfo as PCILU/PCICC), so they are numerically identical to -pc_type ilu/icc. After the numeric
  factorization, L (unit lower) and U are extracted from PETSc's factor storage, in the permuted numbering:
    ILU (SeqAIJ factor): row i of L is bj[bi[i] .. bi[i+1]-1]; U is stored row by row from the end: row i occupies
         bdiag[i+1]+1 .. bdiag[i], its diagonal (the inverted pivot) last at bdiag[i].
         tmp = b(r); L y = tmp; U z = y; x(c) = z.
    ICC (SeqSBAIJ factor, bs 1): row k holds -Ut(k,j)  (j > k, Ut unit upper) then 1/D(k) last.
         A ~ P^T Ut^T D Ut P: L = Ut^T, and the U solve is z_k = y_k/D_k - sum Ut(k,j) z_j.
  Each triangular system is solved by the sync-free scheme: a counter of unresolved inputs per row and (non
  deterministic mode) an accumulator of partial sums. When x_j is final it is pushed to the rows that depend on it
  (CSC column j: atomic add of T_ij x_j, then atomic decrement). Whoever brings a counter to zero solves that row at
  once and continues down that subtree (a linked stack of ready rows). Every row is also visited once by the thread
  that owns it (counters start at inputs + 1), so a row whose inputs are already final is solved by its owner: this
  spreads the work over all threads without anybody waiting. In deterministic mode the completer computes
  its row sum itself in the serial solve's order (TriRowSum(); integer atomics only), so results are bitwise
  reproducible and equal to the serial backend's.
  The threads backend applies this scheme by default to chunks of 64 rows (see TriSolveChunkDAG(); the per-row
  version, -pc_subtree_ilu_threads_rows, spends most of its time in atomic operations on a CPU) with a persistent
  pool of workers (see struct _PCSubtreeILUPool).
  The cuda backend (subtreeilu.cu) uses a pull variant suited to the GPU's memory latency: see there.
*/
#include <petscsparsegpu.h> /*I "petscsparsegpu.h" I*/
#include "subtreeiluimpl.h"
#include <petsc/private/matimpl.h> /* MatOrderingRegisterAll() */
#if defined(PETSC_HAVE_PTHREAD) && defined(PETSC_HAVE_STDATOMIC_H) && !defined(PETSC_USE_COMPLEX) && !defined(__cplusplus)
  #include <pthread.h>
  #include <sched.h>
  #include <stdatomic.h>
  #include <stdint.h>
  #include <unistd.h>
  #define SUBTREEILU_HAVE_THREADS 1
#endif

PetscLogEvent PC_SubtreeILU_Factor, PC_SubtreeILU_Setup, PC_SubtreeILU_Solve, PC_SubtreeILU_Refact, PC_SubtreeILU_Build, PC_SubtreeILU_ToGPU, PC_SubtreeILU_Plan;

static const char *const PCSubtreeILUTypes[]    = {"ilu", "icc", "PCSubtreeILUType", "PC_SUBTREEILU_", NULL};
static const char *const PCSubtreeILUBackends[] = {"auto", "cuda", "threads", "serial", "PCSubtreeILUBackend", "PC_SUBTREEILU_BACKEND_", NULL};
static const char *const PCSubtreeILULastRefactorDescriptions[] = {"with the symbolic factorization (PETSc's)", "PETSc's numeric factorization (host)", "refactorization plan, CPU version", "refactorization plan on the GPU", "PETSc's numeric factorization (the plan found a pivot PETSc does not accept unchanged)", "refactorization plan on the GPU, at the first factorization (PETSc's numeric factorization skipped)"};
static const char *const PCSubtreeILULevelSorts[] = {"auto", "no", "yes", "PCSubtreeILULevelSort", "PC_SUBTREEILU_LEVEL_SORT_", NULL};
static const char *const PCSubtreeILURefactors[] = {"auto", "device", "petsc", "PCSubtreeILURefactor", "PC_SUBTREEILU_REFACTOR_", NULL};

/* ------------------------------------------------------------------ triangular structures */
static PetscErrorCode TriDestroy(PCSubtreeILUTri *T)
{
  PetscFunctionBegin;
  if (T->borrowed) {
    PetscCall(PetscMemzero(T, sizeof(*T)));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscFree3(T->rowptr, T->colidx, T->val));
  PetscCall(PetscFree4(T->colptr, T->rowidx, T->cval, T->csc2csr));
  PetscCall(PetscFree(T->src));
  PetscCall(PetscFree2(T->roots, T->rootsT));
  PetscCall(PetscMemzero(T, sizeof(*T)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_INTERN PetscErrorCode PCSubtreeILUTriDestroy_Private(PCSubtreeILUTri *T)
{
  PetscFunctionBegin;
  PetscCall(TriDestroy(T));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The loops that fill a triangle (TriFillRows(), TriFillColumns()), run on the setup's threads (plain C: see sparsegputhreads.c) */
typedef struct {
  PCSubtreeILUTri *T;
  const PetscInt  *rbeg, *rend, *fj;
  PetscInt        *pos;
  PetscInt         nthreads;
  PetscBool        unsorted[PETSC_SPARSEGPU_MAX_THREADS]; /* by thread: a row whose columns are not increasing was seen */
  PetscInt         badrow[PETSC_SPARSEGPU_MAX_THREADS];   /* by thread: the first row with a column outside the triangle, or -1 */
  PetscBool        needsort;     /* some row is not sorted: TriFillRows() stopped before the columns */
  PetscInt         bad;          /* the first row with a column outside the triangle (or outside [0, n)), or -1 */
  int              fail;         /* a thread could not be joined */
} TriBuildCtx;

/* rows [begin, end): CSR columns and their source positions */
static void TriBuildRows(void *ctx, PetscInt tid, PetscInt begin, PetscInt end)
{
  TriBuildCtx     *c = (TriBuildCtx *)ctx;
  PCSubtreeILUTri *T = c->T;

  for (PetscInt i = begin; i < end; i++) {
    PetscInt b = T->rowptr[i], len = T->rowptr[i + 1] - b, s = c->rbeg[i];

    for (PetscInt t = 0; t < len; t++) {
      const PetscInt j = c->fj[s + t];

      T->colidx[b + t] = j;
      T->src[b + t]    = s + t;
      if (t && j <= T->colidx[b + t - 1]) c->unsorted[tid] = PETSC_TRUE;
      /* a column on the wrong side of the diagonal would make the solves' dependency counts inconsistent (a wait
         that never ends, or a wrong answer): refused in PCSubtreeILUBuildFinish_Private() */
      if ((j < 0 || (T->lower ? j >= i : (j <= i || j >= T->n))) && c->badrow[tid] < 0) c->badrow[tid] = i;
    }
  }
}

/* the rows that can hold columns [cb, ce) of a triangle with increasing columns in each row */
static inline void TriRowsOfColumns(const PCSubtreeILUTri *T, PetscInt cb, PetscInt ce, PetscInt *ib, PetscInt *ie)
{
  *ib = T->lower ? cb + 1 : 0; /* lower: row i has columns < i; upper: > i */
  *ie = T->lower ? T->n : PetscMin(ce, T->n);
}

/* columns [cb, ce): their entry counts in colptr[cb+1 .. ce] (each thread scans the rows for its own columns) */
static void TriBuildCountColumns(void *ctx, PetscInt tid, PetscInt cb, PetscInt ce)
{
  PCSubtreeILUTri *T = ((TriBuildCtx *)ctx)->T;
  PetscInt         ib, ie;

  (void)tid;
  for (PetscInt j = cb; j < ce; j++) T->colptr[j + 1] = 0;
  TriRowsOfColumns(T, cb, ce, &ib, &ie);
  for (PetscInt i = ib; i < ie; i++) {
    for (PetscInt k = T->rowptr[i]; k < T->rowptr[i + 1]; k++) {
      PetscInt j = T->colidx[k];

      if (j >= ce) break;
      if (j >= cb) T->colptr[j + 1]++;
    }
  }
}

/* columns [cb, ce): their rows in increasing order (rows are scanned in increasing order, as a serial transpose) */
static void TriBuildFillColumns(void *ctx, PetscInt tid, PetscInt cb, PetscInt ce)
{
  TriBuildCtx     *c = (TriBuildCtx *)ctx;
  PCSubtreeILUTri *T = c->T;
  PetscInt         ib, ie;

  (void)tid;
  for (PetscInt j = cb; j < ce; j++) c->pos[j] = T->colptr[j];
  TriRowsOfColumns(T, cb, ce, &ib, &ie);
  for (PetscInt i = ib; i < ie; i++) {
    for (PetscInt k = T->rowptr[i]; k < T->rowptr[i + 1]; k++) {
      PetscInt j = T->colidx[k];

      if (j >= ce) break;
      if (j >= cb) {
        PetscInt p = c->pos[j]++;

        T->rowidx[p]  = i;
        T->csc2csr[p] = k;
      }
    }
  }
}

/* T's CSC arrays (filled by TriFillColumns()) */
static PetscErrorCode TriAllocColumns(PCSubtreeILUTri *T)
{
  PetscFunctionBegin;
  PetscCall(PetscMalloc4(T->n + 1, &T->colptr, T->nnz, &T->rowidx, T->nnz, &T->cval, T->nnz, &T->csc2csr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  T from rows of the factor's column array: row i is fj[rbeg[i] .. rend[i]-1], whose value is sign*fa[same position].
  In three steps, so that the filling can run on a thread during PETSc's numeric factorization (it only needs the
  factor's structure, fixed by the symbolic factorization):
    TriAlloc()       (PETSc calls) sizes and allocates T;
    TriFillRows()    (plain C, any thread) maps the fresh arrays (PetscSparseGPUPrefaultC()) and fills the CSR by
                     ranges of rows on c->nthreads threads; if a row is not sorted (PETSc's factors always are) it stops
                     there (c->needsort) and TriSortRows() sorts (PETSc calls);
    TriFillColumns() (plain C, any thread) the CSC by ranges of columns (each thread scans the rows for its own
                     columns, in increasing row order: the result does not depend on the number of threads) and the
                     roots of the dependency DAG (its depth is computed only when viewed: TriGetDepth()).
  Without columns the CSC is left out (NULL) until TriEnsureColumns() makes it: ILU on the CPU backends needs it only
  for transposed solves and the row-level threads solve, and leaving it out spares the setup 40% of the structures'
  memory (whose first touch is most of their cost).
*/
static PetscErrorCode TriAlloc(PCSubtreeILUTri *T, PetscInt n, PetscBool lower, const PetscInt rbeg[], const PetscInt rend[], const PetscInt fj[], PetscInt nthreads, PetscBool columns, TriBuildCtx *c)
{
  PetscInt nnz = 0;

  PetscFunctionBegin;
  PetscCall(TriDestroy(T));
  for (PetscInt i = 0; i < n; i++) nnz += rend[i] - rbeg[i];
  T->n     = n;
  T->nnz   = nnz;
  T->lower = lower;
  T->depth = -1;
  PetscCall(PetscMalloc3(n + 1, &T->rowptr, nnz, &T->colidx, nnz, &T->val));
  if (columns) PetscCall(TriAllocColumns(T));
  PetscCall(PetscMalloc1(nnz, &T->src));
  PetscCall(PetscMalloc2(n, &T->roots, n, &T->rootsT)); /* (upper bounds: pages never written are never mapped) */
  PetscCall(PetscMemzero(c, sizeof(*c)));
  for (PetscInt t = 0; t < PETSC_SPARSEGPU_MAX_THREADS; t++) c->badrow[t] = -1;
  c->bad = -1;
  PetscCall(PetscMalloc1(n + 1, &c->pos));
  c->T        = T;
  c->rbeg     = rbeg;
  c->rend     = rend;
  c->fj       = fj;
  c->nthreads = PetscMax(1, PetscMin(nthreads, PETSC_SPARSEGPU_MAX_THREADS));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void TriFillRows(TriBuildCtx *c)
{
  PCSubtreeILUTri *T = c->T;
  PetscInt         n = T->n, nnz = T->nnz, nt = c->nthreads;

  c->fail |= PetscSparseGPUPrefaultC(nt, T->rowptr, (size_t)(n + 1) * sizeof(PetscInt));
  c->fail |= PetscSparseGPUPrefaultC(nt, T->colidx, (size_t)nnz * sizeof(PetscInt));
  c->fail |= PetscSparseGPUPrefaultC(nt, T->val, (size_t)nnz * sizeof(PetscScalar));
  c->fail |= PetscSparseGPUPrefaultC(nt, T->colptr, (size_t)(n + 1) * sizeof(PetscInt));
  c->fail |= PetscSparseGPUPrefaultC(nt, T->rowidx, (size_t)nnz * sizeof(PetscInt));
  c->fail |= PetscSparseGPUPrefaultC(nt, T->cval, (size_t)nnz * sizeof(PetscScalar));
  c->fail |= PetscSparseGPUPrefaultC(nt, T->csc2csr, (size_t)nnz * sizeof(PetscInt));
  c->fail |= PetscSparseGPUPrefaultC(nt, T->src, (size_t)nnz * sizeof(PetscInt));
  c->fail |= PetscSparseGPUPrefaultC(nt, c->pos, (size_t)(n + 1) * sizeof(PetscInt));
  T->rowptr[0] = 0;
  for (PetscInt i = 0; i < n; i++) T->rowptr[i + 1] = T->rowptr[i] + c->rend[i] - c->rbeg[i];
  c->fail |= PetscSparseGPUParallelForC(nt, n, 4096, TriBuildRows, c);
  for (PetscInt t = 0; t < PETSC_SPARSEGPU_MAX_THREADS; t++) {
    c->needsort = (PetscBool)(c->needsort || c->unsorted[t]);
    if (c->badrow[t] >= 0 && (c->bad < 0 || c->badrow[t] < c->bad)) c->bad = c->badrow[t];
  }
  if (c->bad >= 0) c->needsort = PETSC_TRUE; /* (stop before the columns: the build is refused) */
}

static PetscErrorCode TriSortRows(TriBuildCtx *c)
{
  PCSubtreeILUTri *T = c->T;

  PetscFunctionBegin;
  for (PetscInt i = 0; i < T->n; i++) {
    PetscInt b = T->rowptr[i], len = T->rowptr[i + 1] - b, k = 1;

    while (k < len && T->colidx[b + k] > T->colidx[b + k - 1]) k++;
    if (k < len) PetscCall(PetscSortIntWithArray(len, T->colidx + b, T->src + b));
  }
  c->needsort = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void TriFillColumns(TriBuildCtx *c)
{
  PCSubtreeILUTri *T = c->T;
  PetscInt         n = T->n;

  if (T->colptr) {
    T->colptr[0] = 0;
    c->fail |= PetscSparseGPUParallelForC(c->nthreads, n, 16384, TriBuildCountColumns, c);
    for (PetscInt j = 0; j < n; j++) T->colptr[j + 1] += T->colptr[j];
    c->fail |= PetscSparseGPUParallelForC(c->nthreads, n, 16384, TriBuildFillColumns, c);
  }
  T->nroots = T->nrootsT = 0;
  for (PetscInt i = 0; i < n; i++) {
    if (T->rowptr[i + 1] == T->rowptr[i]) T->roots[T->nroots++] = i;
    if (T->colptr && T->colptr[i + 1] == T->colptr[i]) T->rootsT[T->nrootsT++] = i;
  }
}

/* the number of levels of T's dependency DAG (the longest path; the same for T^T), computed at the first call */
static PetscErrorCode TriGetDepth(PCSubtreeILUTri *T, PetscInt *depth)
{
  PetscInt *lev;

  PetscFunctionBegin;
  if (T->depth < 0) {
    PetscCall(PetscMalloc1(T->n, &lev));
    T->depth = PCSubtreeILUTriLevels(T, lev);
    PetscCall(PetscFree(lev));
  }
  *depth = T->depth;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* T = S^T without a copy: T's CSR is S's CSC and the reverse, values included (refreshed through S) */
static PetscErrorCode TriBorrowTranspose(PCSubtreeILUTri *T, const PCSubtreeILUTri *S)
{
  PetscFunctionBegin;
  PetscCall(TriDestroy(T));
  PCSubtreeILUTriTransposeView(T, S);
  T->nroots  = S->nrootsT;
  T->roots   = S->rootsT;
  T->nrootsT = S->nroots;
  T->rootsT  = S->roots;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_INTERN PetscErrorCode PCSubtreeILUTriBorrowTranspose_Private(PCSubtreeILUTri *T, const PCSubtreeILUTri *S)
{
  PetscFunctionBegin;
  PetscCall(TriBorrowTranspose(T, S));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PCSubtreeILUTri   *T;
  const PetscScalar *fa;
  PetscReal          sign;
} TriValuesCtx;

static void TriSetValuesCSR(void *ctx, PetscInt tid, PetscInt begin, PetscInt end)
{
  TriValuesCtx    *c = (TriValuesCtx *)ctx;
  PCSubtreeILUTri *T = c->T;

  (void)tid;
  for (PetscInt k = begin; k < end; k++) T->val[k] = c->sign * c->fa[T->src[k]];
}

static void TriSetValuesCSC(void *ctx, PetscInt tid, PetscInt begin, PetscInt end)
{
  PCSubtreeILUTri *T = ((TriValuesCtx *)ctx)->T;

  (void)tid;
  for (PetscInt p = begin; p < end; p++) T->cval[p] = T->val[T->csc2csr[p]];
}

static PetscErrorCode TriSetValues(PCSubtreeILUTri *T, const PetscScalar fa[], PetscReal sign, PetscInt nthreads)
{
  TriValuesCtx ctx;

  PetscFunctionBegin;
  if (T->borrowed) PetscFunctionReturn(PETSC_SUCCESS); /* set through the owner */
  ctx.T    = T;
  ctx.fa   = fa;
  ctx.sign = sign;
  PetscCall(PetscSparseGPUParallelFor(nthreads, T->nnz, 65536, TriSetValuesCSR, &ctx));
  if (T->colptr) PetscCall(PetscSparseGPUParallelFor(nthreads, T->nnz, 65536, TriSetValuesCSC, &ctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* T's CSC (with its values and the roots of T^T), if TriAlloc() left it out: on nthreads threads */
static PetscErrorCode TriEnsureColumns(PCSubtreeILUTri *T, PetscInt nthreads)
{
  TriBuildCtx  c;
  TriValuesCtx v;
  const size_t nnz = (size_t)T->nnz;

  PetscFunctionBegin;
  if (T->colptr || T->borrowed) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMemzero(&c, sizeof(c)));
  c.T        = T;
  c.nthreads = PetscMax(1, PetscMin(nthreads, PETSC_SPARSEGPU_MAX_THREADS));
  PetscCall(TriAllocColumns(T));
  PetscCall(PetscMalloc1(T->n + 1, &c.pos));
  c.fail |= PetscSparseGPUPrefaultC(c.nthreads, T->rowidx, nnz * sizeof(PetscInt));
  c.fail |= PetscSparseGPUPrefaultC(c.nthreads, T->cval, nnz * sizeof(PetscScalar));
  c.fail |= PetscSparseGPUPrefaultC(c.nthreads, T->csc2csr, nnz * sizeof(PetscInt));
  TriFillColumns(&c);
  PetscCall(PetscFree(c.pos));
  PetscCheck(!c.fail, PETSC_COMM_SELF, PETSC_ERR_SYS, "pthread_join() failed");
  v.T = T; /* the values: from the CSR's */
  PetscCall(PetscSparseGPUParallelFor(nthreads, T->nnz, 65536, TriSetValuesCSC, &v));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the CSC of both factors (TriEnsureColumns()): for the transposed and row-level solves and the GPU's copy */
static PetscErrorCode FactorsEnsureColumns(PC_SubtreeILU *st)
{
  PetscFunctionBegin;
  PetscCall(TriEnsureColumns(&st->L, st->setupthreads));
  PetscCall(TriEnsureColumns(&st->U, st->setupthreads));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ host solves */
typedef struct {
  const PetscInt    *dptr, *didx, *fptr, *fidx; /* inputs of a row (pull), dependents of a row (push) */
  const PetscScalar *dval, *fval;
  const PetscInt    *roots;
  PetscInt           nroots;
} TriView;

static void TriGetView(const PCSubtreeILUTri *T, PetscBool transpose, TriView *v)
{
  if (!transpose) {
    v->dptr = T->rowptr, v->didx = T->colidx, v->dval = T->val;
    v->fptr = T->colptr, v->fidx = T->rowidx, v->fval = T->cval;
    v->roots = T->roots, v->nroots = T->nroots;
  } else {
    v->dptr = T->colptr, v->didx = T->rowidx, v->dval = T->cval;
    v->fptr = T->rowptr, v->fidx = T->colidx, v->fval = T->val;
    v->roots = T->rootsT, v->nroots = T->nrootsT;
  }
}

/*
  Every host solve sums a row's inputs farthest first: in CSR order for the ascending systems (L, U^T), in reverse CSR
  order for the descending ones (U, L^T), so that the input solved just before (x_{i-1} or x_{i+1}, in the row of a
  banded or grid factor) comes last and only one multiply-add of the row waits for it: the serial solve is bound by
  this chain from row to row (3D 100^3 ILU(0), 2-vCPU machine: U in CSR order 3 multiply-adds and the pivot's
  multiply on the chain, PETSc's MatSolve 11.9 ms; PETSc's ICC backward solve sums farthest first, 10.0 ms). The
  serial, chunk-DAG and deterministic row schemes use this one order, so their results are bitwise identical.
*/
static inline PetscScalar TriRowSum(const TriView *v, PetscInt i, PetscBool ascending, const PetscScalar *x, PetscScalar s)
{
  if (ascending)
    for (PetscInt k = v->dptr[i]; k < v->dptr[i + 1]; k++) s -= v->dval[k] * x[v->didx[k]];
  else
    for (PetscInt k = v->dptr[i + 1] - 1; k >= v->dptr[i]; k--) s -= v->dval[k] * x[v->didx[k]];
  return s;
}

/* x_i = (b_i rs_i - sum_j T_ij x_j) ds_i in topological order (rs, ds: NULL for none), the sums by TriRowSum(). The
   loop is written out for each direction and scaling (TriRowSum() inlined with a constant direction), so that the row
   loop has no test but its own. */
static void TriSolveSerial(const PCSubtreeILUTri *T, PetscBool transpose, const PetscScalar *b, const PetscScalar *rs, const PetscScalar *ds, PetscScalar *x)
{
  TriView        v;
  const PetscInt n = T->n;

  TriGetView(T, transpose, &v);
#define TRI_SERIAL_ROWS(ASC, INPUT, OUTPUT) \
  for (PetscInt ii = 0, i = (ASC) ? 0 : n - 1; ii < n; ii++, i += (ASC) ? 1 : -1) { \
    PetscScalar s = TriRowSum(&v, i, ASC, x, INPUT); \
    x[i] = OUTPUT; \
  }
#define TRI_SERIAL_SCALINGS(ASC) \
  if (!rs && !ds) TRI_SERIAL_ROWS(ASC, b[i], s) \
  else if (rs && !ds) TRI_SERIAL_ROWS(ASC, b[i] * rs[i], s) \
  else if (!rs && ds) TRI_SERIAL_ROWS(ASC, b[i], s * ds[i]) \
  else TRI_SERIAL_ROWS(ASC, b[i] * rs[i], s * ds[i])
  if ((T->lower && !transpose) || (!T->lower && transpose)) {
    TRI_SERIAL_SCALINGS(PETSC_TRUE)
  } else {
    TRI_SERIAL_SCALINGS(PETSC_FALSE)
  }
#undef TRI_SERIAL_SCALINGS
#undef TRI_SERIAL_ROWS
}

#define SUBTREEILU_AUTO_APPLIES 6 /* backend auto on the CPU: the first applies alternate serial and threads, one warm-up each */
#if defined(SUBTREEILU_HAVE_THREADS)
/*
  The threads backend: a persistent pool of nthreads-1 workers, created at the first threads apply and joined in
  PCReset()/PCDestroy(). Between solves the workers sleep on a condition variable (no busy waiting while idle).
  A solve publishes a job (under the mutex, generation gen) and wakes them; the calling thread takes part.

  Rows are dealt in chunks of consecutive rows in topological order through one atomic ticket counter (whoever is
  running takes the next chunk), so a worker that wakes late or is descheduled never holds up the solve: the chunks
  are taken by whoever runs. The ticket counter carries the generation in its high 32 bits, so a worker that wakes
  up after its job is over cannot take a chunk of a later job with stale parameters (its compare-exchange fails;
  only a thread preempted between copying a job and its compare-exchange for 2^32 solves could be fooled).
  A thread touches a job's data only after taking one of its chunks, and a job is not over before every chunk's
  visit. Every row is solved exactly once; each thread adds the number of rows it solved to `solved` when it runs out of
  chunks, and the one that brings it to n signals the caller. The caller, once no chunk is left, waits only for
  threads that hold a chunk, and those never wait for anybody: deadlock-free by construction.

  Counters need no reset pass: each of the four systems (L, U, L^T, U^T) has its own array of counters, and the
  thread that solves row i (the counter reached zero: all decrements of this solve are done) restores cnt[i] to
  its initial value for the next solve of the same system and clears acc[i] (the chunk DAG likewise restores the
  counter of each chunk it solves). The next job's threads see these stores through the release/acquire of
  `solved` and the pool's mutex.
*/
typedef struct {
  TriView            v;
  const PetscScalar *b, *rs, *ds;
  PetscScalar       *x;
  atomic_int        *cnt;
  _Atomic double    *acc;
  PetscInt          *next;
  PetscInt           n, chunk, nchunks;
  PetscBool          det, ascending;
  PetscBool          rows; /* row-level scheme; else the chunk DAG below */
  const PetscInt    *cptr, *cidx, *cinit; /* chunk DAG: dependents of chunk c are cidx[cptr[c] .. cptr[c+1]-1] */
  atomic_int        *ccnt;
  PetscInt          *cnext;
} TriJob;

/* The chunk DAG of one system: chunk c = rows at topological positions c*chunk .. (c+1)*chunk-1 */
struct _PCSubtreeILUChunkDAG {
  PetscInt    chunk, nchunks, nedges, depth; /* depth: chunks on the critical path */
  PetscInt   *ptr, *idx, *init, *next;
  atomic_int *cnt;
};

struct _PCSubtreeILUPool {
  pthread_mutex_t  mtx;
  pthread_cond_t   wake, done; /* workers sleep on wake between jobs; the caller on done at the end of a job */
  pthread_t       *tid;
  PetscInt         nworkers, nstarted;
  unsigned         gen;          /* current job (under mtx) */
  PetscBool        quit;         /* under mtx */
  TriJob           job;          /* under mtx: workers copy it when they wake */
  _Atomic uint64_t ticket;       /* gen << 32 | next chunk */
  atomic_llong     solved;       /* rows solved in the current job */
};

  #define SUBTREEILU_CHUNK 64
  #define SUBTREEILU_AUTO_MIN_ROWS 30000 /* auto: smaller blocks stay serial (measured: see the auto policy) */

/* Visits the rows of chunk c in topological order; returns the number of rows this thread solved */
static PetscInt TriSolveChunk(const TriJob *w, PetscInt c)
{
  const TriView *v      = &w->v;
  PetscInt       solved = 0, end = PetscMin((c + 1) * w->chunk, w->n);

  for (PetscInt ii = c * w->chunk; ii < end; ii++) {
    PetscInt top = w->ascending ? ii : w->n - 1 - ii;

    /* the owner's visit: if only it is missing (all inputs pushed, acquire), nobody else touches cnt[top] in this
       solve and no atomic read-modify-write is needed; else decrement, and a pusher solves the row if not we */
    if (atomic_load_explicit(&w->cnt[top], memory_order_acquire) != 1 && atomic_fetch_sub_explicit(&w->cnt[top], 1, memory_order_acq_rel) != 1) continue;
    w->next[top] = -1;
    while (top >= 0) {
      PetscInt    i = top;
      PetscScalar s, xi;

      top = w->next[i];
      s   = w->rs ? w->b[i] * w->rs[i] : w->b[i];
      if (w->det) s = TriRowSum(v, i, w->ascending, w->x, s); /* all inputs are final and visible (acquire on the last decrement): the serial order */
      else {
        s -= atomic_load_explicit(&w->acc[i], memory_order_relaxed);
        atomic_store_explicit(&w->acc[i], 0.0, memory_order_relaxed); /* all inputs were added: ready for the next solve */
      }
      /* all decrements of cnt[i] in this solve are done: restore it for the next solve of this system */
      atomic_store_explicit(&w->cnt[i], (int)(v->dptr[i + 1] - v->dptr[i] + 1), memory_order_relaxed);
      xi      = w->ds ? s * w->ds[i] : s;
      w->x[i] = xi;
      solved++;
      for (PetscInt k = v->fptr[i]; k < v->fptr[i + 1]; k++) {
        PetscInt j = v->fidx[k];

        if (!w->det) {
          double old = atomic_load_explicit(&w->acc[j], memory_order_relaxed), add = v->fval[k] * xi;
          while (!atomic_compare_exchange_weak_explicit(&w->acc[j], &old, old + add, memory_order_relaxed, memory_order_relaxed));
        }
        if (atomic_fetch_sub_explicit(&w->cnt[j], 1, memory_order_acq_rel) == 1) { /* j is complete: this thread solves it */
          w->next[j] = top;
          top        = j;
        }
      }
    }
  }
  return solved;
}

/*
  Chunk DAG scheme: the same counters and pushes, per chunk instead of per row. Whoever brings the counter of a chunk
  to zero solves its rows one after the other exactly like the serial backend (so the result is bitwise identical
  to it), then pushes to the dependent chunks and continues with those it completes. One or two atomic operations
  per chunk instead of several per row.
*/
static PetscInt TriSolveChunkDAG(const TriJob *w, PetscInt c)
{
  const TriView *v      = &w->v;
  PetscInt       solved = 0, top = c;

  if (atomic_load_explicit(&w->ccnt[c], memory_order_acquire) != 1 && atomic_fetch_sub_explicit(&w->ccnt[c], 1, memory_order_acq_rel) != 1) return 0;
  w->cnext[c] = -1;
  while (top >= 0) {
    PetscInt d = top, end = PetscMin((d + 1) * w->chunk, w->n);

    top = w->cnext[d];
    for (PetscInt ii = d * w->chunk; ii < end; ii++) {
      PetscInt    i = w->ascending ? ii : w->n - 1 - ii;
      PetscScalar s = TriRowSum(v, i, w->ascending, w->x, w->rs ? w->b[i] * w->rs[i] : w->b[i]);

      w->x[i] = w->ds ? s * w->ds[i] : s;
    }
    solved += end - d * w->chunk;
    atomic_store_explicit(&w->ccnt[d], (int)w->cinit[d], memory_order_relaxed); /* for the next solve */
    for (PetscInt k = w->cptr[d]; k < w->cptr[d + 1]; k++) {
      PetscInt e = w->cidx[k];

      if (atomic_fetch_sub_explicit(&w->ccnt[e], 1, memory_order_acq_rel) == 1) {
        w->cnext[e] = top;
        top         = e;
      }
    }
  }
  return solved;
}

/* Takes chunks of job gen until none is left; returns PETSC_TRUE if this thread completed the job */
static PetscBool PoolRunJob(struct _PCSubtreeILUPool *pool, const TriJob *job, unsigned gen)
{
  PetscInt solved = 0;

  for (;;) {
    uint64_t cur = atomic_load_explicit(&pool->ticket, memory_order_acquire);

    do {
      if ((unsigned)(cur >> 32) != gen || (PetscInt)(cur & 0xffffffffu) >= job->nchunks) goto out;
    } while (!atomic_compare_exchange_weak_explicit(&pool->ticket, &cur, cur + 1, memory_order_acq_rel, memory_order_acquire));
    solved += job->rows ? TriSolveChunk(job, (PetscInt)(cur & 0xffffffffu)) : TriSolveChunkDAG(job, (PetscInt)(cur & 0xffffffffu));
  }
out:
  if (!solved) return PETSC_FALSE;
  return atomic_fetch_add_explicit(&pool->solved, (long long)solved, memory_order_acq_rel) + solved == job->n ? PETSC_TRUE : PETSC_FALSE;
}

static void *PoolWorker(void *arg)
{
  struct _PCSubtreeILUPool *pool = (struct _PCSubtreeILUPool *)arg;
  unsigned                  seen;
  TriJob                    job;

  pthread_mutex_lock(&pool->mtx);
  seen = pool->gen;
  for (;;) {
    while (pool->gen == seen && !pool->quit) pthread_cond_wait(&pool->wake, &pool->mtx);
    if (pool->quit) break;
    seen = pool->gen;
    job  = pool->job;
    pthread_mutex_unlock(&pool->mtx);
    if (PoolRunJob(pool, &job, seen)) { /* this thread completed the job: wake the caller if it sleeps */
      pthread_mutex_lock(&pool->mtx);
      pthread_cond_signal(&pool->done);
    } else pthread_mutex_lock(&pool->mtx);
  }
  pthread_mutex_unlock(&pool->mtx);
  return NULL;
}

static PetscErrorCode PoolDestroy(PCSubtreeILUPool *ppool)
{
  struct _PCSubtreeILUPool *pool = *ppool;

  PetscFunctionBegin;
  if (!pool) PetscFunctionReturn(PETSC_SUCCESS);
  pthread_mutex_lock(&pool->mtx);
  pool->quit = PETSC_TRUE;
  pthread_cond_broadcast(&pool->wake);
  pthread_mutex_unlock(&pool->mtx);
  for (PetscInt t = 0; t < pool->nstarted; t++) PetscCheck(!pthread_join(pool->tid[t], NULL), PETSC_COMM_SELF, PETSC_ERR_SYS, "pthread_join() failed");
  pthread_cond_destroy(&pool->wake);
  pthread_cond_destroy(&pool->done);
  pthread_mutex_destroy(&pool->mtx);
  PetscCall(PetscFree(pool->tid));
  PetscCall(PetscFree(*ppool));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PoolCreate(PetscInt nworkers, PCSubtreeILUPool *ppool)
{
  struct _PCSubtreeILUPool *pool;

  PetscFunctionBegin;
  PetscCall(PetscNew(&pool));
  PetscCall(PetscMalloc1(nworkers, &pool->tid));
  pool->nworkers = nworkers;
  PetscCheck(!pthread_mutex_init(&pool->mtx, NULL), PETSC_COMM_SELF, PETSC_ERR_SYS, "pthread_mutex_init() failed");
  PetscCheck(!pthread_cond_init(&pool->wake, NULL), PETSC_COMM_SELF, PETSC_ERR_SYS, "pthread_cond_init() failed");
  PetscCheck(!pthread_cond_init(&pool->done, NULL), PETSC_COMM_SELF, PETSC_ERR_SYS, "pthread_cond_init() failed");
  atomic_init(&pool->ticket, 0);
  atomic_init(&pool->solved, 0);
  *ppool = pool;
  for (PetscInt t = 0; t < nworkers; t++) {
    if (pthread_create(&pool->tid[t], NULL, PoolWorker, pool)) {
      PetscCall(PoolDestroy(ppool)); /* joins the workers started so far */
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SYS, "pthread_create() failed for worker %" PetscInt_FMT " of %" PetscInt_FMT, t + 1, nworkers);
    }
    pool->nstarted++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ChunkDAGDestroy(PCSubtreeILUChunkDAG *pdag)
{
  PetscFunctionBegin;
  if (!*pdag) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree5((*pdag)->ptr, (*pdag)->idx, (*pdag)->init, (*pdag)->next, (*pdag)->cnt));
  PetscCall(PetscFree(*pdag));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Distinct edges between chunks (input chunk -> dependent chunk) of the system seen through v */
static PetscErrorCode ChunkDAGCreate(const TriView *v, PetscInt n, PetscBool ascending, PetscInt chunk, PCSubtreeILUChunkDAG *pdag)
{
  PCSubtreeILUChunkDAG dag;
  PetscInt            *last, *pos, *lev, nc = (n + chunk - 1) / chunk, badrow = -1, badcol = -1;

  PetscFunctionBegin;
  PetscCall(PetscNew(&dag));
  dag->chunk   = chunk;
  dag->nchunks = nc;
  PetscCall(PetscMalloc3(nc, &last, nc + 1, &pos, nc, &lev));
  /* count: pos[c+1] = dependents of c, init[d] = input chunks of d + 1 (the visit of its ticket) */
  for (PetscInt pass = 0; pass < 2; pass++) {
    if (pass == 1 && badrow >= 0) { /* an input in a later chunk would close a cycle no thread could complete: a
                                       triangle has none, but a corrupted one gives an error instead of a hang */
      PetscCall(PetscFree3(last, pos, lev));
      PetscCall(PetscFree(dag));
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_PLIB, "Row %" PetscInt_FMT " of a triangular factor has an input (column %" PetscInt_FMT ") on the wrong side of its diagonal", badrow, badcol);
    }
    if (pass == 1) {
      for (PetscInt c = 0; c < nc; c++) pos[c + 1] += pos[c];
      dag->nedges = pos[nc];
      PetscCall(PetscMalloc5(nc + 1, &dag->ptr, dag->nedges, &dag->idx, nc, &dag->init, nc, &dag->next, nc, &dag->cnt));
      PetscCall(PetscArraycpy(dag->ptr, pos, nc + 1));
    } else PetscCall(PetscArrayzero(pos, nc + 1));
    for (PetscInt c = 0; c < nc; c++) last[c] = -1, lev[c] = 1;
    for (PetscInt d = 0; d < nc; d++) {
      PetscInt nin = 0;

      for (PetscInt ii = d * chunk; ii < PetscMin((d + 1) * chunk, n); ii++) {
        PetscInt i = ascending ? ii : n - 1 - ii;

        for (PetscInt k = v->dptr[i]; k < v->dptr[i + 1]; k++) {
          PetscInt j = v->didx[k], c = (ascending ? j : n - 1 - j) / chunk;

          if (c == d || last[c] == d) continue;
          if (c > d && badrow < 0) badrow = i, badcol = j;
          last[c] = d;
          nin++;
          lev[d] = PetscMax(lev[d], lev[c] + 1);
          if (pass == 0) pos[c + 1]++;
          else dag->idx[pos[c]++] = d;
        }
      }
      if (pass == 1) {
        dag->init[d] = nin + 1;
        atomic_init(&dag->cnt[d], (int)(nin + 1));
      }
    }
  }
  dag->depth = 0;
  for (PetscInt c = 0; c < nc; c++) dag->depth = PetscMax(dag->depth, lev[c]);
  PetscCall(PetscFree3(last, pos, lev));
  *pdag = dag;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Rows per chunk (chunk indices fit in 31 bits) */
static inline PetscInt ChunkSize(PetscInt n)
{
  return PetscMax(SUBTREEILU_CHUNK, (n >> 30) + 1);
}

/* The chunk DAG of system sys (0 L, 1 L^T, 2 U, 3 U^T), built at its first use */
static PetscErrorCode PCSubtreeILUGetChunkDAG(PC_SubtreeILU *st, PetscInt sys, PCSubtreeILUChunkDAG *dag)
{
  PetscFunctionBegin;
  if (!st->dag[sys]) {
    const PCSubtreeILUTri *T         = sys < 2 ? &st->L : &st->U;
    PetscBool              transpose = sys % 2 ? PETSC_TRUE : PETSC_FALSE;
    TriView                v;

    TriGetView(T, transpose, &v);
    PetscCall(ChunkDAGCreate(&v, T->n, (T->lower && !transpose) || (!T->lower && transpose) ? PETSC_TRUE : PETSC_FALSE, ChunkSize(T->n), &st->dag[sys]));
  }
  *dag = st->dag[sys];
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* Frees the chunk DAGs of the threads backend */
static PetscErrorCode PCSubtreeILUChunkDAGDestroy_Private(PC_SubtreeILU *st)
{
  PetscFunctionBegin;
#if defined(SUBTREEILU_HAVE_THREADS)
  for (PetscInt sys = 0; sys < 4; sys++) PetscCall(ChunkDAGDestroy(&st->dag[sys]));
#else
  (void)st;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Joins the workers of the threads backend (if any) */
static PetscErrorCode PCSubtreeILUPoolDestroy_Private(PC_SubtreeILU *st)
{
  PetscFunctionBegin;
#if defined(SUBTREEILU_HAVE_THREADS)
  PetscCall(PoolDestroy(&st->pool));
#else
  (void)st;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TriSolveThreads(PC_SubtreeILU *st, const PCSubtreeILUTri *T, PetscBool transpose, const PetscScalar *b, const PetscScalar *rs, const PetscScalar *ds, PetscScalar *x)
{
#if defined(SUBTREEILU_HAVE_THREADS)
  struct _PCSubtreeILUPool *pool;
  TriJob                    job;
  unsigned                  gen;
  PetscInt                  nw  = PetscMax(1, st->nthreads) - 1, sys = (T == &st->U ? 2 : 0) + (transpose ? 1 : 0);
#endif

  PetscFunctionBegin;
#if defined(SUBTREEILU_HAVE_THREADS)
  if (T->n == 0) PetscFunctionReturn(PETSC_SUCCESS);
  if (st->pool && st->pool->nworkers != nw) PetscCall(PoolDestroy(&st->pool)); /* -pc_subtree_ilu_threads changed */
  if (!st->pool && nw > 0) PetscCall(PoolCreate(nw, &st->pool));
  if (st->threadsrows && !st->cnt) { /* the row counters (-pc_subtree_ilu_threads_rows), made at its first solve */
    PetscInt        n = st->n;
    atomic_int     *cnt;
    _Atomic double *acc;

    PetscCall(FactorsEnsureColumns(st)); /* (the row-level solve pushes along the columns) */

    /* counters of the four systems start at (inputs + 1) and are restored by the solves themselves */
    PetscCall(PetscMalloc3(4 * n, &cnt, n, &acc, n, &st->next));
    for (PetscInt s = 0; s < 4; s++) {
      TriView v;

      TriGetView(s < 2 ? &st->L : &st->U, s % 2 ? PETSC_TRUE : PETSC_FALSE, &v);
      for (PetscInt i = 0; i < n; i++) atomic_init(&cnt[s * n + i], (int)(v.dptr[i + 1] - v.dptr[i] + 1));
    }
    for (PetscInt i = 0; i < n; i++) atomic_init(&acc[i], 0.0);
    st->cnt = (int *)cnt;
    st->acc = (PetscScalar *)acc;
  }
  TriGetView(T, transpose, &job.v);
  job.b         = b;
  job.rs        = rs;
  job.ds        = ds;
  job.x         = x;
  job.cnt       = (atomic_int *)st->cnt + sys * T->n;
  job.acc       = (_Atomic double *)st->acc;
  job.next      = st->next;
  job.n         = T->n;
  job.chunk     = ChunkSize(T->n);
  job.nchunks   = (T->n + job.chunk - 1) / job.chunk;
  job.det       = st->deterministic;
  job.ascending = (T->lower && !transpose) || (!T->lower && transpose) ? PETSC_TRUE : PETSC_FALSE;
  job.rows      = st->threadsrows;
  if (!job.rows) { /* the chunk DAG of this system, built at its first solve */
    PCSubtreeILUChunkDAG dag = NULL;

    PetscCall(PCSubtreeILUGetChunkDAG(st, sys, &dag));
    job.cptr  = dag->ptr;
    job.cidx  = dag->idx;
    job.cinit = dag->init;
    job.ccnt  = dag->cnt;
    job.cnext = dag->next;
  }
  pool = st->pool;
  if (!pool) { /* one thread: the same algorithm, no pool */
    PetscInt solved = 0;

    for (PetscInt c = 0; c < job.nchunks; c++) solved += job.rows ? TriSolveChunk(&job, c) : TriSolveChunkDAG(&job, c);
    PetscCheck(solved == T->n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Subtree solve completed %" PetscInt_FMT " of %" PetscInt_FMT " rows", solved, T->n);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* publish the job and wake the workers */
  pthread_mutex_lock(&pool->mtx);
  gen = pool->gen + 1;
  atomic_store_explicit(&pool->solved, 0, memory_order_relaxed);
  atomic_store_explicit(&pool->ticket, (uint64_t)gen << 32, memory_order_release);
  pool->job = job;
  pool->gen = gen;
  pthread_cond_broadcast(&pool->wake);
  pthread_mutex_unlock(&pool->mtx);
  /* take part, then wait (spin briefly, then block) for the threads that still hold a chunk */
  if (!PoolRunJob(pool, &job, gen)) {
    PetscBool done = PETSC_FALSE;

    for (int spin = 0; spin < 2000 && !done; spin++) {
      if (atomic_load_explicit(&pool->solved, memory_order_acquire) == T->n) done = PETSC_TRUE;
      else if (spin >= 100) sched_yield();
    }
    if (!done) {
      pthread_mutex_lock(&pool->mtx); /* the thread that completes the job signals under the mutex: no lost wake-up */
      while (atomic_load_explicit(&pool->solved, memory_order_acquire) != T->n) pthread_cond_wait(&pool->done, &pool->mtx);
      pthread_mutex_unlock(&pool->mtx);
    }
  }
  PetscCheck(atomic_load_explicit(&pool->solved, memory_order_acquire) == T->n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Subtree solve completed %lld of %" PetscInt_FMT " rows", (long long)atomic_load(&pool->solved), T->n);
#else
  (void)st, (void)T, (void)transpose, (void)b, (void)rs, (void)ds, (void)x;
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "The threads backend needs pthreads, C11 atomics and real scalars");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TriSolve(PC_SubtreeILU *st, const PCSubtreeILUTri *T, PetscBool transpose, const PetscScalar *b, const PetscScalar *rs, const PetscScalar *ds, PetscScalar *x)
{
  PetscFunctionBegin;
  if (st->backend == PC_SUBTREEILU_BACKEND_THREADS) PetscCall(TriSolveThreads(st, T, transpose, b, rs, ds, x));
  else TriSolveSerial(T, transpose, b, rs, ds, x);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Solves into x through the work vectors; with identity permutations (natural ordering) the solves read b and write x
   themselves, as PETSc's MatSolve() with the natural ordering, instead of a gather and a scatter pass over the
   vectors (PCApply() never has x == b, and b is read wholly before x is written). A gather fused into the first solve
   was slower with RCM on the 2-vCPU machine (the separate pass streams; in the solve it waits in the row chain). */
static PetscErrorCode ApplyHost(PC_SubtreeILU *st, PCSubtreeILUApplyMode mode, const PetscScalar *b, PetscScalar *x)
{
  PetscInt           n = st->n;
  PetscScalar       *t = st->work, *t2 = st->work2, *out;
  PetscBool          icc = st->type == PC_SUBTREEILU_ICC ? PETSC_TRUE : PETSC_FALSE, iident, oident;
  const PetscInt    *ip, *op;
  const PetscScalar *in;

  PetscFunctionBegin;
  if (icc && mode == PC_SUBTREEILU_APPLY_TRANSPOSE) mode = PC_SUBTREEILU_APPLY;
  /* the gather of the input (ip) and the scatter of the output (op) */
  ip     = mode == PC_SUBTREEILU_APPLY_TRANSPOSE ? st->cperm : st->rperm;
  op     = mode == PC_SUBTREEILU_APPLY_TRANSPOSE ? st->rperm : st->cperm;
  iident = mode == PC_SUBTREEILU_APPLY_SYMMETRIC_RIGHT ? PETSC_TRUE : (mode == PC_SUBTREEILU_APPLY_TRANSPOSE ? st->cident : st->rident); /* symmetric right: b is in the permuted numbering */
  oident = mode == PC_SUBTREEILU_APPLY_SYMMETRIC_LEFT ? PETSC_TRUE : (mode == PC_SUBTREEILU_APPLY_TRANSPOSE ? st->rident : st->cident);  /* symmetric left: left in the permuted numbering */
  in     = b;
  if (!iident) {
    for (PetscInt i = 0; i < n; i++) t[i] = b[ip[i]];
    in = t;
  }
  out = oident ? x : t;
  switch (mode) {
  case PC_SUBTREEILU_APPLY:
    PetscCall(TriSolve(st, &st->L, PETSC_FALSE, in, NULL, NULL, t2));
    PetscCall(TriSolve(st, &st->U, PETSC_FALSE, t2, icc ? st->dinv : NULL, icc ? NULL : st->dinv, out));
    break;
  case PC_SUBTREEILU_APPLY_TRANSPOSE: /* ILU: M^T = P_c^T U^T L^T P_r (ICC is symmetric: handled as APPLY) */
    PetscCall(FactorsEnsureColumns(st));
    PetscCall(TriSolve(st, &st->U, PETSC_TRUE, in, NULL, st->dinv, t2));
    PetscCall(TriSolve(st, &st->L, PETSC_TRUE, t2, NULL, NULL, out));
    break;
  case PC_SUBTREEILU_APPLY_SYMMETRIC_LEFT: /* D^{-1/2} L^{-1} P b, left in the permuted numbering like MatForwardSolve */
    PetscCall(TriSolve(st, &st->L, PETSC_FALSE, in, NULL, NULL, t2));
    for (PetscInt i = 0; i < n; i++) x[i] = t2[i] * st->sqrtdinv[i];
    break;
  case PC_SUBTREEILU_APPLY_SYMMETRIC_RIGHT: /* P^T Ut^{-1} D^{-1/2} b, like MatBackwardSolve */
    PetscCall(TriSolve(st, &st->U, PETSC_FALSE, in, st->sqrtdinv, NULL, out));
    break;
  }
  if (!oident)
    for (PetscInt i = 0; i < n; i++) x[op[i]] = t[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(SUBTREEILU_HAVE_THREADS)
/* whether threads cannot win on the chunk DAG of a triangle of nnz entries: its critical path holds at least 90% of the
   chunks (2D 500^2 natural: 95%), or its edges (an atomic each) are at least 1/8 of the entries (grids: 1-3%, two or
   three edges a chunk of 64 rows; random columns, e.g. powerlaw:100k:8: 85%, where 2 threads were 2.5-7x slower) */
static inline PetscBool ChunkDAGHopeless(PCSubtreeILUChunkDAG dag, PetscInt nnz)
{
  return (PetscBool)(10 * dag->depth >= 9 * dag->nchunks || 8 * dag->nedges >= nnz);
}

/* backend auto on the CPU (PCSubtreeILUChooseBackend_Private()): one of the first applies, alternately serial and
   threads, each timed after its warm-up; after the last one, threads are kept if at least 10% faster */
static PetscErrorCode ApplyHostAuto(PC_SubtreeILU *st, const PetscScalar *b, PetscScalar *x)
{
  const PetscInt k       = SUBTREEILU_AUTO_APPLIES - st->autoapplies;
  const PetscBool threads = (PetscBool)(k % 2);
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  if (k == 1) { /* before the first threads trial: not timed where they cannot win on either triangle */
    PCSubtreeILUChunkDAG dl, du;

    PetscCall(PCSubtreeILUGetChunkDAG(st, 0, &dl));
    PetscCall(PCSubtreeILUGetChunkDAG(st, 2, &du));
    if (ChunkDAGHopeless(dl, st->L.nnz) && ChunkDAGHopeless(du, st->U.nnz)) {
      PetscCall(PetscInfo(NULL, "subtree_ilu: backend auto chose serial without timing threads: chunk DAGs' critical paths %" PetscInt_FMT " of %" PetscInt_FMT " chunks (L), %" PetscInt_FMT " of %" PetscInt_FMT " (U), edges %" PetscInt_FMT " (L, %" PetscInt_FMT " entries), %" PetscInt_FMT " (U, %" PetscInt_FMT ")\n", dl->depth, dl->nchunks, du->depth, du->nchunks, dl->nedges, st->L.nnz, du->nedges, st->U.nnz));
      PetscCall(PCSubtreeILUChunkDAGDestroy_Private(st));
      st->autoapplies = 0;
      st->backend     = PC_SUBTREEILU_BACKEND_SERIAL;
      PetscCall(ApplyHost(st, PC_SUBTREEILU_APPLY, b, x));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  st->backend = threads ? PC_SUBTREEILU_BACKEND_THREADS : PC_SUBTREEILU_BACKEND_SERIAL;
  PetscCall(PetscTime(&t0));
  PetscCall(ApplyHost(st, PC_SUBTREEILU_APPLY, b, x));
  PetscCall(PetscTime(&t1));
  if (k >= 2) {
    PetscLogDouble *best = threads ? &st->autothreads : &st->autoserial;
    *best                = *best > 0 ? PetscMin(*best, t1 - t0) : t1 - t0;
  }
  if (--st->autoapplies == 0) {
    const PetscBool keep = (PetscBool)(st->autothreads < 0.9 * st->autoserial);

    st->backend = keep ? PC_SUBTREEILU_BACKEND_THREADS : PC_SUBTREEILU_BACKEND_SERIAL;
    if (!keep) {
      PetscCall(PCSubtreeILUPoolDestroy_Private(st));
      PetscCall(PCSubtreeILUChunkDAGDestroy_Private(st));
    }
    PetscCall(PetscInfo(NULL, "subtree_ilu: backend auto chose %s (fastest apply: serial %g ms, threads (%" PetscInt_FMT ") %g ms)\n", keep ? "threads" : "serial", 1e3 * st->autoserial, st->nthreads, 1e3 * st->autothreads));
  } else st->backend = PC_SUBTREEILU_BACKEND_SERIAL; /* between the trial applies (other kinds of apply) */
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* ------------------------------------------------------------------ factorization and extraction */
static PetscErrorCode PCSubtreeILUBuildJoin_Private(PC_SubtreeILU *);

static PetscErrorCode PCSubtreeILUFreeSolve_Private(PC_SubtreeILU *st)
{
  PetscFunctionBegin;
  PetscCall(PCSubtreeILUBuildJoin_Private(st)); /* (a build in progress writes into the arrays freed below) */
  for (PetscInt t = 0; t < 2; t++) {
    PCSubtreeILUGroups G;
    PetscBool          sorted;

    PetscCall(PCSubtreeILULevelSortFinish_Private(&st->lsort[t], &sorted, NULL, NULL, NULL, NULL, NULL)); /* (dropped) */
    if (!st->sched[t].pos) continue;
    st->sched[t].badrow = -1;
    PetscCall(PCSubtreeILUGroupsFinish_Private(&st->sched[t], &G));
    PetscCall(PCSubtreeILUGroupsDestroy_Private(&G));
  }
  st->schedready = PETSC_FALSE;
  PetscCall(TriDestroy(&st->L));
  PetscCall(TriDestroy(&st->U));
  PetscCall(PetscFree4(st->rperm, st->cperm, st->dsrc, st->dinv));
  PetscCall(PetscFree(st->sqrtdinv));
  PetscCall(PetscFree2(st->work, st->work2));
  PetscCall(PetscFree3(st->cnt, st->acc, st->next));
  PetscCall(PCSubtreeILUChunkDAGDestroy_Private(st));
  PetscCall(PCSubtreeILUPlanDestroy_Private(&st->plan));
  st->plantried = PETSC_FALSE;
#if defined(PETSC_HAVE_CUDA)
  PetscCall(PCSubtreeILUCUDAPlanDestroy_Private(&st->cudaplan));
  PetscCall(PCSubtreeILUCUDADestroy_Private(&st->cuda));
#endif
  st->factored  = PETSC_FALSE;
  st->hoststale = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  PC_SubtreeILU     *st;
  const PetscScalar *fa;
  PetscBool          icc;
  PetscInt           badpivot[PETSC_SPARSEGPU_MAX_THREADS]; /* by thread: its first row whose ICC pivot is not real nonnegative, or -1 */
} PivotsCtx;

static void SetPivots(void *ctx, PetscInt tid, PetscInt begin, PetscInt end)
{
  PivotsCtx     *c  = (PivotsCtx *)ctx;
  PC_SubtreeILU *st = c->st;

  c->badpivot[tid] = -1;
  for (PetscInt i = begin; i < end; i++) st->dinv[i] = c->fa[st->dsrc[i]];
  if (!c->icc) return;
  for (PetscInt i = begin; i < end; i++) {
    /* like MatForwardSolve_SeqSBAIJ_1(): symmetric applies need real nonnegative pivots (checked when applied) */
    PetscReal d = PetscRealPart(st->dinv[i]);

    if (d >= 0 && PetscImaginaryPart(st->dinv[i]) == 0) st->sqrtdinv[i] = PetscSqrtReal(d);
    else {
      st->sqrtdinv[i] = 0;
      if (c->badpivot[tid] < 0) c->badpivot[tid] = i;
    }
  }
}

/* Refreshes the values of L, U and the pivots from PETSc's factor (same pattern) */
static PetscErrorCode PCSubtreeILURefreshValues_Private(PC_SubtreeILU *st)
{
  const PetscScalar *fa;
  PetscBool          icc = st->type == PC_SUBTREEILU_ICC ? PETSC_TRUE : PETSC_FALSE;
  PivotsCtx          ctx;

  PetscFunctionBegin;
  if (icc) PetscCall(MatSeqSBAIJGetArray(st->fact, (PetscScalar **)&fa));
  else PetscCall(MatSeqAIJGetArrayRead(st->fact, &fa));
  PetscCall(TriSetValues(&st->L, fa, icc ? -1.0 : 1.0, st->setupthreads));
  PetscCall(TriSetValues(&st->U, fa, icc ? -1.0 : 1.0, st->setupthreads));
  ctx.st  = st;
  ctx.fa  = fa;
  ctx.icc = icc;
  for (PetscInt t = 0; t < PETSC_SPARSEGPU_MAX_THREADS; t++) ctx.badpivot[t] = -1;
  PetscCall(PetscSparseGPUParallelFor(st->setupthreads, st->n, 65536, SetPivots, &ctx));
  st->badpivot = -1;
  for (PetscInt t = 0; t < PETSC_SPARSEGPU_MAX_THREADS && st->badpivot < 0; t++) st->badpivot = ctx.badpivot[t]; /* threads hold increasing ranges */
  if (icc) PetscCall(MatSeqSBAIJRestoreArray(st->fact, (PetscScalar **)&fa));
  else PetscCall(MatSeqAIJRestoreArrayRead(st->fact, &fa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the solve structures of a new pattern, built from the symbolic factorization, on a thread while PETSc's numeric
   factorization runs (PCSubtreeILUBuildStart_Private() .. PCSubtreeILUBuildFinish_Private()) */
struct _PCSubtreeILUBuild {
  TriBuildCtx         tri[2]; /* U, and L for ILU */
  PetscInt            ntri;
  PetscInt           *ubeg; /* ILU: where U's rows start in the factor */
  const PetscInt     *ia, *ja; /* the factor's structure when the build started */
  PetscBool           sched;   /* also the cuda schedules (st->sched) */
  PC_SubtreeILU      *st;
  PetscSparseGPUTasks task;
  PetscLogDouble      seconds, schedseconds;
  PetscBool           again; /* built again after the factor's structure moved */
};

static void ScheduleRange(void *ctx, PetscInt tid, PetscInt begin, PetscInt end)
{
  PC_SubtreeILU *st = (PC_SubtreeILU *)ctx;

  (void)tid;
  for (PetscInt t = begin; t < end; t++) {
    if (st->lsort[t].T) PCSubtreeILULevelSortCompute_Private(&st->lsort[t]); /* (with that schedule, st->sched[t]) */
    else PCSubtreeILUGroupsCompute_Private(&st->sched[t]);
  }
}

static void TriFillRange(void *ctx, PetscInt tid, PetscInt begin, PetscInt end)
{
  struct _PCSubtreeILUBuild *B = (struct _PCSubtreeILUBuild *)ctx;

  (void)tid;
  for (PetscInt k = begin; k < end; k++) {
    TriFillRows(&B->tri[k]);
    if (!B->tri[k].needsort) TriFillColumns(&B->tri[k]);
  }
}

/* -pc_subtree_ilu_cuda_level_sort auto (subtreeilulevelsort.c): tried where the factor's groups hold fewer than 4 rows
   on average and more of them are ready at once (groups per hop of the critical path) than the GPU holds warps (32 a
   multiprocessor), so that fuller groups would do the work with fewer warps (session 51 on an H100: smaller matrices,
   e.g. the shared ones, were up to 3.4x slower sorted, a power-law matrix of 4M rows 4.2x faster); kept where the
   sorted numbering gives at least twice as many rows a group on a critical path at most 25% (+2) longer (a banded
   matrix's chains, resolved inside a warp, would become a hop per level). Rows with more than
   SUBTREEILU_LEVEL_SORT_ISOLATE inputs get groups of their own (a hub's sum held its 31 group mates: a power-law
   matrix of 1M rows was 2x slower sorted without that). */
#define SUBTREEILU_LEVEL_SORT_ROWS    4.0
#define SUBTREEILU_LEVEL_SORT_ISOLATE 128

/* Allocates the cuda solve schedules of U and L (st->sched), and the level sorts of U and (ILU) L unless
   -pc_subtree_ilu_cuda_level_sort no (ICC: L = U^T follows U's sort, with its own schedule) */
static PetscErrorCode SchedulesSetUp(PC_SubtreeILU *st)
{
  PetscFunctionBegin;
  PetscCall(PCSubtreeILUGroupsSetUp_Private(&st->U, st->cudachain, SUBTREEILU_MAXSUPER, SUBTREEILU_WARPS, st->cudacutlate, 0, &st->sched[0]));
  PetscCall(PCSubtreeILUGroupsSetUp_Private(&st->L, st->cudachain, SUBTREEILU_MAXSUPER, SUBTREEILU_WARPS, st->cudacutlate, 0, &st->sched[1]));
#if defined(PETSC_HAVE_CUDA)
  if (st->cudalevelsort != PC_SUBTREEILU_LEVEL_SORT_NO && st->n > 0) {
    const PetscBool forced = (PetscBool)(st->cudalevelsort == PC_SUBTREEILU_LEVEL_SORT_YES), icc = (PetscBool)(st->type == PC_SUBTREEILU_ICC);
    const PetscInt  nt     = PetscMax(1, st->setupthreads / 2); /* (U and L at once) */
    PetscInt        nsm;

    PetscCall(PCSubtreeILUCUDAGetMultiprocessors_Private(&nsm));
    PetscCall(PCSubtreeILULevelSortSetUp_Private(&st->U, &st->sched[0], SUBTREEILU_LEVEL_SORT_ISOLATE, forced, SUBTREEILU_LEVEL_SORT_ROWS, 32.0 * nsm, icc, nt, &st->lsort[0]));
    if (!icc) PetscCall(PCSubtreeILULevelSortSetUp_Private(&st->L, &st->sched[1], SUBTREEILU_LEVEL_SORT_ISOLATE, forced, SUBTREEILU_LEVEL_SORT_ROWS, 32.0 * nsm, PETSC_FALSE, nt, &st->lsort[1]));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The cuda solve schedules of U and L, unless already made with the structures (st->schedready): both at once, on
   two of the setup threads */
PETSC_INTERN PetscErrorCode PCSubtreeILUMakeSchedules_Private(PC_SubtreeILU *st)
{
  PetscFunctionBegin;
  if (st->schedready) PetscFunctionReturn(PETSC_SUCCESS);
  if (!st->sched[0].pos) PetscCall(SchedulesSetUp(st));
  PetscCall(PetscSparseGPUParallelFor(st->setupthreads > 1 ? 2 : 1, 2, 1, ScheduleRange, st));
  st->schedready = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the build's thread: plain C only */
static void BuildTask(void *ctx, PetscInt tid, PetscInt begin, PetscInt end)
{
  struct _PCSubtreeILUBuild *B = (struct _PCSubtreeILUBuild *)ctx;
  PetscBool                  sorted = PETSC_TRUE;
  PetscLogDouble             t0, t1, t2;
  int                        fail;

  (void)tid;
  (void)begin;
  (void)end;
  (void)PetscTime(&t0);
  /* ILU: L and U at once, each on half of the threads */
  fail = PetscSparseGPUParallelForC(B->st->setupthreads > 1 ? B->ntri : 1, B->ntri, 1, TriFillRange, B); /* (sets tri[k].fail too: not |= in one expression) */
  B->tri[0].fail |= fail;
  for (PetscInt k = 0; k < B->ntri; k++)
    if (B->tri[k].needsort) sorted = PETSC_FALSE; /* (finished on the main thread) */
  (void)PetscTime(&t1);
  /* the two schedules at once (ICC: L's is made on U's CSC, read as L's CSR) */
  if (B->sched && sorted) {
    fail = PetscSparseGPUParallelForC(B->st->setupthreads > 1 ? 2 : 1, 2, 1, ScheduleRange, B->st);
    B->tri[0].fail |= fail;
  }
  (void)PetscTime(&t2);
  B->seconds      = t1 - t0;
  B->schedseconds = t2 - t1;
}

/* Starts building L, U (CSR + CSC) and roots from the structure of PETSc's factor (after its symbolic
   factorization), and with sched the cuda backend's solve schedules: on a thread when there are several setup
   threads, else here. PCSubtreeILUBuildFinish_Private() completes it; PCSubtreeILUFreeSolve_Private() drops it. */
static PetscErrorCode PCSubtreeILUBuildStart_Private(PC_SubtreeILU *st, PetscBool sched)
{
  PetscInt                   n, nn, nz, *adiag;
  const PetscInt            *ia, *ja, *r, *c;
  PetscBool                  done, icc = st->type == PC_SUBTREEILU_ICC ? PETSC_TRUE : PETSC_FALSE;
  PetscBool                  columns = (PetscBool)(icc || sched || st->threadsrows); /* else ILU's CSC when first needed */
  MatInfo                    info;
  struct _PCSubtreeILUBuild *B;

  PetscFunctionBegin;
  PetscCall(PCSubtreeILUFreeSolve_Private(st));
  PetscCall(PetscNew(&B));
  PetscCall(MatGetLocalSize(st->fact, &n, NULL));
  st->n = n;
  if (icc) { /* SeqSBAIJ, block size 1 (restored in PCSubtreeILUBuildFinish_Private()) */
    PetscCall(MatGetRowIJ(st->fact, 0, PETSC_FALSE, PETSC_FALSE, &nn, &ia, &ja, &done));
    PetscCheck(done && nn == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cannot access the structure of PETSc's ICC factor");
  } else PetscCall(MatSeqAIJGetCSRAndMemType(st->fact, &ia, &ja, NULL, NULL)); /* (MatGetRowIJ() is disabled for inode factors) */
  B->ia = ia;
  B->ja = ja;
  B->st = st;
  PetscCall(MatGetInfo(st->fact, MAT_LOCAL, &info));
  nz = (PetscInt)info.nz_used;
  PetscCall(PetscMalloc4(n, &st->rperm, n, &st->cperm, n, &st->dsrc, n, &st->dinv));
  PetscCall(PetscMalloc1(icc ? n : 0, &st->sqrtdinv));
  if (!icc) {
    /* L: rows bi[i] .. bi[i+1]-1 */
    PetscCall(TriAlloc(&st->L, n, PETSC_TRUE, ia, ia + 1, ja, PetscMax(1, st->setupthreads / 2), columns, &B->tri[1])); /* (L and U are filled at once) */
    /* U: from the end, row i = bdiag[i+1]+1 .. bdiag[i], diagonal last (the first entry of column i after row i+1) */
    PetscCall(PetscMalloc1(n + 1, &adiag));
    PetscCall(PetscMalloc1(n, &B->ubeg));
    adiag[n] = ia[n] - 1;
    for (PetscInt i = n - 1; i >= 0; i--) {
      PetscInt p = adiag[i + 1] + 1;

      B->ubeg[i] = p;
      while (p < nz && ja[p] != i) {
        PetscCheck(ja[p] > i && ja[p] < n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Unexpected layout of PETSc's ILU factor");
        p++;
      }
      PetscCheck(p < nz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Unexpected layout of PETSc's ILU factor (no diagonal in row %" PetscInt_FMT ")", i);
      adiag[i]    = p;
      st->dsrc[i] = p;
    }
    PetscCheck(n == 0 || adiag[0] + 1 == nz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Unexpected layout of PETSc's ILU factor (size)");
    PetscCall(PetscFree(adiag));
    PetscCall(TriAlloc(&st->U, n, PETSC_FALSE, B->ubeg, st->dsrc, ja, PetscMax(1, st->setupthreads - st->setupthreads / 2), columns, &B->tri[0]));
    B->ntri = 2;
    PetscCall(ISGetIndices(st->row, &r));
    PetscCall(ISGetIndices(st->col, &c));
    PetscCall(PetscArraycpy(st->rperm, r, n));
    PetscCall(PetscArraycpy(st->cperm, c, n));
    PetscCall(ISRestoreIndices(st->row, &r));
    PetscCall(ISRestoreIndices(st->col, &c));
  } else {
    /* row k: off-diagonals ia[k] .. ia[k+1]-2 (= -Ut(k,j)), 1/D(k) last */
    PetscCheck(ia[n] == nz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Unexpected layout of PETSc's ICC factor (size)");
    for (PetscInt i = 0; i < n; i++) {
      PetscCheck(ia[i + 1] > ia[i] && ja[ia[i + 1] - 1] == i, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Unexpected layout of PETSc's ICC factor (row %" PetscInt_FMT ")", i);
      st->dsrc[i] = ia[i + 1] - 1;
    }
    PetscCall(TriAlloc(&st->U, n, PETSC_FALSE, ia, st->dsrc, ja, st->setupthreads, PETSC_TRUE, &B->tri[0])); /* (L = U^T reads U's CSC) */
    B->ntri = 1;
    /* L = Ut^T: U's arrays read transposed (L's CSR is U's CSC, with the same values: no second copy) */
    PetscCall(TriBorrowTranspose(&st->L, &st->U));
    PetscCall(ISGetIndices(st->row, &r));
    PetscCall(PetscArraycpy(st->rperm, r, n));
    PetscCall(PetscArraycpy(st->cperm, r, n));
    PetscCall(ISRestoreIndices(st->row, &r));
  }
  st->rident = st->cident = PETSC_TRUE;
  for (PetscInt i = 0; i < n && (st->rident || st->cident); i++) {
    if (st->rperm[i] != i) st->rident = PETSC_FALSE;
    if (st->cperm[i] != i) st->cident = PETSC_FALSE;
  }
  if (sched) {
    PetscCall(SchedulesSetUp(st));
    B->sched = PETSC_TRUE;
  }
  st->build = B;
  PetscCall(PetscSparseGPUTasksStart(1, st->setupthreads > 1 ? PETSC_TRUE : PETSC_FALSE, BuildTask, B, &B->task));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Waits for the build and frees what only it used (also to drop it) */
static PetscErrorCode PCSubtreeILUBuildJoin_Private(PC_SubtreeILU *st)
{
  struct _PCSubtreeILUBuild *B = st->build;
  PetscInt                   nn;
  PetscBool                  done;

  PetscFunctionBegin;
  if (!B) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscSparseGPUTasksJoin(&B->task));
  if (st->type == PC_SUBTREEILU_ICC) PetscCall(MatRestoreRowIJ(st->fact, 0, PETSC_FALSE, PETSC_FALSE, &nn, &B->ia, &B->ja, &done));
  for (PetscInt k = 0; k < B->ntri; k++) PetscCall(PetscFree(B->tri[k].pos));
  PetscCall(PetscFree(B->ubeg));
  PetscCall(PetscFree(st->build));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Completes the build after PETSc's numeric factorization: the values and pivots */
static PetscErrorCode PCSubtreeILUBuildFinish_Private(PC_SubtreeILU *st)
{
  struct _PCSubtreeILUBuild *B = st->build;
  PetscBool                  resorted = PETSC_FALSE, fail = PETSC_FALSE, same;
  const PetscInt            *ia, *ja;
  PetscLogDouble             t0, t1, t2, seconds, schedseconds;

  PetscFunctionBegin;
  PetscCheck(B, PETSC_COMM_SELF, PETSC_ERR_PLIB, "No build in progress");
  PetscCall(PetscTime(&t0));
  PetscCall(PetscSparseGPUTasksJoin(&B->task));
  /* the numeric factorization keeps the symbolic one's structure. The build read the factor's own arrays (ICC too:
     MatGetRowIJ() of a SeqSBAIJ factor of block size 1 returns them), so they must not have moved (checked: else the
     build is redone, once) */
  if (st->type != PC_SUBTREEILU_ICC) {
    PetscCall(MatSeqAIJGetCSRAndMemType(st->fact, &ia, &ja, NULL, NULL));
    same = (PetscBool)(ia == B->ia && ja == B->ja);
  } else {
    PetscInt  nn;
    PetscBool done;

    PetscCall(MatGetRowIJ(st->fact, 0, PETSC_FALSE, PETSC_FALSE, &nn, &ia, &ja, &done));
    PetscCheck(done && nn == st->n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cannot access the structure of PETSc's ICC factor");
    same = (PetscBool)(ia == B->ia && ja == B->ja);
    PetscCall(MatRestoreRowIJ(st->fact, 0, PETSC_FALSE, PETSC_FALSE, &nn, &ia, &ja, &done));
  }
  if (!same) {
    PetscCheck(!B->again, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The structure of PETSc's factor keeps moving");
    PetscCall(PetscInfo(NULL, "PCSUBTREEILU: PETSc's numeric factorization moved the factor's structure: the solve structures are built again\n"));
    PetscCall(PCSubtreeILUBuildStart_Private(st, B->sched)); /* (frees B) */
    st->build->again = PETSC_TRUE;
    PetscCall(PCSubtreeILUBuildFinish_Private(st));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  for (PetscInt k = 0; k < B->ntri; k++) {
    if (B->tri[k].bad >= 0) { /* (never from PETSc's factors) */
      const PetscInt  bad   = B->tri[k].bad;
      const PetscBool lower = B->tri[k].T->lower;

      PetscCall(PCSubtreeILUBuildJoin_Private(st));
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_PLIB, "Unexpected layout of PETSc's factor: row %" PetscInt_FMT " of %s has a column outside the triangle", bad, lower ? "L" : "U");
    }
    if (B->tri[k].needsort) { /* a row that was not sorted (not from PETSc's factors): finished here */
      PetscCall(TriSortRows(&B->tri[k]));
      TriFillColumns(&B->tri[k]);
      resorted = PETSC_TRUE;
    }
    if (B->tri[k].fail) fail = PETSC_TRUE;
  }
  if (st->L.borrowed) PetscCall(TriBorrowTranspose(&st->L, &st->U)); /* (again: U's roots are known now) */
  st->schedready = (PetscBool)(B->sched && !resorted); /* (else the thread did not make them) */
  if (B->sched) PetscCall(PCSubtreeILUMakeSchedules_Private(st));
  seconds        = B->seconds;
  schedseconds   = B->schedseconds;
  PetscCall(PetscTime(&t1));
  PetscCall(PCSubtreeILUBuildJoin_Private(st));
  PetscCheck(!fail, PETSC_COMM_SELF, PETSC_ERR_SYS, "pthread_join() failed");
  PetscCall(PetscMalloc2(st->n, &st->work, st->n, &st->work2));
  if (!st->valueslater) PetscCall(PCSubtreeILURefreshValues_Private(st));
  PetscCall(PetscTime(&t2));
  PetscCall(PetscInfo(NULL, "PCSUBTREEILU solve structures of %" PetscInt_FMT " rows built in %g s%s, waited for %g s; values and pivots gathered in %g s (%" PetscInt_FMT " setup threads)\n", st->n, seconds, st->setupthreads > 1 ? " on a thread during PETSc's numeric factorization" : "", t1 - t0, t2 - t1, st->setupthreads));
  if (st->schedready) PetscCall(PetscInfo(NULL, "PCSUBTREEILU cuda solve schedules of U and L made with them in %g s\n", schedseconds));
  st->factored = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Builds L, U (CSR + CSC), roots and values from PETSc's (numeric) factor, at once */
static PetscErrorCode PCSubtreeILUBuildSolve_Private(PC_SubtreeILU *st, PetscBool sched)
{
  PetscFunctionBegin;
  PetscCall(PCSubtreeILUBuildStart_Private(st, sched));
  PetscCall(PCSubtreeILUBuildFinish_Private(st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Will the solves run on the GPU (the cuda backend, asked for or chosen by auto for CUDA matrices or vectors)? */
static PetscErrorCode PCSubtreeILUUsesCUDA_Private(PC pc, Mat A, PetscBool *cuda)
{
  PC_SubtreeILU *st = (PC_SubtreeILU *)pc->data;

  PetscFunctionBegin;
  *cuda = st->backend_requested == PC_SUBTREEILU_BACKEND_CUDA ? PETSC_TRUE : PETSC_FALSE;
#if defined(PETSC_HAVE_CUDA)
  if (st->backend_requested == PC_SUBTREEILU_BACKEND_AUTO) {
    MatType mtype;
    VecType vtype;
    char   *found;

    PetscCall(MatGetType(pc->pmat, &mtype));
    PetscCall(PetscStrstr(mtype, "cuda", &found));
    if (found) *cuda = PETSC_TRUE;
    PetscCall(MatGetVecType(A, &vtype));
    PetscCall(PetscStrstr(vtype, "cuda", &found));
    if (found) *cuda = PETSC_TRUE;
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSubtreeILUChooseBackend_Private(PC pc, Mat A)
{
  PC_SubtreeILU *st = (PC_SubtreeILU *)pc->data;

  PetscFunctionBegin;
  st->backend     = st->backend_requested;
  st->autoserial  = 0;
  st->autothreads = 0;
  st->autoapplies = 0;
  if (st->backend == PC_SUBTREEILU_BACKEND_AUTO) {
    PetscBool gpu;

    PetscCall(PCSubtreeILUUsesCUDA_Private(pc, A, &gpu));
    if (gpu) st->backend = PC_SUBTREEILU_BACKEND_CUDA;
    else {
#if defined(SUBTREEILU_HAVE_THREADS)
      /*
        auto on the CPU: threads only where they are measured to be faster on this matrix and machine. Measured on
        the 2-core shared development machine (tutorials/ex4 -applies 50 -ksp_max_it 1, median of 5 runs, ms per
        apply, serial vs -pc_subtree_ilu_backend threads -pc_subtree_ilu_threads 2 with the chunk DAG):
          2D 500^2 natural 2.24 vs 2.47, rcm 1.09 vs 2.30, nd 1.54 vs 2.99            (threads slower)
          3D 64^3 natural 2.28 vs 1.40, icc(1) 3.20 vs 2.66; 48^3 0.87 vs 0.55; 32^3 0.23 vs 0.20 (threads faster)
          3D 64^3 rcm 1.91 vs 4.40, nd 3.38 vs 5.41; 24^3 0.088 vs 0.102; 16^3 0.026 vs 0.028 (threads slower)
        (the row-level scheme, -pc_subtree_ilu_threads_rows, was 2-8 times slower than serial everywhere).
        No static statistic of the chunk DAG predicted this (rcm 3D has as much chunk parallelism as natural 3D),
        so for blocks of at least SUBTREEILU_AUTO_MIN_ROWS rows, with more than one processor online and more than one
        thread, both are timed on the first SUBTREEILU_AUTO_APPLIES applies, which alternate them (a warm-up each,
        the threads' building their chunk DAGs and starting the pool), and threads are kept only if at least 10%
        faster (else the pool and DAGs are freed). The chunk-DAG threads solve is bitwise identical to the serial one,
        so neither the alternation nor the choice changes results. (Timed at setup instead, with solves of its own,
        this cost the setup 0.11 s of 0.27 s on 3D 100^3 ICC(0) on that machine, about 14 applies.)
      */
      if (st->n >= SUBTREEILU_AUTO_MIN_ROWS && st->nthreads > 1 && !st->threadsrows && sysconf(_SC_NPROCESSORS_ONLN) > 1) st->autoapplies = SUBTREEILU_AUTO_APPLIES;
#endif
      st->backend = PC_SUBTREEILU_BACKEND_SERIAL; /* until the first applies have timed both */
    }
  }
#if !defined(PETSC_HAVE_CUDA)
  PetscCheck(st->backend != PC_SUBTREEILU_BACKEND_CUDA, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "-pc_subtree_ilu_backend cuda requires PETSc configured with CUDA");
#endif
#if !defined(SUBTREEILU_HAVE_THREADS)
  PetscCheck(st->backend != PC_SUBTREEILU_BACKEND_THREADS, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "-pc_subtree_ilu_backend threads requires pthreads, C11 atomics and real scalars");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After a GPU refactorization the host copies (PETSc's factor st->fact, the host L, U, pivots) are stale: brings
   them up to date for whoever needs them on the host (nothing does with the cuda backend, whose applies always run
   on the device; this keeps it so that nothing can ever use stale values) */
static PetscErrorCode PCSubtreeILUSyncHost_Private(PC_SubtreeILU *st)
{
  PetscFunctionBegin;
  if (!st->hoststale) PetscFunctionReturn(PETSC_SUCCESS);
#if defined(PETSC_HAVE_CUDA)
  {
    PetscScalar *fa;

    if (st->type == PC_SUBTREEILU_ICC) PetscCall(MatSeqSBAIJGetArray(st->fact, &fa));
    else PetscCall(MatSeqAIJGetArrayWrite(st->fact, &fa));
    PetscCall(PCSubtreeILUCUDAPlanDownload_Private(st, fa));
    if (st->type == PC_SUBTREEILU_ICC) PetscCall(MatSeqSBAIJRestoreArray(st->fact, &fa));
    else PetscCall(MatSeqAIJRestoreArrayWrite(st->fact, &fa));
    PetscCall(PCSubtreeILURefreshValues_Private(st));
  }
#endif
  st->hoststale = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The SeqAIJ matrix PETSc factors for the diagonal block Ad: Ad itself when it is a SeqAIJ type (seqaij, seqaijcusparse,
  ...); for pellr/pellrcuda (SeqAIJ data on the host, the authoritative values) a SeqAIJ matrix on the same arrays,
  without a copy (made again if Ad's arrays moved); else PETSc's conversion (reuse: MAT_REUSE_MATRIX of the last one).
  *A = NULL when reuse is asked for and there is nothing to reuse.
*/
static PetscErrorCode PCSubtreeILUSeqAIJ_Private(PC_SubtreeILU *st, Mat Ad, PetscBool reuse, Mat *A)
{
  PetscBool isseqaij, shared;

  PetscFunctionBegin;
  *A = NULL;
  PetscCall(PetscStrbeginswith(((PetscObject)Ad)->type_name, MATSEQAIJ, &isseqaij));
  if (isseqaij) {
    PetscCall(MatDestroy(&st->Aseq));
    *A = Ad;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscObjectTypeCompareAny((PetscObject)Ad, &shared, MATSEQPELLR, MATSEQPELLRCUDA, ""));
  if (shared) {
    const PetscInt    *ai, *aj, *bi = NULL, *bj = NULL;
    const PetscScalar *aa, *ba = NULL;
    PetscInt           m, nc, nb;
    PetscBool          done, bdone = PETSC_FALSE;
    PetscObjectState   nzstate;

    PetscCall(MatGetSize(Ad, &m, &nc));
    PetscCall(MatGetNonzeroState(Ad, &nzstate));
    PetscCall(MatGetRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
    PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cannot access the host structure of the %s matrix", ((PetscObject)Ad)->type_name);
    PetscCall(MatSeqAIJGetArrayRead(Ad, &aa));
    if (st->Aseq && st->Aseqshared) {
      PetscCall(MatGetRowIJ(st->Aseq, 0, PETSC_FALSE, PETSC_FALSE, &nb, &bi, &bj, &bdone));
      PetscCall(MatSeqAIJGetArrayRead(st->Aseq, &ba));
    }
    /* made again the first time, when Ad's arrays moved, and when its pattern changed: new entries may fill the
       preallocated room of the same arrays (or new arrays may come back at the old addresses), and Aseq's row
       lengths, diagonal positions and inodes were computed for the old pattern (a factorization on them read
       garbage; fuzzing found it: wrong factors and, from a corrupted triangle, a hung threads solve) */
    if (!(bdone && nb == m && bi == ai && bj == aj && ba == aa && nzstate == st->Aseqnzstate)) {
      if (bdone) {
        PetscCall(MatSeqAIJRestoreArrayRead(st->Aseq, &ba));
        PetscCall(MatRestoreRowIJ(st->Aseq, 0, PETSC_FALSE, PETSC_FALSE, &nb, &bi, &bj, &bdone));
        bdone = PETSC_FALSE;
      }
      PetscCall(MatDestroy(&st->Aseq));
      PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, m, nc, (PetscInt *)ai, (PetscInt *)aj, (PetscScalar *)aa, &st->Aseq));
      { /* the view uses inodes only if the block does (MAT_USE_INODES): they decide the graph of the ordering
           (MatGetRowIJ() compresses them) and PETSc's numeric routine, as for PCILU/PCICC on the block itself */
        PetscInt *sizes = NULL;

        PetscCall(MatInodeGetInodeSizes(Ad, NULL, &sizes, NULL));
        if (!sizes) {
          PetscCall(MatSetOption(st->Aseq, MAT_USE_INODES, PETSC_FALSE));
          PetscCall(MatAssemblyBegin(st->Aseq, MAT_FINAL_ASSEMBLY)); /* drops the inodes found at its creation */
          PetscCall(MatAssemblyEnd(st->Aseq, MAT_FINAL_ASSEMBLY));
        }
      }
      st->Aseqshared  = PETSC_TRUE;
      st->Aseqnzstate = nzstate;
    }
    if (bdone) {
      PetscCall(MatSeqAIJRestoreArrayRead(st->Aseq, &ba));
      PetscCall(MatRestoreRowIJ(st->Aseq, 0, PETSC_FALSE, PETSC_FALSE, &nb, &bi, &bj, &bdone));
    }
    PetscCall(MatSeqAIJRestoreArrayRead(Ad, &aa));
    PetscCall(MatRestoreRowIJ(Ad, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
    PetscCall(PetscObjectStateIncrease((PetscObject)st->Aseq)); /* its values may have changed through Ad */
    *A = st->Aseq;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (reuse && !(st->Aseq && !st->Aseqshared)) PetscFunctionReturn(PETSC_SUCCESS);
  /* a new conversion even for new values on the same pattern: PETSc 3.22.5's MAT_REUSE_MATRIX conversion of SeqSBAIJ
     with block size > 1 scrambles the values (fuzzing found it); a fresh conversion of the same pattern has the same
     layout, so the symbolic factorization and the plan still apply */
  PetscCall(MatDestroy(&st->Aseq));
  PetscCall(MatConvert(Ad, MATSEQAIJ, MAT_INITIAL_MATRIX, &st->Aseq));
  st->Aseqshared = PETSC_FALSE;
  *A = st->Aseq;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the host plan of the factor's pattern for A (SeqAIJ), once per pattern (st->plantried) */
static PetscErrorCode PCSubtreeILUPlanMake_Private(PC pc, Mat A)
{
  PC_SubtreeILU *st = (PC_SubtreeILU *)pc->data;
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  if (st->plantried) PetscFunctionReturn(PETSC_SUCCESS);
  st->plantried = PETSC_TRUE;
  PetscCall(PetscLogEventBegin(PC_SubtreeILU_Plan, pc, A, 0, 0));
  PetscCall(PetscTime(&t0));
  PetscCall(PCSubtreeILUPlanCreate_Private(st, A, &st->plan));
  PetscCall(PetscTime(&t1));
  PetscCall(PetscInfo(pc, "Refactorization plan %s in %g s on %" PetscInt_FMT " setup threads\n", st->plan ? "made" : "not made (see above)", t1 - t0, st->setupthreads));
  if (st->plancheck && st->plan && st->setupthreads > 1) { /* (developer) the same plan from the calling thread alone */
    PCSubtreeILUPlan *one = NULL;
    PetscInt          nt  = st->setupthreads;
    PetscBool         equal;

    st->setupthreads = 1;
    PetscCall(PCSubtreeILUPlanCreate_Private(st, A, &one));
    st->setupthreads = nt;
    PetscCheck(one, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The refactorization plan was made on %" PetscInt_FMT " setup threads but not on one", nt);
    PetscCall(PCSubtreeILUPlanEqual_Private(st->plan, one, &equal));
    PetscCall(PCSubtreeILUPlanDestroy_Private(&one));
    PetscCheck(equal, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The refactorization plan made on %" PetscInt_FMT " setup threads differs from the one made on one thread", nt);
    PetscCall(PetscInfo(pc, "Refactorization plan made on %" PetscInt_FMT " setup threads: identical to the one made on one thread\n", nt));
  }
  PetscCall(PetscLogEventEnd(PC_SubtreeILU_Plan, pc, A, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Numeric refactorization (same nonzero pattern) through the plan: on the GPU for the cuda backend (A's values taken
  in device memory: an aijcusparse block's device array without any host copy; host values are uploaded once), or
  the CPU version (-pc_subtree_ilu_refactor device with the serial/threads backends). *done = PETSC_FALSE: not done
  (no plan, option petsc, CPU backends with auto, or a row PETSc's pivot check would not accept unchanged, a zero or
  negative pivot or a non-finite value): the caller runs PETSc's numeric factorization, so errors and shifted
  factors are exactly PETSc's.
*/
static PetscErrorCode PCSubtreeILURefactorPlan_Private(PC pc, Mat Ad, PetscBool isseqaij, PetscBool *done, PetscBool *fellback)
{
  PC_SubtreeILU *st  = (PC_SubtreeILU *)pc->data;
  PetscBool      gpu = st->backend == PC_SUBTREEILU_BACKEND_CUDA ? PETSC_TRUE : PETSC_FALSE;
  PetscInt       failrow = -1, badpivot = -1;
  Mat            A       = Ad;
  MatInfo        info;

  PetscFunctionBegin;
  *done     = PETSC_FALSE;
  *fellback = PETSC_FALSE;
  if (!st->factored || st->refactor == PC_SUBTREEILU_REFACTOR_PETSC) PetscFunctionReturn(PETSC_SUCCESS);
  /* CPU backends: auto keeps PETSc's numeric factorization, the CPU version of the plan is not faster there (it is
     the same algorithm; bench_factor -no_gpu -pc_subtree_ilu_backend serial on the 2-core development machine,
     refactor_s in ms, petsc vs plan, two runs: lap2d:500 ILU(0) 8.5/6.6 vs 8.9/9.9, ICC(0) 10.7/6.4 vs 12.0/8.7;
     lap3d7:64 ILU(0) 17.7/11.0 vs 12.5/19.8, ICC(0) 21.0/11.5 vs 15.0/11.5); -pc_subtree_ilu_refactor device uses it */
  if (!gpu && st->refactor == PC_SUBTREEILU_REFACTOR_AUTO) PetscFunctionReturn(PETSC_SUCCESS);
#if !defined(PETSC_HAVE_CUDA)
  if (gpu) PetscFunctionReturn(PETSC_SUCCESS);
#endif
  if (st->plantried && !st->plan) PetscFunctionReturn(PETSC_SUCCESS); /* PETSc's factor has a layout the plan cannot use */
  if (!isseqaij) { /* the values in SeqAIJ (CSR) order: shared with a pellr matrix, else PETSc's conversion */
    PetscCall(PCSubtreeILUSeqAIJ_Private(st, Ad, PETSC_TRUE, &A));
    if (!A) PetscFunctionReturn(PETSC_SUCCESS);
  }
  /* the plan (and its device copy) is made at the first refactorization that uses it, not at the symbolic setup: an
     application that factors a pattern once never pays for it (on the GPU, 128^3 Poisson ICC(0): see the README),
     unless the first factorization is the GPU's (PCSubtreeILUFirstOnDevice_Private()) */
  PetscCall(PCSubtreeILUPlanMake_Private(pc, A));
#if defined(PETSC_HAVE_CUDA)
  if (gpu && st->plan && !st->cudaplan) {
    PetscLogDouble t0, t1;

    PetscCall(PetscLogEventBegin(PC_SubtreeILU_Plan, pc, A, 0, 0));
    PetscCall(PetscTime(&t0));
    PetscCall(PCSubtreeILUCUDAPlanSetUp_Private(st));
    PetscCall(PetscTime(&t1));
    PetscCall(PetscInfo(pc, "Refactorization plan on the device in %g s\n", t1 - t0));
    PetscCall(PetscLogEventEnd(PC_SubtreeILU_Plan, pc, A, 0, 0));
  }
#endif
  if (!st->plan) PetscFunctionReturn(PETSC_SUCCESS);
#if defined(PETSC_HAVE_CUDA)
  if (gpu && !st->cudaplan) PetscFunctionReturn(PETSC_SUCCESS);
#endif
  PetscCall(MatGetInfo(A, MAT_LOCAL, &info));
  if ((PetscInt)info.nz_used != st->plan->annz) PetscFunctionReturn(PETSC_SUCCESS);
  st->plan->bufcap = st->refactbuf;
  PetscCall(PetscLogEventBegin(PC_SubtreeILU_Refact, pc, A, 0, 0));
  if (gpu) {
#if defined(PETSC_HAVE_CUDA)
    PetscScalar *aa;
    PetscMemType mtype;

    PetscCall(MatSeqAIJGetCSRAndMemType(A, NULL, NULL, &aa, &mtype));
    PetscCall(PCSubtreeILUCUDARefactor_Private(st, aa, PetscMemTypeDevice(mtype) ? PETSC_TRUE : PETSC_FALSE, &failrow, &badpivot));
#endif
  } else {
    const PetscScalar *aa;
    PetscScalar       *fa;

    PetscCall(MatSeqAIJGetArrayRead(A, &aa));
    if (st->type == PC_SUBTREEILU_ICC) PetscCall(MatSeqSBAIJGetArray(st->fact, &fa));
    else PetscCall(MatSeqAIJGetArrayWrite(st->fact, &fa));
    PetscCall(PCSubtreeILUPlanNumericCPU_Private(st->plan, aa, fa, &failrow));
    if (st->type == PC_SUBTREEILU_ICC) PetscCall(MatSeqSBAIJRestoreArray(st->fact, &fa));
    else PetscCall(MatSeqAIJRestoreArrayWrite(st->fact, &fa));
    PetscCall(MatSeqAIJRestoreArrayRead(A, &aa));
    if (failrow < 0) PetscCall(PCSubtreeILURefreshValues_Private(st));
  }
  PetscCall(PetscLogEventEnd(PC_SubtreeILU_Refact, pc, A, 0, 0));
  if (failrow >= 0) {
    PetscCall(PetscInfo(pc, "Refactorization: row %" PetscInt_FMT " has a pivot PETSc would not accept unchanged (or a non-finite value): PETSc's numeric factorization decides\n", failrow));
    *fellback = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (gpu) {
    st->hoststale = PETSC_TRUE;
    st->badpivot  = badpivot;
  }
  st->failed       = PETSC_FALSE;
  pc->failedreason = PC_NOERROR;
  st->last         = gpu ? PC_SUBTREEILU_LAST_PLAN_GPU : PC_SUBTREEILU_LAST_PLAN_CPU;
  *done            = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Level 0 with an ordering: PETSc's ILU(0)/ICC(0) symbolic factorization has a fast path only for the natural ordering
  (the factor's pattern is the matrix's); with any other ordering it runs its general fill algorithm (on the 2-core
  development CPU, 3D 7-point 100^3 ICC(0): 0.28 s with rcm against 0.03 s natural). So A is permuted first, P A Q^T
  (row i of it = A's row row[i], column col[j] of A = its column j: the factor's own convention), and the permuted
  matrix is factored in its natural ordering: the same factor, entry by entry and operation by operation, as PETSc's
  factorization of A with the ordering. The permuted CSR is made here (PETSc's MatPermute() inserts row by row and
  took longer than the symbolic factorization it saves); apsrc[k] = position in A's value array of its entry k, so
  that every numeric factorization only gathers the values.
*/
static PetscErrorCode PCSubtreeILUPermuteDestroy_Private(PC_SubtreeILU *st)
{
  PetscFunctionBegin;
  PetscCall(MatDestroy(&st->Aperm)); /* before its arrays */
  PetscCall(PetscFree3(st->api, st->apj, st->apa));
  PetscCall(PetscFree(st->apsrc));
  PetscCall(ISDestroy(&st->identity));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSubtreeILUPermute_Private(PC_SubtreeILU *st, Mat A)
{
  const PetscInt *ai, *aj, *r, *c;
  PetscInt        m, nc, nn, *icol, *bi, *bj;
  PetscScalar    *ba;
  PetscBool       done;

  PetscFunctionBegin;
  PetscCall(MatGetSize(A, &m, &nc));
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &nn, &ai, &aj, &done));
  PetscCheck(done && nn == m && m == nc, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cannot access the structure of the matrix to factor");
  PetscCall(ISGetIndices(st->row, &r));
  PetscCall(ISGetIndices(st->type == PC_SUBTREEILU_ICC ? st->row : st->col, &c));
  PetscCall(PetscMalloc1(m, &icol));
  for (PetscInt j = 0; j < m; j++) icol[c[j]] = j;
  PetscCall(PetscMalloc3(m + 1, &bi, PetscMax(ai[m], 1), &bj, PetscMax(ai[m], 1), &ba));
  PetscCall(PetscMalloc1(PetscMax(ai[m], 1), &st->apsrc));
  bi[0] = 0;
  for (PetscInt i = 0; i < m; i++) {
    PetscInt b = bi[i], k0 = ai[r[i]], len = ai[r[i] + 1] - k0, t = 1;

    bi[i + 1] = b + len;
    for (PetscInt q = 0; q < len; q++) {
      bj[b + q]        = icol[aj[k0 + q]];
      st->apsrc[b + q] = k0 + q;
    }
    while (t < len && bj[b + t] > bj[b + t - 1]) t++;
    if (t < len) PetscCall(PetscSortIntWithArray(len, bj + b, st->apsrc + b));
  }
  PetscCall(PetscFree(icol));
  PetscCall(ISRestoreIndices(st->row, &r));
  PetscCall(ISRestoreIndices(st->type == PC_SUBTREEILU_ICC ? st->row : st->col, &c));
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &nn, &ai, &aj, &done));
  st->api = bi, st->apj = bj, st->apa = ba; /* owned here: Aperm only uses them */
  PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, m, nc, bi, bj, ba, &st->Aperm));
  PetscCall(ISCreateStride(PETSC_COMM_SELF, m, 0, 1, &st->identity));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the permuted matrix's values from A's (same pattern) */
static PetscErrorCode PCSubtreeILUPermuteValues_Private(PC_SubtreeILU *st, Mat A)
{
  const PetscScalar *aa;
  PetscScalar       *pa;
  MatInfo            info;

  PetscFunctionBegin;
  PetscCall(MatGetInfo(st->Aperm, MAT_LOCAL, &info));
  PetscCall(MatSeqAIJGetArrayRead(A, &aa));
  PetscCall(MatSeqAIJGetArrayWrite(st->Aperm, &pa));
  for (PetscInt k = 0; k < (PetscInt)info.nz_used; k++) pa[k] = aa[st->apsrc[k]];
  PetscCall(MatSeqAIJRestoreArrayWrite(st->Aperm, &pa));
  PetscCall(MatSeqAIJRestoreArrayRead(A, &aa));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's numeric factorization of F into st->fact; *err: its failure (zero pivot without a shift: like PCILU/PCICC
   the PC then fails and its applies give Inf; a new pattern's solve structures are dropped, a refactorization's kept
   for the next values) */
static PetscErrorCode PCSubtreeILUNumeric_Private(PC pc, Mat F, const MatFactorInfo *info, PetscBool newpattern, MatFactorError *err)
{
  PC_SubtreeILU *st = (PC_SubtreeILU *)pc->data;
  PetscErrorCode numerr;

  PetscFunctionBegin;
  if (st->type == PC_SUBTREEILU_ICC) numerr = MatCholeskyFactorNumeric(st->fact, F, info);
  else numerr = MatLUFactorNumeric(st->fact, F, info);
  if (numerr) PetscCall(PCSubtreeILUFreeSolve_Private(st)); /* (waits for the build, which uses the factor) */
  PetscCall(numerr);
  PetscCall(MatFactorGetError(st->fact, err));
  st->failed = *err ? PETSC_TRUE : PETSC_FALSE;
  if (*err) {
    pc->failedreason = (PCFailedReason)*err;
    if (newpattern) PetscCall(PCSubtreeILUFreeSolve_Private(st));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Cuda backend, a new pattern: is its first numeric factorization the GPU's (the refactorization plan, made on the
  setup threads, then the GPU kernel) rather than PETSc's on the host? auto: where PETSc's would be slow, i.e. on
  large factors with random columns, where each elimination step of PETSc's row-by-row loop reads a U row far away
  (a cache miss; powerlaw:4M:8 ILU(0): 3 s on the H100 host, against about 1 s for the plan on 16 threads and 0.08 s
  on the GPU), judged from a sample of the factor's rows: at least SUBTREEILU_FIRST_DEVICE_ROWS rows and a mean
  distance between a row and the rows it eliminates with of at least n/8 (grids: about n/300 and less). The plan is
  then made anyway, and later refactorizations start from it.
*/
#define SUBTREEILU_FIRST_DEVICE_ROWS (1 << 18)
static PetscErrorCode PCSubtreeILUFirstOnDevice_Private(PC pc, PetscBool cuda, PetscBool *device)
{
  PC_SubtreeILU  *st = (PC_SubtreeILU *)pc->data;
  const PetscInt  n  = st->n;
  const PetscInt *ia, *ja;
  PetscInt        nn, rows;
  PetscInt64      cnt;
  PetscReal       mean;
  PetscBool       done, icc = st->type == PC_SUBTREEILU_ICC ? PETSC_TRUE : PETSC_FALSE;

  PetscFunctionBegin;
  *device = PETSC_FALSE;
  if (!cuda || st->refactor == PC_SUBTREEILU_REFACTOR_PETSC || st->cudafirst == PC_SUBTREEILU_REFACTOR_PETSC || !n) PetscFunctionReturn(PETSC_SUCCESS);
  if (st->cudafirst == PC_SUBTREEILU_REFACTOR_DEVICE) {
    *device = PETSC_TRUE;
    PetscCall(PetscInfo(pc, "PCSUBTREEILU: the first numeric factorization of the pattern on the GPU (asked for)\n"));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (n < SUBTREEILU_FIRST_DEVICE_ROWS) PetscFunctionReturn(PETSC_SUCCESS);
  if (icc) {
    PetscCall(MatGetRowIJ(st->fact, 0, PETSC_FALSE, PETSC_FALSE, &nn, &ia, &ja, &done));
    PetscCheck(done && nn == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cannot access the structure of PETSc's ICC factor");
  } else PetscCall(MatSeqAIJGetCSRAndMemType(st->fact, &ia, &ja, NULL, NULL));
  /* ILU: row i's L entries (columns < i); ICC: row i's U off-diagonals (all but its last entry) */
  mean = (PetscReal)PCSubtreeILUMeanDistance(n, ia, ja, PetscMax(1, n / 65536), icc ? 1 : 0, &cnt, &rows);
  if (icc) PetscCall(MatRestoreRowIJ(st->fact, 0, PETSC_FALSE, PETSC_FALSE, &nn, &ia, &ja, &done));
  *device = (PetscBool)(mean >= (PetscReal)n / 8);
  PetscCall(PetscInfo(pc, "PCSUBTREEILU: the first numeric factorization of the pattern %s: mean distance %g rows (%.3g n) between a row and those it eliminates with, over %" PetscInt64_FMT " entries of %" PetscInt_FMT " sampled rows (the GPU's from n/8, %" PetscInt_FMT " rows and more)\n", *device ? "on the GPU" : "PETSc's, on the host", (double)mean, (double)(mean / n), cnt, rows, (PetscInt)SUBTREEILU_FIRST_DEVICE_ROWS));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetUp_SubtreeILU(PC pc)
{
  PC_SubtreeILU *st = (PC_SubtreeILU *)pc->data;
  Mat            Ad, A, F = NULL;
  PetscBool      isseqaij, numericonly, sched = PETSC_FALSE, refresh, devicefirst = PETSC_FALSE;
  MatFactorInfo  info;
  MatFactorError err;
  MatFactorType  ftype = st->type == PC_SUBTREEILU_ICC ? MAT_FACTOR_ICC : MAT_FACTOR_ILU;
  PetscInt       m, nc;

  PetscFunctionBegin;
  pc->failedreason = PC_NOERROR;
  /* the rank's diagonal block, like block Jacobi (the matrix itself on one process) */
  PetscCall(MatGetDiagonalBlock(pc->pmat, &Ad));
  PetscCall(MatGetSize(Ad, &m, &nc));
  PetscCheck(m == nc, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "PCSUBTREEILU needs a square (diagonal block) matrix, got %" PetscInt_FMT " x %" PetscInt_FMT, m, nc);
  /* SeqAIJ and its subclasses (seqaijcusparse, seqaijperm, ...) keep SeqAIJ data on the host: PETSc factors them as is */
  PetscCall(PetscStrbeginswith(((PetscObject)Ad)->type_name, MATSEQAIJ, &isseqaij));
  numericonly = (pc->setupcalled && pc->flag == SAME_NONZERO_PATTERN && st->fact) ? PETSC_TRUE : PETSC_FALSE;
  st->last = numericonly ? PC_SUBTREEILU_LAST_PETSC : PC_SUBTREEILU_LAST_SYMBOLIC;
  if (numericonly) {
    PetscBool done, fellback;

    PetscCall(PCSubtreeILURefactorPlan_Private(pc, Ad, isseqaij, &done, &fellback));
    if (done) PetscFunctionReturn(PETSC_SUCCESS);
    if (fellback) st->last = PC_SUBTREEILU_LAST_FALLBACK;
  }
  st->hoststale = PETSC_FALSE; /* PETSc's factorization below renews the host values (and the device's) */
  /* PETSc's factorization works on a SeqAIJ matrix: Ad itself (seqaij, seqaijcusparse, ...), one on the same arrays
     (pellr, pellrcuda), else a copy */
  PetscCall(PCSubtreeILUSeqAIJ_Private(st, Ad, numericonly, &A));
  if (!A) PetscCall(PCSubtreeILUSeqAIJ_Private(st, Ad, PETSC_FALSE, &A));
  PetscCall(MatSetErrorIfFailure(A, pc->erroriffailure));

  /* the MatFactorInfo of PCILU/PCICC */
  PetscCall(MatFactorInfoInitialize(&info));
  info.levels        = (PetscReal)st->levels;
  info.fill          = st->fill;
  info.dt            = PETSC_DEFAULT;
  info.dtcount       = PETSC_DEFAULT;
  info.dtcol         = PETSC_DEFAULT;
  info.shifttype     = (PetscReal)(st->shifttype_set ? st->shifttype : (ftype == MAT_FACTOR_ICC ? MAT_SHIFT_POSITIVE_DEFINITE : MAT_SHIFT_NONE));
  info.shiftamount   = st->shiftamount;
  info.zeropivot     = 100.0 * PETSC_MACHINE_EPSILON;
  info.pivotinblocks = 1.0;

  PetscCall(PetscLogEventBegin(PC_SubtreeILU_Factor, pc, A, 0, 0));
  if (!numericonly) {
    PetscCall(PCSubtreeILUFreeSolve_Private(st));
    PetscCall(MatDestroy(&st->fact));
    PetscCall(ISDestroy(&st->row));
    PetscCall(ISDestroy(&st->col));
    PetscCall(PCSubtreeILUPermuteDestroy_Private(st));
    PetscCall(MatGetOrdering(A, st->ordering, &st->row, &st->col));
    if (st->levels == 0) {
      PetscBool rid, cid;

      PetscCall(ISIdentity(st->row, &rid));
      PetscCall(ISIdentity(st->col, &cid));
      if (!rid || (!cid && ftype == MAT_FACTOR_ILU)) PetscCall(PCSubtreeILUPermute_Private(st, A));
    }
    if (st->Aperm) { /* PETSc factors the permuted matrix in its natural ordering (same factor, faster symbolic) */
      PetscCall(PCSubtreeILUPermuteValues_Private(st, A));
      PetscCall(MatSetErrorIfFailure(st->Aperm, pc->erroriffailure));
    }
    F = st->Aperm ? st->Aperm : A;
    PetscCall(MatGetFactor(F, MATSOLVERPETSC, ftype, &st->fact));
    PetscCheck(st->fact, PETSC_COMM_SELF, PETSC_ERR_SUP, "PETSc's %s factorization is not available for this matrix", ftype == MAT_FACTOR_ICC ? "ICC" : "ILU");
    {
      PetscBool ok;

      PetscCall(PetscObjectTypeCompare((PetscObject)st->fact, ftype == MAT_FACTOR_ICC ? MATSEQSBAIJ : MATSEQAIJ, &ok));
      PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_SUP, "Unexpected type %s of PETSc's factor", ((PetscObject)st->fact)->type_name);
    }
    if (ftype == MAT_FACTOR_ICC) PetscCall(MatICCFactorSymbolic(st->fact, F, st->Aperm ? st->identity : st->row, &info));
    else PetscCall(MatILUFactorSymbolic(st->fact, F, st->Aperm ? st->identity : st->row, st->Aperm ? st->identity : st->col, &info));
    PetscCall(MatFactorGetError(st->fact, &err));
    if (err) { /* symbolic factorization failed */
      pc->failedreason = (PCFailedReason)err;
      st->failed       = PETSC_TRUE;
      PetscCall(MatDestroy(&st->fact));
      PetscCall(PetscLogEventEnd(PC_SubtreeILU_Factor, pc, A, 0, 0));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    /* the solve structures (and cuda schedules) need only the factor's structure: they are built on a thread during
       the numeric factorization (PETSc's, single-threaded) */
    PetscCall(PCSubtreeILUUsesCUDA_Private(pc, Ad, &sched));
    PetscCall(PCSubtreeILUBuildStart_Private(st, sched));
    PetscCall(PCSubtreeILUFirstOnDevice_Private(pc, sched, &devicefirst));
  }
  if (numericonly) {
    PetscCall(MatFactorClearError(st->fact)); /* a failure of an earlier numeric factorization is not this one's */
    if (st->Aperm) PetscCall(PCSubtreeILUPermuteValues_Private(st, A));
    F = st->Aperm ? st->Aperm : A;
  }
  if (devicefirst) { /* ILU's host plan needs only the structures: made beside the build (ICC's reads U's columns) */
    if (ftype == MAT_FACTOR_ILU) PetscCall(PCSubtreeILUPlanMake_Private(pc, A));
    PetscCall(PetscLogEventEnd(PC_SubtreeILU_Factor, pc, A, 0, 0));
  } else {
    PetscCall(PCSubtreeILUNumeric_Private(pc, F, &info, (PetscBool)!numericonly, &err));
    PetscCall(PetscLogEventEnd(PC_SubtreeILU_Factor, pc, A, 0, 0));
    if (err) PetscFunctionReturn(PETSC_SUCCESS);
  }

  PetscCall(PetscLogEventBegin(PC_SubtreeILU_Setup, pc, A, 0, 0));
  /* (the refactorization plan for later numeric factorizations with the same pattern is made at the first one that
     uses it: PCSubtreeILURefactorPlan_Private(); making it here cost the CPU backends 25-30% of their setup, 3D
     7-point 96^3, ICC(0), serial: 0.14-0.19 of 0.55-0.70 s) */
  refresh = st->factored; /* (the build sets it) */
  if (!refresh) {
    PetscCall(PetscLogEventBegin(PC_SubtreeILU_Build, pc, A, 0, 0));
    st->valueslater = devicefirst; /* (the GPU's factorization computes them below) */
    if (st->build) PetscCall(PCSubtreeILUBuildFinish_Private(st));
    else { /* same pattern as a setup whose numeric factorization failed */
      PetscCall(PCSubtreeILUUsesCUDA_Private(pc, Ad, &sched));
      PetscCall(PCSubtreeILUBuildSolve_Private(st, sched));
    }
    st->valueslater = PETSC_FALSE;
    PetscCall(PetscLogEventEnd(PC_SubtreeILU_Build, pc, A, 0, 0));
    PetscCall(PCSubtreeILUChooseBackend_Private(pc, Ad));
  } else PetscCall(PCSubtreeILURefreshValues_Private(st)); /* same pattern: only the values change */
#if defined(PETSC_HAVE_CUDA)
  if (st->backend == PC_SUBTREEILU_BACKEND_CUDA) { /* the device copy: made, or its values refreshed (the GPU's first
                                                       factorization below overwrites them) */
    PetscCall(PetscLogEventBegin(PC_SubtreeILU_ToGPU, pc, A, 0, 0));
    PetscCall(FactorsEnsureColumns(st)); /* (made with the structures when the build knew of the GPU) */
    PetscCall(PCSubtreeILUCUDASetUp_Private(st, refresh));
    PetscCall(PetscLogEventEnd(PC_SubtreeILU_ToGPU, pc, A, 0, 0));
  }
#endif
  PetscCall(PetscLogEventEnd(PC_SubtreeILU_Setup, pc, A, 0, 0));
  if (devicefirst) {
    PetscBool done = PETSC_FALSE, fellback = PETSC_FALSE;

    if (st->backend == PC_SUBTREEILU_BACKEND_CUDA) PetscCall(PCSubtreeILURefactorPlan_Private(pc, Ad, isseqaij, &done, &fellback));
    if (done) st->last = PC_SUBTREEILU_LAST_FIRST_GPU;
    else { /* no plan for this factor, or a pivot PETSc would not accept unchanged: PETSc's numeric factorization decides */
      PetscCall(PetscLogEventBegin(PC_SubtreeILU_Factor, pc, A, 0, 0));
      PetscCall(PCSubtreeILUNumeric_Private(pc, F, &info, PETSC_TRUE, &err));
      PetscCall(PetscLogEventEnd(PC_SubtreeILU_Factor, pc, A, 0, 0));
      if (err) PetscFunctionReturn(PETSC_SUCCESS);
      st->last = fellback ? PC_SUBTREEILU_LAST_FALLBACK : PC_SUBTREEILU_LAST_SYMBOLIC;
      PetscCall(PCSubtreeILURefreshValues_Private(st));
#if defined(PETSC_HAVE_CUDA)
      if (st->backend == PC_SUBTREEILU_BACKEND_CUDA) PetscCall(PCSubtreeILUCUDASetUp_Private(st, PETSC_TRUE));
#endif
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ applies */
static PetscErrorCode PCSubtreeILUApply_Private(PC pc, PCSubtreeILUApplyMode mode, Vec x, Vec y)
{
  PC_SubtreeILU *st = (PC_SubtreeILU *)pc->data;

  PetscFunctionBegin;
  PetscCheck(st->type == PC_SUBTREEILU_ICC || mode == PC_SUBTREEILU_APPLY || mode == PC_SUBTREEILU_APPLY_TRANSPOSE, PetscObjectComm((PetscObject)pc), PETSC_ERR_SUP, "Symmetric applies need -pc_subtree_ilu_type icc");
  if (st->failed || !st->factored) { /* like MatSolve() of a failed factorization */
    PetscCall(VecFlag(y, 1));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (mode == PC_SUBTREEILU_APPLY_SYMMETRIC_LEFT || mode == PC_SUBTREEILU_APPLY_SYMMETRIC_RIGHT) PetscCheck(st->badpivot < 0, PETSC_COMM_SELF, PETSC_ERR_SUP, "Diagonal must be real and nonnegative (row %" PetscInt_FMT ")", st->badpivot);
  PetscCall(PetscLogEventBegin(PC_SubtreeILU_Solve, pc, x, y, 0));
#if defined(PETSC_HAVE_CUDA)
  if (st->backend == PC_SUBTREEILU_BACKEND_CUDA) {
    PetscBool          xcuda, ycuda;
    const PetscScalar *b;
    PetscScalar       *xx;

    PetscCall(PetscObjectTypeCompareAny((PetscObject)x, &xcuda, VECSEQCUDA, VECMPICUDA, ""));
    PetscCall(PetscObjectTypeCompareAny((PetscObject)y, &ycuda, VECSEQCUDA, VECMPICUDA, ""));
    if (xcuda && ycuda) { /* never touches the host */
      PetscCall(VecCUDAGetArrayRead(x, &b));
      PetscCall(VecCUDAGetArrayWrite(y, &xx));
      PetscCall(PCSubtreeILUCUDAApply_Private(st, mode, b, xx, PETSC_TRUE));
      PetscCall(VecCUDARestoreArrayRead(x, &b));
      PetscCall(VecCUDARestoreArrayWrite(y, &xx));
    } else {
      PetscCall(VecGetArrayRead(x, &b));
      PetscCall(VecGetArrayWrite(y, &xx));
      PetscCall(PCSubtreeILUCUDAApply_Private(st, mode, b, xx, PETSC_FALSE));
      PetscCall(VecRestoreArrayRead(x, &b));
      PetscCall(VecRestoreArrayWrite(y, &xx));
    }
    PetscCall(PetscLogEventEnd(PC_SubtreeILU_Solve, pc, x, y, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  {
    const PetscScalar *b;
    PetscScalar       *xx;

    PetscCall(PCSubtreeILUSyncHost_Private(st));
    PetscCall(VecGetArrayRead(x, &b));
    PetscCall(VecGetArrayWrite(y, &xx));
#if defined(SUBTREEILU_HAVE_THREADS)
    if (st->autoapplies > 0 && mode == PC_SUBTREEILU_APPLY) PetscCall(ApplyHostAuto(st, b, xx));
    else
#endif
      PetscCall(ApplyHost(st, mode, b, xx));
    PetscCall(VecRestoreArrayRead(x, &b));
    PetscCall(VecRestoreArrayWrite(y, &xx));
  }
  PetscCall(PetscLogFlops(2.0 * (st->L.nnz + st->U.nnz) + st->n));
  PetscCall(PetscLogEventEnd(PC_SubtreeILU_Solve, pc, x, y, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApply_SubtreeILU(PC pc, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(PCSubtreeILUApply_Private(pc, PC_SUBTREEILU_APPLY, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApplyTranspose_SubtreeILU(PC pc, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(PCSubtreeILUApply_Private(pc, PC_SUBTREEILU_APPLY_TRANSPOSE, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApplySymmetricLeft_SubtreeILU(PC pc, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(PCSubtreeILUApply_Private(pc, PC_SUBTREEILU_APPLY_SYMMETRIC_LEFT, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCApplySymmetricRight_SubtreeILU(PC pc, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(PCSubtreeILUApply_Private(pc, PC_SUBTREEILU_APPLY_SYMMETRIC_RIGHT, x, y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ options, view, life cycle */
static PetscErrorCode PCReset_SubtreeILU(PC pc)
{
  PC_SubtreeILU *st = (PC_SubtreeILU *)pc->data;

  PetscFunctionBegin;
  PetscCall(PCSubtreeILUFreeSolve_Private(st));
  PetscCall(PCSubtreeILUPoolDestroy_Private(st));
  PetscCall(MatDestroy(&st->fact));
  PetscCall(MatDestroy(&st->Aseq));
  PetscCall(PCSubtreeILUPermuteDestroy_Private(st));
  PetscCall(ISDestroy(&st->row));
  PetscCall(ISDestroy(&st->col));
  st->failed = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCDestroy_SubtreeILU(PC pc)
{
  PC_SubtreeILU *st = (PC_SubtreeILU *)pc->data;

  PetscFunctionBegin;
  PetscCall(PCReset_SubtreeILU(pc));
  PetscCall(PetscFree(st->ordering));
  PetscCall(PetscFree(pc->data));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCSetFromOptions_SubtreeILU(PC pc, PetscOptionItems *PetscOptionsObject)
{
  PC_SubtreeILU    *st = (PC_SubtreeILU *)pc->data;
  char              ordering[256];
  PetscBool         flg;
  PetscInt          levels = st->levels;
  PCSubtreeILUType  type   = st->type;
  MatFactorShiftType shift = st->shifttype_set ? st->shifttype : (st->type == PC_SUBTREEILU_ICC ? MAT_SHIFT_POSITIVE_DEFINITE : MAT_SHIFT_NONE);

  PetscFunctionBegin;
  PetscCall(MatOrderingRegisterAll());
  PetscOptionsHeadBegin(PetscOptionsObject, "Subtree ILU/ICC options");
  PetscCall(PetscOptionsEnum("-pc_subtree_ilu_type", "Incomplete factorization", "PCSUBTREEILU", PCSubtreeILUTypes, (PetscEnum)type, (PetscEnum *)&type, &flg));
  if (flg && type != st->type) {
    PetscCall(PCReset_SubtreeILU(pc));
    pc->setupcalled = 0;
    st->type        = type;
    if (!st->shifttype_set) shift = st->type == PC_SUBTREEILU_ICC ? MAT_SHIFT_POSITIVE_DEFINITE : MAT_SHIFT_NONE;
  }
  PetscCall(PetscOptionsInt("-pc_subtree_ilu_levels", "Levels of fill k of ILU(k)/ICC(k)", "PCSUBTREEILU", levels, &levels, &flg));
  if (flg) {
    PetscCheck(levels >= 0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Levels of fill must be nonnegative, got %" PetscInt_FMT, levels);
    if (levels != st->levels) pc->setupcalled = 0;
    st->levels = levels;
  }
  PetscCall(PetscStrncpy(ordering, st->ordering, sizeof(ordering)));
  PetscCall(PetscOptionsFList("-pc_subtree_ilu_mat_ordering_type", "Ordering of the factorization (default: -mat_ordering_type, else natural)", "MatGetOrdering", MatOrderingList, ordering, ordering, sizeof(ordering), &flg));
  if (flg) {
    PetscBool same;

    PetscCall(PetscStrcmp(ordering, st->ordering, &same));
    if (!same) {
      PetscCall(PetscFree(st->ordering));
      PetscCall(PetscStrallocpy(ordering, &st->ordering));
      pc->setupcalled = 0;
    }
  }
  PetscCall(PetscOptionsEnum("-pc_subtree_ilu_shift_type", "Shift added to the diagonal (PETSc's meaning; default: none for ilu, positive_definite for icc)", "PCFactorSetShiftType", MatFactorShiftTypes, (PetscEnum)shift, (PetscEnum *)&shift, &flg));
  if (flg) {
    PetscCheck(shift == MAT_SHIFT_NONE || shift == MAT_SHIFT_NONZERO || shift == MAT_SHIFT_POSITIVE_DEFINITE, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_subtree_ilu_shift_type must be none, nonzero or positive_definite");
    st->shifttype     = shift;
    st->shifttype_set = PETSC_TRUE;
  }
  PetscCall(PetscOptionsReal("-pc_subtree_ilu_shift_amount", "Size of the nonzero shift", "PCFactorSetShiftAmount", st->shiftamount, &st->shiftamount, NULL));
  PetscCall(PetscOptionsReal("-pc_subtree_ilu_fill", "Expected fill ratio of the factor (a hint for the allocation)", "PCFactorSetFill", st->fill, &st->fill, &flg));
  PetscCheck(st->fill >= 1.0, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "Fill must be at least 1, got %g", (double)st->fill);
  PetscCall(PetscOptionsBool("-pc_subtree_ilu_deterministic", "Bitwise reproducible solves (each row sums its inputs in a fixed order)", "PCSUBTREEILU", st->deterministic, &st->deterministic, NULL));
  PetscCall(PetscOptionsEnum("-pc_subtree_ilu_backend", "Where the triangular solves run", "PCSUBTREEILU", PCSubtreeILUBackends, (PetscEnum)st->backend_requested, (PetscEnum *)&st->backend_requested, &flg));
  if (flg && st->factored) pc->setupcalled = 0;
  PetscCall(PetscOptionsInt("-pc_subtree_ilu_threads", "Number of threads of the threads backend", "PCSUBTREEILU", st->nthreads, &st->nthreads, &flg));
  PetscCheck(st->nthreads >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_subtree_ilu_threads must be positive");
  PetscCall(PetscOptionsInt("-pc_subtree_ilu_setup_threads", "Host threads of the setup (building the solve structures and their schedule): the result does not depend on them", "PCSUBTREEILU", st->setupthreads, &st->setupthreads, NULL));
  PetscCheck(st->setupthreads >= 1, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_subtree_ilu_setup_threads must be positive, got %" PetscInt_FMT, st->setupthreads);
  PetscCall(PetscOptionsBool("-pc_subtree_ilu_threads_rows", "Threads backend: per-row counters and (unless deterministic) atomic partial sums instead of the DAG of chunks of rows", "PCSUBTREEILU", st->threadsrows, &st->threadsrows, NULL));
  {
    PetscInt chain = st->cudachain;

    PetscCall(PetscOptionsInt("-pc_subtree_ilu_cuda_chain", "Cuda backend: most consecutive dependent rows one warp solves (1 to 32)", "PCSUBTREEILU", chain, &chain, &flg));
    PetscCheck(chain >= 1 && chain <= 32, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_subtree_ilu_cuda_chain must be in [1, 32], got %" PetscInt_FMT, chain);
    if (chain != st->cudachain && st->factored) pc->setupcalled = 0;
    st->cudachain = chain;
  }
  PetscCall(PetscOptionsBool("-pc_subtree_ilu_cuda_scan", "Cuda backend: resolve bidiagonal chains by a parallel affine scan (else row by row)", "PCSUBTREEILU", st->cudascan, &st->cudascan, &flg));
  if (flg && st->factored) pc->setupcalled = 0;
  PetscCall(PetscOptionsInt("-pc_subtree_ilu_cuda_backoff", "Cuda backend: nanoseconds a warp sleeps between two polls of a value not yet published (0: spin)", "PCSUBTREEILU", st->cudabackoff, &st->cudabackoff, &flg));
  PetscCheck(st->cudabackoff >= 0 && st->cudabackoff <= 1000000, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_subtree_ilu_cuda_backoff must be in [0, 1000000] ns");
  if (flg && st->factored) pc->setupcalled = 0;
  PetscCall(PetscOptionsBool("-pc_subtree_ilu_cuda_level_order", "Cuda backend: the non-transposed solves take their block tickets by level of the tickets' dependency DAG (else in index order)", "PCSUBTREEILU", st->cudalevelorder, &st->cudalevelorder, &flg));
  if (flg && st->factored) pc->setupcalled = 0;
  PetscCall(PetscOptionsBool("-pc_subtree_ilu_cuda_refactor_level_order", "Cuda backend: the GPU refactorization takes its tickets (chains of rows) by level of their dependency DAG (else in index order)", "PCSUBTREEILU", st->cudarefactorder, &st->cudarefactorder, NULL));
  {
    PetscInt lanes = st->cudarefactlanes;

    PetscCall(PetscOptionsInt("-pc_subtree_ilu_cuda_refactor_lanes", "Cuda backend: lanes of the GPU refactorization per chain of rows: 0 (chosen from the width of the chains' DAG), 32 (a warp), 16 or 8 (a warp factors 2 or 4 chains of one level at once; needs -pc_subtree_ilu_cuda_refactor_level_order)", "PCSUBTREEILU", lanes, &lanes, NULL));
    PetscCheck(lanes == 0 || lanes == 32 || lanes == 16 || lanes == 8, PetscObjectComm((PetscObject)pc), PETSC_ERR_ARG_OUTOFRANGE, "-pc_subtree_ilu_cuda_refactor_lanes must be 0 (automatic), 32, 16 or 8, got %" PetscInt_FMT, lanes);
    st->cudarefactlanes = lanes;
  }
  PetscCall(PetscOptionsBool("-pc_subtree_ilu_cuda_cut_late", "Cuda backend: a chain's group ends before a row whose inputs are final later than the group's (shorter critical path with ILU(k>0) fill)", "PCSUBTREEILU", st->cudacutlate, &st->cudacutlate, &flg));
  if (flg && st->factored) pc->setupcalled = 0;
  PetscCall(PetscOptionsRangeInt("-pc_subtree_ilu_cuda_long_row", "Cuda backend: a row with more than this many inputs from outside its chain's group (e.g. a hub's) is summed by the whole warp when that costs the group fewer round trips (0: never; such sums are not in PETSc's order)", "PCSUBTREEILU", st->cudalongrow, &st->cudalongrow, NULL, 0, PETSC_INT_MAX));
  PetscCall(PetscOptionsEnum("-pc_subtree_ilu_cuda_level_sort", "Cuda backend: solve L and U in a numbering sorted by level of their dependency DAGs, where rows of one level fill a warp: yes, no, auto (where the factor's own numbering gives groups of fewer than 4 rows, e.g. random columns, and more groups are ready at once than the GPU holds warps)", "PCSUBTREEILU", PCSubtreeILULevelSorts, (PetscEnum)st->cudalevelsort, (PetscEnum *)&st->cudalevelsort, &flg));
  if (flg && st->factored) pc->setupcalled = 0;
  PetscCall(PetscOptionsRangeInt("-pc_subtree_ilu_cuda_blocks_per_sm", "Cuda backend: most blocks per multiprocessor of the persistent solve and refactorization grids (0: as many as fit)", "PCSUBTREEILU", st->cudablockspersm, &st->cudablockspersm, &flg, 0, 64));
  if (flg && st->factored) pc->setupcalled = 0;
  PetscCall(PetscOptionsBool("-pc_subtree_ilu_plan_check", "(developer) The refactorization plan made by the setup threads is checked against one made on the calling thread alone (an error if they differ; twice the plan's time)", "PCSUBTREEILU", st->plancheck, &st->plancheck, NULL));
  PetscCall(PetscOptionsRangeInt("-pc_subtree_ilu_refactor_buffer", "Refactorization plan: runs of rows with at most this many values are computed in a buffer (GPU: the warp's shared memory), else in global memory", "PCSUBTREEILU", st->refactbuf, &st->refactbuf, NULL, 0, SUBTREEILU_REFACT_BUF));
  PetscCall(PetscOptionsEnum("-pc_subtree_ilu_cuda_first_factorization", "Cuda backend: a new pattern's first numeric factorization: device (the refactorization plan, made then, and the GPU kernel), petsc (PETSc's host factorization), auto (device for factors of 2^18 rows or more whose rows eliminate with rows n/8 away on average, e.g. random columns, where PETSc's row loop misses the cache at every step)", "PCSUBTREEILU", PCSubtreeILURefactors, (PetscEnum)st->cudafirst, (PetscEnum *)&st->cudafirst, NULL));
  PetscCall(PetscOptionsEnum("-pc_subtree_ilu_refactor", "Numeric refactorization with the same nonzero pattern: device (the plan, on the GPU with the cuda backend, else its CPU version), petsc (PETSc's host factorization), auto (device with the cuda backend, else petsc)", "PCSUBTREEILU", PCSubtreeILURefactors, (PetscEnum)st->refactor, (PetscEnum *)&st->refactor, NULL));
  PetscOptionsHeadEnd();
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PCView_SubtreeILU(PC pc, PetscViewer viewer)
{
  PC_SubtreeILU *st = (PC_SubtreeILU *)pc->data;
  PetscBool      iascii;

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &iascii));
  if (!iascii) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscViewerASCIIPrintf(viewer, "  %s(%" PetscInt_FMT ") with synchronization-free subtree triangular solves\n", st->type == PC_SUBTREEILU_ICC ? "ICC" : "ILU", st->levels));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  ordering %s, fill %g, shift %s (amount %g)%s\n", st->ordering, (double)st->fill, MatFactorShiftTypes[st->shifttype_set ? st->shifttype : (st->type == PC_SUBTREEILU_ICC ? MAT_SHIFT_POSITIVE_DEFINITE : MAT_SHIFT_NONE)], (double)st->shiftamount, st->deterministic ? ", deterministic" : ""));
  if (st->factored || st->failed) {
    PetscMPIInt rank, size;

    PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)pc), &rank));
    PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)pc), &size));
    PetscCall(PetscViewerASCIIPushSynchronized(viewer));
    if (st->failed) {
      PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "  [%d] factorization failed (%s)\n", rank, PCFailedReasons[pc->failedreason]));
      if (st->last != PC_SUBTREEILU_LAST_SYMBOLIC) PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "    last numeric factorization: %s\n", PCSubtreeILULastRefactorDescriptions[st->last]));
    } else {
      char pre[32] = "";

      if (size > 1) PetscCall(PetscSNPrintf(pre, sizeof(pre), "[%d] ", rank));
      PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "  %sbackend %s, %" PetscInt_FMT " rows, nonzeros L %" PetscInt_FMT " U %" PetscInt_FMT " (+ diagonal)\n", pre, PCSubtreeILUBackends[st->backend], st->n, st->L.nnz, st->U.nnz));
      if (st->backend == PC_SUBTREEILU_BACKEND_THREADS) PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "    threads %" PetscInt_FMT ", %s\n", st->nthreads, st->threadsrows ? "row-level counters" : "DAG of chunks of rows"));
      if (st->autoapplies > 0) PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "    auto: serial and threads (%" PetscInt_FMT ") timed on the first %d applies, %" PetscInt_FMT " to go\n", st->nthreads, SUBTREEILU_AUTO_APPLIES, st->autoapplies));
      else if (st->autoserial > 0) PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "    auto: fastest of the first applies: serial %g ms, threads (%" PetscInt_FMT ") %g ms\n", 1e3 * st->autoserial, st->nthreads, 1e3 * st->autothreads));
#if defined(SUBTREEILU_HAVE_THREADS)
      if (st->backend == PC_SUBTREEILU_BACKEND_THREADS && st->dag[0] && st->dag[2]) PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "    chunks of %" PetscInt_FMT " rows: L %" PetscInt_FMT " (critical path %" PetscInt_FMT "), U %" PetscInt_FMT " (critical path %" PetscInt_FMT ")\n", st->dag[0]->chunk, st->dag[0]->nchunks, st->dag[0]->depth, st->dag[2]->nchunks, st->dag[2]->depth));
#endif
#if defined(PETSC_HAVE_CUDA)
      if (st->backend == PC_SUBTREEILU_BACKEND_CUDA) {
        PetscInt  ngL, ngU, ntL, ntU;
        PetscBool sortedL, sortedU;
        char      longrow[96] = "", sorted[64] = "";

        PetscCall(PCSubtreeILUCUDAGetGroups_Private(st, &ngL, &ngU, &ntL, &ntU, &sortedL, &sortedU));
        if (st->cudalongrow > 0) PetscCall(PetscSNPrintf(longrow, sizeof(longrow), "; a row of more than %" PetscInt_FMT " inputs from outside may take the whole warp", st->cudalongrow));
        if (sortedL || sortedU) PetscCall(PetscSNPrintf(sorted, sizeof(sorted), "; %s solved in a level-sorted numbering", sortedL && sortedU ? "L and U" : sortedL ? "L" : "U"));
        PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "    cuda: one warp per chain of up to %" PetscInt_FMT " dependent consecutive rows%s, chains L %" PetscInt_FMT " U %" PetscInt_FMT ", warp tickets L %" PetscInt_FMT " U %" PetscInt_FMT "%s%s\n", st->cudachain, st->cudascan ? " (scan)" : "", ngL, ngU, ntL, ntU, longrow, sorted));
      }
#endif
      /* after a refactorization (same nonzero pattern): how it was done */
      if (st->last != PC_SUBTREEILU_LAST_SYMBOLIC) PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "    last numeric factorization: %s; refactorizations: %s%s\n", PCSubtreeILULastRefactorDescriptions[st->last], PCSubtreeILURefactors[st->refactor], st->plan ? "" : " (no plan: PETSc's)"));
#if defined(PETSC_HAVE_CUDA)
      if (st->backend == PC_SUBTREEILU_BACKEND_CUDA) {
        PetscInt  lanes;
        PetscBool automatic;

        PetscCall(PCSubtreeILUCUDAGetRefactLanes_Private(st, &lanes, &automatic));
        if (lanes) PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "    GPU refactorization: %" PetscInt_FMT " lanes a chain%s\n", lanes, automatic ? " (chosen automatically)" : ""));
      }
#endif
      {
        PetscInt depthL, depthU;

        PetscCall(TriGetDepth(&st->U, &depthU));
        if (st->L.borrowed) depthL = depthU; /* L = U^T: the same DAG, reversed */
        else PetscCall(TriGetDepth(&st->L, &depthL));
        PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "    dependency DAG: depth (critical path) L %" PetscInt_FMT " U %" PetscInt_FMT ", subtrees (root rows) L %" PetscInt_FMT " U %" PetscInt_FMT "\n", depthL, depthU, st->L.nroots, st->U.nroots));
      }
    }
    PetscCall(PetscViewerFlush(viewer));
    PetscCall(PetscViewerASCIIPopSynchronized(viewer));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
   PCSUBTREEILU - "subtree_ilu": ILU(k) or ICC(k) whose triangular solves are synchronization-free subtree
   partial-sum solves, on the GPU (CUDA), with CPU threads, or serially

   The factors are PETSc's own (`MATSOLVERPETSC` ILU/ICC, the same `MatFactorInfo` as `PCILU`/`PCICC`), so a
   Krylov method takes the same iterations as with -pc_type ilu/icc. In parallel each process factors its diagonal
   block, like `PCBJACOBI` with one block per process; it also works as a sub-preconditioner of `PCBJACOBI` and
   `PCASM` (-sub_pc_type subtree_ilu). Any matrix type whose (diagonal block) can be converted to `MATSEQAIJ` works.

   Each triangular solve keeps per row a counter of unresolved inputs and an accumulator. When a value is final it
   is pushed to the rows that depend on it (atomic add, then atomic decrement); whoever completes a row solves it at
   once and continues down that subtree. There is no level analysis and no barrier, and no thread ever waits for
   another, so it cannot deadlock (CPU threads backend). On the CPU the same scheme runs by default on chunks of 64
   consecutive rows (a counter per chunk; a chunk's rows are solved like the serial backend, so the results are
   bitwise identical to it) with a pool of worker threads that sleep between solves and are joined by `PCReset()`. The cuda backend solves groups of up to 32 consecutive rows with one
   warp, a lane per row, each lane using its row's inputs as soon as each is published (each value is its own
   readiness flag); chains of dependent consecutive rows stay on one warp, a block's warps take neighbouring chains
   and read each other's values in shared memory (the block's only barrier is between its tickets), and blocks take
   work in topological order by an atomic ticket, so a warp only waits for rows already taken by running warps:
   deadlock-free by construction, one kernel per triangular
   solve, bitwise reproducible. A refactorization with the same nonzero pattern (`SAME_NONZERO_PATTERN`, e.g. in
   `SNES`/`TS`) runs PETSc's own numeric ILU/ICC algorithm on a plan made at the first refactorization: with the cuda
   backend on the GPU, with the matrix values taken in device memory (no copy of an aijcusparse matrix to the host,
   no host factorization); if a pivot would make PETSc shift or fail (or a value is not finite) PETSc's host
   factorization is run instead, so errors and shifted factors are PETSc's. -pc_view says which was used last.

   Options Database Keys:
+  -pc_subtree_ilu_type <ilu,icc>                 - incomplete LU or incomplete Cholesky (default ilu)
.  -pc_subtree_ilu_levels <k>                     - levels of fill (default 0)
.  -pc_subtree_ilu_mat_ordering_type <ordering>   - any registered `MatOrderingType` (default -mat_ordering_type if given, else natural); with levels 0 the matrix is permuted first and factored in its natural ordering (PETSc's fast ILU(0)/ICC(0) symbolic path, the same factor)
.  -pc_subtree_ilu_shift_type <none,nonzero,positive_definite> - PETSc's shift (default none for ilu, positive_definite for icc, like `PCILU`/`PCICC`)
.  -pc_subtree_ilu_shift_amount <a>               - amount of the nonzero shift
.  -pc_subtree_ilu_fill <f>                       - expected fill ratio (allocation hint)
.  -pc_subtree_ilu_deterministic                  - bitwise reproducible solves (rows sum their inputs in a fixed order, integer atomics only; the cuda backend and the threads backend's chunk DAG always are)
.  -pc_subtree_ilu_backend <auto,cuda,threads,serial> - where the solves run (auto: cuda for CUDA matrices/vectors; else, for blocks of at least 30000 rows with several processors, threads if they are at least 10% faster on the first 6 applies, which alternate serial and threads; else serial; not timed where the chunk DAGs leave threads no chance: critical paths of 90% of the chunks, or edges at least 1/8 of the entries, as with random columns)
.  -pc_subtree_ilu_threads <n>                    - threads of the threads backend (default: the cores this process may run on, shared among the node's MPI ranks when it is not bound; at most 64)
.  -pc_subtree_ilu_setup_threads <n>              - host threads of the setup, whatever the backend: the solve structures of a new pattern (CSR and CSC of L and U; their fresh memory mapped first, with transparent huge pages where available) and, for the cuda backend, the solve schedules of L and U are built on a thread during PETSc's numeric factorization (they need only the symbolic structure), then values and pivots are gathered by ranges; the refactorization plan's row-independent stages run on them by ranges of rows (default: the cores available to the process, shared among the node's MPI ranks, at most 16; 1: all of it on the calling thread, before the numeric factorization; the result does not depend on it)
.  -pc_subtree_ilu_threads_rows                   - threads backend: per-row counters and atomic partial sums instead of the DAG of chunks of 64 rows (slower on CPUs; for comparison)
.  -pc_subtree_ilu_cuda_chain <c>                 - cuda backend: one warp solves up to c consecutive rows that each depend on the previous one (default 32)
.  -pc_subtree_ilu_cuda_scan <bool>               - cuda backend: resolve such chains by a parallel affine scan when bidiagonal (default true), else row by row
.  -pc_subtree_ilu_refactor_buffer <n>           - refactorization plan: a run of rows with at most n values (n <= 512, default 512) is computed in a buffer (the GPU warp's shared memory), else in global memory
.  -pc_subtree_ilu_plan_check                     - (developer) the refactorization plan made by the setup threads is checked against one made on the calling thread alone: an error if they differ (twice the plan's time)
.  -pc_subtree_ilu_refactor <auto,device,petsc>   - numeric refactorization with the same nonzero pattern: device = PETSc's algorithm on a plan of the fixed pattern (made at the first refactorization that uses it, or at the first factorization when the GPU makes it: -pc_subtree_ilu_cuda_first_factorization), on the GPU for the cuda backend (no host copy of the matrix), else its CPU version; petsc = PETSc's host factorization; auto (default) = device for the cuda backend, else petsc
.  -pc_subtree_ilu_cuda_backoff <ns>              - cuda backend: sleep between two polls of a value not yet published (default 0: spin)
.  -pc_subtree_ilu_cuda_cut_late <bool>           - cuda backend: a chain's group ends before a row whose inputs are final later than the group's, so that its earlier rows need not wait (default true; on the H200 the ILU(1) apply is 1.3-4.5 times faster with it on the large grids)
.  -pc_subtree_ilu_cuda_level_order <bool>        - cuda backend: the non-transposed solves take their block tickets by level of the tickets' dependency DAG (default true), else in index order
.  -pc_subtree_ilu_cuda_refactor_level_order <bool> - cuda backend: the GPU refactorization takes its tickets (chains of rows) by level of their dependency DAG (default true; on an H100 3D 160^3 ILU(1) 1.7 times faster, 2D grids and RCM orderings unchanged), else in index order
.  -pc_subtree_ilu_cuda_refactor_lanes <0,32,16,8>  - cuda backend: lanes of the GPU refactorization per chain of rows (default 0: 8 or 16 where the tickets' DAG is on average 1.5 or 0.5 times wider than the warps the GPU holds at once and the factor's rows fit the lanes, e.g. RCM-ordered 3D 7-point grids with ILU(0)/ICC(0), else 32, a warp); 16 or 8: a warp factors a bundle of 2 or 4 chains of one level of the DAG at once, in lockstep (fewer instructions per row where rows are short; needs the level order, else 32)
.  -pc_subtree_ilu_cuda_long_row <n>             - cuda backend: a row with more than n inputs from outside its chain's group (a hub's row, or column in the transposed solves) is summed by the whole warp, 128 entries per round trip instead of its lane's 4, when that shortens the group's first phase (default 8; 0: never). On an H100 the ILU(0) apply of a power-law matrix of 1M rows (hub rows of 67,069 entries) takes 2.02 ms instead of 16.9 (cuSPARSE: 6.8), the RCM-ordered 27-point 100^3 grid's 8-14% less, the other grids the same time. Such a row's sum is not in PETSc's order: the result differs from PETSc's in rounding (still bitwise reproducible)
.  -pc_subtree_ilu_cuda_first_factorization <auto,device,petsc> - cuda backend: a new pattern's first numeric factorization. device = the refactorization plan (made then, on the setup threads; ILU's beside the building of the solve structures) and the GPU kernel, with PETSc's numeric factorization only where a pivot would not pass PETSc's check unchanged; petsc = PETSc's host factorization (during which the solve structures are built); auto (default) = device for factors of at least 2^18 rows whose rows eliminate with rows n/8 away on average (sampled; random columns, e.g. power-law graphs, where PETSc's row loop misses the cache at each elimination step), else petsc. Needs refactorizations by the plan (not -pc_subtree_ilu_refactor petsc); -info reports the decision
.  -pc_subtree_ilu_cuda_level_sort <auto,no,yes> - cuda backend: solve L and U renumbered by level of their dependency DAGs (a topological order, so the factors stay triangular; the rows of one level, independent of each other, then fill a warp's 32 lanes; rows of more than 128 inputs first in their level, each in a group of its own), with the vectors gathered into and scattered out of that numbering (composed with the ordering's permutation) and, for ILU, one gather between the L and U solves. The sort needs only the structure: it is made with the schedules on the setup threads, during PETSc's numeric factorization (where the factor's columns look random, or the sort is forced, beside the natural schedule it is decided on). auto (default): where the factor's own numbering leaves the warps groups of fewer than 4 rows on average (random columns, e.g. power-law graphs) and more groups are ready at once than the GPU holds warps (32 a multiprocessor), kept if the sorted numbering gives twice as many rows a group on a critical path at most 25% longer (ICC: decided on U; L = U^T follows it); -info reports the decision. On an H100 the ILU(0) apply of a power-law matrix of 4M rows takes 1.71 ms instead of 7.16 (cuSPARSE: 11.1); smaller or banded matrices are slower sorted, and auto leaves them alone. A row's inputs are then summed in the order of the new numbering: the result differs from PETSc's in rounding (still bitwise reproducible)
-  -pc_subtree_ilu_cuda_blocks_per_sm <b>         - cuda backend: at most b blocks of 8 warps per multiprocessor in the persistent solve and refactorization grids (default 0: as many as fit)

   Level: intermediate

   Note:
   `PCApplyTranspose()` is available for both types, `PCApplySymmetricLeft()`/`PCApplySymmetricRight()` for icc.
   With CUDA vectors the CUDA backend never touches the host.

.seealso: [](ch_ksp), `PCILU`, `PCICC`, `PCBJACOBI`, `PCASM`, `MatGetOrdering()`
M*/
PETSC_EXTERN PetscErrorCode PCCreate_SubtreeILU(PC pc)
{
  PC_SubtreeILU *st;
  char           ordering[256] = MATORDERINGNATURAL;

  PetscFunctionBegin;
  PetscCall(PetscNew(&st));
  pc->data              = (void *)st;
  st->type              = PC_SUBTREEILU_ILU;
  st->levels            = 0;
  st->fill              = 1.0;
  st->shifttype         = MAT_SHIFT_NONE;
  st->shiftamount       = 100.0 * PETSC_MACHINE_EPSILON;
  st->backend_requested = PC_SUBTREEILU_BACKEND_AUTO;
  st->backend           = PC_SUBTREEILU_BACKEND_SERIAL;
  st->nthreads          = 1;
  st->cudachain         = 32;
  st->cudascan          = PETSC_TRUE;
  st->cudalevelorder    = PETSC_TRUE;
  st->cudarefactorder   = PETSC_TRUE;
  st->cudarefactlanes   = 0;
  st->cudacutlate       = PETSC_TRUE;
  st->cudalongrow       = 8;
  st->cudalevelsort     = PC_SUBTREEILU_LEVEL_SORT_AUTO;
  st->cudafirst         = PC_SUBTREEILU_REFACTOR_AUTO;
  st->refactbuf         = SUBTREEILU_REFACT_BUF;
  st->setupthreads      = PetscMin(PetscSparseGPUAvailableCores(), 16); /* (first touch and the setup's loops scale no further on the H200 host) */
#if defined(SUBTREEILU_HAVE_THREADS)
  st->nthreads = PetscMin(PetscSparseGPUAvailableCores(), 64); /* (the node's cores shared among its ranks, as the setup's) */
#endif
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_ordering_type", ordering, sizeof(ordering), NULL));
  PetscCall(PetscStrallocpy(ordering, &st->ordering));

  pc->ops->apply               = PCApply_SubtreeILU;
  pc->ops->applytranspose      = PCApplyTranspose_SubtreeILU;
  pc->ops->applysymmetricleft  = PCApplySymmetricLeft_SubtreeILU;
  pc->ops->applysymmetricright = PCApplySymmetricRight_SubtreeILU;
  pc->ops->setup               = PCSetUp_SubtreeILU;
  pc->ops->reset               = PCReset_SubtreeILU;
  pc->ops->destroy             = PCDestroy_SubtreeILU;
  pc->ops->setfromoptions      = PCSetFromOptions_SubtreeILU;
  pc->ops->view                = PCView_SubtreeILU;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_INTERN PetscErrorCode PCRegister_SubtreeILU_Private(void)
{
  PetscClassId classid = PC_CLASSID;

  PetscFunctionBegin;
  PetscCall(PCRegister(PCSUBTREEILU, PCCreate_SubtreeILU));
  PetscCall(PetscLogEventRegister("SubtreeILUFactor", classid, &PC_SubtreeILU_Factor));
  PetscCall(PetscLogEventRegister("SubtreeILUSetup", classid, &PC_SubtreeILU_Setup));
  PetscCall(PetscLogEventRegister("SubtreeILUSolve", classid, &PC_SubtreeILU_Solve));
  PetscCall(PetscLogEventRegister("SubtreeILURefact", classid, &PC_SubtreeILU_Refact));
  PetscCall(PetscLogEventRegister("SubtreeILUBuild", classid, &PC_SubtreeILU_Build));
  PetscCall(PetscLogEventRegister("SubtreeILUToGPU", classid, &PC_SubtreeILU_ToGPU));
  PetscCall(PetscLogEventRegister("SubtreeILUPlan", classid, &PC_SubtreeILU_Plan));
  PetscFunctionReturn(PETSC_SUCCESS);
}
