static char help[] = "The cuda backend's solve schedule of PCSUBTREEILU (subtreeilugroups.c: groups, warp tickets, block tickets),\n\
checked on the host: its invariants (among them a topological block-ticket order and a critical path no longer than\n\
with chains only) on the ILU(0) triangles of generated grids, their A^2 patterns, and the shared matrices (natural and\n\
RCM orderings), and its expected shape on natural-ordered grids (one warp ticket per grid line); the level-sorted\n\
numbering of the same triangles (subtreeilulevelsort.c): a stable topological sort by level, the permuted triangle\n\
entry for entry, its solves equal to the unsorted ones, its schedule's invariants, and full groups on random columns.\n\
  -dir <path>    : directory of the Matrix Market files (*.mtx.gz, listed in MANIFEST.tsv)\n\
  -matrices <a,b>: only these matrices (default: all of MANIFEST.tsv; none: skip them)\n\n";

/* The schedule's functions are PETSC_INTERN (hidden in the library): the test compiles their source in. */
#include "../src/ksp/pc/impls/subtreeilu/subtreeilugroups.c"
#include "../src/ksp/pc/impls/subtreeilu/subtreeilulevelsort.c"
#include "../src/sys/utils/sparsegputhreads.c"
#include <petscmat.h>
#include "mmio.h"

#include "expect_test.h"

/* T = the strictly lower (or upper) part of P A P^T, row i of the result = row perm[i] of A (perm NULL: identity),
   in CSR and CSC with ascending indices: the pattern of ILU(0)'s L (U) for that ordering */
