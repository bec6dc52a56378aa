/*
  The level-sorted numbering of a triangular factor for the cuda backend's solves (host code, so that CI tests it
  without a GPU: tests/subtreeilu5.c).

  The solve kernel gives one warp a group of consecutive rows, one lane a row (subtreeilugroups.c). A row joins a
  group only if that delays neither (its inputs are final at the same hop as the group's), which on a matrix with
  random columns (a power-law graph, natural ordering) leaves groups of 1.3 rows: most lanes idle. Renumbering T by
  level of its dependency DAG (T' = P T P^T, rows stably sorted by level in the order of the solve, a topological
  order, so T' is triangular like T) puts the independent rows of one level next to each other, and the same schedule
  then groups them 32 at a time. The solves take their vectors in the new numbering (the gathers and scatters around
  them compose P with the ordering's permutation: subtreeilu.cu).

  Like the schedules, the sort needs only the factor's structure: it is made in three steps, SetUp (allocations, on
  the calling thread; pages never written are never mapped), Compute (plain C, no PETSc calls: it runs on the setup
  threads with the schedules, during PETSc's numeric factorization) and Finish (on the calling thread: the result
  taken, or everything freed). The values are gathered after each numeric factorization.
*/
#include "subtreeiluimpl.h"
#include <stdlib.h>
#include <string.h>

/* the permutation's loops, on the setup threads (plain C: sparsegputhreads.c) */
typedef struct {
  const PCSubtreeILUTri *T;
  PCSubtreeILUTri       *Tp;
  const PetscInt        *perm, *iperm;
  PetscInt              *pos, *posc, *ipos;
  const PetscScalar     *val; /* the values (PCSubtreeILULevelSortValues_Private()) */
  int                    fail[PETSC_SPARSEGPU_MAX_THREADS]; /* by thread: a malloc() failed */
} PermuteCtx;

/* idx[0..len) increasing, aux along (distinct keys); a merge sort through a scratch copy above 32 entries (hub rows) */
static int SortPairs(PetscInt len, PetscInt *idx, PetscInt *aux)
{
  if (len <= 32) {
    for (PetscInt a = 1; a < len; a++) {
      PetscInt k = idx[a], v = aux[a], b = a;

      for (; b > 0 && idx[b - 1] > k; b--) idx[b] = idx[b - 1], aux[b] = aux[b - 1];
      idx[b] = k, aux[b] = v;
    }
    return 0;
  } else {
    PetscInt *s = (PetscInt *)malloc(2 * (size_t)len * sizeof(PetscInt)), *si, *sa;

    if (!s) return 1;
    si = s, sa = s + len;
    for (PetscInt w = 1; w < len; w *= 2) { /* bottom-up passes between (idx, aux) and the scratch copy */
      for (PetscInt lo = 0; lo < len; lo += 2 * w) {
        PetscInt m = PetscMin(lo + w, len), hi = PetscMin(lo + 2 * w, len), a = lo, b = m, o = lo;

        while (a < m && b < hi) {
          if (idx[a] < idx[b]) si[o] = idx[a], sa[o++] = aux[a++];
          else si[o] = idx[b], sa[o++] = aux[b++];
        }
        while (a < m) si[o] = idx[a], sa[o++] = aux[a++];
        while (b < hi) si[o] = idx[b], sa[o++] = aux[b++];
      }
      for (PetscInt k = 0; k < len; k++) idx[k] = si[k], aux[k] = sa[k];
    }
    free(s);
    return 0;
  }
}

/* lists r in [begin, end) of Tp (its rows: ptr, idx = T's CSR; its columns: T's CSC): list perm[r] of T, indices
   renumbered and sorted (a topological order keeps them on the triangle's side of the diagonal, not their order); at:
   their positions in T's arrays */
