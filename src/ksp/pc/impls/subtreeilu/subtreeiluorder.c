/*
  The order in which the GPU refactorization (subtreeilu.cu) takes its tickets, made on the host in plain C so that
  CI tests it without a GPU (tests/subtreeilu7.c): a topological order of the tickets' dependency DAG, which the
  kernel's deadlock-freedom rests on.
*/
#include "subtreeiluimpl.h"

/*
  The order in which the refactorization kernel takes its tickets: by level of their dependency DAG (a ticket depends
  on the tickets of the rows its rows eliminate with: ILU the columns of their L entries, ICC their contributing rows),
  then by index. A topological order, so the deadlock-freedom argument of the GPU kernel (RefactKernel in subtreeilu.cu) holds. In index order the
  tickets held at once by the persistent grid cover a fixed range of chains, which on a wide wavefront (the diagonal
  planes of a 3D grid) holds chains that wait long for their first input while chains of the front wait for a warp.
*/
typedef struct {
  const PCSubtreeILUPlan *hp;
  PetscInt               *rowticket; /* the ticket of each row */
  PetscInt               *cnt;       /* count pass: the length of each ticket's list */
  const PetscInt         *off;       /* fill pass: where each ticket's list starts in deps (NULL: count pass) */
  PetscInt               *deps;
  int                     bad[PETSC_SPARSEGPU_MAX_THREADS]; /* a row depends on a later ticket */
} TicketDepsCtx;

static void TicketRowsRange(void *ctx, PetscInt tid, PetscInt t0, PetscInt t1)
{
  TicketDepsCtx          *c  = (TicketDepsCtx *)ctx;
  const PCSubtreeILUPlan *hp = c->hp;

  (void)tid;
  for (PetscInt t = t0; t < t1; t++)
    for (PetscInt r = hp->runptr[hp->tptr[t]]; r < hp->runptr[hp->tptr[t + 1]]; r++) c->rowticket[r] = t;
}

/* each ticket's list of the earlier tickets its rows depend on: the first 32 distinct ones once, any further ones as
   often as they come (the same list in both passes; repeats do not change the levels) */
static void TicketDepsRange(void *ctx, PetscInt tid, PetscInt t0, PetscInt t1)
{
  TicketDepsCtx          *c  = (TicketDepsCtx *)ctx;
  const PCSubtreeILUPlan *hp = c->hp;

  for (PetscInt t = t0; t < t1; t++) {
    PetscInt  seen[32], ns = 0, m = 0;
    PetscInt *out = c->off ? c->deps + c->off[t] : NULL;

    for (PetscInt r = hp->runptr[hp->tptr[t]]; r < hp->runptr[hp->tptr[t + 1]]; r++) {
      const PetscInt q0 = hp->icc ? hp->cptr[r] : hp->lptr[r], q1 = hp->icc ? hp->cptr[r + 1] : hp->lptr[r + 1];

      for (PetscInt q = q0; q < q1; q++) {
        const PetscInt tk = c->rowticket[hp->icc ? hp->crow[q] : hp->bj[q]];
        PetscBool      dup = PETSC_FALSE;

        if (tk > t) c->bad[tid] = 1;
        if (tk >= t) continue;
        for (PetscInt e = 0; e < ns && !dup; e++) dup = (PetscBool)(seen[e] == tk);
        if (dup) continue;
        if (ns < 32) seen[ns++] = tk;
        if (out) out[m] = tk;
        m++;
      }
    }
    if (!out) c->cnt[t] = m;
  }
}

/* (nthreads: the setup threads, which make the tickets' dependency lists; the levels follow in one pass over them;
   levptr (optional): level l is order[levptr[l]] .. order[levptr[l+1]-1]) */
