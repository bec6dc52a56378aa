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
*/
#include "subtreeiluimpl.h"
#include <stdlib.h>

/* perm[new] = old: the rows of T stably sorted by level of its dependency DAG, in the order of T's solve (lower: by
   increasing index within a level; upper: U is solved from the last row, so the new numbering is the reversed sort
   of the reversed indices); within a level the long rows (more than isolate inputs in T or T^T, isolate > 0) first:
   they get groups of their own (PCSubtreeILUGroupsCompute_Private()) and, the slowest rows of their level, start
   first. *depth: the number of levels. */
PETSC_INTERN PetscErrorCode PCSubtreeILUTriLevelOrder_Private(const PCSubtreeILUTri *T, PetscInt isolate, PetscInt *perm, PetscInt *depth)
{
  const PetscInt n = T->n;
  PetscInt      *lev, *start, *seq, d = 0;

  PetscFunctionBegin;
  PetscCall(PetscMalloc3(n, &lev, 2 * n + 1, &start, n, &seq));
  for (PetscInt p = 0; p < n; p++) { /* p: position in the solve's order */
    const PetscInt i = T->lower ? p : n - 1 - p;
    PetscInt       l = 0;

    for (PetscInt k = T->rowptr[i]; k < T->rowptr[i + 1]; k++) {
      const PetscInt j = T->lower ? T->colidx[k] : n - 1 - T->colidx[k];

      PetscCheck(j < p, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Triangular factor has entry (%" PetscInt_FMT ", %" PetscInt_FMT ") on the wrong side of the diagonal", i, T->colidx[k]);
      l = PetscMax(l, lev[j] + 1);
    }
    lev[p] = l;
    d      = PetscMax(d, l + 1);
  }
  for (PetscInt p = 0; p < n; p++) lev[p] = 2 * lev[p] + (isolate > 0 && PCSubtreeILUTriInputs(T, T->lower ? p : n - 1 - p) > isolate ? 0 : 1);
  PCSubtreeILUSortByLevel(n, lev, 2 * d, start, seq); /* seq[k]: the position solved k-th */
  for (PetscInt k = 0; k < n; k++) {
    if (T->lower) perm[k] = seq[k];
    else perm[n - 1 - k] = n - 1 - seq[k];
  }
  *depth = d;
  PetscCall(PetscFree3(lev, start, seq));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the permutation's loops, on the setup threads (plain C: sparsegputhreads.c) */
typedef struct {
  const PCSubtreeILUTri *T;
  PCSubtreeILUTri       *Tp;
  const PetscInt        *perm, *iperm;
  PetscInt              *pos, *posc, *ipos;
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

/* rows r of Tp in [begin, end): row perm[r] of T, columns renumbered and sorted (a topological order keeps them on the
   triangle's side of the diagonal, not their order); pos: their positions in T's CSR */
static void PermuteRows(void *ctx, PetscInt tid, PetscInt begin, PetscInt end)
{
  PermuteCtx            *c = (PermuteCtx *)ctx;
  const PCSubtreeILUTri *T = c->T;
  PCSubtreeILUTri       *Tp = c->Tp;

  for (PetscInt r = begin; r < end; r++) {
    const PetscInt o = c->perm[r], k0 = T->rowptr[o], len = T->rowptr[o + 1] - k0, q0 = Tp->rowptr[r];

    for (PetscInt k = 0; k < len; k++) {
      Tp->colidx[q0 + k] = c->iperm[T->colidx[k0 + k]];
      c->pos[q0 + k]     = k0 + k;
    }
    c->fail[tid] |= SortPairs(len, Tp->colidx + q0, c->pos + q0);
    for (PetscInt q = q0; q < q0 + len; q++) c->ipos[c->pos[q]] = q;
  }
}

/* the same for the columns of Tp (column perm[j] of T; posc: positions in T's CSC) */
static void PermuteColumns(void *ctx, PetscInt tid, PetscInt begin, PetscInt end)
{
  PermuteCtx            *c = (PermuteCtx *)ctx;
  const PCSubtreeILUTri *T = c->T;
  PCSubtreeILUTri       *Tp = c->Tp;

  for (PetscInt j = begin; j < end; j++) {
    const PetscInt o = c->perm[j], k0 = T->colptr[o], len = T->colptr[o + 1] - k0, p0 = Tp->colptr[j];

    for (PetscInt k = 0; k < len; k++) {
      Tp->rowidx[p0 + k] = c->iperm[T->rowidx[k0 + k]];
      c->posc[p0 + k]    = k0 + k;
    }
    c->fail[tid] |= SortPairs(len, Tp->rowidx + p0, c->posc + p0);
  }
}

/* entries [begin, end) of Tp: the CSC's CSR positions, the positions in the factor, the values */
static void PermuteEntries(void *ctx, PetscInt tid, PetscInt begin, PetscInt end)
{
  PermuteCtx            *c = (PermuteCtx *)ctx;
  const PCSubtreeILUTri *T = c->T;
  PCSubtreeILUTri       *Tp = c->Tp;

  (void)tid;
  for (PetscInt q = begin; q < end; q++) {
    Tp->csc2csr[q] = c->ipos[T->csc2csr[c->posc[q]]];
    Tp->val[q]     = T->val[c->pos[q]];
    if (Tp->src) Tp->src[q] = T->src[c->pos[q]];
  }
}

static void PermuteCSCValues(void *ctx, PetscInt tid, PetscInt begin, PetscInt end)
{
  PermuteCtx *c = (PermuteCtx *)ctx;

  (void)tid;
  for (PetscInt q = begin; q < end; q++) c->Tp->cval[q] = c->Tp->val[c->Tp->csc2csr[q]];
}

/* Tp = P T P^T with perm[new] = old (T not borrowed, with its CSC and csc2csr): CSR with increasing columns, CSC with
   increasing rows, csc2csr, src (where T has it) and values, on nthreads threads; pos[k] = the position in T's CSR of
   Tp's CSR entry k (for the values of later factorizations: PCSubtreeILUTriPermuteValues_Private()). Tp is freed like
   any triangle (TriDestroy()) and pos with PetscFree(). */
PETSC_INTERN PetscErrorCode PCSubtreeILUTriPermute_Private(const PCSubtreeILUTri *T, const PetscInt *perm, PetscInt nthreads, PCSubtreeILUTri *Tp, PetscInt **pos)
{
  const PetscInt n = T->n, nnz = T->nnz;
  PetscInt      *iperm, *posc, *ipos;
  PermuteCtx     c;
  PetscBool      fail = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCheck(!T->borrowed && T->colptr && T->csc2csr, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The level sort permutes a triangle with its own CSC");
  PetscCall(PetscMemzero(Tp, sizeof(*Tp)));
  Tp->n     = n;
  Tp->nnz   = nnz;
  Tp->lower = T->lower;
  Tp->depth = -1;
  PetscCall(PetscMalloc3(n + 1, &Tp->rowptr, PetscMax(nnz, 1), &Tp->colidx, PetscMax(nnz, 1), &Tp->val));
  PetscCall(PetscMalloc4(n + 1, &Tp->colptr, PetscMax(nnz, 1), &Tp->rowidx, PetscMax(nnz, 1), &Tp->cval, PetscMax(nnz, 1), &Tp->csc2csr));
  if (T->src) PetscCall(PetscMalloc1(PetscMax(nnz, 1), &Tp->src));
  PetscCall(PetscMalloc1(PetscMax(nnz, 1), pos));
  PetscCall(PetscMalloc3(n, &iperm, PetscMax(nnz, 1), &posc, PetscMax(nnz, 1), &ipos));
  for (PetscInt i = 0; i < n; i++) iperm[perm[i]] = i;
  Tp->rowptr[0] = Tp->colptr[0] = 0;
  for (PetscInt r = 0; r < n; r++) {
    Tp->rowptr[r + 1] = Tp->rowptr[r] + T->rowptr[perm[r] + 1] - T->rowptr[perm[r]];
    Tp->colptr[r + 1] = Tp->colptr[r] + T->colptr[perm[r] + 1] - T->colptr[perm[r]];
  }
  PetscCall(PetscMemzero(&c, sizeof(c)));
  c.T     = T;
  c.Tp    = Tp;
  c.perm  = perm;
  c.iperm = iperm;
  c.pos   = *pos;
  c.posc  = posc;
  c.ipos  = ipos;
  nthreads = PetscMax(1, PetscMin(nthreads, PETSC_SPARSEGPU_MAX_THREADS));
  PetscCall(PetscSparseGPUParallelFor(nthreads, n, 4096, PermuteRows, &c));
  PetscCall(PetscSparseGPUParallelFor(nthreads, n, 4096, PermuteColumns, &c));
  PetscCall(PetscSparseGPUParallelFor(nthreads, nnz, 65536, PermuteEntries, &c));
  PetscCall(PetscSparseGPUParallelFor(nthreads, nnz, 65536, PermuteCSCValues, &c));
  for (PetscInt t = 0; t < PETSC_SPARSEGPU_MAX_THREADS; t++) fail = (PetscBool)(fail || c.fail[t]);
  PetscCall(PetscFree3(iperm, posc, ipos));
  PetscCheck(!fail, PETSC_COMM_SELF, PETSC_ERR_MEM, "Out of memory sorting the rows of the level-sorted triangle");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Tp's values (CSR and CSC) from T's, after a numeric factorization refreshed them */
PETSC_INTERN void PCSubtreeILUTriPermuteValues_Private(const PCSubtreeILUTri *T, const PetscInt *pos, PCSubtreeILUTri *Tp)
{
  for (PetscInt q = 0; q < Tp->nnz; q++) Tp->val[q] = T->val[pos[q]];
  for (PetscInt c = 0; c < Tp->nnz; c++) Tp->cval[c] = Tp->val[Tp->csc2csr[c]];
}
