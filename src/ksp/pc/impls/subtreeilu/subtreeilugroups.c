/*
  The schedule of the cuda backend's solves (host code, so that CI tests it without a GPU: tests/subtreeilu5.c).

  It is made in the order of the non-transposed solve (the primary order: L ascending, U descending), where a row's
  inputs are its CSR row. Position p of that order is row p (L) or n-1-p (U).

  Groups: at most maxchain consecutive rows: chains (each row depends on the previous one, lower T: T(i,i-1), upper:
  T(i-1,i), and maybe on others of the chain), or rows independent of each other (e.g. within an RCM level). One warp solves a group, a lane per row (phase 2 of the solve kernel resolves the
  in-group dependencies: by a scan when bidiagonal, else row by row),
  and a group is final only when all its rows are: so a row joins a group only when that delays neither the group nor
  the row. Each group's finish is tracked in hops (fin: one more than the latest of its inputs' groups and of the
  previous group of its warp ticket): an unlinked row joins a group without a chain only if its own inputs are final
  at the same hop as the group's (an RCM level of ILU(0): all rows of a level at once; with ILU(1), rows of one level
  that depend on each other through fill would otherwise chain groups into thousands of hops); a linked row continues
  a chain (the chain's rows are final together anyway, at the speed of the scan), unless cutlate and its inputs are
  final later than the group's (then the chain goes on in a new group of the same ticket, and the group's earlier
  rows need not wait: with ILU(1) on a natural grid, a line's row depends on the next row of the line below, and the
  groups of successive lines then end one row apart instead of each waiting a whole group). A chain's head (a row the next row
  is linked to) starts a new group, so chains are groups of their own, as if there were only chains, and may hold
  any in-group dependencies. Any other row starts a new group,
  and so does an unlinked row after a chain (it would put two chains, e.g. two grid lines, into one warp ticket and
  serialize a wavefront). The in-group entries are the same for T and T^T, so the groups serve both solves
  (traversed in opposite orders).
  Warp tickets: runs of at most maxsuper groups of one chain longer than a group (each group of the run but the last
  a pure chain, linked to the next): one warp keeps a long chain, e.g. a grid line.
  Block tickets: at most warps consecutive warp tickets (in the primary order), one per warp of a block (SolveKernel),
  taken by level of their dependency DAG (border).
  The arrays returned are in ascending row order (for U the primary-order boundaries reversed).
*/
#include "subtreeiluimpl.h"

/* row <-> position of the primary order (the same map both ways) */
static inline PetscInt PrimaryPos(const PCSubtreeILUTri *T, PetscInt x)
{
  return T->lower ? x : T->n - 1 - x;
}

/* boundaries ptr[0..cnt] (ascending, ptr[cnt] = total) of the reversed sequence: ptr[k] <- total - ptr[cnt-k] */
static void ReverseBoundaries(PetscInt *ptr, PetscInt cnt, PetscInt total)
{
  for (PetscInt k = 0; k <= cnt / 2; k++) {
    PetscInt a = ptr[k], b = ptr[cnt - k];

    ptr[k] = total - b, ptr[cnt - k] = total - a;
  }
}

/* is position p (> 0) of the primary order linked to position p-1 (row i depends on the row solved just before)? */
static inline PetscBool Linked(const PCSubtreeILUTri *T, PetscInt p)
{
  if (T->lower) return (PetscBool)(T->rowptr[p + 1] > T->rowptr[p] && T->colidx[T->rowptr[p + 1] - 1] == p - 1);
  else {
    PetscInt i = T->n - 1 - p;

    return (PetscBool)(T->rowptr[i + 1] > T->rowptr[i] && T->colidx[T->rowptr[i]] == i + 1);
  }
}

/* Allocates the schedule's arrays (upper bounds: n + 1 entries; pages never written are never mapped), so that
   PCSubtreeILUGroupsCompute_Private() can run on any thread */
