/*
  gpurcm's serial backend: SPARSEPACK's genrcm (fnroot, rootls, rcm, degree) ported 0-based, as PETSc's MATORDERINGRCM
  runs it, with two shortcuts on a symmetric graph (degree = row length, no degree pass; the root finder's pass from a
  candidate is the numbering from it, -mat_gpurcm_speculate). The threads backend orders its small components with it.
*/
#include "gpurcmhost.h"
#include "gpurcmsort.h"

/* ------------------------------------------------------------------------------------------------
   Serial reference: SPARSEPACK genrcm, 0-based. mask[v] != 0 means v is not yet numbered.
   ------------------------------------------------------------------------------------------------ */

/* rootls: level structure rooted at root among masked nodes; xls[0..nlvl] level starts (xls[nlvl] = size) */
static void GPURCMRootls(PetscInt root, const PetscInt *ia, const PetscInt *ja, PetscInt *mask, PetscInt *nlvl, PetscInt *xls, PetscInt *ls)
{
  PetscInt nl = 0, lvlend = 0, cc = 1, lbegin;

  mask[root] = 0;
  ls[0]      = root;
  do {
    lbegin      = lvlend;
    lvlend      = cc;
    xls[nl++]   = lbegin;
    for (PetscInt i = lbegin; i < lvlend; i++) {
      const PetscInt node = ls[i];
      for (PetscInt j = ia[node]; j < ia[node + 1]; j++) {
        const PetscInt nbr = ja[j];
        if (!mask[nbr]) continue;
        ls[cc++]  = nbr;
        mask[nbr] = 0;
      }
    }
  } while (cc > lvlend);
  xls[nl] = lvlend;
  for (PetscInt i = 0; i < cc; i++) mask[ls[i]] = 1;
  *nlvl = nl;
}

/* Number of masked neighbours of node (SPARSEPACK's degree in the section graph) */
static inline PetscInt GPURCMMaskedDegree(PetscInt node, const PetscInt *ia, const PetscInt *ja, const PetscInt *mask)
{
  PetscInt d = 0;
  for (PetscInt k = ia[node]; k < ia[node + 1]; k++) d += (mask[ja[k]] > 0);
  return d;
}

/* fnroot's next root: the first node of list[0..n) (a last level in rootls's order) of smallest masked degree (mask NULL:
   the row length, the masked degree in a graph known symmetric, whose component is all unmasked); *tie: another node
   has that degree too. (SPARSEPACK starts from the bound ccsize and keeps list[0] unless a degree is smaller; a degree
   never exceeds ccsize, so the first minimum is the same node.) */
static inline PetscInt GPURCMFirstMinDegree(PetscInt n, const PetscInt *list, const PetscInt *ia, const PetscInt *ja, const PetscInt *mask, PetscBool *tie)
{
  PetscInt best = list[0], mindeg = mask ? GPURCMMaskedDegree(list[0], ia, ja, mask) : ia[list[0] + 1] - ia[list[0]];

  *tie = PETSC_FALSE;
  for (PetscInt j = 1; j < n; j++) {
    const PetscInt d = mask ? GPURCMMaskedDegree(list[j], ia, ja, mask) : ia[list[j] + 1] - ia[list[j]];
    if (d < mindeg) {
      best   = list[j];
      mindeg = d;
      *tie   = PETSC_FALSE;
    } else if (d == mindeg) *tie = PETSC_TRUE;
  }
  return best;
}

/* fnroot: pseudo-peripheral node of the component of root; SPARSEPACK's return rule */
static void GPURCMFnroot(PetscInt *root, const PetscInt *ia, const PetscInt *ja, PetscInt *mask, PetscInt *xls, PetscInt *ls)
{
  PetscInt nlvl, nunlvl, cc;

  GPURCMRootls(*root, ia, ja, mask, &nlvl, xls, ls);
  cc = xls[nlvl];
  if (nlvl == 1 || nlvl == cc) return;
  for (;;) {
    PetscBool tie;

    *root = GPURCMFirstMinDegree(cc - xls[nlvl - 1], ls + xls[nlvl - 1], ia, ja, mask, &tie);
    GPURCMRootls(*root, ia, ja, mask, &nunlvl, xls, ls);
    if (nunlvl <= nlvl) return;
    nlvl = nunlvl;
    if (nlvl >= cc) return;
  }
}

