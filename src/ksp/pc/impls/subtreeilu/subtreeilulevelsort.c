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

/* Tp = P T P^T with perm[new] = old (T not borrowed): CSR with increasing columns, CSC with increasing rows, csc2csr,
   src (where T has it) and values; pos[k] = the position in T's CSR of Tp's CSR entry k (for the values of later
   factorizations: PCSubtreeILUTriPermuteValues_Private()). Tp is freed like any triangle (TriDestroy()) and pos with
   PetscFree(). */
PETSC_INTERN PetscErrorCode PCSubtreeILUTriPermute_Private(const PCSubtreeILUTri *T, const PetscInt *perm, PCSubtreeILUTri *Tp, PetscInt **pos)
{
  const PetscInt n = T->n, nnz = T->nnz;
  PetscInt      *iperm, *cnt, *ps;

  PetscFunctionBegin;
  PetscCheck(!T->borrowed, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A borrowed triangle is permuted through its owner");
  PetscCall(PetscMemzero(Tp, sizeof(*Tp)));
  Tp->n     = n;
  Tp->nnz   = nnz;
  Tp->lower = T->lower;
  Tp->depth = -1;
  PetscCall(PetscMalloc3(n + 1, &Tp->rowptr, PetscMax(nnz, 1), &Tp->colidx, PetscMax(nnz, 1), &Tp->val));
  PetscCall(PetscMalloc4(n + 1, &Tp->colptr, PetscMax(nnz, 1), &Tp->rowidx, PetscMax(nnz, 1), &Tp->cval, PetscMax(nnz, 1), &Tp->csc2csr));
  PetscCall(PetscMalloc1(PetscMax(nnz, 1), &ps));
  PetscCall(PetscMalloc2(n, &iperm, n + 1, &cnt));
  for (PetscInt i = 0; i < n; i++) iperm[perm[i]] = i;
  /* rows: row r of Tp is row perm[r] of T, columns renumbered, then sorted (a topological order keeps them on the
     triangle's side of the diagonal, not their order) */
  Tp->rowptr[0] = 0;
  for (PetscInt r = 0; r < n; r++) {
    const PetscInt o = perm[r], k0 = T->rowptr[o], len = T->rowptr[o + 1] - k0, q0 = Tp->rowptr[r];

    for (PetscInt k = 0; k < len; k++) {
      Tp->colidx[q0 + k] = iperm[T->colidx[k0 + k]];
      ps[q0 + k]         = k0 + k;
    }
    PetscCall(PetscSortIntWithArray(len, Tp->colidx + q0, ps + q0));
    Tp->rowptr[r + 1] = q0 + len;
  }
  /* columns: counted, then filled row by row (so each column's rows increase) */
  PetscCall(PetscArrayzero(cnt, n + 1));
  for (PetscInt q = 0; q < nnz; q++) cnt[Tp->colidx[q] + 1]++;
  Tp->colptr[0] = 0;
  for (PetscInt j = 0; j < n; j++) Tp->colptr[j + 1] = Tp->colptr[j] + cnt[j + 1];
  for (PetscInt j = 0; j < n; j++) cnt[j] = Tp->colptr[j];
  for (PetscInt r = 0; r < n; r++) {
    for (PetscInt q = Tp->rowptr[r]; q < Tp->rowptr[r + 1]; q++) {
      const PetscInt c = cnt[Tp->colidx[q]]++;

      Tp->rowidx[c]  = r;
      Tp->csc2csr[c] = q;
    }
  }
  if (T->src) {
    PetscCall(PetscMalloc1(PetscMax(nnz, 1), &Tp->src));
    for (PetscInt q = 0; q < nnz; q++) Tp->src[q] = T->src[ps[q]];
  }
  PetscCall(PetscFree2(iperm, cnt));
  *pos = ps;
  PCSubtreeILUTriPermuteValues_Private(T, ps, Tp);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Tp's values (CSR and CSC) from T's, after a numeric factorization refreshed them */
PETSC_INTERN void PCSubtreeILUTriPermuteValues_Private(const PCSubtreeILUTri *T, const PetscInt *pos, PCSubtreeILUTri *Tp)
{
  for (PetscInt q = 0; q < Tp->nnz; q++) Tp->val[q] = T->val[pos[q]];
  for (PetscInt c = 0; c < Tp->nnz; c++) Tp->cval[c] = Tp->val[Tp->csc2csr[c]];
}
