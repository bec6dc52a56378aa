/*
  Refactorization plan of PCSUBTREEILU: PETSc's numeric ILU(k)/ICC(k) (MatLUFactorNumeric_SeqAIJ(),
  MatCholeskyFactorNumeric_SeqAIJ() of PETSc 3.22) on the fixed pattern of the symbolic factorization, so a
  refactorization with the same nonzero pattern needs neither PETSc's host factorization nor (cuda backend) any copy
  of the matrix to the host. See PCSubtreeILUPlan in subtreeiluimpl.h for the layout.

  The CPU version here (PCSubtreeILUPlanNumericCPU_Private()) computes exactly what the GPU kernel (subtreeilu.cu)
  computes, in the same way: in place in PETSc's factor value array, a run of rows initialized at once, the
  destinations of the updates from the update map, ICC with the separate array of unscaled rows (so the tests of
  the CPU version also test the plan the GPU uses). Per entry, the operations and their order are
  PETSc's:
    ILU, row i: w = A(r[i], c^-1(:)) on the pattern (0 elsewhere); for each L entry k of row i, by increasing column:
         if w_k != 0: w_k = w_k * (1/u_kk) (the multiplier, stored in L), w_j -= w_k * U(k,j) for every j of U-row k
         in row i's pattern (the others are dropped, as PETSc never reads them); then the pivot check, 1/w_ii.
    ICC, row k: w = upper part of row k of P A P^T; d = w_kk; for each row i with Ut(i,k) in the pattern, in the order
         of PETSc's linked lists: m = -ubar(i,k) * (1/d_i), d += m * ubar(i,k), stored value -Ut(i,k) = m,
         w_j += m * ubar(i,j) for j > k in row i and in row k's pattern; then ubar(k,:) = w, the pivot check, 1/d.
  Products and sums are rounded separately (no fused multiply-add) as in PETSc's C code.

  Pivots: a row passes if PETSc's MatPivotCheck() for the factor's shift type would accept it unchanged in PETSc's
  first (unshifted) pass: none |p| > zeropivot; nonzero |p| > zeropivot * rs; positive_definite Re p > zeropivot * rs,
  with rs the sum of the absolute values of the row's off-diagonal factor entries (in PETSc's order; not formed for
  none, which does not use it). The plan also rejects any non-finite value (pivot, entry, or row sum). Whenever a row does not pass, the caller discards the result and runs PETSc's own
  numeric factorization, so zero pivot errors and shifted factors are exactly PETSc's.
*/
#include "subtreeiluimpl.h"
#include <petsc/private/matimpl.h>
#include <stdint.h>
#include <string.h>

PETSC_INTERN PetscErrorCode PCSubtreeILUPlanDestroy_Private(PCSubtreeILUPlan **pplan)
{
  PCSubtreeILUPlan *p = *pplan;

  PetscFunctionBegin;
  if (!p) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree4(p->lptr, p->ub, p->ud, p->bj));
  PetscCall(PetscFree3(p->aptr, p->asrc, p->adst));
  PetscCall(PetscFree3(p->cptr, p->cpos, p->crow));
  PetscCall(PetscFree2(p->runptr, p->tptr));
  PetscCall(PetscFree(p->mptr));
  PetscCall(PetscFree(p->map));
  PetscCall(PetscFree(p->msrc));
  PetscCall(PetscFree(p->ubar));
  PetscCall(PetscFree(*pplan));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the first position in bj[lo .. hi-1] (sorted) whose column is j or more (hi if none) */