PETSC_INTERN PetscErrorCode PCSubtreeILUGroupsSetUp_Private(const PCSubtreeILUTri *T, PetscInt maxchain, PetscInt maxsuper, PetscInt warps, PetscBool cutlate, PetscInt isolate, PCSubtreeILUGroupsWork *w)
{
  PetscInt n = T->n;

  PetscFunctionBegin;
  PetscCheck(maxchain >= 1 && maxsuper >= 1 && warps >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Group sizes must be positive");
  PetscCall(PetscMemzero(w, sizeof(*w)));
  w->T        = T;
  w->maxchain = maxchain;
  w->maxsuper = maxsuper;
  w->warps    = warps;
  w->cutlate  = cutlate;
  w->isolate  = isolate;
  w->badrow   = -1;
  PetscCall(PetscMalloc3(n + 1, &w->G.gptr, n + 1, &w->G.sptr, n + 1, &w->G.bptr));
  PetscCall(PetscMalloc1(n + 1, &w->G.border));
  PetscCall(PetscMalloc3(n + 1, &w->pos, n + 2, &w->cnt, n + 1, &w->blev));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Checks what the computation found and frees its work arrays; G takes the schedule */
PETSC_INTERN PetscErrorCode PCSubtreeILUGroupsFinish_Private(PCSubtreeILUGroupsWork *w, PCSubtreeILUGroups *G)
{
  PetscFunctionBegin;
  PetscCall(PetscFree3(w->pos, w->cnt, w->blev));
  if (w->badrow >= 0) {
    PetscInt i = w->badrow, j = w->badcol;

    PetscCall(PCSubtreeILUGroupsDestroy_Private(&w->G));
    /* the solve kernel relies on this for its termination (a warp only waits for rows of earlier groups) */
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_PLIB, "Triangular factor has entry (%" PetscInt_FMT ", %" PetscInt_FMT ") on the wrong side of the diagonal", i, j);
  }
  *G = w->G;
  PetscCall(PetscMemzero(&w->G, sizeof(w->G)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_INTERN PetscErrorCode PCSubtreeILUGroupsCreate_Private(const PCSubtreeILUTri *T, PetscInt maxchain, PetscInt maxsuper, PetscInt warps, PetscBool cutlate, PetscInt isolate, PCSubtreeILUGroups *G)
{
  PCSubtreeILUGroupsWork w;

  PetscFunctionBegin;
  PetscCall(PCSubtreeILUGroupsSetUp_Private(T, maxchain, maxsuper, warps, cutlate, isolate, &w));
  PCSubtreeILUGroupsCompute_Private(&w);
  PetscCall(PCSubtreeILUGroupsFinish_Private(&w, G));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The first row (ascending) with an entry on the wrong side of the diagonal, into w->badrow, w->badcol */
static void FindWrongSide(PCSubtreeILUGroupsWork *w)
{
  const PCSubtreeILUTri *T = w->T;

  for (PetscInt i = 0; i < T->n; i++) {
    for (PetscInt k = T->rowptr[i]; k < T->rowptr[i + 1]; k++) {
      if (T->lower ? T->colidx[k] < i : T->colidx[k] > i) continue;
      w->badrow = i;
      w->badcol = T->colidx[k];
      return;
    }
  }
}

/* The schedule itself: plain C on the arrays of PCSubtreeILUGroupsSetUp_Private() (no PETSc calls: it may run on a
   thread of its own); an entry on the wrong side of the diagonal is reported in w->badrow, w->badcol. One pass over
   the entries makes the groups, the warp tickets and the levels of the block tickets (block b = warp tickets
   b*warps .. (b+1)*warps-1, so a position's block is known when it joins its group) */
PETSC_INTERN void PCSubtreeILUGroupsCompute_Private(PCSubtreeILUGroupsWork *w)
{
  const PCSubtreeILUTri *T = w->T;
  const PetscInt         maxchain = w->maxchain, maxsuper = w->maxsuper, warps = w->warps;
  const PetscBool        cutlate = w->cutlate;
  const PetscInt         isolate = w->isolate;
  PetscInt *gptr = w->G.gptr, *sptr = w->G.sptr, *bptr = w->G.bptr, *border = w->G.border, *blev = w->blev;
  PCSubtreeILUGroupsPos *pos = w->pos;
  PetscInt  bdepth = 0, ng = 0, ns = 0, nb = 0, maxrows = 0, hops = 0, n = T->n;
  PetscInt  gstart = 0, gfin = 0, base = 1; /* the current group: first position, finish hop, hop its ticket allows */
  PetscInt  bstart = 0;                     /* the first position of the current block (that of position p-1) */
  PetscBool glinked = PETSC_FALSE;           /* the current group has a row linked to its predecessor */
  PetscBool gchain  = PETSC_TRUE;            /* every row of the current group but its first is linked to its predecessor */
  PetscBool glong   = PETSC_FALSE;           /* the current group holds a long row (isolate) */

  gptr[0] = sptr[0] = bptr[0] = 0;
  if (n) blev[0] = 0;
  for (PetscInt p = 0; p < n; p++) {
    const PetscInt i   = PrimaryPos(T, p);
    const PetscInt bc  = ns / warps; /* the current block (that of position p-1) */
    PetscBool      link = PETSC_FALSE, other = PETSC_FALSE, incur = PETSC_FALSE;
    PetscInt       req = 1;          /* the hop at which row i can be final: after its inputs outside the current group */
    PetscInt       lvb = 0;          /* the level row i gives its block through inputs in earlier blocks */
    const PetscBool lng = (PetscBool)(isolate > 0 && PCSubtreeILUTriInputs(T, i) > isolate);

    for (PetscInt k = T->rowptr[i]; k < T->rowptr[i + 1]; k++) {
      PetscInt q = PrimaryPos(T, T->colidx[k]); /* an input's position, q < p */

      if (q >= p) { /* the solve kernel relies on this for its termination (a warp only waits for rows of earlier groups) */
        FindWrongSide(w); /* (reports the first such row in ascending order, whatever the primary order) */
        return;
      }
      if (p > 0 && q == p - 1) link = PETSC_TRUE;
      else if (p > 0 && q >= gstart) other = PETSC_TRUE;
      if (q < gstart) req = PetscMax(req, pos[q].fin + 1);
      if (q < bstart) lvb = PetscMax(lvb, pos[q].blev + 1);
      else incur = PETSC_TRUE;
    }
    if (p > 0) {
      PetscBool cut = p - gstart >= maxchain;

      if (other && !(link && gchain)) cut = PETSC_TRUE; /* in a chain, phase 2 resolves any in-group inputs */

      if (!link && glinked) cut = PETSC_TRUE;          /* an unlinked row after a chain */
      if (!link && req != gfin) cut = PETSC_TRUE;       /* it would delay the group, or be delayed by it */
      if (!link && p + 1 < n && Linked(T, p + 1)) cut = PETSC_TRUE; /* a chain's head starts the chain's group */
      if (cutlate && link && req > gfin) cut = PETSC_TRUE;          /* a chain row final later: the group's earlier rows need not wait */
      if (!link && (lng || glong)) cut = PETSC_TRUE;                /* a long row alone: its sum would hold the group's other rows */
      if (cut) {
        PetscBool sameticket = (PetscBool)(link && gchain && ng + 1 - sptr[ns] < maxsuper);

        for (PetscInt r = gstart; r < p; r++) pos[r].fin = gfin; /* the group is final: its finish hop by position */
        hops = PetscMax(hops, gfin);
        if (!sameticket) sptr[++ns] = ng + 1;
        base       = sameticket ? gfin + 1 : 1;
        glinked    = PETSC_FALSE;
        gchain     = PETSC_TRUE;
        glong      = lng;
        gptr[++ng] = p;
        gstart     = p;
        /* the inputs counted as in-group above are now outside it */
        req = 1;
        for (PetscInt k = T->rowptr[i]; k < T->rowptr[i + 1]; k++) req = PetscMax(req, pos[PrimaryPos(T, T->colidx[k])].fin + 1);
        gfin = PetscMax(base, req);
      } else {
        if (link) glinked = PETSC_TRUE;
        else gchain = PETSC_FALSE;
        gfin  = PetscMax(gfin, req);
        glong = (PetscBool)(glong || lng);
      }
    } else gfin = req, glong = lng;
    /* the block's level: one more than the latest of its inputs' other blocks (those before the current one are final;
       the current one is final too once position p starts the next block) */
    if (ns / warps != bc) {
      const PetscInt b = ns / warps;

      for (PetscInt r = bstart; r < p; r++) pos[r].blev = blev[bc]; /* the block is final: its level by position */
      bstart  = p;
      blev[b] = incur ? PetscMax(lvb, blev[bc] + 1) : lvb;
    } else blev[bc] = PetscMax(blev[bc], lvb);
  }
  if (n) {
    hops       = PetscMax(hops, gfin);
    gptr[++ng] = n;
    sptr[++ns] = ng;
  }
  for (PetscInt t = 0; t < ns; t++) {
    if (t - bptr[nb] >= warps) {
      maxrows    = PetscMax(maxrows, gptr[sptr[t]] - gptr[sptr[bptr[nb]]]);
      bptr[++nb] = t;
    }
  }
  if (ns) {
    maxrows    = PetscMax(maxrows, gptr[sptr[ns]] - gptr[sptr[bptr[nb]]]);
    bptr[++nb] = ns;
  }
  /* the order of the block tickets: by level in their dependency DAG (a topological order, so the deadlock-freedom
     argument of SolveKernel holds), then in the primary order. In index order, the tickets held at once cover a
     fixed range of rows, which on a wide wavefront (the planes of a 3D grid, whose diagonal spans N lines of N planes)
     is less than the wavefront: the front's later lines would wait for a ticket */
  for (PetscInt b = 0; b < nb; b++) bdepth = PetscMax(bdepth, blev[b] + 1);
  PCSubtreeILUSortByLevel(nb, blev, bdepth, w->cnt, border);
  if (!T->lower)
    for (PetscInt k = 0; k < nb; k++) border[k] = nb - 1 - border[k]; /* primary order -> ascending block index */
  if (!T->lower) { /* primary-order boundaries -> ascending rows */
    ReverseBoundaries(gptr, ng, n);
    ReverseBoundaries(sptr, ns, ng);
    ReverseBoundaries(bptr, nb, ns);
  }
  w->G.ngroups = ng;
  w->G.nsuper  = ns;
  w->G.nblk    = nb;
  w->G.maxrows = maxrows;
  w->G.hops    = hops;
  w->G.bdepth  = bdepth;
}

PETSC_INTERN PetscErrorCode PCSubtreeILUGroupsDestroy_Private(PCSubtreeILUGroups *G)
{
  PetscFunctionBegin;
  PetscCall(PetscFree3(G->gptr, G->sptr, G->bptr));
  PetscCall(PetscFree(G->border));
  PetscCall(PetscMemzero(G, sizeof(*G)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