static void PermuteLists(PermuteCtx *c, PetscInt tid, PetscInt begin, PetscInt end, const PetscInt *ptr, const PetscInt *idx, const PetscInt *pptr, PetscInt *pidx, PetscInt *at)
{
  for (PetscInt r = begin; r < end; r++) {
    const PetscInt o = c->perm[r], k0 = ptr[o], len = ptr[o + 1] - k0, q0 = pptr[r];

    for (PetscInt k = 0; k < len; k++) {
      pidx[q0 + k] = c->iperm[idx[k0 + k]];
      at[q0 + k]   = k0 + k;
    }
    c->fail[tid] |= SortPairs(len, pidx + q0, at + q0);
  }
}

/* rows r of Tp in [begin, end) (pos: positions in T's CSR, and their inverse ipos) */
static void PermuteRows(void *ctx, PetscInt tid, PetscInt begin, PetscInt end)
{
  PermuteCtx *c = (PermuteCtx *)ctx;

  PermuteLists(c, tid, begin, end, c->T->rowptr, c->T->colidx, c->Tp->rowptr, c->Tp->colidx, c->pos);
  for (PetscInt q = c->Tp->rowptr[begin]; q < c->Tp->rowptr[end]; q++) c->ipos[c->pos[q]] = q;
}

/* columns j of Tp in [begin, end) (posc: positions in T's CSC) */
static void PermuteColumns(void *ctx, PetscInt tid, PetscInt begin, PetscInt end)
{
  PermuteCtx *c = (PermuteCtx *)ctx;

  PermuteLists(c, tid, begin, end, c->T->colptr, c->T->rowidx, c->Tp->colptr, c->Tp->rowidx, c->posc);
}

/* entries [begin, end) of Tp: the CSC's CSR positions and the positions in the factor */
static void PermuteEntries(void *ctx, PetscInt tid, PetscInt begin, PetscInt end)
{
  PermuteCtx            *c = (PermuteCtx *)ctx;
  const PCSubtreeILUTri *T = c->T;
  PCSubtreeILUTri       *Tp = c->Tp;

  (void)tid;
  for (PetscInt q = begin; q < end; q++) {
    Tp->csc2csr[q] = c->ipos[T->csc2csr[c->posc[q]]];
    if (Tp->src) Tp->src[q] = T->src[c->pos[q]];
  }
}

/* perm[new] = old: the rows of T stably sorted by level of its dependency DAG, in the order of T's solve (lower: by
   increasing index within a level; upper: U is solved from the last row, so the new numbering is the reversed sort
   of the reversed indices); within a level the long rows (more than isolate inputs in T or T^T, isolate > 0) first:
   they get groups of their own (PCSubtreeILUGroupsCompute_Private()) and, the slowest rows of their level, start
   first. lev (n), start (2n + 1), seq (n): work. Returns the number of levels. */
static PetscInt LevelOrder(const PCSubtreeILUTri *T, PetscInt isolate, PetscInt *lev, PetscInt *start, PetscInt *seq, PetscInt *perm)
{
  const PetscInt n = T->n, d = PCSubtreeILUTriLevels(T, lev); /* (by row; the schedule checked the triangle) */

  if (!T->lower) /* by position in the solve's order */
    for (PetscInt p = 0; p < n / 2; p++) {
      const PetscInt l = lev[p];

      lev[p]         = lev[n - 1 - p];
      lev[n - 1 - p] = l;
    }
  for (PetscInt p = 0; p < n; p++) lev[p] = 2 * lev[p] + (isolate > 0 && PCSubtreeILUTriInputs(T, T->lower ? p : n - 1 - p) > isolate ? 0 : 1);
  PCSubtreeILUSortByLevel(n, lev, 2 * d, start, seq); /* seq[k]: the position solved k-th */
  for (PetscInt k = 0; k < n; k++) {
    if (T->lower) perm[k] = seq[k];
    else perm[n - 1 - k] = n - 1 - seq[k];
  }
  return d;
}