static PetscErrorCode TriFromPattern(PetscInt n, const PetscInt *ia, const PetscInt *ja, const PetscInt *perm, PetscBool lower, PCSubtreeILUTri *T)
{
  PetscInt *iperm, *cnt, nnz = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(T, sizeof(*T)));
  T->n     = n;
  T->lower = lower;
  PetscCall(PetscMalloc2(n, &iperm, n + 1, &cnt));
  for (PetscInt i = 0; i < n; i++) iperm[perm ? perm[i] : i] = i;
  PetscCall(PetscMalloc2(n + 1, &T->rowptr, n + 1, &T->colptr));
  T->rowptr[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    PetscInt r = perm ? perm[i] : i;

    for (PetscInt k = ia[r]; k < ia[r + 1]; k++) {
      PetscInt j = iperm[ja[k]];

      if (lower ? j < i : j > i) nnz++;
    }
    T->rowptr[i + 1] = nnz;
  }
  T->nnz = nnz;
  PetscCall(PetscMalloc2(PetscMax(nnz, 1), &T->colidx, PetscMax(nnz, 1), &T->rowidx));
  for (PetscInt i = 0, q = 0; i < n; i++) {
    PetscInt r = perm ? perm[i] : i, q0 = q;

    for (PetscInt k = ia[r]; k < ia[r + 1]; k++) {
      PetscInt j = iperm[ja[k]];

      if (lower ? j < i : j > i) T->colidx[q++] = j;
    }
    PetscCall(PetscSortInt(q - q0, T->colidx + q0));
  }
  /* CSC: rows in increasing order within each column */
  PetscCall(PetscArrayzero(cnt, n + 1));
  for (PetscInt q = 0; q < nnz; q++) cnt[T->colidx[q] + 1]++;
  T->colptr[0] = 0;
  for (PetscInt j = 0; j < n; j++) T->colptr[j + 1] = T->colptr[j] + cnt[j + 1];
  for (PetscInt j = 0; j < n; j++) cnt[j] = T->colptr[j];
  PetscCall(PetscMalloc1(nnz, &T->csc2csr)); /* (NULL without entries, like the library's) */
  for (PetscInt i = 0; i < n; i++)
    for (PetscInt q = T->rowptr[i]; q < T->rowptr[i + 1]; q++) {
      T->csc2csr[cnt[T->colidx[q]]] = q;
      T->rowidx[cnt[T->colidx[q]]++] = i;
    }
  PetscCall(PetscFree2(iperm, cnt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TriDestroy(PCSubtreeILUTri *T)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree2(T->rowptr, T->colptr));
  PetscCall(PetscFree2(T->colidx, T->rowidx));
  PetscCall(PetscFree(T->csc2csr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* does T have the entry between rows a < b (lower: T(b,a); upper: T(a,b))? */
static PetscBool HasEntry(const PCSubtreeILUTri *T, PetscInt a, PetscInt b)
{
  PetscInt r = T->lower ? b : a, c = T->lower ? a : b;

  for (PetscInt q = T->rowptr[r]; q < T->rowptr[r + 1]; q++)
    if (T->colidx[q] == c) return PETSC_TRUE;
  return PETSC_FALSE;
}

/* the critical path of the non-transposed solve in groups (unbounded machine): a group is final one hop after the
   groups of all its rows' inputs and the previous group of its warp ticket. gptr/sptr in row order (ns tickets) */
static PetscErrorCode Hops(const PCSubtreeILUTri *T, PetscInt ng, const PetscInt *gptr, PetscInt ns, const PetscInt *sptr, PetscInt *hops)
{
  PetscInt *gof, *fin, n = T->n;

  PetscFunctionBeginUser;
  *hops = 0;
  PetscCall(PetscMalloc2(n + 1, &gof, ng + 1, &fin));
  for (PetscInt g = 0; g < ng; g++)
    for (PetscInt i = gptr[g]; i < gptr[g + 1]; i++) gof[i] = g;
  for (PetscInt tt = 0; tt < ns; tt++) {
    PetscInt t = T->lower ? tt : ns - 1 - tt, prev = 0; /* tickets, and groups within them, in the solve's order */

    for (PetscInt gg = sptr[t]; gg < sptr[t + 1]; gg++) {
      PetscInt g = T->lower ? gg : sptr[t + 1] - 1 - (gg - sptr[t]), f = prev;

      for (PetscInt i = gptr[g]; i < gptr[g + 1]; i++)
        for (PetscInt q = T->rowptr[i]; q < T->rowptr[i + 1]; q++)
          if (gof[T->colidx[q]] != g) f = PetscMax(f, fin[gof[T->colidx[q]]]);
      fin[g] = prev = f + 1;
      *hops      = PetscMax(*hops, fin[g]);
    }
  }
  PetscCall(PetscFree2(gof, fin));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the critical path with groups that are only chains (runs of linked rows, at most maxchain; a ticket per chain, at most
   maxsuper groups): what the grouping of independent rows must not make longer */
static PetscErrorCode ChainHops(const PCSubtreeILUTri *T, PetscInt maxchain, PetscInt maxsuper, PetscInt *hops)
{
  PetscInt *gptr, *sptr, ng = 0, ns = 0, n = T->n;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(n + 1, &gptr, n + 1, &sptr));
  gptr[0] = sptr[0] = 0;
  for (PetscInt p = 1; p < n; p++) { /* in the solve's order, positions p (rows PrimaryPos(T, p)) */
    PetscBool link = T->lower ? HasEntry(T, p - 1, p) : HasEntry(T, n - 1 - p, n - p);

    if (!link || p - gptr[ng] >= maxchain) {
      gptr[++ng] = p;
      if (!link || ng - sptr[ns] >= maxsuper) sptr[++ns] = ng;
    }
  }
  if (n) {
    gptr[++ng] = n;
    sptr[++ns] = ng;
  }
  if (!T->lower) { /* positions -> ascending rows */
    ReverseBoundaries(gptr, ng, n);
    ReverseBoundaries(sptr, ns, ng);
  }
  PetscCall(Hops(T, ng, gptr, ns, sptr, hops));
  PetscCall(PetscFree2(gptr, sptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the schedule's invariants, from T itself (not from the implementation's bookkeeping) */
static PetscErrorCode CheckInvariants(const char *name, const PCSubtreeILUTri *T, const PCSubtreeILUGroups *G, PetscInt maxchain, PetscInt maxsuper, PetscInt warps)
{
  const PetscInt n = T->n;

  PetscFunctionBeginUser;
  Expect(G->gptr[0] == 0 && G->gptr[G->ngroups] == n, "%s: groups do not cover the %" PetscInt_FMT " rows\n", name, n);
  for (PetscInt g = 0; g < G->ngroups; g++) {
    PetscInt  g0 = G->gptr[g], g1 = G->gptr[g + 1];
    PetscInt  runs = 0;          /* runs of linked rows (chains) in the group */
    PetscBool chain = PETSC_TRUE; /* every row but the first linked to its predecessor */

    for (PetscInt i = g0 + 1; i < g1; i++)
      if (!HasEntry(T, i - 1, i)) chain = PETSC_FALSE;

    Expect(g1 > g0 && g1 - g0 <= maxchain, "%s: group %" PetscInt_FMT " has %" PetscInt_FMT " rows (at most %" PetscInt_FMT ")\n", name, g, g1 - g0, maxchain);
    for (PetscInt i = g0 + 1; i < g1; i++) {
      PetscBool link = HasEntry(T, i - 1, i);

      /* in a group that is not a chain, the only dependencies are between consecutive rows (phase 2 of the solve
         kernel): the entries between row i and an earlier row a (lower: row i of T; upper: column i) */
      const PetscInt *e  = T->lower ? T->colidx : T->rowidx;
      const PetscInt  e0 = T->lower ? T->rowptr[i] : T->colptr[i], e1 = T->lower ? T->rowptr[i + 1] : T->colptr[i + 1];

      for (PetscInt q = e0; q < e1; q++) Expect(chain || !(e[q] >= g0 && e[q] < i - 1), "%s: rows %" PetscInt_FMT " and %" PetscInt_FMT " of group %" PetscInt_FMT " (not a chain) depend on each other\n", name, e[q], i, g);
      if (link && (i == g0 + 1 || !HasEntry(T, i - 2, i - 1))) runs++;
    }
    /* at most one chain per group (two, e.g. two grid lines, would serialize a wavefront in one warp) */
    Expect(runs <= 1, "%s: group %" PetscInt_FMT " holds %" PetscInt_FMT " chains\n", name, g, runs);
  }
  Expect(G->sptr[0] == 0 && G->sptr[G->nsuper] == G->ngroups, "%s: warp tickets do not cover the groups\n", name);
  for (PetscInt s = 0; s < G->nsuper; s++) {
    Expect(G->sptr[s + 1] > G->sptr[s] && G->sptr[s + 1] - G->sptr[s] <= maxsuper, "%s: warp ticket %" PetscInt_FMT " has %" PetscInt_FMT " groups\n", name, s, G->sptr[s + 1] - G->sptr[s]);
    for (PetscInt g = G->sptr[s] + 1; g < G->sptr[s + 1]; g++) {
      PetscInt i = G->gptr[g];

      Expect(HasEntry(T, i - 1, i), "%s: groups %" PetscInt_FMT ", %" PetscInt_FMT " share a warp ticket but are not linked\n", name, g - 1, g);
    }
    /* a group followed by another of its ticket is a pure chain: the ticket is one chain (in the solve's order the
       next group's first row continues it) */
    for (PetscInt g = G->sptr[s]; g < G->sptr[s + 1]; g++) {
      if (T->lower ? g == G->sptr[s + 1] - 1 : g == G->sptr[s]) continue;
      for (PetscInt i = G->gptr[g] + 1; i < G->gptr[g + 1]; i++) Expect(HasEntry(T, i - 1, i), "%s: group %" PetscInt_FMT " of a multi-group warp ticket is not a chain (row %" PetscInt_FMT ")\n", name, g, i);
    }
  }
  /* the block tickets' order: a permutation, topological for the non-transposed solve (every input of a block
     ticket's rows lies in an earlier block ticket of that order or in the same one) */
  {
    PetscInt *when, *bof, n = T->n;

    PetscCall(PetscMalloc2(G->nblk + 1, &when, n + 1, &bof));
    for (PetscInt b = 0; b < G->nblk; b++) when[b] = -1;
    for (PetscInt t = 0; t < G->nblk; t++) {
      PetscInt b = G->border[t];

      Expect(b >= 0 && b < G->nblk && when[b] < 0, "%s: border is not a permutation (entry %" PetscInt_FMT ")\n", name, t);
      if (b >= 0 && b < G->nblk) when[b] = t;
    }
    for (PetscInt b = 0; b < G->nblk; b++)
      for (PetscInt i = G->gptr[G->sptr[G->bptr[b]]]; i < G->gptr[G->sptr[G->bptr[b + 1]]]; i++) bof[i] = b;
    for (PetscInt i = 0; i < n; i++)
      for (PetscInt q = T->rowptr[i]; q < T->rowptr[i + 1]; q++) {
        PetscInt a = bof[T->colidx[q]], b = bof[i];

        Expect(a == b || when[a] < when[b], "%s: row %" PetscInt_FMT " (block ticket taken %" PetscInt_FMT "th) depends on row %" PetscInt_FMT " (taken %" PetscInt_FMT "th)\n", name, i, when[b], T->colidx[q], when[a]);
      }
    PetscCall(PetscFree2(when, bof));
  }
  /* the critical path: as reported, and no longer than with chains only (joining independent rows must not delay) */
  {
    PetscInt hops, chainhops;

    PetscCall(Hops(T, G->ngroups, G->gptr, G->nsuper, G->sptr, &hops));
    PetscCall(ChainHops(T, maxchain, maxsuper, &chainhops));
    Expect(hops == G->hops, "%s: critical path %" PetscInt_FMT " groups, reported %" PetscInt_FMT "\n", name, hops, G->hops);
    Expect(hops <= chainhops, "%s: critical path %" PetscInt_FMT " groups, %" PetscInt_FMT " with chains only\n", name, hops, chainhops);
  }
  Expect(G->bptr[0] == 0 && G->bptr[G->nblk] == G->nsuper, "%s: block tickets do not cover the warp tickets\n", name);
  {
    PetscInt maxrows = 0;

    for (PetscInt b = 0; b < G->nblk; b++) {
      Expect(G->bptr[b + 1] > G->bptr[b] && G->bptr[b + 1] - G->bptr[b] <= warps, "%s: block ticket %" PetscInt_FMT " has %" PetscInt_FMT " warp tickets\n", name, b, G->bptr[b + 1] - G->bptr[b]);
      maxrows = PetscMax(maxrows, G->gptr[G->sptr[G->bptr[b + 1]]] - G->gptr[G->sptr[G->bptr[b]]]);
    }
    Expect(maxrows == G->maxrows, "%s: maxrows %" PetscInt_FMT ", the block tickets have up to %" PetscInt_FMT "\n", name, G->maxrows, maxrows);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* x = (I + T)^{-1} b (T strictly triangular, solved in its order: lower ascending, upper descending) */
static void UnitSolve(const PCSubtreeILUTri *T, const PetscScalar *b, PetscScalar *x)
{
  for (PetscInt p = 0; p < T->n; p++) {
    PetscInt    i = T->lower ? p : T->n - 1 - p;
    PetscScalar s = b[i];

    for (PetscInt q = T->rowptr[i]; q < T->rowptr[i + 1]; q++) s -= T->val[q] * x[T->colidx[q]];
    x[i] = s;
  }
}

/* the level-sorted numbering of T (values set here): the order, the permuted triangle against T entry by entry, its
   solves against T's, and its schedule's invariants; rows: its mean rows per group (maxchain 32). Rows with more than
   ISOLATE inputs (in T or T^T) come first in their level and get groups of their own (a small bound, so that the shared
   matrices have such rows) */
#define ISOLATE 8
static PetscInt       autobeside, autonatural; /* auto sorts made beside the natural schedule (random columns), after it */
static PetscErrorCode LevelSorted(const char *name, PCSubtreeILUTri *T, PetscReal *rows)
{
  const PetscInt            n = T->n;
  PCSubtreeILUTri           Tp, TpT;
  PCSubtreeILUGroupsWork    nat;
  PCSubtreeILULevelSortWork w;
  PCSubtreeILUGroups        G, GT, Gn;
  PetscBool                 sorted;
  PetscInt                 *perm, *pos, *lev, *seen, depth;
  PetscScalar              *b, *x, *bp, *xp;
  PetscReal                 err = 0, nrm = 0;
  PetscRandom               rnd;
  char                      what[300];

  PetscFunctionBeginUser;
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetInterval(rnd, -1.0, 1.0));
  PetscCall(PetscMalloc1(PetscMax(T->nnz, 1), &T->val));
  PetscCall(PetscMalloc1(PetscMax(T->nnz, 1), &T->src));
  for (PetscInt i = 0; i < n; i++) /* contractive rows: no growth along long paths */
    for (PetscInt q = T->rowptr[i]; q < T->rowptr[i + 1]; q++) {
      PetscScalar v;

      PetscCall(PetscRandomGetValue(rnd, &v));
      T->val[q] = v / (T->rowptr[i + 1] - T->rowptr[i] + 1);
      T->src[q] = 7 * q + 3; /* (a position in a factor: any distinct values) */
    }
  PetscCall(PetscMalloc2(n, &lev, n, &seen));
  /* the library's three steps after the natural schedule (forced: whatever that schedule; U with the schedule of its
     transpose, as for ICC's L), the permutation on 3 threads (uneven ranges) */
  PetscCall(PCSubtreeILUGroupsSetUp_Private(T, 32, 32, 8, PETSC_TRUE, 0, &nat));
  PetscCall(PCSubtreeILULevelSortSetUp_Private(T, &nat, ISOLATE, PETSC_TRUE, 4.0, 0.0, (PetscBool)!T->lower, 3, &w));
  PCSubtreeILULevelSortCompute_Private(&w); /* (the natural schedule too: forced, on a thread beside the sort) */
  depth = w.depth;
  Expect(w.beside && w.state == PC_SUBTREEILU_LEVEL_SORT_SORTED && !w.fail, "%s: the forced level sort was not taken (beside the natural schedule: %d)\n", name, (int)w.beside);
  PetscCall(PCSubtreeILULevelSortFinish_Private(&w, &sorted, &Tp, &perm, &pos, &G, &GT));
  PetscCall(PCSubtreeILUGroupsFinish_Private(&nat, &Gn));
  Expect(sorted, "%s: the forced level sort was not handed over\n", name);
  /* auto: the natural schedule first (or, on random columns, beside the sort), tried below 4 rows a group (any number
     of groups ready: minready 0), kept with twice the rows a group on a critical path at most 25% (+2) longer; the
     decision the two schedules just made predict, and the same schedules */
  {
    PCSubtreeILUGroupsWork    nat2;
    PCSubtreeILULevelSortWork w2;
    PCSubtreeILUGroups        G2, GT2, Gn2;
    PCSubtreeILUTri           Tp2;
    PetscInt                 *perm2, *pos2;
    PetscBool                 sorted2;
    const PetscReal           rn = n ? (PetscReal)n / Gn.ngroups : 0, rs = n ? (PetscReal)n / G.ngroups : 0;
    const PCSubtreeILULevelSortState expect = (!n || rn >= 4.0) ? PC_SUBTREEILU_LEVEL_SORT_NOT_TRIED : (rs >= 2.0 * rn && G.hops <= 1.25 * Gn.hops + 2) ? PC_SUBTREEILU_LEVEL_SORT_SORTED : PC_SUBTREEILU_LEVEL_SORT_KEPT;

    PetscCall(PCSubtreeILUGroupsSetUp_Private(T, 32, 32, 8, PETSC_TRUE, 0, &nat2));
    PetscCall(PCSubtreeILULevelSortSetUp_Private(T, &nat2, ISOLATE, PETSC_FALSE, 4.0, 0.0, (PetscBool)!T->lower, 3, &w2));
    PCSubtreeILULevelSortCompute_Private(&w2);
    Expect(w2.state == expect && !w2.fail, "%s: auto level sort state %d, expected %d (%.1f rows a group natural, %.1f sorted)\n", name, (int)w2.state, (int)expect, (double)rn, (double)rs);
    if (w2.beside) autobeside++;
    else autonatural++;
    PetscCall(PCSubtreeILULevelSortFinish_Private(&w2, &sorted2, &Tp2, &perm2, &pos2, &G2, &GT2));
    PetscCall(PCSubtreeILUGroupsFinish_Private(&nat2, &Gn2));
    Expect(Gn2.ngroups == Gn.ngroups && Gn2.hops == Gn.hops && Gn2.nblk == Gn.nblk, "%s: auto's natural schedule differs\n", name);
    if (sorted2) {
      Expect(G2.ngroups == G.ngroups && G2.hops == G.hops, "%s: auto's sorted schedule differs\n", name);
      for (PetscInt r = 0; r < n; r++) Expect(perm2[r] == perm[r], "%s: auto's level order differs at %" PetscInt_FMT "\n", name, r);
      PetscCall(PCSubtreeILUGroupsDestroy_Private(&G2));
      if (!T->lower) PetscCall(PCSubtreeILUGroupsDestroy_Private(&GT2));
      PetscCall(PetscFree3(Tp2.rowptr, Tp2.colidx, Tp2.val));
      PetscCall(PetscFree4(Tp2.colptr, Tp2.rowidx, Tp2.cval, Tp2.csc2csr));
      PetscCall(PetscFree(Tp2.src));
      PetscCall(PetscFree(perm2));
      PetscCall(PetscFree(pos2));
    }
    PetscCall(PCSubtreeILUGroupsDestroy_Private(&Gn2));
  }
  /* a permutation, sorted by level in the solve's order (stable: by position of that order within a level) */
  for (PetscInt i = 0; i < n; i++) seen[i] = 0;
  for (PetscInt r = 0; r < n; r++) {
    Expect(perm[r] >= 0 && perm[r] < n && !seen[perm[r]], "%s: the level order is not a permutation (entry %" PetscInt_FMT ")\n", name, r);
    if (perm[r] >= 0 && perm[r] < n) seen[perm[r]] = 1;
  }
  for (PetscInt p = 0; p < n; p++) {
    PetscInt i = T->lower ? p : n - 1 - p, l = 0;

    for (PetscInt q = T->rowptr[i]; q < T->rowptr[i + 1]; q++) l = PetscMax(l, lev[T->colidx[q]] + 1);
    lev[i] = l;
  }
  for (PetscInt k = 1; k < n; k++) {
    PetscInt  a = T->lower ? perm[k - 1] : perm[n - k], b = T->lower ? perm[k] : perm[n - 1 - k]; /* solved k-1-th, k-th */
    PetscBool la = (PetscBool)(PCSubtreeILUTriInputs(T, a) > ISOLATE), lb = (PetscBool)(PCSubtreeILUTriInputs(T, b) > ISOLATE);

    Expect(lev[a] < lev[b] || (lev[a] == lev[b] && (la > lb || (la == lb && (T->lower ? a < b : a > b)))), "%s: rows %" PetscInt_FMT " (level %" PetscInt_FMT ") and %" PetscInt_FMT " (level %" PetscInt_FMT ") out of order\n", name, a, lev[a], b, lev[b]);
  }
  for (PetscInt i = 0; i < n; i++) Expect(lev[i] < depth, "%s: row %" PetscInt_FMT " at level %" PetscInt_FMT " of %" PetscInt_FMT "\n", name, i, lev[i], depth);
  /* the values: gathered after a numeric factorization */
  PetscCall(PCSubtreeILULevelSortValues_Private(T->val, pos, 3, &Tp));
  /* Tp = P T P^T entry by entry: CSR increasing on the triangle's side, CSC consistent, positions in the factor */
  Expect(Tp.nnz == T->nnz && Tp.lower == T->lower, "%s: permuted triangle has %" PetscInt_FMT " entries, not %" PetscInt_FMT "\n", name, Tp.nnz, T->nnz);
  for (PetscInt r = 0; r < n; r++) {
    Expect(Tp.rowptr[r + 1] - Tp.rowptr[r] == T->rowptr[perm[r] + 1] - T->rowptr[perm[r]], "%s: sorted row %" PetscInt_FMT " has the wrong length\n", name, r);
    for (PetscInt q = Tp.rowptr[r]; q < Tp.rowptr[r + 1]; q++) {
      PetscInt c = Tp.colidx[q];

      Expect(T->lower ? c < r : c > r, "%s: sorted entry (%" PetscInt_FMT ", %" PetscInt_FMT ") off the triangle\n", name, r, c);
      Expect(q == Tp.rowptr[r] || Tp.colidx[q - 1] < c, "%s: sorted row %" PetscInt_FMT " not increasing\n", name, r);
      Expect(pos[q] >= T->rowptr[perm[r]] && pos[q] < T->rowptr[perm[r] + 1] && T->colidx[pos[q]] == perm[c] && Tp.val[q] == T->val[pos[q]] && Tp.src[q] == T->src[pos[q]], "%s: sorted entry (%" PetscInt_FMT ", %" PetscInt_FMT ") is not T's (%" PetscInt_FMT ", %" PetscInt_FMT ")\n", name, r, c, perm[r], perm[c]);
    }
  }
  for (PetscInt c = 0; c < n; c++)
    for (PetscInt p = Tp.colptr[c]; p < Tp.colptr[c + 1]; p++) {
      PetscInt q = Tp.csc2csr[p], r = Tp.rowidx[p];

      Expect(Tp.colidx[q] == c && q >= Tp.rowptr[r] && q < Tp.rowptr[r + 1] && Tp.cval[p] == Tp.val[q], "%s: sorted CSC entry %" PetscInt_FMT " of column %" PetscInt_FMT " is not the CSR's\n", name, p, c);
      Expect(p == Tp.colptr[c] || Tp.rowidx[p - 1] < r, "%s: sorted column %" PetscInt_FMT " not increasing\n", name, c);
    }
  Expect(Tp.colptr[n] == Tp.nnz, "%s: sorted CSC has %" PetscInt_FMT " entries\n", name, Tp.colptr[n]);
  /* the solves agree: x = (I + T)^{-1} b against the sorted solve of P b, scattered back */
  PetscCall(PetscMalloc4(n, &b, n, &x, n, &bp, n, &xp));
  for (PetscInt i = 0; i < n; i++) PetscCall(PetscRandomGetValue(rnd, &b[i]));
  for (PetscInt r = 0; r < n; r++) bp[r] = b[perm[r]];
  UnitSolve(T, b, x);
  UnitSolve(&Tp, bp, xp);
  for (PetscInt r = 0; r < n; r++) {
    err = PetscMax(err, PetscAbsScalar(xp[r] - x[perm[r]]));
    nrm = PetscMax(nrm, PetscAbsScalar(x[perm[r]]));
  }
  Expect(err <= 1e-12 * PetscMax(nrm, 1.0), "%s: the sorted solve differs by %g (max |x| %g)\n", name, (double)err, (double)nrm);
  /* the schedule made with the sort (and of the transpose, for U): the same invariants */
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s level-sorted", name));
  PetscCall(CheckInvariants(what, &Tp, &G, 32, 32, 8));
  /* a long row shares its group only with rows it is chained to (linked to the previous row) */
  for (PetscInt g = 0; g < G.ngroups; g++)
    for (PetscInt r = G.gptr[g]; r < G.gptr[g + 1]; r++) {
      PetscBool alone = (PetscBool)(G.gptr[g + 1] - G.gptr[g] == 1), chained = PETSC_TRUE;

      for (PetscInt q = G.gptr[g] + 1; q < G.gptr[g + 1]; q++) chained = (PetscBool)(chained && HasEntry(&Tp, q - 1, q));
      Expect(PCSubtreeILUTriInputs(&Tp, r) <= ISOLATE || alone || chained, "%s: long row %" PetscInt_FMT " (%" PetscInt_FMT " inputs) shares group %" PetscInt_FMT " of %" PetscInt_FMT " rows\n", what, r, PCSubtreeILUTriInputs(&Tp, r), g, G.gptr[g + 1] - G.gptr[g]);
    }
  *rows = n ? (PetscReal)n / G.ngroups : 0;
  if (!T->lower) {
    PetscCall(PetscMemzero(&TpT, sizeof(TpT)));
    TpT.n = n, TpT.nnz = Tp.nnz, TpT.lower = PETSC_TRUE, TpT.rowptr = Tp.colptr, TpT.colidx = Tp.rowidx, TpT.colptr = Tp.rowptr, TpT.rowidx = Tp.colidx;
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s level-sorted, transposed", name));
    PetscCall(CheckInvariants(what, &TpT, &GT, 32, 32, 8));
    PetscCall(PCSubtreeILUGroupsDestroy_Private(&GT));
  }
  PetscCall(PCSubtreeILUGroupsDestroy_Private(&G));
  PetscCall(PCSubtreeILUGroupsDestroy_Private(&Gn));
  PetscCall(PetscFree4(b, x, bp, xp));
  PetscCall(PetscFree3(Tp.rowptr, Tp.colidx, Tp.val));
  PetscCall(PetscFree4(Tp.colptr, Tp.rowidx, Tp.cval, Tp.csc2csr));
  PetscCall(PetscFree(Tp.src));
  PetscCall(PetscFree(perm));
  PetscCall(PetscFree(pos));
  PetscCall(PetscFree2(lev, seen));
  PetscCall(PetscFree(T->val));
  PetscCall(PetscFree(T->src));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the schedule of the L and U of P A P^T for the solve kernel's sizes (maxchain 32, 32 groups, 8 warps) and for
   smaller chains; checks the invariants; returns the L schedule's counts for maxchain 32 */
static PetscErrorCode Schedule(const char *name, Mat A, const PetscInt *perm, PetscInt *ngroups, PetscInt *nsuper, PetscInt *nblk, PetscInt *hops, PetscInt *hopscut, PetscReal sortedrows[2])
{
  const PetscInt *ia, *ja;
  PetscInt        n, chains[3] = {32, 7, 1};
  PetscBool       done;

  PetscFunctionBeginUser;
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatGetRowIJ failed");
  for (PetscInt lu = 0; lu < 2; lu++) {
    PCSubtreeILUTri T;

    PetscCall(TriFromPattern(n, ia, ja, perm, lu ? PETSC_FALSE : PETSC_TRUE, &T));
    for (PetscInt c = 0; c < 3; c++) {
      PCSubtreeILUGroups G;
      char               what[300];

      PetscCall(PetscSNPrintf(what, sizeof(what), "%s %s chain %" PetscInt_FMT, name, lu ? "U" : "L", chains[c]));
      PetscCall(PCSubtreeILUGroupsCreate_Private(&T, chains[c], 32, 8, PETSC_FALSE, 0, &G));
      PetscCall(CheckInvariants(what, &T, &G, chains[c], 32, 8));
      if (!lu && c == 0) *ngroups = G.ngroups, *nsuper = G.nsuper, *nblk = G.nblk, *hops = G.hops;
      PetscCall(PCSubtreeILUGroupsDestroy_Private(&G));
      /* -pc_subtree_ilu_cuda_cut_late: the same invariants, and a critical path no longer than without it */
      PetscCall(PetscStrlcat(what, " cut_late", sizeof(what)));
      PetscCall(PCSubtreeILUGroupsCreate_Private(&T, chains[c], 32, 8, PETSC_TRUE, 0, &G));
      PetscCall(CheckInvariants(what, &T, &G, chains[c], 32, 8));
      if (!lu && c == 0) {
        Expect(G.hops <= *hops, "%s: critical path %" PetscInt_FMT " groups, %" PetscInt_FMT " without cut_late\n", what, G.hops, *hops);
        *hopscut = G.hops;
      }
      PetscCall(PCSubtreeILUGroupsDestroy_Private(&G));
    }
    {
      char what[300];

      PetscCall(PetscSNPrintf(what, sizeof(what), "%s %s", name, lu ? "U" : "L"));
      PetscCall(LevelSorted(what, &T, &sortedrows[lu]));
    }
    PetscCall(TriDestroy(&T));
  }
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* natural and RCM schedules of A; rcmmean: the mean rows per L group with RCM must reach this (0: not checked) */
static PetscErrorCode Orderings(const char *name, Mat A, PetscBool print, PetscInt *ngn, PetscInt *nsn, PetscReal rcmmean, PetscReal sortedrows[2])
{
  IS              rperm, cperm;
  const PetscInt *p;
  PetscInt        n, ng, ns, nb, hops, hopscut;
  PetscReal       rcmsorted[2];
  char            what[300];

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &n, NULL));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s natural", name));
  PetscCall(Schedule(what, A, NULL, ngn, nsn, &nb, &hops, &hopscut, sortedrows));
  if (print) PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-24s natural: %6" PetscInt_FMT " groups, %6" PetscInt_FMT " warp tickets, %5" PetscInt_FMT " block tickets, L critical path %4" PetscInt_FMT " groups (cut_late %4" PetscInt_FMT "); level-sorted: %.1f rows a group (L), %.1f (U)\n", name, *ngn, *nsn, nb, hops, hopscut, (double)sortedrows[0], (double)sortedrows[1]));
  PetscCall(MatGetOrdering(A, MATORDERINGRCM, &rperm, &cperm));
  PetscCall(ISGetIndices(rperm, &p));
  PetscCall(PetscSNPrintf(what, sizeof(what), "%s rcm", name));
  PetscCall(Schedule(what, A, p, &ng, &ns, &nb, &hops, &hopscut, rcmsorted));
  PetscCall(ISRestoreIndices(rperm, &p));
  PetscCall(ISDestroy(&rperm));
  PetscCall(ISDestroy(&cperm));
  if (print) PetscCall(PetscPrintf(PETSC_COMM_SELF, "%-24s rcm:     %6" PetscInt_FMT " groups, %6" PetscInt_FMT " warp tickets, %5" PetscInt_FMT " block tickets, L critical path %4" PetscInt_FMT " groups (cut_late %4" PetscInt_FMT ")\n", name, ng, ns, nb, hops, hopscut));
  Expect(rcmmean <= 0 || (PetscReal)n / ng >= rcmmean, "%s rcm: %.1f rows per group, expected at least %.1f (rows of a level grouped)\n", name, (double)n / ng, (double)rcmmean);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 5-point (d = 2) or 7-point (d = 3) Laplacian pattern on an N^d grid, natural (x fastest) numbering */
static PetscErrorCode Grid(PetscInt d, PetscInt N, Mat *A)
{
  PetscInt n = d == 2 ? N * N : N * N * N;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 2 * d + 1, NULL, A));
  for (PetscInt i = 0; i < n; i++) {
    PetscInt x = i % N, y = (i / N) % N, z = d == 3 ? i / (N * N) : 0, cols[7], nc = 0;

    if (d == 3 && z > 0) cols[nc++] = i - N * N;
    if (y > 0) cols[nc++] = i - N;
    if (x > 0) cols[nc++] = i - 1;
    cols[nc++] = i;
    if (x < N - 1) cols[nc++] = i + 1;
    if (y < N - 1) cols[nc++] = i + N;
    if (d == 3 && z < N - 1) cols[nc++] = i + N * N;
    for (PetscInt k = 0; k < nc; k++) PetscCall(MatSetValue(*A, i, cols[k], cols[k] == i ? 2.0 * d : -1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one shared matrix (MMForEachManifestMatrix): the invariants of its schedules, when it is square */
static PetscErrorCode SharedSchedules(const char dir[], const char name[], void *ctx)
{
  char       path[PETSC_MAX_PATH_LEN + 300];
  MMTriplets t;
  Mat        A;
  PetscInt   m, n, ng, ns;
  PetscReal  sorted[2];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s.mtx.gz", dir, name));
  PetscCall(MMRead(path, PETSC_TRUE, &t));
  PetscCall(MMTripletsAssemble(PETSC_COMM_SELF, &t, MATSEQAIJ, PETSC_TRUE, &A));
  PetscCall(MMTripletsDestroy(&t));
  PetscCall(MatGetSize(A, &m, &n));
  if (m == n) {
    PetscCall(Orderings(name, A, PETSC_FALSE, &ng, &ns, 0, sorted));
    (*(PetscInt *)ctx)++;
  }
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char      dir[PETSC_MAX_PATH_LEN] = "", *names[256];
  PetscInt  nnames = 256, nshared = 0;
  PetscBool sel    = PETSC_FALSE, flg;
  struct {
    PetscInt  d, N;
    PetscReal rcmmean;
  } grids[] = {
    {2, 1,   0},
    {2, 20,  4},
    {2, 70,  4},
    {3, 12,  8},
    {3, 40, 16}
  };

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-dir", dir, sizeof(dir), &flg));
  if (!flg) PetscCall(MMDefaultDirectory(dir, sizeof(dir)));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-matrices", names, &nnames, &sel));

  /* generated grids: on the natural numbering each grid line is one warp ticket (a chain of N rows, cut into groups
     of 32) and the next line's first row, which depends only on the line below, starts a new group */
  for (size_t k = 0; k < sizeof(grids) / sizeof(grids[0]); k++) {
    PetscInt  d = grids[k].d, N = grids[k].N, lines = d == 2 ? N : N * N, ng, ns;
    PetscReal sorted[2];
    Mat       A;
    char      name[64];

    PetscCall(Grid(d, N, &A));
    PetscCall(PetscSNPrintf(name, sizeof(name), "%dD %" PetscInt_FMT "^%d grid", (int)d, N, (int)d));
    PetscCall(Orderings(name, A, PETSC_TRUE, &ng, &ns, grids[k].rcmmean, sorted));
    Expect(ns == lines * ((N + 32 * 32 - 1) / (32 * 32)), "%s natural: %" PetscInt_FMT " warp tickets, expected one per grid line (%" PetscInt_FMT ")\n", name, ns, lines);
    Expect(ng == lines * ((N + 31) / 32), "%s natural: %" PetscInt_FMT " groups, expected %" PetscInt_FMT "\n", name, ng, lines * ((N + 31) / 32));
    /* the pattern of A^2, a superset of ILU(1)'s: rows of an RCM level depend on each other, chains on rows other than
       their predecessor (the invariants, among them the critical path against chains only) */
    {
      Mat A2;

      PetscCall(MatMatMult(A, A, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &A2));
      PetscCall(PetscSNPrintf(name, sizeof(name), "%dD %" PetscInt_FMT "^%d grid, A^2", (int)d, N, (int)d));
      PetscCall(Orderings(name, A2, PETSC_TRUE, &ng, &ns, 0, sorted));
      PetscCall(MatDestroy(&A2));
    }
    PetscCall(MatDestroy(&A));
  }

  /* random columns (a symmetric pattern, 4 random neighbours a row, as on a power-law graph's rows of average length):
     the factor's numbering leaves groups of about one row, the level-sorted one fills them */
  {
    const PetscInt n = 20000;
    PetscInt       ng, ns;
    PetscReal      sorted[2];
    PetscRandom    rnd;
    Mat            A;

    PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
    PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 12, NULL, &A));
    PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
    for (PetscInt i = 0; i < n; i++) {
      PetscCall(MatSetValue(A, i, i, 10.0, INSERT_VALUES));
      for (PetscInt k = 0; k < 2; k++) {
        PetscReal u;
        PetscInt  j;

        PetscCall(PetscRandomGetValueReal(rnd, &u));
        j = PetscMin((PetscInt)(u * n), n - 1);
        PetscCall(MatSetValue(A, i, j, -1.0, INSERT_VALUES));
        PetscCall(MatSetValue(A, j, i, -1.0, INSERT_VALUES));
      }
    }
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    PetscCall(Orderings("random columns", A, PETSC_TRUE, &ng, &ns, 0, sorted));
    Expect((PetscReal)n / ng < 2.0, "random columns natural: %.1f rows a group (expected fewer than 2)\n", (double)n / ng);
    Expect(sorted[0] >= 16.0 && sorted[1] >= 16.0, "random columns level-sorted: %.1f (L) and %.1f (U) rows a group (expected at least 16)\n", (double)sorted[0], (double)sorted[1]);
    /* auto made the sort beside the natural schedule on these columns (natural numbering, L and U), after it on grids */
    Expect(autobeside >= 2 && autonatural >= 4, "auto level sorts: %" PetscInt_FMT " beside the natural schedule (expected 2 or more), %" PetscInt_FMT " after it\n", autobeside, autonatural);
    PetscCall(MatDestroy(&A));
    PetscCall(PetscRandomDestroy(&rnd));
  }

  /* the shared matrices: the invariants */
  if (!(sel && nnames == 1 && !strcmp(names[0], "none"))) PetscCall(MMForEachManifestMatrix(dir, sel, nnames, names, SharedSchedules, &nshared));
  for (PetscInt i = 0; i < nnames && sel; i++) PetscCall(PetscFree(names[i]));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "shared square matrices checked (natural and rcm, L and U, chains 32/7/1): %" PetscInt_FMT "\n", nshared));
  PetscCall(ExpectReport());
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: schedule
      args: -dir ${SPARSEGPU_MATRICES}

TEST*/
