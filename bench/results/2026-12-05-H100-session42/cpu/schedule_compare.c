#include "/work/main/src/ksp/pc/impls/subtreeilu/subtreeilugroups.c"
#include "old_renamed.c" /* made by schedule_compare.sh from ee2c96f */
#include <petsctime.h>
/* a random triangular pattern: each row gets up to d entries from a window w below (or above) it, plus chain links */
static PetscErrorCode Random(PetscInt n, PetscInt d, PetscInt win, PetscReal plink, PetscBool lower, unsigned seed, PCSubtreeILUTri *T)
{
  PetscInt nnz = 0;
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(T, sizeof(*T)));
  T->n = n; T->lower = lower;
  PetscCall(PetscMalloc1(n + 1, &T->rowptr));
  PetscCall(PetscMalloc1((size_t)n * (d + 1) + 1, &T->colidx));
  srand(seed);
  T->rowptr[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    PetscInt c[64], m = 0;
    PetscInt lim = lower ? i : n - 1 - i; /* candidates available */
    if (lim > 0 && rand() / (double)RAND_MAX < plink) c[m++] = lower ? i - 1 : i + 1;
    PetscInt dd = lim > 0 ? rand() % (d + 1) : 0;
    for (PetscInt e = 0; e < dd; e++) {
      PetscInt off = 1 + rand() % PetscMin(win, lim);
      c[m++] = lower ? i - off : i + off;
    }
    PetscCall(PetscSortRemoveDupsInt(&m, c));
    for (PetscInt e = 0; e < m; e++) T->colidx[nnz++] = c[e];
    T->rowptr[i + 1] = nnz;
  }
  T->nnz = nnz;
  PetscFunctionReturn(PETSC_SUCCESS);
}
static PetscErrorCode Grid(PetscInt N, PetscInt dim, PetscBool lower, PCSubtreeILUTri *T)
{
  PetscInt n = dim == 3 ? N * N * N : N * N, nnz = 0, off[3] = {1, N, N * N};
  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(T, sizeof(*T)));
  T->n = n; T->lower = lower;
  PetscCall(PetscMalloc1(n + 1, &T->rowptr));
  PetscCall(PetscMalloc1(3 * (size_t)n + 1, &T->colidx));
  T->rowptr[0] = 0;
  for (PetscInt i = 0; i < n; i++) {
    PetscInt x = i % N, y = (i / N) % N, z = i / (N * N);
    if (lower) { if (dim == 3 && z > 0) T->colidx[nnz++] = i - off[2]; if (y > 0) T->colidx[nnz++] = i - off[1]; if (x > 0) T->colidx[nnz++] = i - off[0]; }
    else { if (x < N - 1) T->colidx[nnz++] = i + off[0]; if (y < N - 1) T->colidx[nnz++] = i + off[1]; if (dim == 3 && z < N - 1) T->colidx[nnz++] = i + off[2]; }
    T->rowptr[i + 1] = nnz;
  }
  T->nnz = nnz;
  PetscFunctionReturn(PETSC_SUCCESS);
}
static PetscInt nbad = 0, ncases = 0;
static PetscErrorCode Compare(PCSubtreeILUTri *T, PetscInt chain, PetscInt super, PetscInt warps, PetscBool cutlate, PetscBool timeit)
{
  PCSubtreeILUGroupsWork w1, w2; PCSubtreeILUGroups G1, G2; PetscLogDouble t0, t1, t2;
  PetscFunctionBeginUser;
  PetscCall(OldSetUp(T, chain, super, warps, cutlate, &w1));
  PetscCall(PCSubtreeILUGroupsSetUp_Private(T, chain, super, warps, cutlate, &w2));
  PetscCall(PetscTime(&t0)); OldCompute(&w1); PetscCall(PetscTime(&t1)); PCSubtreeILUGroupsCompute_Private(&w2); PetscCall(PetscTime(&t2));
  PetscBool same = (PetscBool)(w1.badrow == w2.badrow && w1.badcol == w2.badcol);
  if (w1.badrow < 0 && same) {
    PCSubtreeILUGroups *a = &w1.G, *b = &w2.G;
    same = (PetscBool)(a->ngroups == b->ngroups && a->nsuper == b->nsuper && a->nblk == b->nblk && a->maxrows == b->maxrows && a->hops == b->hops && a->bdepth == b->bdepth);
    if (same) {
      for (PetscInt k = 0; k <= a->ngroups; k++) same = (PetscBool)(same && a->gptr[k] == b->gptr[k]);
      for (PetscInt k = 0; k <= a->nsuper; k++) same = (PetscBool)(same && a->sptr[k] == b->sptr[k]);
      for (PetscInt k = 0; k <= a->nblk; k++) same = (PetscBool)(same && a->bptr[k] == b->bptr[k]);
      for (PetscInt k = 0; k < a->nblk; k++) same = (PetscBool)(same && a->border[k] == b->border[k]);
    }
  }
  ncases++;
  if (!same) { nbad++; PetscCall(PetscPrintf(PETSC_COMM_SELF, "DIFFERENT: n %d lower %d chain %d warps %d cutlate %d bad %d/%d\n", (int)T->n, (int)T->lower, (int)chain, (int)warps, (int)cutlate, (int)w1.badrow, (int)w2.badrow)); }
  if (timeit) PetscCall(PetscPrintf(PETSC_COMM_SELF, "n %d %s: old %.1f ms new %.1f ms (bdepth %d nblk %d)\n", (int)T->n, T->lower ? "L" : "U", (t1 - t0) * 1e3, (t2 - t1) * 1e3, (int)w1.G.bdepth, (int)w1.G.nblk));
  PetscCall(PetscFree3(w1.gof, w1.fin, w1.cnt)); /* (OldFinish would free with Free3 too) */
  PetscCall(PCSubtreeILUGroupsDestroy_Private(&w1.G));
  PetscCall(PCSubtreeILUGroupsFinish_Private(&w2, &G2) == PETSC_SUCCESS ? PETSC_SUCCESS : PETSC_SUCCESS);
  if (w2.badrow < 0) PetscCall(PCSubtreeILUGroupsDestroy_Private(&G2));
  (void)G1;
  PetscFunctionReturn(PETSC_SUCCESS);
}
int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscPushErrorHandler(PetscIgnoreErrorHandler, NULL));
  for (int lower = 0; lower < 2; lower++) {
    PCSubtreeILUTri T;
    PetscCall(Grid(100, 3, (PetscBool)lower, &T)); PetscCall(Compare(&T, 32, 32, 8, PETSC_TRUE, PETSC_TRUE)); PetscCall(Compare(&T, 32, 32, 8, PETSC_TRUE, PETSC_TRUE)); PetscCall(PetscFree(T.rowptr)); PetscCall(PetscFree(T.colidx));
    PetscCall(Grid(1000, 2, (PetscBool)lower, &T)); PetscCall(Compare(&T, 32, 32, 8, PETSC_TRUE, PETSC_TRUE)); PetscCall(PetscFree(T.rowptr)); PetscCall(PetscFree(T.colidx));
    for (PetscInt N = 1; N <= 40; N += 13) for (PetscInt dim = 2; dim <= 3; dim++) {
      PetscCall(Grid(N, dim, (PetscBool)lower, &T));
      for (PetscInt chain = 1; chain <= 33; chain += 8) for (PetscInt warps = 1; warps <= 9; warps += 4) for (int cl = 0; cl < 2; cl++) PetscCall(Compare(&T, chain, 4, warps, (PetscBool)cl, PETSC_FALSE));
      PetscCall(PetscFree(T.rowptr)); PetscCall(PetscFree(T.colidx));
    }
    for (unsigned seed = 1; seed <= 60; seed++) {
      PetscInt n = 1 + (seed * 7919) % 3000, d = 1 + seed % 6, win = 1 + (seed * 31) % 200;
      PetscCall(Random(n, d, win, (seed % 4) / 3.0, (PetscBool)lower, seed, &T));
      for (PetscInt chain = 1; chain <= 33; chain += 16) for (PetscInt warps = 1; warps <= 8; warps += 7) for (int cl = 0; cl < 2; cl++) PetscCall(Compare(&T, chain, 1 + seed % 5, warps, (PetscBool)cl, PETSC_FALSE));
      /* a wrong-side entry */
      if (T.nnz > 2) { PetscInt k = T.nnz / 2, sv = T.colidx[k]; PetscInt row = 0; while (T.rowptr[row + 1] <= k) row++; T.colidx[k] = row; PetscCall(Compare(&T, 32, 4, 8, PETSC_TRUE, PETSC_FALSE)); T.colidx[k] = sv; }
      PetscCall(PetscFree(T.rowptr)); PetscCall(PetscFree(T.colidx));
    }
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%d cases, %d different\n", (int)ncases, (int)nbad));
  PetscCall(PetscFinalize());
  return 0;
}
