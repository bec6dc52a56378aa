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

PETSC_INTERN PetscErrorCode PCSubtreeILUPlanDestroy_Private(PCSubtreeILUPlan **pplan)
{
  PCSubtreeILUPlan *p = *pplan;

  PetscFunctionBegin;
  if (!p) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree4(p->lptr, p->ub, p->ud, p->bj));
  PetscCall(PetscFree3(p->aptr, p->asrc, p->adst));
  PetscCall(PetscFree3(p->cptr, p->cpos, p->crow));
  PetscCall(PetscFree2(p->runptr, p->tptr));
  PetscCall(PetscFree2(p->mptr, p->map));
  PetscCall(PetscFree(p->ubar));
  PetscCall(PetscFree(*pplan));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* position of column j in bj[lo .. hi-1] (sorted), or -1 */
static inline PetscInt FindCol(const PetscInt *bj, PetscInt lo, PetscInt hi, PetscInt j)
{
  const PetscInt end = hi;

  while (lo < hi) {
    PetscInt mid = lo + (hi - lo) / 2;

    if (bj[mid] < j) lo = mid + 1;
    else hi = mid;
  }
  return (lo < end && bj[lo] == j) ? lo : -1;
}


/*
  Makes the plan from the structure of A (the SeqAIJ matrix PETSc factored) and of st->fact. *plan = NULL (and no
  error) when PETSc's factor does not have the layout the plan needs (then refactorizations use PETSc's path).
*/
PETSC_INTERN PetscErrorCode PCSubtreeILUPlanCreate_Private(PC_SubtreeILU *st, Mat A, PCSubtreeILUPlan **plan)
{
  PCSubtreeILUPlan *p;
  PetscInt          n = st->n, na, nz, *icol;
  const PetscInt   *ai, *aj, *fi, *fj;
  PetscBool         done, ok = PETSC_TRUE, icc = st->type == PC_SUBTREEILU_ICC ? PETSC_TRUE : PETSC_FALSE;
  MatInfo           info;

  PetscFunctionBegin;
  *plan = NULL;
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &na, &ai, &aj, &done));
  if (!done || na != n) {
    if (done) PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &na, &ai, &aj, &done));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(MatGetInfo(st->fact, MAT_LOCAL, &info));
  nz = (PetscInt)info.nz_used;
  if (icc) {
    PetscInt nn;

    PetscCall(MatGetRowIJ(st->fact, 0, PETSC_FALSE, PETSC_FALSE, &nn, &fi, &fj, &done));
    PetscCheck(done && nn == n, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cannot access the structure of PETSc's ICC factor");
  } else PetscCall(MatSeqAIJGetCSRAndMemType(st->fact, &fi, &fj, NULL, NULL));

  PetscCall(PetscNew(&p));
  p->n         = n;
  p->nz        = nz;
  p->annz      = ai[n];
  p->icc       = icc;
  p->shifttype = st->shifttype_set ? st->shifttype : (icc ? MAT_SHIFT_POSITIVE_DEFINITE : MAT_SHIFT_NONE);
  p->zeropivot = 100.0 * PETSC_MACHINE_EPSILON; /* info.zeropivot of PCSetUp_SubtreeILU() */
  p->bufcap    = st->refactbuf;
  PetscCall(PetscMalloc4(n + 1, &p->lptr, n, &p->ub, n, &p->ud, PetscMax(nz, 1), &p->bj));
  PetscCall(PetscArraycpy(p->bj, fj, nz));
  if (!icc) {
    /* PETSc's SeqAIJ factor: L rows by fi; U row i at bdiag[i+1]+1 .. bdiag[i] from the end, the diagonal last */
    PetscInt next = fi[n]; /* = bdiag[n] + 1 */

    for (PetscInt i = 0; i <= n; i++) p->lptr[i] = fi[i];
    for (PetscInt i = n - 1; i >= 0 && ok; i--) {
      PetscInt q = next;

      while (q < nz && fj[q] != i) q++;
      if (q >= nz) ok = PETSC_FALSE;
      else {
        p->ub[i] = next;
        p->ud[i] = q;
        next     = q + 1;
      }
    }
    if (ok && n && next != nz) ok = PETSC_FALSE;
    for (PetscInt i = 0; i < n && ok; i++) {
      for (PetscInt q = p->lptr[i]; q < p->lptr[i + 1]; q++)
        if (fj[q] < 0 || fj[q] >= i || (q > p->lptr[i] && fj[q] <= fj[q - 1])) ok = PETSC_FALSE;
      for (PetscInt q = p->ub[i]; q < p->ud[i]; q++)
        if (fj[q] <= i || fj[q] >= n || (q > p->ub[i] && fj[q] <= fj[q - 1])) ok = PETSC_FALSE;
    }
  } else {
    /* PETSc's ICC factor (SeqSBAIJ, bs 1): row k = off-diagonals fi[k] .. fi[k+1]-2, the diagonal last */
    PetscCall(PetscArrayzero(p->lptr, n + 1));
    ok = (fi[n] == nz) ? PETSC_TRUE : PETSC_FALSE;
    for (PetscInt k = 0; k < n && ok; k++) {
      if (fi[k + 1] <= fi[k] || fj[fi[k + 1] - 1] != k) ok = PETSC_FALSE;
      else {
        p->ub[k] = fi[k];
        p->ud[k] = fi[k + 1] - 1;
        for (PetscInt q = p->ub[k]; q < p->ud[k]; q++)
          if (fj[q] <= k || fj[q] >= n || (q > p->ub[k] && fj[q] <= fj[q - 1])) ok = PETSC_FALSE;
      }
    }
  }

  /* A's entries: factor row i is A's row rperm[i]; column c goes to icol[c] */
  PetscCall(PetscMalloc1(n, &icol));
  for (PetscInt i = 0; i < n; i++) icol[st->cperm[i]] = i;
  PetscCall(PetscMalloc3(n + 1, &p->aptr, PetscMax(ai[n], 1), &p->asrc, PetscMax(ai[n], 1), &p->adst));
  p->aptr[0] = 0;
  for (PetscInt i = 0, q = 0; i < n && ok; i++) {
    PetscInt r = st->rperm[i];

    for (PetscInt s = ai[r]; s < ai[r + 1] && ok; s++) {
      PetscInt c = icol[aj[s]], t;

      if (!icc) {
        if (c < i) t = FindCol(p->bj, p->lptr[i], p->lptr[i + 1], c);
        else if (c == i) t = p->ud[i];
        else t = FindCol(p->bj, p->ub[i], p->ud[i], c);
      } else {
        if (c < i) continue; /* ICC uses the upper triangle of the permuted matrix */
        t = c == i ? p->ud[i] : FindCol(p->bj, p->ub[i], p->ud[i], c);
      }
      if (t < 0) ok = PETSC_FALSE; /* an entry of A outside the factor's pattern: not PETSc's ILU(k)/ICC(k) layout */
      else p->asrc[q] = s, p->adst[q] = t, q++;
    }
    p->aptr[i + 1] = q;
  }
  PetscCall(PetscFree(icol));

  /* ICC: the order in which MatCholeskyFactorNumeric_SeqAIJ() adds rows i into row k (its linked lists c2r, il) */
  if (ok && icc) {
    PetscInt *c2r, *il, m = 0;

    PetscCall(PetscMalloc2(n, &c2r, n, &il));
    PetscCall(PetscMalloc3(n + 1, &p->cptr, PetscMax(nz - n, 1), &p->cpos, PetscMax(nz - n, 1), &p->crow));
    for (PetscInt i = 0; i < n; i++) c2r[i] = n;
    if (n) il[0] = 0;
    p->cptr[0] = 0;
    for (PetscInt k = 0; k < n && ok; k++) {
      PetscInt i = c2r[k], jmin, jmax;

      while (i < k) {
        PetscInt nexti = c2r[i], ili = il[i];

        if (m >= nz - n) {
          ok = PETSC_FALSE;
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
    /* every off-diagonal entry is scaled exactly once, by the row of its column */
    if (ok && m != nz - n) ok = PETSC_FALSE;
    for (PetscInt k = 0; k < n && ok; k++)
      for (PetscInt q = p->cptr[k]; q < p->cptr[k + 1]; q++)
        if (p->crow[q] >= k || p->bj[p->cpos[q]] != k) ok = PETSC_FALSE;
    PetscCall(PetscFree2(c2r, il));
    PetscCall(PetscMalloc1(PetscMax(nz, 1), &p->ubar));
  }

  /* the update map */
  if (ok) {
    PetscInt nsteps = icc ? p->cptr[n] : p->lptr[n], nmap = 0;

    for (PetscInt q = 0; q < nsteps; q++) nmap += icc ? p->ud[p->crow[q]] - p->cpos[q] - 1 : p->ud[p->bj[q]] - p->ub[p->bj[q]];
    PetscCall(PetscMalloc2(nsteps + 1, &p->mptr, PetscMax(nmap, 1), &p->map));
    p->mptr[0] = 0;
    for (PetscInt q = 0; q < nsteps; q++) p->mptr[q + 1] = p->mptr[q] + (icc ? p->ud[p->crow[q]] - p->cpos[q] - 1 : p->ud[p->bj[q]] - p->ub[p->bj[q]]);
    for (PetscInt i = 0; i < n; i++) {
      PetscInt u0 = p->ub[i], d = p->ud[i];

      if (!icc) {
        PetscInt l1 = p->lptr[i + 1];

        for (PetscInt q = p->lptr[i]; q < l1; q++) {
          PetscInt k = p->bj[q];

          for (PetscInt u = p->ub[k]; u < p->ud[k]; u++) {
            PetscInt j = p->bj[u], t;

            if (j < i) t = FindCol(p->bj, q + 1, l1, j);
            else if (j == i) t = d;
            else t = FindCol(p->bj, u0, d, j);
            p->map[p->mptr[q] + (u - p->ub[k])] = t;
          }
        }
      } else {
        for (PetscInt q = p->cptr[i]; q < p->cptr[i + 1]; q++)
          for (PetscInt j = p->cpos[q] + 1; j < p->ud[p->crow[q]]; j++) p->map[p->mptr[q] + (j - p->cpos[q] - 1)] = FindCol(p->bj, u0, d, p->bj[j]);
      }
    }
  }

  /* runs: row i+1 joins row i's run when it depends on row i (ILU: L(i+1,i); ICC: Ut(i,i+1)) */
  if (ok) {
    PetscInt nval = 0, nstep = 0, nmapr = 0; /* values, elimination steps, update map entries of the current run */

    PetscCall(PetscMalloc2(n + 1, &p->runptr, n + 1, &p->tptr));
    p->nruns     = 0;
    p->ntickets  = 0;
    p->runptr[0] = 0;
    p->tptr[0]   = 0;
    for (PetscInt i = 0; i < n; i++) {
      PetscBool link = PETSC_FALSE, full;
      PetscInt  s0 = icc ? p->cptr[i] : p->lptr[i], s1 = icc ? p->cptr[i + 1] : p->lptr[i + 1];
      PetscInt  rval = (icc ? 0 : p->lptr[i + 1] - p->lptr[i]) + p->ud[i] - p->ub[i] + 1, rstep = s1 - s0, rmap = p->mptr[s1] - p->mptr[s0];

      /* a run also ends before the row that would make it overflow the GPU kernel's shared-memory caches */
      full = (i - p->runptr[p->nruns] >= SUBTREEILU_REFACT_RUN || nval + rval > SUBTREEILU_REFACT_BUF || nstep + rstep > SUBTREEILU_REFACT_STEPS || nmapr + rmap > SUBTREEILU_REFACT_MAP) ? PETSC_TRUE : PETSC_FALSE;
      nval += rval, nstep += rstep, nmapr += rmap;
      if (i == 0) continue;
      if (!icc) link = (p->lptr[i + 1] > p->lptr[i] && p->bj[p->lptr[i + 1] - 1] == i - 1) ? PETSC_TRUE : PETSC_FALSE;
      else link = (p->ud[i - 1] > p->ub[i - 1] && p->bj[p->ub[i - 1]] == i) ? PETSC_TRUE : PETSC_FALSE;
      if (!link || full) {
        nval = rval, nstep = rstep, nmapr = rmap;
        p->runptr[++p->nruns] = i;
        /* a chain cut only by the run's size stays in its ticket (up to SUBTREEILU_REFACT_TICKET runs) */
        if (!link || p->nruns - p->tptr[p->ntickets] >= SUBTREEILU_REFACT_TICKET) p->tptr[++p->ntickets] = p->nruns;
      }
    }
    if (n) {
      p->runptr[++p->nruns] = n;
      p->tptr[++p->ntickets] = p->nruns;
    }
  }
  if (icc) {
    PetscInt nn;

    PetscCall(MatRestoreRowIJ(st->fact, 0, PETSC_FALSE, PETSC_FALSE, &nn, &fi, &fj, &done));
  }
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &na, &ai, &aj, &done));
  if (!ok) {
    PetscCall(PetscInfo(NULL, "PCSUBTREEILU: PETSc's factor has an unexpected layout; refactorizations use PETSc's numeric factorization\n"));
    PetscCall(PCSubtreeILUPlanDestroy_Private(&p));
  }
  *plan = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's MatPivotCheck() would accept pivot pv of a row with off-diagonal sum rs unchanged (first pass) */
static inline PetscBool PivotPasses(MatFactorShiftType type, PetscReal zeropivot, PetscScalar pv, PetscReal rs)
{
  if (PetscIsInfOrNanScalar(pv) || PetscIsInfOrNanReal(rs)) return PETSC_FALSE;
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
        for (PetscInt e = 0; e < kd - first; e++) {
          PetscInt tq = p->map[p->mptr[q] + e];

          if (tq >= 0) {
            PetscScalar u = inrun ? *RunAt(&b, first + e) : fa[first + e];

            *RunAt(&b, tq) = *RunAt(&b, tq) - MulRn(m, u);
          }
        }
        *RunAt(&b, q) = m; /* the multiplier is L's entry */
      } else {
        PetscScalar uik = inrun ? *RunAt(&b, kb) : ubar[kb];

        piv = inrun ? *RunAt(&b, kd) : fa[kd];
        m   = MulRn(-uik, piv);
        dk  = dk + MulRn(m, uik);
        for (PetscInt e = 0; e < kd - first; e++) {
          PetscInt tq = p->map[p->mptr[q] + e];

          if (tq >= 0) {
            PetscScalar u = inrun ? *RunAt(&b, first + e) : ubar[first + e];

            *RunAt(&b, tq) = *RunAt(&b, tq) + MulRn(m, u);
          }
        }
        fa[kb] = m; /* -Ut(k,i), PETSc's stored value */
      }
    }
    /* PETSc's row sum of the off-diagonal factor entries (L then U; ICC the unscaled row), in its order */
    if (p->shifttype == MAT_SHIFT_NONE) { /* the check does not use the row sum: only whether the entries are finite */
      if (!icc)
        for (PetscInt q = s0; q < s1; q++)
          if (PetscIsInfOrNanScalar(*RunAt(&b, q))) rs = PETSC_INFINITY;
      for (PetscInt q = u0; q < d; q++)
        if (PetscIsInfOrNanScalar(*RunAt(&b, q))) rs = PETSC_INFINITY;
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
    if (PetscIsInfOrNanScalar(dinv)) {
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
