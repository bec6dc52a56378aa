/* The stable sort of child lists by degree, included by gpurcmserial.c and gpurcmthreads.c (a copy in each: it is
   called once per parent, and the compiler specializes and inlines it at the call sites as in one file) */
#pragma once

#include <petscsys.h>

/* The sort key of node v: key[v] when a key array is given, else v's row length in the graph (its degree there) */
static inline PetscInt GPURCMSortKey(const PetscInt *key, const PetscInt *ia, PetscInt v)
{
  return key ? key[v] : ia[v + 1] - ia[v];
}

/* Stable sort of a[0..n) by GPURCMSortKey() (insertion for short runs or without tmp, merge sort with tmp otherwise) */
static void GPURCMStableSort(PetscInt n, PetscInt *a, const PetscInt *key, const PetscInt *ia, PetscInt *tmp)
{
  if (n < 2) return;
  if (n <= 24 || !tmp) {
    for (PetscInt k = 1; k < n; k++) {
      const PetscInt v = a[k], kv = GPURCMSortKey(key, ia, v);
      PetscInt       l = k - 1;
      while (l >= 0 && GPURCMSortKey(key, ia, a[l]) > kv) {
        a[l + 1] = a[l];
        l--;
      }
      a[l + 1] = v;
    }
    return;
  }
  {
    const PetscInt h = n / 2;
    PetscInt       i = 0, j = h, o = 0;

    GPURCMStableSort(h, a, key, ia, tmp);
    GPURCMStableSort(n - h, a + h, key, ia, tmp);
    if (GPURCMSortKey(key, ia, a[h - 1]) <= GPURCMSortKey(key, ia, a[h])) return;
    while (i < h && j < n) tmp[o++] = (GPURCMSortKey(key, ia, a[j]) < GPURCMSortKey(key, ia, a[i])) ? a[j++] : a[i++];
    while (i < h) tmp[o++] = a[i++];
    while (j < n) tmp[o++] = a[j++];
    for (i = 0; i < n; i++) a[i] = tmp[i];
  }
}
