static char help[] = "The order in which PCSUBTREEILU's GPU refactorization takes its tickets (subtreeiluorder.c), checked on the host\n\
on synthetic plans (natural-ordered grids and random triangular patterns, cut into runs and tickets; ILU and ICC\n\
forms): a permutation of the tickets, topological (every ticket after the tickets its rows depend on: the GPU\n\
kernel's deadlock-freedom rests on it), sorted by level then index with the levels of the longest path, the same for\n\
1, 2 and 3 threads; the level boundaries it reports are right, and the bundles made from them (2 or 4 tickets, all\n\
of one level: a warp of the kernel factors them in lockstep) cover the order in runs of one level; the kernel's run\n\
lists reproduce each ticket's runs in that order; a row depending on a later ticket is refused.\n\n";

/* The functions are PETSC_INTERN (hidden in the library): the test compiles their sources in. */
#include "../src/sys/utils/sparsegputhreads.c"
#include "../src/ksp/pc/impls/subtreeilu/subtreeiluorder.c"

#include "expect_test.h"

static unsigned long long rng = 88172645463325252ULL;
static PetscInt           Rand(PetscInt m) /* 0 .. m-1 (xorshift: the same on every machine) */
{
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (PetscInt)(rng % (unsigned long long)m);
}

/*
  A synthetic plan: row i depends on the rows dep[dptr[i] .. dptr[i+1]-1] (all smaller; ILU: the columns of its L
  entries, lptr/bj; ICC: its contributing rows, cptr/crow); runs of at most runmax consecutive rows, cut where a row
  does not depend on the previous one; tickets of at most tickmax consecutive runs, cut where a run's first row does
  not depend on the previous run's last (as the plan's chains).
*/
static PetscErrorCode MakePlan(PetscInt n, const PetscInt *dptr, const PetscInt *dep, PetscBool icc, PetscInt runmax, PetscInt tickmax, PCSubtreeILUPlan *p)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(p, sizeof(*p)));
  p->n   = n;
  p->icc = icc;
  PetscCall(PetscMalloc2(n + 1, &p->runptr, n + 1, &p->tptr));
  PetscCall(PetscMalloc2(n + 1, &p->lptr, PetscMax(dptr[n], 1), &p->bj));
  for (PetscInt i = 0; i <= n; i++) p->lptr[i] = dptr[i];
  for (PetscInt q = 0; q < dptr[n]; q++) p->bj[q] = dep[q];
  if (icc) { /* the same lists through the ICC fields */
    p->cptr = p->lptr;
    p->crow = p->bj;
  }
  p->runptr[0] = p->tptr[0] = 0;
  for (PetscInt i = 0, len = 0, runs = 0; i < n; i++) {
    PetscBool linked = PETSC_FALSE;

    for (PetscInt q = dptr[i]; q < dptr[i + 1]; q++) linked = (PetscBool)(linked || dep[q] == i - 1);
    if (i > 0 && (!linked || len == runmax)) { /* a new run */
      p->runptr[++p->nruns] = i;
      len                   = 0;
      runs++;
      if (!linked || runs == tickmax) { /* a new ticket */
        p->tptr[++p->ntickets] = p->nruns;
        runs                   = 0;
      }
    }
    len++;
  }
  if (n) {
    p->runptr[++p->nruns]  = n;
    p->tptr[++p->ntickets] = p->nruns;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FreePlan(PCSubtreeILUPlan *p)
{
  PetscFunctionBeginUser;
  PetscCall(PetscFree2(p->runptr, p->tptr));
  PetscCall(PetscFree2(p->lptr, p->bj));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* checks the order of p's tickets (by nthreads 1, 2, 3) against a plain longest-path computation */
static PetscErrorCode Check(const char *name, const PCSubtreeILUPlan *p)
{
  const PetscInt nt = p->ntickets;
  PetscInt      *order[3], depth[3], *levptr, *rowticket, *lev, *pos, *ttptr, *truns, *bptr, d = 0;
  PetscBool      perm = PETSC_TRUE, topo = PETSC_TRUE, sorted = PETSC_TRUE, alike = PETSC_TRUE, runs = PETSC_TRUE, levels = PETSC_TRUE, bundles = PETSC_TRUE;

  PetscFunctionBeginUser;
  for (PetscInt k = 0; k < 3; k++) PetscCall(PCSubtreeILUPlanTicketOrder_Private(p, k + 1, &order[k], &depth[k], k == 1 ? &levptr : NULL));
  PetscCall(PetscMalloc6(p->n, &rowticket, nt, &lev, nt, &pos, nt + 1, &ttptr, 2 * p->nruns, &truns, nt + 1, &bptr));
  for (PetscInt t = 0; t < nt; t++)
    for (PetscInt r = p->runptr[p->tptr[t]]; r < p->runptr[p->tptr[t + 1]]; r++) rowticket[r] = t;
  for (PetscInt t = 0; t < nt; t++) { /* the reference levels: every dependency, no list */
    lev[t] = 0;
    for (PetscInt r = p->runptr[p->tptr[t]]; r < p->runptr[p->tptr[t + 1]]; r++)
      for (PetscInt q = p->lptr[r]; q < p->lptr[r + 1]; q++)
        if (rowticket[p->bj[q]] != t) lev[t] = PetscMax(lev[t], lev[rowticket[p->bj[q]]] + 1);
    d = PetscMax(d, lev[t] + 1);
  }
  for (PetscInt t = 0; t < nt; t++) pos[t] = -1;
  for (PetscInt k = 0; k < nt; k++) {
    PetscInt t = order[0][k];

    if (t < 0 || t >= nt || pos[t] >= 0) perm = PETSC_FALSE;
    else pos[t] = k;
    if (order[1][k] != t || order[2][k] != t) alike = PETSC_FALSE;
    if (k > 0 && perm && (lev[order[0][k - 1]] > lev[t] || (lev[order[0][k - 1]] == lev[t] && order[0][k - 1] > t))) sorted = PETSC_FALSE;
  }
  if (perm) {
    for (PetscInt t = 0; t < nt; t++)
      for (PetscInt r = p->runptr[p->tptr[t]]; r < p->runptr[p->tptr[t + 1]]; r++)
        for (PetscInt q = p->lptr[r]; q < p->lptr[r + 1]; q++)
          if (pos[rowticket[p->bj[q]]] > pos[t]) topo = PETSC_FALSE;
  }
  for (PetscInt k = 0; k < 2; k++) { /* the kernel's run lists, in index order and in the level order */
    const PetscInt *o = k ? order[0] : NULL;

    PCSubtreeILUPlanTicketRuns_Private(p, o, ttptr, truns);
    for (PetscInt tt = 0; tt < nt && perm; tt++) {
      const PetscInt t = o ? o[tt] : tt;

      if (ttptr[tt + 1] - ttptr[tt] != p->tptr[t + 1] - p->tptr[t]) runs = PETSC_FALSE;
      else
        for (PetscInt e = 0; e < ttptr[tt + 1] - ttptr[tt]; e++) {
          const PetscInt run = p->tptr[t] + e;

          if (truns[2 * (ttptr[tt] + e)] != p->runptr[run] || truns[2 * (ttptr[tt] + e) + 1] != p->runptr[run + 1]) runs = PETSC_FALSE;
        }
    }
  }
  /* the level boundaries, then the bundles of 2 and 4 tickets: consecutive positions, each within one level, full but
     for a level's last */
  if (perm && depth[1] == d) {
    if (levptr[0] != 0 || levptr[d] != nt) levels = PETSC_FALSE;
    for (PetscInt l = 0; l < d && levels; l++)
      for (PetscInt k = levptr[l]; k < levptr[l + 1]; k++)
        if (lev[order[1][k]] != l) levels = PETSC_FALSE;
  } else levels = PETSC_FALSE;
  for (PetscInt per = 2; per <= 4 && levels; per += 2) {
    PetscInt nb = PCSubtreeILUPlanTicketBundles_Private(depth[1], levptr, per, bptr), need = 0;

    for (PetscInt l = 0; l < d; l++) need += (levptr[l + 1] - levptr[l] + per - 1) / per;
    if (nb != need || bptr[0] != 0 || bptr[nb] != nt) bundles = PETSC_FALSE;
    for (PetscInt b = 0; b < nb && bundles; b++) {
      const PetscInt len = bptr[b + 1] - bptr[b], l = lev[order[1][bptr[b]]];

      if (len < 1 || len > per || lev[order[1][bptr[b + 1] - 1]] != l || (len < per && bptr[b + 1] != levptr[l + 1])) bundles = PETSC_FALSE;
    }
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: %" PetscInt_FMT " rows, %" PetscInt_FMT " runs, %" PetscInt_FMT " tickets in %" PetscInt_FMT " levels\n", name, p->n, p->nruns, nt, depth[0]));
  Expect(perm, "%s: the order is not a permutation of the tickets\n", name);
  Expect(topo, "%s: a ticket comes before one it depends on\n", name);
  Expect(sorted, "%s: the order is not by level, then index\n", name);
  Expect(depth[0] == d && depth[1] == d && depth[2] == d, "%s: %" PetscInt_FMT " levels (threads 1, 2, 3: %" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT ") instead of %" PetscInt_FMT "\n", name, depth[0], depth[0], depth[1], depth[2], d);
  Expect(alike, "%s: the order depends on the number of threads\n", name);
  Expect(runs, "%s: the kernel's run lists differ from the tickets' runs\n", name);
  Expect(levels, "%s: the level boundaries are wrong\n", name);
  Expect(bundles, "%s: the bundles of tickets of one level are wrong\n", name);
  for (PetscInt k = 0; k < 3; k++) PetscCall(PetscFree(order[k]));
  PetscCall(PetscFree(levptr));
  PetscCall(PetscFree6(rowticket, lev, pos, ttptr, truns, bptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the strictly lower pattern of the natural-ordered 5-point (dim 2) or 7-point (dim 3) stencil on an N^dim grid */
static PetscErrorCode Grid(PetscInt dim, PetscInt N, PetscInt *n, PetscInt **dptr, PetscInt **dep)
{
  PetscFunctionBeginUser;
  *n = dim == 3 ? N * N * N : N * N;
  PetscCall(PetscMalloc2(*n + 1, dptr, 3 * *n + 1, dep));
  (*dptr)[0] = 0;
  for (PetscInt i = 0, m = 0; i < *n; i++) {
    const PetscInt x = i % N, y = (i / N) % N, z = i / (N * N);

    if (dim == 3 && z > 0) (*dep)[m++] = i - N * N;
    if (y > 0) (*dep)[m++] = i - N;
    if (x > 0) (*dep)[m++] = i - 1;
    (*dptr)[i + 1] = m;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a random pattern: row i depends on i-1 with probability plink, and on up to d rows within win before it */
static PetscErrorCode Random(PetscInt n, PetscInt d, PetscInt win, PetscInt plink, PetscInt **dptr, PetscInt **dep)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(n + 1, dptr, (d + 1) * n + 1, dep));
  (*dptr)[0] = 0;
  for (PetscInt i = 0, m = 0; i < n; i++) {
    PetscInt c[64], nc = 0;

    if (i > 0 && Rand(100) < plink) c[nc++] = i - 1;
    for (PetscInt e = Rand(d + 1); e > 0 && i > 0; e--) c[nc++] = i - 1 - Rand(PetscMin(win, i));
    PetscCall(PetscSortRemoveDupsInt(&nc, c));
    for (PetscInt e = 0; e < nc; e++) (*dep)[m++] = c[e];
    (*dptr)[i + 1] = m;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PCSubtreeILUPlan p;
  PetscInt         n, *dptr, *dep;
  char             name[128];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  /* natural-ordered grids: one ticket per grid line (tickets of 64 runs of 32 rows at most) */
  for (PetscInt dim = 2; dim <= 3; dim++) {
    const PetscInt Ns[3] = {1, 7, dim == 2 ? 300 : 40};

    for (PetscInt k = 0; k < 3; k++) {
      for (PetscInt icc = 0; icc < 2; icc++) {
        PetscCall(Grid(dim, Ns[k], &n, &dptr, &dep));
        PetscCall(MakePlan(n, dptr, dep, (PetscBool)icc, 32, 64, &p));
        PetscCall(PetscSNPrintf(name, sizeof(name), "%dD grid N=%d, %s", (int)dim, (int)Ns[k], icc ? "icc" : "ilu"));
        PetscCall(Check(name, &p));
        PetscCall(FreePlan(&p));
        PetscCall(PetscFree2(dptr, dep));
      }
    }
  }
  /* random patterns: short runs and tickets (many tickets: several threads), long tickets with far dependencies
     (more than 32 distinct earlier tickets per ticket), no links (a ticket per row) */
  {
    const PetscInt cases[][6] = {
      {20000, 3, 50, 70, 4, 2},
      {20000, 4, 20000, 99, 32, 64},
      {5000, 2, 300, 0, 32, 64},
      {1, 0, 1, 0, 32, 64},
      {0, 0, 1, 0, 32, 64},
    };

    for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
      PetscCall(Random(cases[k][0], cases[k][1], cases[k][2], cases[k][3], &dptr, &dep));
      PetscCall(MakePlan(cases[k][0], dptr, dep, PETSC_FALSE, cases[k][4], cases[k][5], &p));
      PetscCall(PetscSNPrintf(name, sizeof(name), "random n=%d deps<=%d window %d links %d%% runs<=%d tickets<=%d runs", (int)cases[k][0], (int)cases[k][1], (int)cases[k][2], (int)cases[k][3], (int)cases[k][4], (int)cases[k][5]));
      PetscCall(Check(name, &p));
      PetscCall(FreePlan(&p));
      PetscCall(PetscFree2(dptr, dep));
    }
  }
  /* a row depending on a later ticket (a broken plan) is refused */
  {
    PetscInt      *order, depth;
    PetscErrorCode ierr;

    PetscCall(Grid(2, 5, &n, &dptr, &dep));
    PetscCall(MakePlan(n, dptr, dep, PETSC_FALSE, 32, 64, &p));
    p.bj[p.lptr[2]] = n - 1; /* row 2 (ticket 0) now depends on the last row (the last ticket) */
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = PCSubtreeILUPlanTicketOrder_Private(&p, 2, &order, &depth, NULL);
    PetscCall(PetscPopErrorHandler());
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "a row depending on a later ticket: %s\n", ierr == PETSC_ERR_PLIB ? "refused" : "ACCEPTED"));
    Expect(ierr == PETSC_ERR_PLIB, "a broken plan was not refused\n");
    PetscCall(FreePlan(&p));
    PetscCall(PetscFree2(dptr, dep));
  }
  PetscCall(ExpectReport());
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: order
      args: -malloc_debug -malloc_dump

TEST*/