/* Cuthill-McKee from root, not reversed: perm[0..cc) level by level, FIFO, each node's unnumbered neighbours in
   adjacency order stably sorted by deg[] (NULL: the row length, the degree in a graph known symmetric); *nlvl
   levels, the last from perm[*last]; the numbered nodes' mask entries are left 0 */
static void GPURCMCuthillMcKee(PetscInt root, const PetscInt *ia, const PetscInt *ja, PetscInt *mask, const PetscInt *deg, PetscInt *perm, PetscInt *ccsize, PetscInt *nlvl, PetscInt *last, PetscInt *tmp)
{
  PetscInt tail = 1, lbeg = 0, nl = 0;

  perm[0]    = root;
  mask[root] = 0;
  while (lbeg < tail) { /* (runs at least once: *last is set) */
    const PetscInt lend = tail;

    nl++;
    *last = lbeg;
    for (PetscInt i = lbeg; i < lend; i++) {
      const PetscInt node = perm[i], fnbr = tail;
      for (PetscInt j = ia[node]; j < ia[node + 1]; j++) {
        const PetscInt nbr = ja[j];
        if (!mask[nbr]) continue;
        mask[nbr]    = 0;
        perm[tail++] = nbr;
      }
      GPURCMStableSort(tail - fnbr, perm + fnbr, deg, ia, tmp);
    }
    lbeg = lend;
  }
  *ccsize = tail;
  *nlvl   = nl;
}

static inline void GPURCMReverse(PetscInt n, PetscInt *perm)
{
  for (PetscInt i = 0, l = n - 1; i < l; i++, l--) {
    const PetscInt t = perm[i];
    perm[i]          = perm[l];
    perm[l]          = t;
  }
}

/*
  SPARSEPACK's fnroot then rcm on a symmetric graph (the same permutation), with every candidate root's pass (after the
  first) run as the Cuthill-McKee numbering from it, whose levels are rootls's: when fnroot returns that candidate
  the numbering is kept, which saves the pass the numbering would repeat (as -mat_gpurcm_speculate in the parallel
  backends). A rejected candidate's last level is needed in rootls's order only where several of its nodes share the
  smallest degree (fnroot takes the first): then rootls runs for it. perm: the component's RCM order; ls = perm as
  workspace.
*/
static void GPURCMFnrootRcmSpeculative(PetscInt root, const PetscInt *ia, const PetscInt *ja, PetscInt *mask, PetscInt *xls, PetscInt *perm, PetscInt *ccsize, PetscInt *tmp)
{
  PetscInt  nlvl, nunlvl, cc, cand = root, last;
  PetscBool tie;

  GPURCMRootls(root, ia, ja, mask, &nlvl, xls, perm);
  cc = xls[nlvl];
  if (nlvl > 1 && nlvl < cc) {
    cand = GPURCMFirstMinDegree(cc - xls[nlvl - 1], perm + xls[nlvl - 1], ia, ja, NULL, &tie);
    for (;;) {
      GPURCMCuthillMcKee(cand, ia, ja, mask, NULL, perm, &cc, &nunlvl, &last, tmp);
      if (nunlvl <= nlvl || nunlvl >= cc) break; /* fnroot returns cand: its numbering is kept */
      nlvl = nunlvl;
      for (PetscInt k = 0; k < cc; k++) mask[perm[k]] = 1; /* dropped */
      root = cand;
      cand = GPURCMFirstMinDegree(cc - last, perm + last, ia, ja, NULL, &tie);
      if (tie) { /* fnroot takes the first of equals in rootls's order of the last level */
        GPURCMRootls(root, ia, ja, mask, &nunlvl, xls, perm);
        cand = GPURCMFirstMinDegree(cc - xls[nunlvl - 1], perm + xls[nunlvl - 1], ia, ja, NULL, &tie);
      }
    }
  } else GPURCMCuthillMcKee(root, ia, ja, mask, NULL, perm, &cc, &nunlvl, &last, tmp); /* fnroot returns root */
  GPURCMReverse(cc, perm);
  *ccsize = cc;
}

/* rcm: numbers the component of root (Cuthill-McKee then reversed) into perm[0..cc); deg/mark are work arrays (mark
   zero on entry and exit). symmetric: the graph is known symmetric, so a node's SPARSEPACK degree (its masked
   neighbours: the whole component is unnumbered and no edge leaves it) is its row length, and the degree pass (a
   BFS of its own over the component, about a fifth of the serial ordering) is skipped */