/* whether T's columns look random (PCSubtreeILUMeanDistance() over at most 4096 rows evenly spread at least n/8), where
   the level sort is expected to be kept */
static PetscBool RandomColumns(const PCSubtreeILUTri *T)
{
  PetscInt64 cnt;
  PetscInt   rows;
  double     mean = PCSubtreeILUMeanDistance(T->n, T->rowptr, T->colidx, PetscMax(1, T->n / 4096), 0, &cnt, &rows);

  return (PetscBool)(cnt > 0 && mean >= T->n / 8.0);
}

/*
  The level sort of T (not borrowed; with its CSC, csc2csr and src allocated, filled before Compute), to be decided
  after natural, T's schedule in its own numbering (same sizes, set up; Compute computes it; isolate: rows of more
  inputs get groups of their own). mode: yes (forced) or auto, which tries the sort only where the natural groups
  hold fewer than rowsmax rows and more than minready groups are ready a hop, and keeps it with at least twice as many
  rows a group on a critical path at most 25% (+2) longer. transposed: also the schedule of the sorted T^T (ICC's L).
  nthreads: threads of the permutation.
*/
PETSC_INTERN PetscErrorCode PCSubtreeILULevelSortSetUp_Private(const PCSubtreeILUTri *T, PCSubtreeILUGroupsWork *natural, PetscInt isolate, PetscBool forced, double rowsmax, double minready, PetscBool transposed, PetscInt nthreads, PCSubtreeILULevelSortWork *w)
{
  const PetscInt   n = T->n, nnz = T->nnz;
  PCSubtreeILUTri *Tp = &w->Tp;

  PetscFunctionBegin;
  PetscCheck(!T->borrowed && T->colptr && (T->csc2csr || !nnz), PETSC_COMM_SELF, PETSC_ERR_PLIB, "The level sort permutes a triangle with its own CSC");
  PetscCall(PetscMemzero(w, sizeof(*w)));
  w->T          = T;
  w->natural    = natural;
  w->isolate    = isolate;
  w->forced     = forced;
  w->rowsmax    = rowsmax;
  w->minready   = minready;
  w->transposed = transposed;
  w->nthreads   = PetscMax(1, PetscMin(nthreads, PETSC_SPARSEGPU_MAX_THREADS));
  Tp->n         = n;
  Tp->nnz       = nnz;
  Tp->lower     = T->lower;
  Tp->depth     = -1;
  PetscCall(PetscMalloc3(n + 1, &Tp->rowptr, PetscMax(nnz, 1), &Tp->colidx, PetscMax(nnz, 1), &Tp->val));
  PetscCall(PetscMalloc4(n + 1, &Tp->colptr, PetscMax(nnz, 1), &Tp->rowidx, PetscMax(nnz, 1), &Tp->cval, PetscMax(nnz, 1), &Tp->csc2csr));
  if (T->src) PetscCall(PetscMalloc1(PetscMax(nnz, 1), &Tp->src));
  PetscCall(PetscMalloc1(n, &w->perm)); /* (apart: handed over and freed one by one) */
  PetscCall(PetscMalloc1(PetscMax(nnz, 1), &w->pos));
  PetscCall(PetscMalloc6(n, &w->iperm, PetscMax(nnz, 1), &w->posc, PetscMax(nnz, 1), &w->ipos, n, &w->lev, 2 * n + 1, &w->start, n, &w->seq));
  PetscCall(PCSubtreeILUGroupsSetUp_Private(Tp, natural->maxchain, natural->maxsuper, natural->warps, natural->cutlate, isolate, &w->sched));
  if (transposed) {
    PCSubtreeILUTriTransposeView(&w->TpT, Tp); /* (ICC: L = U^T) */
    PetscCall(PCSubtreeILUGroupsSetUp_Private(&w->TpT, natural->maxchain, natural->maxsuper, natural->warps, natural->cutlate, isolate, &w->schedT));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* whether every entry of T lies on its side of the diagonal (the natural schedule's check, which a sort made beside it
   cannot wait for: LevelOrder() needs a DAG) */
static PetscBool Triangular(const PCSubtreeILUTri *T)
{
  for (PetscInt i = 0; i < T->n; i++)
    for (PetscInt k = T->rowptr[i]; k < T->rowptr[i + 1]; k++)
      if (T->lower ? T->colidx[k] >= i : T->colidx[k] <= i) return PETSC_FALSE;
  return PETSC_TRUE;
}

/* the sorted triangle Tp and its schedule (T triangular) */
static void SortBuild(PCSubtreeILULevelSortWork *w)
{
  const PCSubtreeILUTri *T  = w->T;
  PCSubtreeILUTri       *Tp = &w->Tp;
  const PetscInt         n  = T->n;
  PermuteCtx             c;
  PetscLogDouble         t[5];

  (void)PetscTime(&t[0]);
  { /* the fresh arrays of nnz entries and the schedules' work by position mapped first, on the threads (transparent
       huge pages advised), instead of a page fault at a time in the loops below */
    const size_t bn = (size_t)(n + 1) * sizeof(PCSubtreeILUGroupsPos), bz = (size_t)PetscMax(T->nnz, 1) * sizeof(PetscInt);
    void        *a[] = {Tp->colidx, Tp->rowidx, Tp->csc2csr, Tp->src, w->pos, w->posc, w->ipos, w->sched.pos, w->schedT.pos};
    const size_t b[] = {bz, bz, bz, bz, bz, bz, bz, bn, bn};

    for (size_t k = 0; k < sizeof(b) / sizeof(b[0]); k++) w->fail |= PetscSparseGPUPrefaultC(w->nthreads, a[k], b[k]); /* (NULL: nothing) */
  }
  (void)PetscTime(&t[1]);
  w->depth = LevelOrder(T, w->isolate, w->lev, w->start, w->seq, w->perm);
  for (PetscInt i = 0; i < n; i++) w->iperm[w->perm[i]] = i;
  Tp->rowptr[0] = Tp->colptr[0] = 0;
  for (PetscInt r = 0; r < n; r++) {
    Tp->rowptr[r + 1] = Tp->rowptr[r] + T->rowptr[w->perm[r] + 1] - T->rowptr[w->perm[r]];
    Tp->colptr[r + 1] = Tp->colptr[r] + T->colptr[w->perm[r] + 1] - T->colptr[w->perm[r]];
  }
  (void)PetscTime(&t[2]);
  memset(&c, 0, sizeof(c));
  c.T     = T;
  c.Tp    = Tp;
  c.perm  = w->perm;
  c.iperm = w->iperm;
  c.pos   = w->pos;
  c.posc  = w->posc;
  c.ipos  = w->ipos;
  w->fail |= PetscSparseGPUParallelForC(w->nthreads, n, 4096, PermuteRows, &c);
  w->fail |= PetscSparseGPUParallelForC(w->nthreads, n, 4096, PermuteColumns, &c);
  w->fail |= PetscSparseGPUParallelForC(w->nthreads, T->nnz, 65536, PermuteEntries, &c);
  for (PetscInt k = 0; k < PETSC_SPARSEGPU_MAX_THREADS; k++) w->fail |= c.fail[k];
  (void)PetscTime(&t[3]);
  PCSubtreeILUGroupsCompute_Private(&w->sched);
  (void)PetscTime(&t[4]);
  for (PetscInt k = 0; k < 4; k++) w->phase[k + 1] = t[k + 1] - t[k];
  w->built = PETSC_TRUE;
}

/* T's schedule in its own numbering, timed (phase 0) */
static void NaturalSchedule(PCSubtreeILULevelSortWork *w)
{
  PetscLogDouble t0, t1;

  (void)PetscTime(&t0);
  PCSubtreeILUGroupsCompute_Private(w->natural);
  (void)PetscTime(&t1);
  w->phase[0] = t1 - t0;
}

/* item 0: the natural schedule; item 1: the sort beside it */
static void NaturalBesideSort(void *ctx, PetscInt tid, PetscInt begin, PetscInt end)
{
  PCSubtreeILULevelSortWork *w = (PCSubtreeILULevelSortWork *)ctx;

  (void)tid;
  for (PetscInt k = begin; k < end; k++) {
    if (k == 0) NaturalSchedule(w);
    else if (Triangular(w->T)) SortBuild(w);
  }
}

/* The natural schedule, then the sort: plain C (no PETSc calls: it may run on a thread of its own). Where the sort is
   forced or T's columns look random (where it is expected to be kept) it is made on a thread beside the natural
   schedule, before the natural schedule says whether it is tried */
PETSC_INTERN void PCSubtreeILULevelSortCompute_Private(PCSubtreeILULevelSortWork *w)
{
  const PCSubtreeILUGroups *G = &w->natural->G;
  const PetscInt            n = w->T->n;
  PetscLogDouble            t0, t1;

  (void)PetscTime(&t0);
  w->beside = (PetscBool)(n > 0 && (w->forced || RandomColumns(w->T)));
  if (w->beside) w->fail |= PetscSparseGPUParallelForC(2, 2, 1, NaturalBesideSort, w);
  else NaturalSchedule(w);
  w->rows  = (double)n / PetscMax(G->ngroups, 1);
  w->ready = (double)G->ngroups / PetscMax(G->hops, 1);
  w->hops  = G->hops;
  if (w->natural->badrow >= 0 || !n || (!w->forced && (w->rows >= w->rowsmax || w->ready <= w->minready))) {
    w->state = PC_SUBTREEILU_LEVEL_SORT_NOT_TRIED;
    return;
  }
  if (!w->built) SortBuild(w);
  w->rowsp = (double)n / PetscMax(w->sched.G.ngroups, 1);
  w->hopsp = w->sched.G.hops;
  w->state = (w->forced || (w->rowsp >= 2.0 * w->rows && w->hopsp <= 1.25 * w->hops + 2)) ? PC_SUBTREEILU_LEVEL_SORT_SORTED : PC_SUBTREEILU_LEVEL_SORT_KEPT;
  if (w->state == PC_SUBTREEILU_LEVEL_SORT_SORTED && w->transposed) PCSubtreeILUGroupsCompute_Private(&w->schedT);
  (void)PetscTime(&t1);
  w->seconds = t1 - t0;
}

/* Reports the decision (-info) and frees the work; when the sort is taken, hands over the sorted triangle Tp, perm
   (perm[new] = old), pos (the positions of Tp's CSR entries in T's CSR) and the schedules G of Tp and GT of Tp^T (when
   transposed; perm and pos are freed with PetscFree() each, Tp like any triangle); else frees everything (also to
   drop a sort in progress: after its thread is joined) */
PETSC_INTERN PetscErrorCode PCSubtreeILULevelSortFinish_Private(PCSubtreeILULevelSortWork *w, PetscBool *sorted, PCSubtreeILUTri *Tp, PetscInt **perm, PetscInt **pos, PCSubtreeILUGroups *G, PCSubtreeILUGroups *GT)
{
  PCSubtreeILUGroups Gs, GsT;

  PetscFunctionBegin;
  *sorted = PETSC_FALSE;
  if (!w->T) PetscFunctionReturn(PETSC_SUCCESS); /* (not set up) */
  PetscCheck(!w->fail, PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of memory in the level sort of the cuda solves");
  if (w->state == PC_SUBTREEILU_LEVEL_SORT_NOT_TRIED) PetscCall(PetscInfo(NULL, "PCSUBTREEILU cuda level sort of %s not tried: %.1f rows a group, %.0f groups a hop (more needed: %.0f)%s\n", w->T->lower ? "L" : "U", w->rows, w->ready, w->minready, w->built ? "; made beside the natural schedule, dropped" : ""));
  else PetscCall(PetscInfo(NULL, "PCSUBTREEILU cuda level sort of %s (%" PetscInt_FMT " levels, %g s with the natural schedule %s: natural schedule %.3g s, mapping %.3g s, level order %.3g s, permutation %.3g s, schedule %.3g s): %.1f rows a group instead of %.1f (critical path %" PetscInt_FMT " groups instead of %" PetscInt_FMT "): %s\n", w->T->lower ? "L" : "U", w->depth, w->seconds, w->beside ? "beside it" : "before it", w->phase[0], w->phase[1], w->phase[2], w->phase[3], w->phase[4], w->rowsp, w->rows, w->hopsp, w->hops, w->state == PC_SUBTREEILU_LEVEL_SORT_SORTED ? "sorted" : "kept"));
  w->sched.badrow = w->schedT.badrow = -1; /* (a sorted triangle is triangular; one never computed has nothing to report) */
  PetscCall(PCSubtreeILUGroupsFinish_Private(&w->sched, &Gs));
  if (w->transposed) PetscCall(PCSubtreeILUGroupsFinish_Private(&w->schedT, &GsT));
  PetscCall(PetscFree6(w->iperm, w->posc, w->ipos, w->lev, w->start, w->seq));
  if (w->state == PC_SUBTREEILU_LEVEL_SORT_SORTED && Tp) {
    *sorted = PETSC_TRUE;
    *Tp     = w->Tp;
    *perm   = w->perm;
    *pos    = w->pos;
    *G      = Gs;
    if (w->transposed) *GT = GsT;
  } else {
    PetscCall(PetscFree3(w->Tp.rowptr, w->Tp.colidx, w->Tp.val));
    PetscCall(PetscFree4(w->Tp.colptr, w->Tp.rowidx, w->Tp.cval, w->Tp.csc2csr));
    PetscCall(PetscFree(w->Tp.src));
    PetscCall(PetscFree(w->perm));
    PetscCall(PetscFree(w->pos));
    PetscCall(PCSubtreeILUGroupsDestroy_Private(&Gs));
    if (w->transposed) PetscCall(PCSubtreeILUGroupsDestroy_Private(&GsT));
  }
  PetscCall(PetscMemzero(w, sizeof(*w)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static void PermuteValuesCSR(void *ctx, PetscInt tid, PetscInt begin, PetscInt end)
{
  PermuteCtx *c = (PermuteCtx *)ctx;

  (void)tid;
  for (PetscInt q = begin; q < end; q++) c->Tp->val[q] = c->val[c->pos[q]];
}

static void PermuteValuesCSC(void *ctx, PetscInt tid, PetscInt begin, PetscInt end)
{
  PermuteCtx *c = (PermuteCtx *)ctx;

  (void)tid;
  for (PetscInt q = begin; q < end; q++) c->Tp->cval[q] = c->Tp->val[c->Tp->csc2csr[q]];
}

/* Tp's values (CSR and CSC) from T's (val, in T's CSR), after a numeric factorization, on nthreads threads */
PETSC_INTERN PetscErrorCode PCSubtreeILULevelSortValues_Private(const PetscScalar *val, const PetscInt *pos, PetscInt nthreads, PCSubtreeILUTri *Tp)
{
  PermuteCtx c;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&c, sizeof(c)));
  c.Tp  = Tp;
  c.pos = (PetscInt *)pos;
  c.val = val;
  PetscCall(PetscSparseGPUParallelFor(nthreads, Tp->nnz, 65536, PermuteValuesCSR, &c));
  PetscCall(PetscSparseGPUParallelFor(nthreads, Tp->nnz, 65536, PermuteValuesCSC, &c));
  PetscFunctionReturn(PETSC_SUCCESS);
}
