/*
  The schedule of the cuda backend's solves (host code, so that CI tests it without a GPU: tests/subtreeilu5.c).

  Groups: at most maxchain consecutive rows in which the only dependencies are between consecutive rows i-1, i
  (lower T: T(i,i-1); upper: T(i-1,i)): chains, or rows independent of each other (e.g. within an RCM level); a row
  with any other dependency inside the group starts a new one, and so does an unlinked row after a chain (it would
  put two chains, e.g. two grid lines, into one warp ticket and serialize a wavefront). One warp solves a group, a
  lane per row (phase 2 of the solve kernel resolves the in-group dependencies, which are thus bidiagonal). The
  in-group entries are the same for T and T^T, so the groups serve both solves (traversed in opposite orders).
  Warp tickets: runs of at most maxsuper groups linked across their boundaries (one chain longer than a group).
  Block tickets: at most warps consecutive warp tickets, one per warp of a block (see SolveKernel).
*/
#include "subtreeiluimpl.h"

PETSC_INTERN PetscErrorCode PCSubtreeILUGroupsCreate_Private(const PCSubtreeILUTri *T, PetscInt maxchain, PetscInt maxsuper, PetscInt warps, PCSubtreeILUGroups *G)
{
  PetscInt *gptr, *sptr, *bptr, ng = 0, ns = 0, nb = 0, maxrows = 0, n = T->n;
  PetscBool glinked = PETSC_FALSE; /* the current group has a row linked to its predecessor */

  PetscFunctionBegin;
  PetscCheck(maxchain >= 1 && maxsuper >= 1 && warps >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Group sizes must be positive");
  /* the solve kernel relies on this for its termination (a warp only waits for rows of earlier groups) */
  for (PetscInt i = 0; i < n; i++) {
    for (PetscInt k = T->rowptr[i]; k < T->rowptr[i + 1]; k++) PetscCheck(T->lower ? T->colidx[k] < i : T->colidx[k] > i, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Triangular factor has entry (%" PetscInt_FMT ", %" PetscInt_FMT ") on the wrong side of the diagonal", i, T->colidx[k]);
  }
  PetscCall(PetscMalloc3(n + 1, &gptr, n + 1, &sptr, n + 1, &bptr));
  gptr[0] = sptr[0] = bptr[0] = 0;
  for (PetscInt i = 1; i < n; i++) {
    PetscBool       link, other = PETSC_FALSE;
    const PetscInt *e  = T->lower ? T->colidx : T->rowidx; /* the entries (i, j), j < i, or (k, i), k < i, ascending */
    PetscInt        e0 = T->lower ? T->rowptr[i] : T->colptr[i], k = (T->lower ? T->rowptr[i + 1] : T->colptr[i + 1]) - 1;

    if (T->lower) link = (T->rowptr[i + 1] > T->rowptr[i] && T->colidx[T->rowptr[i + 1] - 1] == i - 1) ? PETSC_TRUE : PETSC_FALSE;
    else link = (T->rowptr[i] > T->rowptr[i - 1] && T->colidx[T->rowptr[i - 1]] == i) ? PETSC_TRUE : PETSC_FALSE;
    if (k >= e0 && e[k] == i - 1) k--;
    if (k >= e0 && e[k] >= gptr[ng]) other = PETSC_TRUE; /* another dependency inside the group */
    if (!link && glinked) other = PETSC_TRUE;             /* an unlinked row after a chain */
    if (other || i - gptr[ng] >= maxchain) {
      glinked    = PETSC_FALSE;
      gptr[++ng] = i;
      /* a new warp ticket where the chain breaks (or is long): one warp keeps a long chain, so fewer tickets wait */
      if (!link || ng - sptr[ns] >= maxsuper) sptr[++ns] = ng;
    } else if (link) glinked = PETSC_TRUE;
  }
  if (n) {
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
  G->ngroups = ng;
  G->nsuper  = ns;
  G->nblk    = nb;
  G->maxrows = maxrows;
  G->gptr    = gptr;
  G->sptr    = sptr;
  G->bptr    = bptr;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_INTERN PetscErrorCode PCSubtreeILUGroupsDestroy_Private(PCSubtreeILUGroups *G)
{
  PetscFunctionBegin;
  PetscCall(PetscFree3(G->gptr, G->sptr, G->bptr));
  PetscCall(PetscMemzero(G, sizeof(*G)));
  PetscFunctionReturn(PETSC_SUCCESS);
}