static inline PetscInt LowerCol(const PetscInt *bj, PetscInt lo, PetscInt hi, PetscInt j)
{
  while (lo < hi) {
    PetscInt mid = lo + (hi - lo) / 2;

    if (bj[mid] < j) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* position of column j in bj[lo .. hi-1] (sorted), or -1 */
static inline PetscInt FindCol(const PetscInt *bj, PetscInt lo, PetscInt hi, PetscInt j)
{
  const PetscInt at = LowerCol(bj, lo, hi, j);

  return (at < hi && bj[at] == j) ? at : -1;
}


/*
  The plan's row-independent stages run on the setup threads (-pc_subtree_ilu_setup_threads), as ranges of rows
  (PetscSparseGPUParallelForC(): ranges fixed by the row count and the thread count, so a count pass and the fill
  pass that follows it see the same ranges). Plain C on arrays allocated beforehand: no PETSc calls. Each range
  counts what it will write, the ranges' offsets are summed in order, and each range then fills its part: the
  arrays are the same, entry for entry, whatever the number of threads. The arrays the ranges fill are first touched
  by their threads; those the main thread fills are mapped by PlanPrefault().
*/
#define PLAN_MIN_ROWS 16384 /* rows per thread at least */

typedef struct {
  PCSubtreeILUPlan *p;
  const PetscInt   *ai, *aj, *fi, *fj, *rperm, *cperm; /* A's CSR, the factor's, its row and column permutations */
  PetscInt         *icol;                              /* the inverse of cperm */
  PetscInt64        cnt[PETSC_SPARSEGPU_MAX_THREADS], cnt2[PETSC_SPARSEGPU_MAX_THREADS]; /* what each range writes (two arrays) */
  PetscInt64        total2;                                                        /* the sum of cnt2 */
  PetscInt          off[PETSC_SPARSEGPU_MAX_THREADS], off2[PETSC_SPARSEGPU_MAX_THREADS]; /* where each range starts writing */
  int               bad[PETSC_SPARSEGPU_MAX_THREADS]; /* the range found an entry outside the factor's layout */
  PetscInt          shift[PETSC_SPARSEGPU_MAX_THREADS]; /* how far left the map of each range moved */
  PetscInt64        maplimit, mapcount; /* PlanCountMap(): no plan beyond maplimit map entries; the ranges' running sum */
} PlanCtx;

/* a counting pass fn over the ranges of [0, n): the offsets of the ranges from their counts (cnt, and cnt2 if fn
   counts two things), and the total of cnt */
static PetscErrorCode PlanCountRanges(PetscInt nt, PetscInt n, void (*fn)(void *, PetscInt, PetscInt, PetscInt), PlanCtx *c, PetscInt64 *total)
{
  PetscInt64 tot = 0, tot2 = 0;

  PetscFunctionBegin;
  PetscCall(PetscArrayzero(c->cnt, PETSC_SPARSEGPU_MAX_THREADS)); /* (ranges a smaller n leaves out count nothing) */
  PetscCall(PetscArrayzero(c->cnt2, PETSC_SPARSEGPU_MAX_THREADS));
  PetscCall(PetscSparseGPUParallelFor(nt, n, PLAN_MIN_ROWS, fn, c));
  for (PetscInt t = 0; t < PETSC_SPARSEGPU_MAX_THREADS; t++) {
    c->off[t]  = (PetscInt)tot;
    c->off2[t] = (PetscInt)tot2;
    tot += c->cnt[t];
    tot2 += c->cnt2[t];
  }
  *total    = tot;
  c->total2 = tot2;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int PlanBad(const PlanCtx *c)
{
  int bad = 0;

  for (PetscInt t = 0; t < PETSC_SPARSEGPU_MAX_THREADS; t++) bad |= c->bad[t];
  return bad;
}

/*
  ILU (PETSc's SeqAIJ factor): U row i holds its off-diagonals (columns > i, increasing) and then its diagonal, the
  rows stored from n-1 down to 0 after L. So in a valid layout a U entry is a diagonal exactly where its column is
  smaller than the previous entry's (the previous one is an off-diagonal of the same row, or the diagonal i+1), or it
  is the first U entry. Each range of U positions records the diagonals it finds (ud[column] = position) and counts
  them; PlanSetILURows() then checks that they make the layout (n of them, one per row, in order).
*/
static void PlanFindILUDiagonals(void *ctx, PetscInt tid, PetscInt k0, PetscInt k1)
{
  PlanCtx          *c = (PlanCtx *)ctx;
  PCSubtreeILUPlan *p = c->p;
  const PetscInt   *fj = c->fj, n = p->n, base = c->fi[n];
  PetscInt64        cnt = 0;

  for (PetscInt k = k0; k < k1; k++) {
    const PetscInt q = base + k, v = fj[q];

    if (k > 0 && v >= fj[q - 1]) continue;
    if (v < 0 || v >= n) c->bad[tid] = 1;
    else {
      p->ud[v] = q;
      cnt++;
    }
  }
  c->cnt[tid] = cnt;
}

static void PlanClearDiagonals(void *ctx, PetscInt tid, PetscInt i0, PetscInt i1)
{
  PlanCtx *c = (PlanCtx *)ctx;

  (void)tid;
  for (PetscInt i = i0; i < i1; i++) c->p->ud[i] = -1;
}

/* ILU rows: lptr from the factor, U row i from after row i+1's diagonal to its own; the layout checked: L rows sorted
   left of the diagonal, U rows sorted right of it, every row's diagonal found after the previous row's */
static void PlanSetILURows(void *ctx, PetscInt tid, PetscInt i0, PetscInt i1)
{
  PlanCtx          *c = (PlanCtx *)ctx;
  PCSubtreeILUPlan *p = c->p;
  const PetscInt   *fi = c->fi, *fj = c->fj, n = p->n;

  for (PetscInt i = i0; i < i1; i++) {
    p->lptr[i] = fi[i];
    p->ub[i]   = i == n - 1 ? fi[n] : p->ud[i + 1] + 1;
    if (p->ud[i] < p->ub[i] || (i < n - 1 && p->ud[i + 1] < 0)) { /* (also a row whose diagonal was not found) */
      c->bad[tid] = 1;
      p->ub[i] = p->ud[i] = fi[n];
      continue;
    }
    for (PetscInt q = fi[i]; q < fi[i + 1]; q++)
      if (fj[q] < 0 || fj[q] >= i || (q > fi[i] && fj[q] <= fj[q - 1])) c->bad[tid] = 1;
    for (PetscInt q = p->ub[i]; q < p->ud[i]; q++)
      if (fj[q] <= i || fj[q] >= n || (q > p->ub[i] && fj[q] <= fj[q - 1])) c->bad[tid] = 1;
  }
}

/* ICC (SeqSBAIJ, bs 1): row k = sorted off-diagonals right of the diagonal, then the diagonal */
static void PlanCheckICCRows(void *ctx, PetscInt tid, PetscInt k0, PetscInt k1)
{
  PlanCtx          *c = (PlanCtx *)ctx;
  PCSubtreeILUPlan *p = c->p;
  const PetscInt   *fi = c->fi, *fj = c->fj, n = p->n;

  for (PetscInt k = k0; k < k1; k++) {
    if (fi[k + 1] <= fi[k] || fj[fi[k + 1] - 1] != k) {
      c->bad[tid] = 1;
      p->ub[k] = p->ud[k] = fi[k];
      continue;
    }
    p->ub[k] = fi[k];
    p->ud[k] = fi[k + 1] - 1;
    for (PetscInt q = p->ub[k]; q < p->ud[k]; q++)
      if (fj[q] <= k || fj[q] >= n || (q > p->ub[k] && fj[q] <= fj[q - 1])) c->bad[tid] = 1;
  }
}

/* icol = the inverse of cperm */
static void PlanInvert(void *ctx, PetscInt tid, PetscInt i0, PetscInt i1)
{
  PlanCtx *c = (PlanCtx *)ctx;

  (void)tid;
  for (PetscInt i = i0; i < i1; i++) c->icol[c->cperm[i]] = i;
}

static void PlanCopyColumns(void *ctx, PetscInt tid, PetscInt q0, PetscInt q1)
{
  PlanCtx *c = (PlanCtx *)ctx;

  (void)tid;
  memcpy(c->p->bj + q0, c->fj + q0, (size_t)(q1 - q0) * sizeof(PetscInt));
}

/* factor position of A's entry in column c (permuted) of factor row i, or -1 if outside the pattern */
static inline PetscInt PlanEntryDest(const PCSubtreeILUPlan *p, PetscInt i, PetscInt c)
{
  if (!p->icc) {
    if (c < i) return FindCol(p->bj, p->lptr[i], p->lptr[i + 1], c);
    if (c == i) return p->ud[i];
    return FindCol(p->bj, p->ub[i], p->ud[i], c);
  }
  return c == i ? p->ud[i] : FindCol(p->bj, p->ub[i], p->ud[i], c);
}

/* A's entries each range keeps: ILU all of its rows', ICC those in the upper triangle of the permuted matrix */
static void PlanCountEntries(void *ctx, PetscInt tid, PetscInt i0, PetscInt i1)
{
  PlanCtx          *c = (PlanCtx *)ctx;
  const PetscInt   *ai = c->ai, *aj = c->aj, *rperm = c->rperm, *icol = c->icol;
  PetscInt64        cnt = 0;

  for (PetscInt i = i0; i < i1; i++) {
    const PetscInt r = rperm[i];

    if (!c->p->icc) cnt += ai[r + 1] - ai[r];
    else
      for (PetscInt s = ai[r]; s < ai[r + 1]; s++) cnt += icol[aj[s]] >= i ? 1 : 0;
  }
  c->cnt[tid] = cnt;
}

/* factor row i is A's row rperm[i]; its entries (asrc, adst) from the range's offset */
static void PlanFillEntries(void *ctx, PetscInt tid, PetscInt i0, PetscInt i1)
{
  PlanCtx          *c = (PlanCtx *)ctx;
  PCSubtreeILUPlan *p = c->p;
  const PetscInt   *ai = c->ai, *aj = c->aj, *rperm = c->rperm, *icol = c->icol;
  PetscInt          q = c->off[tid];

  for (PetscInt i = i0; i < i1; i++) {
    const PetscInt r = rperm[i];

    for (PetscInt s = ai[r]; s < ai[r + 1]; s++) {
      const PetscInt col = icol[aj[s]];
      PetscInt       t;

      if (p->icc && col < i) continue; /* ICC uses the upper triangle of the permuted matrix */
      t = PlanEntryDest(p, i, col);
      if (t < 0) { /* an entry of A outside the factor's pattern: not PETSc's ILU(k)/ICC(k) layout */
        c->bad[tid] = 1;
        return;
      }
      p->asrc[q] = s;
      p->adst[q] = t;
      q++;
    }
    p->aptr[i + 1] = q;
  }
}

/* elimination steps of factor row i: ILU its L entries, ICC the contributions to it */
static inline void PlanRowSteps(const PCSubtreeILUPlan *p, PetscInt i, PetscInt *s0, PetscInt *s1)
{
  *s0 = p->icc ? p->cptr[i] : p->lptr[i];
  *s1 = p->icc ? p->cptr[i + 1] : p->lptr[i + 1];
}

/* updates PETSc's numeric factorization makes in step q: the off-diagonal U entries of row k right of the step's column
   (the update map keeps those in the pattern of the row being factored) */
static inline PetscInt PlanStepUpdates(const PCSubtreeILUPlan *p, PetscInt q)
{
  return p->icc ? p->ud[p->crow[q]] - p->cpos[q] - 1 : p->ud[p->bj[q]] - p->ub[p->bj[q]];
}

/*
  The matches of two increasing column lists, sources bj[a0 .. a1-1] (the eliminating row's part) and destinations
  bj[b0 .. b1-1] (part of the row being factored), in increasing column order: writes (when msrc is not NULL) the
  source's offset from base and the destination's position, and returns their number. A merge when the lengths are
  alike, else a binary search of each entry of the shorter list in the longer, so a hub's row costs a short row
  only about its length times a logarithm.
*/
static inline PetscInt PlanMatch(const PetscInt *bj, PetscInt a0, PetscInt a1, PetscInt b0, PetscInt b1, PetscInt base, PetscInt *msrc, PetscInt *map)
{
  const PetscInt na = a1 - a0, nb = b1 - b0;
  PetscInt       cnt = 0;

  if (na <= 0 || nb <= 0) return 0;
  if (na > 8 * nb) {
    for (PetscInt b = b0; b < b1; b++) {
      const PetscInt a = FindCol(bj, a0, a1, bj[b]);

      if (a >= 0) {
        if (msrc) msrc[cnt] = a - base, map[cnt] = b;
        cnt++;
        a0 = a + 1;
      }
    }
  } else if (nb > 8 * na) {
    for (PetscInt a = a0; a < a1; a++) {
      const PetscInt b = FindCol(bj, b0, b1, bj[a]);

      if (b >= 0) {
        if (msrc) msrc[cnt] = a - base, map[cnt] = b;
        cnt++;
        b0 = b + 1;
      }
    }
  } else {
    while (a0 < a1 && b0 < b1) {
      if (bj[a0] < bj[b0]) a0++;
      else if (bj[a0] > bj[b0]) b0++;
      else {
        if (msrc) msrc[cnt] = a0 - base, map[cnt] = b0;
        cnt++;
        a0++, b0++;
      }
    }
  }
  return cnt;
}

/*
  The update map of step q of row i (its steps end at s1; its U off-diagonals u0 .. d-1, its pivot at d): writes (when
  msrc is not NULL) and counts the step's entries.
    ILU: step q eliminates with U row k = bj[q] (columns > k); row i's pattern right of column k is its L entries after
         q (columns below i), its diagonal (column i, position d) and its U entries: three increasing pieces.
    ICC: row i = crow[q] contributes its entries right of Ut(i,k) (position cpos[q]) to row k = the row being factored,
         whose U off-diagonals are u0 .. d-1 (columns > k, where all of the contributing entries lie).
*/
static inline PetscInt PlanStepMap(const PCSubtreeILUPlan *p, PetscInt i, PetscInt q, PetscInt s1, PetscInt u0, PetscInt d, PetscInt *msrc, PetscInt *map)
{
  PetscInt cnt, a0, a1, split;

  if (p->icc) {
    a0 = p->cpos[q] + 1;
    return PlanMatch(p->bj, a0, p->ud[p->crow[q]], u0, d, a0, msrc, map);
  }
  a0    = p->ub[p->bj[q]];
  a1    = p->ud[p->bj[q]];
  split = LowerCol(p->bj, a0, a1, i); /* the first entry of U(k) with column >= i */
  cnt   = PlanMatch(p->bj, a0, split, q + 1, s1, a0, msrc, map);
  if (split < a1 && p->bj[split] == i) {
    if (msrc) msrc[cnt] = split - a0, map[cnt] = d;
    cnt++;
    split++;
  }
  return cnt + PlanMatch(p->bj, split, a1, u0, d, a0, msrc ? msrc + cnt : NULL, msrc ? map + cnt : NULL);
}

/* the eliminating rows of the steps ahead of q (before send), by two stages: their U ranges 16 steps ahead, their
   entries 8 steps ahead (on random columns each step's row k is a cache miss: about half of the map's time) */
static inline void PlanPrefetchStep(const PCSubtreeILUPlan *p, PetscInt q, PetscInt send, PetscBool entries)
{
#if defined(__GNUC__)
  if (q + 16 < send) {
    if (p->icc) {
      __builtin_prefetch(p->ud + p->crow[q + 16]);
      __builtin_prefetch(p->bj + p->cpos[q + 16] + 1);
    } else {
      __builtin_prefetch(p->ub + p->bj[q + 16]);
      __builtin_prefetch(p->ud + p->bj[q + 16]);
    }
  }
  if (entries && !p->icc && q + 8 < send) __builtin_prefetch(p->bj + p->ub[p->bj[q + 8]]);
#else
  (void)p, (void)q, (void)send, (void)entries;
#endif
}

/*
  The update map: a count pass counts each step's entries where the eliminating row is near (within
  PLAN_NEAR_ROWS: in cache on stencil matrices), and elsewhere only bounds them (fewer than the eliminating row's part
  and than the candidates in the row: two loads a step, where the exact count would repeat the fill's searches, which
  miss the cache on random columns). The fill pass writes each range's map from its offset, PlanPackMap() moves the
  ranges together where bounds left slack (none on stencils), PlanShiftMap() shifts mptr, and PetscRealloc() gives
  the slack back (never touched, so never mapped in).
*/
#define PLAN_NEAR_ROWS 65536
/* the map's size limit (PCSubtreeILUPlanCreate_Private()): entries per entry of the factor, beyond a few million; grids'
   ILU(0-3)/ICC take 1-16 (27-point 25^3 ILU(2): 16), a dense factor about n/3 */
#define PLAN_MAP_MAX_PER_ENTRY 128
#define PLAN_MAP_ALWAYS        (1 << 22)
static inline PetscInt PlanStepBound(const PCSubtreeILUPlan *p, PetscInt i, PetscInt q, PetscInt s1, PetscInt u0, PetscInt d)
{
  const PetscInt k = p->icc ? p->crow[q] : p->bj[q];

  if (i - k <= PLAN_NEAR_ROWS) return PlanStepMap(p, i, q, s1, u0, d, NULL, NULL);
  return PetscMin(PlanStepUpdates(p, q), p->icc ? d - u0 : s1 - q + d - u0);
}

/* With maplimit, the ranges add their counts to mapcount every 2^20 entries or so and stop once it exceeds the
   limit: the plan is then refused (the sum of the ranges' counts exceeds it too) at a fraction of the pass; a total
   within the limit is never stopped, so the decision is the full count's. */
static void PlanCountMap(void *ctx, PetscInt tid, PetscInt i0, PetscInt i1)
{
  PlanCtx          *c = (PlanCtx *)ctx;
  PCSubtreeILUPlan *p = c->p;
  PetscInt64        bound = 0, all = 0, added = 0;
  PetscInt          s0, s1, send, unused;

  PlanRowSteps(p, i1 - 1, &unused, &send);
  for (PetscInt i = i0; i < i1; i++) {
    PlanRowSteps(p, i, &s0, &s1);
    for (PetscInt q = s0; q < s1; q++) {
      PlanPrefetchStep(p, q, send, PETSC_FALSE);
      bound += PlanStepBound(p, i, q, s1, p->ub[i], p->ud[i]);
      all += PlanStepUpdates(p, q);
    }
#if defined(__GNUC__)
    if (c->maplimit && bound - added >= (1 << 20)) {
      const PetscInt64 sum = __atomic_add_fetch(&c->mapcount, bound - added, __ATOMIC_RELAXED);

      added = bound;
      if (sum > c->maplimit || __atomic_load_n(&c->mapcount, __ATOMIC_RELAXED) > c->maplimit) break;
    }
#endif
  }
  c->cnt[tid]  = bound;
  c->cnt2[tid] = all;
}

/* the range's map from its bound's offset, with mptr there; cnt = the entries written */
static void PlanFillMap(void *ctx, PetscInt tid, PetscInt i0, PetscInt i1)
{
  PlanCtx          *c = (PlanCtx *)ctx;
  PCSubtreeILUPlan *p = c->p;
  PetscInt          pos = c->off[tid], s0, s1, send, unused;

  PlanRowSteps(p, i1 - 1, &unused, &send);
  for (PetscInt i = i0; i < i1; i++) {
    PlanRowSteps(p, i, &s0, &s1);
    for (PetscInt q = s0; q < s1; q++) {
      PlanPrefetchStep(p, q, send, PETSC_TRUE);
      pos += PlanStepMap(p, i, q, s1, p->ub[i], p->ud[i], p->msrc + pos, p->map + pos);
      p->mptr[q + 1] = pos;
    }
  }
  c->cnt[tid] = pos - c->off[tid];
}

/* the ranges' maps moved together, in order (each moves left, over its own and earlier ranges' slack); the total */
static PetscInt PlanPackMap(PlanCtx *c)
{
  PCSubtreeILUPlan *p   = c->p;
  PetscInt          end = 0;

  for (PetscInt t = 0; t < PETSC_SPARSEGPU_MAX_THREADS; t++) {
    c->shift[t] = c->off[t] - end;
    if (c->cnt[t] && c->shift[t]) {
      memmove(p->map + end, p->map + c->off[t], (size_t)c->cnt[t] * sizeof(PetscInt));
      memmove(p->msrc + end, p->msrc + c->off[t], (size_t)c->cnt[t] * sizeof(PetscInt));
    }
    end += (PetscInt)c->cnt[t];
  }
  return end;
}

static void PlanShiftMap(void *ctx, PetscInt tid, PetscInt i0, PetscInt i1)
{
  PlanCtx          *c = (PlanCtx *)ctx;
  PCSubtreeILUPlan *p = c->p;
  PetscInt          s0, s1, unused;

  if (!c->shift[tid]) return;
  PlanRowSteps(p, i0, &s0, &unused);
  PlanRowSteps(p, i1 - 1, &unused, &s1);
  for (PetscInt q = s0; q < s1; q++) p->mptr[q + 1] -= c->shift[tid];
}

/* ICC: every contribution to row k comes from an earlier row's entry in column k */
static void PlanCheckICCSteps(void *ctx, PetscInt tid, PetscInt k0, PetscInt k1)
{
  PlanCtx          *c = (PlanCtx *)ctx;
  PCSubtreeILUPlan *p = c->p;

  for (PetscInt k = k0; k < k1; k++)
    for (PetscInt q = p->cptr[k]; q < p->cptr[k + 1]; q++)
      if (p->crow[q] >= k || p->bj[p->cpos[q]] != k) c->bad[tid] = 1;
}

/* row i depends on row i-1 (ILU: L(i,i-1); ICC: Ut(i-1,i)), so it joins its run unless the run is full */
static inline PetscBool PlanLink(const PCSubtreeILUPlan *p, PetscInt i)
{
  if (i == 0) return PETSC_FALSE;
  if (!p->icc) return (p->lptr[i + 1] > p->lptr[i] && p->bj[p->lptr[i + 1] - 1] == i - 1) ? PETSC_TRUE : PETSC_FALSE;
  return (p->ud[i - 1] > p->ub[i - 1] && p->bj[p->ub[i - 1]] == i) ? PETSC_TRUE : PETSC_FALSE;
}

/*
  The runs and tickets of the chains (maximal sequences of linked rows) that start in rows [i0, i1): from the first
  chain start at or after i0 up to the next one at or after i1. A chain start begins a run and a ticket; inside a
  chain a run also ends before the row that would make it overflow the GPU kernel's shared-memory caches, and a
  chain cut only by the run's size stays in its ticket (up to SUBTREEILU_REFACT_TICKET runs). Counts (cnt: runs,
  cnt2: tickets) or, with fill, writes runptr and tptr from the range's offsets.
*/
static void PlanRunsRange(PlanCtx *c, PetscInt tid, PetscInt i0, PetscInt i1, PetscBool fill)
{
  PCSubtreeILUPlan *p = c->p;
  const PetscInt    n = p->n;
  PetscInt          i = i0, r = fill ? c->off[tid] : 0, t = fill ? c->off2[tid] : 0, r0 = r, t0 = t;
  PetscInt          start = 0, tfirst = 0, nval = 0, nstep = 0, nmapr = 0; /* the current run's first row, values, steps, map entries */

  while (i < i1 && PlanLink(p, i)) i++;
  for (; i < n; i++) {
    PetscInt s0, s1, rval, rstep, rmap;

    PlanRowSteps(p, i, &s0, &s1);
    rval  = (p->icc ? 0 : p->lptr[i + 1] - p->lptr[i]) + p->ud[i] - p->ub[i] + 1;
    rstep = s1 - s0;
    rmap  = p->mptr[s1] - p->mptr[s0];
    if (!PlanLink(p, i)) {
      if (i >= i1) break; /* the next range's chain */
      if (fill) p->runptr[r] = i, p->tptr[t] = r;
      start = i, tfirst = r, r++, t++;
      nval = rval, nstep = rstep, nmapr = rmap;
    } else if (i - start >= SUBTREEILU_REFACT_RUN || nval + rval > SUBTREEILU_REFACT_BUF || nstep + rstep > SUBTREEILU_REFACT_STEPS || nmapr + rmap > SUBTREEILU_REFACT_MAP) {
      if (fill) p->runptr[r] = i;
      if (r - tfirst >= SUBTREEILU_REFACT_TICKET) {
        if (fill) p->tptr[t] = r;
        tfirst = r, t++;
      }
      start = i, r++;
      nval = rval, nstep = rstep, nmapr = rmap;
    } else nval += rval, nstep += rstep, nmapr += rmap;
  }
  c->cnt[tid]  = r - r0;
  c->cnt2[tid] = t - t0;
}

static void PlanCountRuns(void *ctx, PetscInt tid, PetscInt i0, PetscInt i1)
{
  PlanRunsRange((PlanCtx *)ctx, tid, i0, i1, PETSC_FALSE);
}

static void PlanFillRuns(void *ctx, PetscInt tid, PetscInt i0, PetscInt i1)
{
  PlanRunsRange((PlanCtx *)ctx, tid, i0, i1, PETSC_TRUE);
}

/* ICC's contribution order by simulating PETSc's linked lists c2r, il (MatCholeskyFactorNumeric_SeqAIJ()) */
static PetscErrorCode PlanICCOrderLists(PCSubtreeILUPlan *p, const PetscInt *fi, const PetscInt *fj, PetscBool *ok)
{
  const PetscInt n = p->n, nz = p->nz;
  PetscInt      *c2r, *il, m = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(n, &c2r, n, &il));
  for (PetscInt i = 0; i < n; i++) c2r[i] = n;
  if (n) il[0] = 0;
  p->cptr[0] = 0;
  for (PetscInt k = 0; k < n && *ok; k++) {
    PetscInt i = c2r[k], jmin, jmax;

    while (i < k) {
      PetscInt nexti = c2r[i], ili = il[i];

      if (m >= nz - n) {
        *ok = PETSC_FALSE;
        break;
      }
      p->cpos[m] = ili;
      p->crow[m] = i;
      m++;
      jmin = ili + 1;
      jmax = fi[i + 1];
      if (jmin < jmax) {
        PetscInt j = fj[jmin];

        il[i]  = jmin;
        c2r[i] = c2r[j];
        c2r[j] = i;
      }
      i = nexti;
    }
    p->cptr[k + 1] = m;
    jmin           = fi[k];
    jmax           = fi[k + 1] - 1;
    if (jmin < jmax) {
      il[k]  = jmin;
      i      = fj[jmin];
      c2r[k] = c2r[i];
      c2r[i] = k;
    }
  }
  if (*ok && m != nz - n) *ok = PETSC_FALSE;
  PetscCall(PetscFree2(c2r, il));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  ICC's contribution order without the linked lists, by ranges of columns. PETSc pushes row i onto the list of column k
  (the head) when i reaches k: at the end of step i if k is i's first off-diagonal (END), else at step s = i's previous
  column, when i is processed there; step k then takes its list from the head. So column k's rows come in the reverse
  order of their pushes: by s descending, END first, then by their position in column s's order descending. Only
  rows pushed during the same step s (two or more of them, END aside) need column s's order.
  Each range of columns orders its columns in increasing order and defers those that need a column outside its range
  or deferred itself; the deferred columns are then ordered on the calling thread in increasing order, when every
  column they need is done. rank[pos] = the position of the entry at factor position pos in its column's order.
*/
typedef struct {
  PetscInt s, p, row, pos; /* push step, position in column s's order (PETSC_INT_MAX: END), row, factor position */
} PlanICCMember;

typedef struct {
  PlanICCMember *m;     /* a column's rows */
  PetscInt       mcap;
  PetscInt      *pend;  /* the deferred columns, increasing */
  PetscInt       npend, pcap;
  int            oom;
} PlanICCWork;

typedef struct {
  PlanCtx               *c;
  const PCSubtreeILUTri *U;
  PetscInt              *rank;
  char                  *done;
  PlanICCWork            w[PETSC_SPARSEGPU_MAX_THREADS];
} PlanICCCtx;

static int PlanICCCompare(const void *a, const void *b)
{
  const PlanICCMember *x = (const PlanICCMember *)a, *y = (const PlanICCMember *)b;

  if (x->s != y->s) return x->s > y->s ? -1 : 1;
  if (x->p != y->p) return x->p > y->p ? -1 : 1;
  return 0;
}

static void PlanICCSort(PlanICCMember *m, PetscInt r)
{
  if (r > 32) qsort(m, (size_t)r, sizeof(*m), PlanICCCompare);
  else
    for (PetscInt t = 1; t < r; t++) {
      const PlanICCMember v = m[t];
      PetscInt            l = t - 1;

      while (l >= 0 && PlanICCCompare(&m[l], &v) > 0) {
        m[l + 1] = m[l];
        l--;
      }
      m[l + 1] = v;
    }
}

/* orders column k: 0 done, 1 needs a column not done yet (or below lo), -1 not PETSc's layout, -2 out of memory */
static int PlanICCOrderColumn(PlanICCCtx *x, PlanICCWork *w, PetscInt k, PetscInt lo)
{
  PCSubtreeILUPlan      *p = x->c->p;
  const PCSubtreeILUTri *U = x->U;
  const PetscInt        *fi = x->c->fi, *fj = x->c->fj, b = U->colptr[k], r = U->colptr[k + 1] - b;
  PlanICCMember         *m;
  PetscBool              tie = PETSC_FALSE;

  if (r > w->mcap) {
    PlanICCMember *g = (PlanICCMember *)realloc(w->m, (size_t)r * sizeof(*g));

    if (!g) return -2;
    w->m    = g;
    w->mcap = r;
  }
  m = w->m;
  for (PetscInt t = 0; t < r; t++) {
    const PetscInt i = U->rowidx[b + t], pos = U->src[U->csc2csr[b + t]];

    if (i < 0 || i >= k || pos < fi[i] || pos >= fi[i + 1] - 1 || fj[pos] != k) return -1;
    m[t].row = i;
    m[t].pos = pos;
    m[t].s   = pos > fi[i] ? fj[pos - 1] : i;
    m[t].p   = pos > fi[i] ? -1 : PETSC_INT_MAX; /* -1: not needed unless tied */
  }
  PlanICCSort(m, r); /* by s, END first; rows pushed during the same step s (two or more besides END) need their
                        positions in column s's order */
  for (PetscInt t = 0; t < r;) {
    PetscInt e = t + 1, nonend;

    while (e < r && m[e].s == m[t].s) e++;
    nonend = e - t - (m[t].p == PETSC_INT_MAX ? 1 : 0);
    if (nonend > 1) {
      if (m[t].s < lo || !x->done[m[t].s]) return 1;
      for (PetscInt u = t; u < e; u++)
        if (m[u].p != PETSC_INT_MAX) m[u].p = x->rank[m[u].pos - 1];
      tie = PETSC_TRUE;
    }
    t = e;
  }
  if (tie) PlanICCSort(m, r);
  for (PetscInt t = 0; t < r; t++) {
    p->cpos[b + t]     = m[t].pos;
    p->crow[b + t]     = m[t].row;
    x->rank[m[t].pos] = t;
  }
  x->done[k] = 1;
  return 0;
}

static void PlanICCOrderRange(void *ctx, PetscInt tid, PetscInt k0, PetscInt k1)
{
  PlanICCCtx  *x = (PlanICCCtx *)ctx;
  PlanICCWork *w = &x->w[tid];

  for (PetscInt k = k0; k < k1; k++) {
    const int ret = PlanICCOrderColumn(x, w, k, k0);

    if (ret == 1) {
      if (w->npend == w->pcap) {
        PetscInt  cap = w->pcap ? 2 * w->pcap : 1024;
        PetscInt *g   = (PetscInt *)realloc(w->pend, (size_t)cap * sizeof(*g));

        if (!g) {
          w->oom = 1;
          return;
        }
        w->pend = g;
        w->pcap = cap;
      }
      w->pend[w->npend++] = k;
    } else if (ret == -1) x->c->bad[tid] = 1;
    else if (ret == -2) {
      w->oom = 1;
      return;
    }
  }
}

static PetscErrorCode PlanICCOrderColumns(PlanCtx *c, PetscInt nt, const PCSubtreeILUTri *U, PetscBool *ok)
{
  PCSubtreeILUPlan *p = c->p;
  const PetscInt    n = p->n;
  PlanICCCtx       *x;
  PetscInt          deferred = 0;
  int               oom      = 0, ret = 0;

  PetscFunctionBegin;
  PetscCall(PetscNew(&x));
  x->c = c;
  x->U = U;
  PetscCall(PetscMalloc1(PetscMax(p->nz, 1), &x->rank));
  PetscCall(PetscCalloc1(PetscMax(n, 1), &x->done));
  PetscCall(PetscArraycpy(p->cptr, U->colptr, n + 1));
  PetscCall(PetscSparseGPUParallelFor(nt, n, PLAN_MIN_ROWS, PlanICCOrderRange, x));
  for (PetscInt t = 0; t < PETSC_SPARSEGPU_MAX_THREADS; t++) oom |= x->w[t].oom;
  if (!oom && !PlanBad(c))
    for (PetscInt t = 0; t < PETSC_SPARSEGPU_MAX_THREADS && !ret; t++) /* the ranges' deferred columns: increasing */
      for (PetscInt d = 0; d < x->w[t].npend && !ret; d++, deferred++) ret = PlanICCOrderColumn(x, &x->w[0], x->w[t].pend[d], 0);
  for (PetscInt t = 0; t < PETSC_SPARSEGPU_MAX_THREADS; t++) {
    free(x->w[t].m);
    free(x->w[t].pend);
  }
  PetscCall(PetscFree(x->rank));
  PetscCall(PetscFree(x->done));
  PetscCall(PetscFree(x));
  PetscCheck(!oom && ret != -2, PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of memory ordering ICC's contributions");
  PetscCheck(ret != 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "ICC's contribution order: a deferred column needs a column not ordered yet");
  if (ret == -1 || PlanBad(c)) *ok = PETSC_FALSE;
  PetscCall(PetscInfo(NULL, "PCSUBTREEILU plan: ICC's contribution order by %" PetscInt_FMT " threads, %" PetscInt_FMT " of %" PetscInt_FMT " columns deferred to the calling thread\n", nt, deferred, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Maps a fresh array that the main thread fills (the arrays filled by ranges are first touched by their threads) from
  nt threads, with huge pages advised, when nt >= PLAN_PREFAULT_THREADS. Fewer threads fault the pages as they write:
  huge pages from one or two threads were slower than 4 KiB pages on the 2-core development VM (first_touch.c of
  session 31: 2.3 against 0.53 ms per MiB from one thread; the ICC plan of 2D 2000^2 on 2 threads 0.26 s without,
  0.33-0.38 s with), while from 8 threads they took 0.04-0.05 ms per MiB there and on the H200 machine's host.
*/
#define PLAN_PREFAULT_THREADS 4
static PetscErrorCode PlanPrefault(PetscInt nt, void *a, size_t bytes)
{
  PetscFunctionBegin;
  if (nt < PLAN_PREFAULT_THREADS) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(!PetscSparseGPUPrefaultC(nt, a, bytes), PETSC_COMM_SELF, PETSC_ERR_SYS, "pthread_join() failed");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Makes the plan from the structure of A (the SeqAIJ matrix PETSc factored) and of st->fact. *plan = NULL (and no
  error) when PETSc's factor does not have the layout the plan needs (then refactorizations use PETSc's path).
*/
PETSC_INTERN PetscErrorCode PCSubtreeILUPlanCreate_Private(PC_SubtreeILU *st, Mat A, PCSubtreeILUPlan **plan)
{
  PCSubtreeILUPlan *p;
  PetscInt          n = st->n, na, nz, *icol, nt = PetscMax(1, st->setupthreads);
  const PetscInt   *ai, *aj, *fi, *fj;
  PetscBool         done, ok = PETSC_TRUE, toolarge = PETSC_FALSE, icc = st->type == PC_SUBTREEILU_ICC ? PETSC_TRUE : PETSC_FALSE;
  MatInfo           info;
  PlanCtx           c;
  PetscInt64        total = 0;

  PetscFunctionBegin;
  *plan = NULL;
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &na, &ai, &aj, &done));
  if (!done || na != n) {
    if (done) PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &na, &ai, &aj, &done));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatGetInfo(st->fact, MAT_LOCAL, &info));
  nz = n ? (PetscInt)info.nz_used : 0; /* PETSc's ILU factor of an empty block reports one entry it never wrote */
  if (icc) {
    PetscInt nn;

    PetscCall(MatGetRowIJ(st->fact, 0, PETSC_FALSE, PETSC_FALSE, &nn, &fi, &fj, &done));
    PetscCheck(done && nn == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cannot access the structure of PETSc's ICC factor");
  } else PetscCall(MatSeqAIJGetCSRAndMemType(st->fact, &fi, &fj, NULL, NULL));

  PetscCall(PetscMemzero(&c, sizeof(c)));
  PetscCall(PetscNew(&p));
  c.p          = p;
  c.fi         = fi;
  c.fj         = fj;
  p->n         = n;
  p->nz        = nz;
  p->annz      = ai[n];
  p->icc       = icc;
  p->shifttype = st->shifttype_set ? st->shifttype : (icc ? MAT_SHIFT_POSITIVE_DEFINITE : MAT_SHIFT_NONE);
  p->zeropivot = 100.0 * PETSC_MACHINE_EPSILON; /* info.zeropivot of PCSetUp_SubtreeILU() */
  p->bufcap    = st->refactbuf;
  PetscCall(PetscMalloc4(n + 1, &p->lptr, n, &p->ub, n, &p->ud, PetscMax(nz, 1), &p->bj));
  PetscCall(PlanPrefault(nt, p->lptr, (size_t)(n + 1) * sizeof(PetscInt)));
  PetscCall(PlanPrefault(nt, p->ub, (size_t)n * sizeof(PetscInt)));
  PetscCall(PlanPrefault(nt, p->ud, (size_t)n * sizeof(PetscInt)));
  PetscCall(PetscSparseGPUParallelFor(nt, nz, 1 << 20, PlanCopyColumns, &c));
  if (!icc) {
    /* PETSc's SeqAIJ factor: L rows by fi; U row i at bdiag[i+1]+1 .. bdiag[i] from the end, the diagonal last */
    PetscCall(PetscSparseGPUParallelFor(nt, n, PLAN_MIN_ROWS, PlanClearDiagonals, &c));
    PetscCall(PlanCountRanges(nt, nz - fi[n], PlanFindILUDiagonals, &c, &total));
    if (total != n || (n && p->ud[0] != nz - 1)) ok = PETSC_FALSE; /* n diagonals, row 0's the last entry */
    else {
      PetscCall(PetscSparseGPUParallelFor(nt, n, PLAN_MIN_ROWS, PlanSetILURows, &c));
      p->lptr[n] = fi[n];
    }
  } else {
    /* PETSc's ICC factor (SeqSBAIJ, bs 1): row k = off-diagonals fi[k] .. fi[k+1]-2, the diagonal last */
    PetscCall(PetscArrayzero(p->lptr, n + 1));
    ok = (fi[n] == nz) ? PETSC_TRUE : PETSC_FALSE;
    if (ok) PetscCall(PetscSparseGPUParallelFor(nt, n, PLAN_MIN_ROWS, PlanCheckICCRows, &c));
  }
  if (PlanBad(&c)) ok = PETSC_FALSE;

  /* A's entries: factor row i is A's row rperm[i]; column c goes to icol[c] */
  PetscCall(PetscMalloc1(n, &icol));
  c.rperm = st->rperm;
  c.cperm = st->cperm;
  c.icol  = icol;
  PetscCall(PetscSparseGPUParallelFor(nt, n, PLAN_MIN_ROWS, PlanInvert, &c));
  PetscCall(PetscMalloc3(n + 1, &p->aptr, PetscMax(ai[n], 1), &p->asrc, PetscMax(ai[n], 1), &p->adst));
  p->aptr[0] = 0;
  if (ok) {
    c.ai = ai;
    c.aj = aj;
    PetscCall(PlanCountRanges(nt, n, PlanCountEntries, &c, &total));
    PetscCall(PetscSparseGPUParallelFor(nt, n, PLAN_MIN_ROWS, PlanFillEntries, &c));
    if (PlanBad(&c)) ok = PETSC_FALSE;
  }
  PetscCall(PetscFree(icol));

  /* ICC: the order in which MatCholeskyFactorNumeric_SeqAIJ() adds rows i into row k (its linked lists) */
  if (ok && icc) {
    const PCSubtreeILUTri *U = &st->U;

    PetscCall(PetscMalloc3(n + 1, &p->cptr, PetscMax(nz - n, 1), &p->cpos, PetscMax(nz - n, 1), &p->crow));
    PetscCall(PlanPrefault(nt, p->cptr, (size_t)(n + 1) * sizeof(PetscInt)));
    PetscCall(PlanPrefault(nt, p->cpos, (size_t)(nz - n) * sizeof(PetscInt)));
    PetscCall(PlanPrefault(nt, p->crow, (size_t)(nz - n) * sizeof(PetscInt)));
    /* with setup threads, from the CSC of U the solves use (its rows ascending in each column); else PETSc's lists */
    if (nt > 1 && U->colptr && U->rowidx && U->src && U->csc2csr && U->n == n && U->nnz == nz - n && U->colptr[0] == 0 && U->colptr[n] == nz - n) PetscCall(PlanICCOrderColumns(&c, nt, U, &ok));
    else PetscCall(PlanICCOrderLists(p, fi, fj, &ok));
    /* every off-diagonal entry is scaled exactly once, by the row of its column */
    if (ok) PetscCall(PetscSparseGPUParallelFor(nt, n, PLAN_MIN_ROWS, PlanCheckICCSteps, &c));
    if (PlanBad(&c)) ok = PETSC_FALSE;
    PetscCall(PetscMalloc1(PetscMax(nz, 1), &p->ubar));
  }

  /* the update map: bounds of the steps' entries by ranges of rows, each range's mptr and map, packed. Not made when
     it would not fit PetscInt or would dwarf the factor (near-dense factors: a dense n x n ILU(0) has about n^3/3
     updates, 2.6 GB of map for n = 1000, where PETSc's factorization needs none) */
  if (ok) {
    PetscInt   nsteps = icc ? p->cptr[n] : p->lptr[n];
    PetscInt64 nmap = 0, bound, all;

    PetscCall(PetscMalloc1(nsteps + 1, &p->mptr));
    p->mptr[0] = 0;
    c.maplimit = PetscMin(PLAN_MAP_MAX_PER_ENTRY * (PetscInt64)nz + PLAN_MAP_ALWAYS, (PetscInt64)PETSC_INT_MAX - 1);
    c.mapcount = 0;
    PetscCall(PlanCountRanges(nt, n, PlanCountMap, &c, &bound));
    c.maplimit = 0;
    all        = c.total2;
    if (bound >= PETSC_INT_MAX || bound > PLAN_MAP_MAX_PER_ENTRY * (PetscInt64)nz + PLAN_MAP_ALWAYS) {
      PetscCall(PetscInfo(NULL, "PCSUBTREEILU: no refactorization plan: its update map would have more than %" PetscInt64_FMT " entries (counted until then), %.3g per factor entry (allowed: PetscInt's range, and %d per factor entry beyond %d entries); refactorizations use PETSc's numeric factorization\n", bound, nz ? (double)bound / (double)nz : 0.0, PLAN_MAP_MAX_PER_ENTRY, PLAN_MAP_ALWAYS));
      ok       = PETSC_FALSE;
      toolarge = PETSC_TRUE;
    } else {
      PetscCall(PetscMalloc1(PetscMax(bound, 1), &p->map));
      PetscCall(PetscMalloc1(PetscMax(bound, 1), &p->msrc));
      PetscCall(PetscSparseGPUParallelFor(nt, n, PLAN_MIN_ROWS, PlanFillMap, &c));
      nmap = PlanPackMap(&c);
      PetscCall(PetscSparseGPUParallelFor(nt, n, PLAN_MIN_ROWS, PlanShiftMap, &c));
      if (nmap < bound) {
        PetscCall(PetscRealloc(PetscMax(nmap, 1) * sizeof(PetscInt), &p->map));
        PetscCall(PetscRealloc(PetscMax(nmap, 1) * sizeof(PetscInt), &p->msrc));
      }
      PetscCall(PetscInfo(NULL, "PCSUBTREEILU refactorization plan: an update map of %" PetscInt64_FMT " entries, the updates in the factor's pattern of the %" PetscInt64_FMT " that PETSc's numeric factorization makes\n", nmap, all));
    }
  }

  /* runs: row i+1 joins row i's run when it depends on row i (ILU: L(i+1,i); ICC: Ut(i,i+1)); see PlanRunsRange() */
  if (ok) {
    PetscInt64 nruns = 0;

    PetscCall(PetscMalloc2(n + 1, &p->runptr, n + 1, &p->tptr));
    PetscCall(PlanCountRanges(nt, n, PlanCountRuns, &c, &nruns));
    PetscCall(PetscSparseGPUParallelFor(nt, n, PLAN_MIN_ROWS, PlanFillRuns, &c));
    p->nruns             = (PetscInt)nruns;
    p->ntickets          = (PetscInt)c.total2;
    p->runptr[p->nruns]  = n;
    p->tptr[p->ntickets] = p->nruns;
  }
  if (icc) {
    PetscInt nn;

    PetscCall(MatRestoreRowIJ(st->fact, 0, PETSC_FALSE, PETSC_FALSE, &nn, &fi, &fj, &done));
  }
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &na, &ai, &aj, &done));
  if (!ok) {
    if (!toolarge) PetscCall(PetscInfo(NULL, "PCSUBTREEILU: PETSc's factor has an unexpected layout; refactorizations use PETSc's numeric factorization\n"));
    PetscCall(PCSubtreeILUPlanDestroy_Private(&p));
  }
  *plan = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  const PetscInt *src, *idx;
  PetscInt       *out;
} PlanGatherCtx;

static void PlanGatherRange(void *ctx, PetscInt tid, PetscInt q0, PetscInt q1)
{
  PlanGatherCtx *g = (PlanGatherCtx *)ctx;

  (void)tid;
  for (PetscInt q = q0; q < q1; q++) g->out[q] = g->src[g->idx[q]];
}

/* out[q] = src[idx[q]] for q < n, by ranges on nt threads (the cuda plan's maps of L's and U's CSC values) */
PETSC_INTERN PetscErrorCode PCSubtreeILUGather_Private(PetscInt nt, PetscInt n, const PetscInt *src, const PetscInt *idx, PetscInt *out)
{
  PlanGatherCtx g = {src, idx, out};

  PetscFunctionBegin;
  PetscCall(PetscSparseGPUParallelFor(nt, n, 1 << 16, PlanGatherRange, &g));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the two plans are the same, array for array (-pc_subtree_ilu_plan_check: the setup threads' plan against one made
   on the calling thread alone) */
PETSC_INTERN PetscErrorCode PCSubtreeILUPlanEqual_Private(const PCSubtreeILUPlan *p, const PCSubtreeILUPlan *q, PetscBool *equal)
{
  PetscBool eq = PETSC_TRUE, e;
  PetscInt  n  = p->n, nsteps;

  PetscFunctionBegin;
  *equal = PETSC_FALSE;
  if (p->n != q->n || p->nz != q->nz || p->annz != q->annz || p->icc != q->icc || p->nruns != q->nruns || p->ntickets != q->ntickets) PetscFunctionReturn(PETSC_SUCCESS);
#define PLAN_SAME(a, len) \
  do { \
    PetscCall(PetscArraycmp(p->a, q->a, len, &e)); \
    eq = (PetscBool)(eq && e); \
  } while (0)
  PLAN_SAME(lptr, n + 1);
  PLAN_SAME(ub, n);
  PLAN_SAME(ud, n);
  PLAN_SAME(bj, p->nz);
  PLAN_SAME(aptr, n + 1);
  if (!eq || p->aptr[n] != q->aptr[n]) PetscFunctionReturn(PETSC_SUCCESS);
  PLAN_SAME(asrc, p->aptr[n]);
  PLAN_SAME(adst, p->aptr[n]);
  if (p->icc) {
    PLAN_SAME(cptr, n + 1);
    if (!eq) PetscFunctionReturn(PETSC_SUCCESS);
    PLAN_SAME(cpos, p->cptr[n]);
    PLAN_SAME(crow, p->cptr[n]);
  }
  PLAN_SAME(runptr, p->nruns + 1);
  PLAN_SAME(tptr, p->ntickets + 1);
  nsteps = p->icc ? p->cptr[n] : p->lptr[n];
  PLAN_SAME(mptr, nsteps + 1);
  if (!eq) PetscFunctionReturn(PETSC_SUCCESS);
  PLAN_SAME(map, p->mptr[nsteps]);
  PLAN_SAME(msrc, p->mptr[nsteps]);
#undef PLAN_SAME
  *equal = eq;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* v is Inf or NaN (PetscIsInfOrNanReal()), inline: the per-entry checks of the numeric factorization called PETSc's
   out-of-line PetscIsInfReal() and PetscIsNanReal() twice an entry, about a third of the CPU refactorization. The
   exponent bits, not isfinite(): right under -ffast-math too (why PETSc keeps its own out of line) */
static inline PetscBool NonFiniteReal(PetscReal v)
{
  double   d = (double)v;
  uint64_t u;

  memcpy(&u, &d, sizeof(u));
  return ((u >> 52) & 0x7ff) == 0x7ff ? PETSC_TRUE : PETSC_FALSE;
}

static inline PetscBool NonFiniteScalar(PetscScalar v)
{
  return NonFiniteReal(PetscAbsScalar(v)); /* (real: |v|, a sign flip; complex: as PetscIsInfOrNanScalar()) */
}

/* PETSc's MatPivotCheck() would accept pivot pv of a row with off-diagonal sum rs unchanged (first pass) */
static inline PetscBool PivotPasses(MatFactorShiftType type, PetscReal zeropivot, PetscScalar pv, PetscReal rs)
{
  if (NonFiniteScalar(pv) || NonFiniteReal(rs)) return PETSC_FALSE;
  switch (type) {
  case MAT_SHIFT_NONZERO:
    return PetscAbsScalar(pv) <= zeropivot * rs ? PETSC_FALSE : PETSC_TRUE;
  case MAT_SHIFT_POSITIVE_DEFINITE:
    return PetscRealPart(pv) <= zeropivot * rs ? PETSC_FALSE : PETSC_TRUE;
  default: /* none (inblocks is not offered by PCSUBTREEILU) */
    return PetscAbsScalar(pv) <= zeropivot ? PETSC_FALSE : PETSC_TRUE;
  }
}

/* no contraction into fused multiply-adds: PETSc's rounding (its host build may still contract; the difference is
   then at the level of rounding) */
static inline PetscScalar MulRn(PetscScalar a, PetscScalar b)
{
  volatile PetscScalar r = a * b;
  return r;
}

/* the run buffer of the GPU kernel (see RunBuf in subtreeilu.cu): buffer entry of factor (ICC: ubar) position pos */
typedef struct {
  PetscScalar *sm, *g; /* buffer, or NULL: the array g itself */
  PetscInt     Lb, Le, Ub;
} RunBuf;

static inline PetscScalar *RunAt(const RunBuf *b, PetscInt pos)
{
  return b->sm ? b->sm + (pos < b->Le ? pos - b->Lb : (b->Le - b->Lb) + pos - b->Ub) : b->g + pos;
}

/* one run of rows r0 .. r1-1, as a warp of the GPU kernel computes it (sequentially here) */
static void PlanRun(PCSubtreeILUPlan *p, PetscInt r0, PetscInt r1, const PetscScalar *aa, PetscScalar *fa, PetscScalar *sm, PetscInt bufcap, PetscInt *failrow)
{
  const PetscBool icc = p->icc;
  PetscScalar    *ubar = p->ubar;
  RunBuf          b;
  PetscInt        Ue, size;

  b.Lb = icc ? 0 : p->lptr[r0];
  b.Le = icc ? 0 : p->lptr[r1];
  b.Ub = icc ? p->ub[r0] : p->ub[r1 - 1];
  Ue   = icc ? p->ud[r1 - 1] : p->ud[r0];
  size = (b.Le - b.Lb) + (Ue - b.Ub + 1);
  b.g  = icc ? ubar : fa;
  b.sm = size <= bufcap ? sm : NULL;
  /* the initial values of the run's rows at once (the rows of a run are contiguous) */
  for (PetscInt q = b.Lb; q < b.Le; q++) *RunAt(&b, q) = 0.0;
  for (PetscInt q = b.Ub; q <= Ue; q++) *RunAt(&b, q) = 0.0;
  for (PetscInt q = p->aptr[r0]; q < p->aptr[r1]; q++) *RunAt(&b, p->adst[q]) = aa[p->asrc[q]];
  for (PetscInt i = r0; i < r1; i++) {
    const PetscInt u0 = p->ub[i], d = p->ud[i];
    const PetscInt s0 = icc ? p->cptr[i] : p->lptr[i], s1 = icc ? p->cptr[i + 1] : p->lptr[i + 1];
    PetscScalar    pv, dk = icc ? *RunAt(&b, d) : 0.0, dinv;
    PetscReal      rs = 0;

    for (PetscInt q = s0; q < s1; q++) {
      PetscInt    k = icc ? p->crow[q] : p->bj[q], kb = icc ? p->cpos[q] : p->ub[k], kd = p->ud[k], first = icc ? kb + 1 : kb;
      PetscBool   inrun = k >= r0 ? PETSC_TRUE : PETSC_FALSE;
      PetscScalar m, piv;

      if (!icc) {
        PetscScalar w = *RunAt(&b, q);

        if (w == 0.0) continue; /* as PETSc: a zero multiplier changes nothing */
        piv = inrun ? *RunAt(&b, kd) : fa[kd];
        m   = MulRn(w, piv);
        for (PetscInt e = p->mptr[q]; e < p->mptr[q + 1]; e++) {
          const PetscInt tq = p->map[e], uq = first + p->msrc[e];
          PetscScalar    u  = inrun ? *RunAt(&b, uq) : fa[uq];

          *RunAt(&b, tq) = *RunAt(&b, tq) - MulRn(m, u);
        }
        *RunAt(&b, q) = m; /* the multiplier is L's entry */
      } else {
        PetscScalar uik = inrun ? *RunAt(&b, kb) : ubar[kb];

        piv = inrun ? *RunAt(&b, kd) : fa[kd];
        m   = MulRn(-uik, piv);
        dk  = dk + MulRn(m, uik);
        for (PetscInt e = p->mptr[q]; e < p->mptr[q + 1]; e++) {
          const PetscInt tq = p->map[e], uq = first + p->msrc[e];
          PetscScalar    u  = inrun ? *RunAt(&b, uq) : ubar[uq];

          *RunAt(&b, tq) = *RunAt(&b, tq) + MulRn(m, u);
        }
        fa[kb] = m; /* -Ut(k,i), PETSc's stored value */
      }
    }
    /* PETSc's row sum of the off-diagonal factor entries (L then U; ICC the unscaled row), in its order */
    if (p->shifttype == MAT_SHIFT_NONE) { /* the check does not use the row sum: only whether the entries are finite */
      if (!icc)
        for (PetscInt q = s0; q < s1; q++)
          if (NonFiniteScalar(*RunAt(&b, q))) rs = PETSC_INFINITY;
      for (PetscInt q = u0; q < d; q++)
        if (NonFiniteScalar(*RunAt(&b, q))) rs = PETSC_INFINITY;
    } else {
      if (!icc)
        for (PetscInt q = s0; q < s1; q++) rs += PetscAbsScalar(*RunAt(&b, q));
      for (PetscInt q = u0; q < d; q++) rs += PetscAbsScalar(*RunAt(&b, q));
    }
    pv = icc ? dk : *RunAt(&b, d);
    if (!PivotPasses(p->shifttype, p->zeropivot, pv, rs)) {
      *failrow = i;
      return;
    }
    dinv = 1.0 / pv;
    if (NonFiniteScalar(dinv)) {
      *failrow = i;
      return;
    }
    *RunAt(&b, d) = dinv;
    if (icc) fa[d] = dinv;
    if (b.sm) { /* the finished row to the arrays: ILU L, U and 1/pivot into fa; ICC the unscaled U row into ubar */
      if (!icc)
        for (PetscInt q = s0; q < s1; q++) fa[q] = *RunAt(&b, q);
      for (PetscInt q = u0; q < (icc ? d : d + 1); q++) b.g[q] = *RunAt(&b, q);
    }
  }
}

/*
  The CPU version of the plan's numeric factorization: aa = A's values (CSR order of the plan), fa = PETSc's factor
  value array (overwritten). *failrow = the first row that does not pass PETSc's pivot check unchanged (or has a
  non-finite value), else -1; fa is then garbage and the caller must use PETSc's numeric factorization.
*/
PETSC_INTERN PetscErrorCode PCSubtreeILUPlanNumericCPU_Private(PCSubtreeILUPlan *p, const PetscScalar *aa, PetscScalar *fa, PetscInt *failrow)
{
  PetscScalar *sm;
  PetscInt     bufcap = PetscMin(p->bufcap, (PetscInt)SUBTREEILU_REFACT_BUF);

  PetscFunctionBegin;
  *failrow = -1;
  PetscCall(PetscMalloc1(SUBTREEILU_REFACT_BUF, &sm));
  for (PetscInt t = 0; t < p->nruns && *failrow < 0; t++) PlanRun(p, p->runptr[t], p->runptr[t + 1], aa, fa, sm, bufcap, failrow);
  PetscCall(PetscFree(sm));
  PetscFunctionReturn(PETSC_SUCCESS);
}