static void GPURCMRcm(PetscInt root, const PetscInt *ia, const PetscInt *ja, PetscInt *mask, PetscInt *perm, PetscInt *ccsize, PetscInt *deg, PetscInt *mark, PetscInt *tmp, PetscBool symmetric)
{
  PetscInt cc = 1, cm, nlvl, last;

  if (!symmetric) {
    /* SPARSEPACK degree: degrees in the section graph, component listed level by level into perm */
    perm[0]    = root;
    mark[root] = 1;
    for (PetscInt i = 0; i < cc; i++) {
      const PetscInt node = perm[i];
      PetscInt       ideg = 0;
      for (PetscInt j = ia[node]; j < ia[node + 1]; j++) {
        const PetscInt nbr = ja[j];
        if (!mask[nbr]) continue;
        ideg++;
        if (mark[nbr]) continue;
        mark[nbr]  = 1;
        perm[cc++] = nbr;
      }
      deg[node] = ideg;
    }
    for (PetscInt i = 0; i < cc; i++) mark[perm[i]] = 0;
  } else deg = NULL;
  GPURCMCuthillMcKee(root, ia, ja, mask, deg, perm, &cm, &nlvl, &last, tmp);
  if (symmetric) cc = cm; /* else SPARSEPACK's count, as rcm reverses */
  *ccsize = cc;
  GPURCMReverse(cc, perm);
}

/* one component, from its first node root: fnroot then rcm, speculative where allowed (a symmetric graph) */
void GPURCMOrderComponent(PetscInt root, const PetscInt *ia, const PetscInt *ja, PetscInt *mask, PetscInt *xls, PetscInt *perm, PetscInt *ccsize, PetscInt *deg, PetscInt *mark, PetscInt *tmp, PetscBool symmetric, PetscBool speculate)
{
  if (symmetric && speculate) GPURCMFnrootRcmSpeculative(root, ia, ja, mask, xls, perm, ccsize, tmp);
  else {
    GPURCMFnroot(&root, ia, ja, mask, xls, perm);
    GPURCMRcm(root, ia, ja, mask, perm, ccsize, deg, mark, tmp, symmetric);
  }
}

/* Is the CSR (n rows, 0-based) structurally symmetric with strictly ascending rows? One pass in row order: the
   entries (r, c) above the diagonal, met in ascending r, must be the entries below the diagonal of each row c in their
   stored order, matched through a cursor per row (cur[], n entries of workspace); equal totals then leave none
   unmatched. O(nnz); a binary search per entry instead took 1.7x the time of PETSc's symmetrization on 27-point meshes. */
PetscBool GPURCMCSRIsSymmetric(PetscInt n, const PetscInt *ia, const PetscInt *ja, PetscInt *cur)
{
  PetscInt64 nlow = 0, nup = 0;

  for (PetscInt r = 0; r < n; r++) cur[r] = ia[r];
  for (PetscInt r = 0; r < n; r++) {
    PetscInt prev = -1;

    for (PetscInt k = ia[r]; k < ia[r + 1]; k++) {
      const PetscInt c = ja[k];

      if (c <= prev || c >= n) return PETSC_FALSE;
      prev = c;
      if (c < r) nlow++;
      else if (c > r) {
        if (cur[c] == ia[c + 1] || ja[cur[c]] != r) return PETSC_FALSE;
        cur[c]++;
        nup++;
      }
    }
  }
  return (PetscBool)(nlow == nup);
}

PetscErrorCode MatGPURCMSerial_Private(PetscInt n, const PetscInt ia[], const PetscInt ja[], PetscBool symmetric, PetscBool speculate, PetscInt perm[])
{
  PetscInt *mask, *xls, *deg, *mark, *tmp, num = 0;

  PetscFunctionBegin;
  if (n == 0) PetscFunctionReturn(PETSC_SUCCESS);
  if (n == 1) {
    perm[0] = 0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscMalloc5(n, &mask, n + 1, &xls, n, &deg, n, &mark, n, &tmp));
  for (PetscInt i = 0; i < n; i++) mask[i] = 1, mark[i] = 0;
  for (PetscInt i = 0; i < n && num < n; i++) {
    PetscInt cc;
    if (!mask[i]) continue;
    GPURCMOrderComponent(i, ia, ja, mask, xls, perm + num, &cc, deg, mark, tmp, symmetric, speculate);
    num += cc;
  }
  PetscCall(PetscFree5(mask, xls, deg, mark, tmp));
  PetscFunctionReturn(PETSC_SUCCESS);
}