PETSC_INTERN PetscErrorCode PCSubtreeILUPlanTicketOrder_Private(const PCSubtreeILUPlan *hp, PetscInt nthreads, PetscInt **order, PetscInt *depth, PetscInt **levptr)
{
  const PetscInt nt = hp->ntickets;
  PetscInt      *lev, *cnt, *off, d = 0;
  TicketDepsCtx  c;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(&c, sizeof(c)));
  c.hp = hp;
  PetscCall(PetscMalloc1(nt, order));
  PetscCall(PetscMalloc4(hp->n, &c.rowticket, nt, &lev, nt + 1, &cnt, nt + 1, &off));
  c.cnt = cnt;
  PetscCall(PetscSparseGPUParallelFor(nthreads, nt, 1024, TicketRowsRange, &c));
  PetscCall(PetscSparseGPUParallelFor(nthreads, nt, 1024, TicketDepsRange, &c));
  for (PetscInt t = 0; t < PETSC_SPARSEGPU_MAX_THREADS; t++) {
    if (!c.bad[t]) continue;
    PetscCall(PetscFree4(c.rowticket, lev, cnt, off));
    PetscCall(PetscFree(*order));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_PLIB, "Refactorization plan: a row depends on a later ticket");
  }
  off[0] = 0;
  for (PetscInt t = 0; t < nt; t++) off[t + 1] = off[t] + cnt[t];
  PetscCall(PetscMalloc1(off[nt], &c.deps));
  c.off = off;
  PetscCall(PetscSparseGPUParallelFor(nthreads, nt, 1024, TicketDepsRange, &c));
  for (PetscInt t = 0; t < nt; t++) {
    lev[t] = 0;
    for (PetscInt e = off[t]; e < off[t + 1]; e++) lev[t] = PetscMax(lev[t], lev[c.deps[e]] + 1);
    d = PetscMax(d, lev[t] + 1);
  }
  PCSubtreeILUSortByLevel(nt, lev, d, cnt, *order);
  if (levptr) {
    PetscCall(PetscMalloc1(d + 1, levptr));
    PetscCall(PetscArraycpy(*levptr, cnt, d + 1));
  }
  PetscCall(PetscFree(c.deps));
  PetscCall(PetscFree4(c.rowticket, lev, cnt, off));
  *depth = d;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the kernel's ticket list in the given order (NULL: index order): ticket t (the order's t-th) has the runs
   ttptr[t] .. ttptr[t+1]-1 of truns, as pairs of row boundaries (so that taking a ticket costs the kernel no more
   dependent loads than in index order) */
PETSC_INTERN void PCSubtreeILUPlanTicketRuns_Private(const PCSubtreeILUPlan *hp, const PetscInt *order, PetscInt *ttptr, PetscInt *truns)
{
  PetscInt m = 0;

  ttptr[0] = 0;
  for (PetscInt tt = 0; tt < hp->ntickets; tt++) {
    const PetscInt t = order ? order[tt] : tt;

    for (PetscInt run = hp->tptr[t]; run < hp->tptr[t + 1]; run++, m++) {
      truns[2 * m]     = hp->runptr[run];
      truns[2 * m + 1] = hp->runptr[run + 1];
    }
    ttptr[tt + 1] = m;
  }
}


/* bundles of the level order (levptr of PCSubtreeILUPlanTicketOrder_Private()) for a kernel warp that factors several
   chains at once, each on its own lanes: at most per consecutive tickets, all of one level, so that no ticket of a
   bundle depends on another of it (the warp's chains run in lockstep: one of them waiting for another would never
   end). Bundle b is the order's positions bptr[b] .. bptr[b+1]-1 (bptr: room for ntickets + 1 entries); returns the
   number of bundles. */
PETSC_INTERN PetscInt PCSubtreeILUPlanTicketBundles_Private(PetscInt depth, const PetscInt *levptr, PetscInt per, PetscInt *bptr)
{
  PetscInt nb = 0;

  bptr[0] = 0;
  for (PetscInt l = 0; l < depth; l++)
    for (PetscInt s = levptr[l]; s < levptr[l + 1]; s += per) bptr[++nb] = PetscMin(s + per, levptr[l + 1]);
  return nb;
}
