/*
  Column-access counting of the storage-format predictor (PellrFeaturesAddLocality() in pellrpredict.c), shared by the
  host and the GPU: pellrpredict.c runs these functions on the host's CSR, pellrpredict.cu runs the very same code in
  GPU threads on the device CSR (one thread per sampled 32-row group or PELLR slice), so both give the same integer
  counts and hence the same features, bit for bit. Plain C (no PETSc calls): it compiles as C and as CUDA.
*/
#pragma once

#include "pellrimpl.h"
#include "pellrpredict.h"

#if defined(__CUDACC__)
  #define PELLR_HD __host__ __device__
#else
  #define PELLR_HD
#endif

/* the integer counts the sampling adds up (PellrFeaturesAddLocality() turns them into features) */
typedef struct {
  PetscInt64 xc, ec;          /* CSR: new x sectors and entries read, sampled windows */
  PetscInt64 xn, en;          /* ELLR/SELL (32 consecutive rows), sampled windows */
  PetscInt64 xl, el;          /* PELLR's long rows, sampled windows */
  PetscInt64 xs, es;          /* PELLR's sorted slices */
  PetscInt64 ys, rs;          /* sectors of y PELLR's sampled slices write, and their rows */
  PetscInt64 dsell, tsell;    /* SELL: slots of the sampled diagonal slices, and of all sampled slices */
  PetscInt64 dellr, tellr;    /* ELLR: the same */
  PetscInt64 dpellr, tpellr;  /* PELLR: the same */
} PellrLocalityCounts;
#define PELLR_LOCALITY_NCOUNTS 16
#define PELLR_PRED_SORT_WINDOWS 4 /* sorted windows sampled at most (nvp) */

/* what is sampled: windows of W consecutive rows (nv of the nwin, evenly spaced), and nvp windows of Wp rows sorted by
   length (PELLR's slices, nch of each window's slices) when the block has slice rows (sorted) */
typedef struct {
  PetscInt   m, maxlen, long_min;
  PetscInt64 cap;            /* entries read per row at most */
  PetscInt   W, nwin, nv;    /* the windows of consecutive rows */
  PetscBool  sorted;         /* PELLR's slices are sampled */
  PetscInt   Wp, nwp, nvp;   /* the sorted windows (nvp <= PELLR_PRED_SORT_WINDOWS) */
  PetscInt   lmaxb;          /* slice rows are 1..lmaxb long */
  PetscInt   nch;            /* slices sampled per sorted window at most */
} PellrLocalitySampling;

/*
  The x sectors one warp reads step after step (PellrStepSectors()): the distinct sectors of the previous step, as a
  list (increasing when that step's lanes were) and, once needed, as a bitmap of their hashes. Why not sort every
  step: the lanes of a band or mesh are in increasing column order already (a linear merge with the previous step),
  but an insertion sort of 32 random columns mispredicts a branch at nearly every move (rows of random columns cost
  5-8x more). Those go through bitmaps of 1024 hash bits instead: a clear bit proves a sector new, a set one (about
  3% of the lookups for 32 random sectors) is checked against the list. A GPU thread checks the lists alone: the bitmaps
  would double its stack (the count is the same: a bitmap only proves sectors absent from a list). Sectors are
  PetscInt (a column / 4) for the same reason.
*/
#define PELLR_SECTOR_WORDS 16 /* 1024 bits */
typedef struct {
  PetscInt  prev[PELLR_SLICE]; /* the previous step's distinct sectors, in lane order */
  PetscInt  np;
  PetscBool sorted, bits; /* prev[] is increasing; bit[p] holds prev[] */
  int       p;
#if !defined(__CUDA_ARCH__)
  unsigned long long bit[2][PELLR_SECTOR_WORDS];
#endif
} PellrWarpSectors;

/* no previous step */
PELLR_HD static inline void PellrWarpSectorsInit(PellrWarpSectors *w)
{
  w->np     = 0;
  w->sorted = PETSC_TRUE;
  w->bits   = PETSC_FALSE;
  w->p      = 0;
}

PELLR_HD static inline unsigned int PellrSectorHash(PetscInt v)
{
  return (unsigned int)(((unsigned long long)v * 0x9E3779B97F4A7C15ULL) >> 54); /* 10 bits */
}

PELLR_HD static inline PetscBool PellrSectorListed(PetscInt v, const PetscInt list[], PetscInt n)
{
  PetscInt found = 0;
  for (PetscInt a = 0; a < n; a++) found |= list[a] == v;
  return (PetscBool)found;
}

/* the x sectors (column / 4) sec[0..k-1] of one warp step of k <= 32 lanes: returns those not read at the warp's
   previous step, and makes them the previous step of the next call */
PELLR_HD static inline PetscInt PellrStepSectors(PellrWarpSectors *w, PetscInt k, const PetscInt sec[])
{
  PetscInt fresh = 0, u = 0, unsorted = 0;

  for (PetscInt a = 1; a < k; a++) unsorted |= sec[a] < sec[a - 1];
  if (!unsorted && w->sorted) { /* both increasing: a merge */
    PetscInt p = 0;
    for (PetscInt a = 0; a < k; a++) {
      if (a && sec[a] == sec[a - 1]) continue;
      while (p < w->np && w->prev[p] < sec[a]) p++;
      if (p == w->np || w->prev[p] != sec[a]) fresh++;
    }
    for (PetscInt a = 0; a < k; a++)
      if (!a || sec[a] != sec[a - 1]) w->prev[u++] = sec[a];
    w->bits = PETSC_FALSE;
  } else {
#if defined(__CUDA_ARCH__)
    PetscInt cur[PELLR_SLICE];

    for (PetscInt a = 0; a < k; a++) {
      const PetscInt v = sec[a];

      if (PellrSectorListed(v, cur, u)) continue; /* read already at this step */
      cur[u++] = v;
      if (!PellrSectorListed(v, w->prev, w->np)) fresh++;
    }
    for (PetscInt a = 0; a < u; a++) w->prev[a] = cur[a];
#else
    unsigned long long *pb = w->bit[w->p], *cb = w->bit[w->p ^ 1];
    PetscInt            cur[PELLR_SLICE];

    if (!w->bits) {
      for (PetscInt a = 0; a < PELLR_SECTOR_WORDS; a++) pb[a] = 0;
      for (PetscInt a = 0; a < w->np; a++) {
        const unsigned int h = PellrSectorHash(w->prev[a]);
        pb[h >> 6] |= 1ULL << (h & 63);
      }
    }
    for (PetscInt a = 0; a < PELLR_SECTOR_WORDS; a++) cb[a] = 0;
    for (PetscInt a = 0; a < k; a++) {
      const PetscInt           v = sec[a];
      const unsigned int       h = PellrSectorHash(v);
      const unsigned long long b = 1ULL << (h & 63);

      if ((cb[h >> 6] & b) && PellrSectorListed(v, cur, u)) continue; /* read already at this step */
      cb[h >> 6] |= b;
      cur[u++] = v;
      if (!(pb[h >> 6] & b) || !PellrSectorListed(v, w->prev, w->np)) fresh++;
    }
    for (PetscInt a = 0; a < u; a++) w->prev[a] = cur[a];
    w->p ^= 1;
    w->bits = PETSC_TRUE;
#endif
  }
  w->np     = u;
  w->sorted = (PetscBool)!unsorted;
  return fresh;
}

/* the warp steps of a group of k <= 32 rows (lane r: row rows[r]), each row up to cap entries: new x sectors and entries read */
PELLR_HD static inline void PellrGroupSectors(const PetscInt *rp, const PetscInt *cj, const PetscInt rows[], PetscInt k, PetscInt cap, PetscInt64 *fresh, PetscInt64 *entries)
{
  PetscInt         sec[PELLR_SLICE], beg[PELLR_SLICE];
  PetscInt         w = 0, len[PELLR_SLICE], lane[PELLR_SLICE];
  PellrWarpSectors ws;

  for (PetscInt r = 0; r < k; r++) {
    beg[r] = rp[rows[r]] - rp[0];
    len[r] = rp[rows[r] + 1] - rp[rows[r]];
    w      = PetscMax(w, len[r]);
  }
  w = PetscMin(w, cap);
  PellrWarpSectorsInit(&ws);
  for (PetscInt r = 0; r < k; r++) lane[r] = r;
  for (PetscInt j = 0, nl = k; j < w; j++) {
    PetscInt nc = 0, q = 0;
    for (PetscInt r = 0; r < nl; r++) /* the lanes still reading at step j, in lane order */
      if (len[lane[r]] > j) lane[q++] = lane[r];
    nl = q;
    for (PetscInt r = 0; r < nl; r++) sec[nc++] = cj[beg[lane[r]] + j] / 4;
    *entries += nc;
    *fresh += PellrStepSectors(&ws, nc, sec);
  }
}

/* a row read by a warp (CSR, PELLR long rows), up to cap entries: x sectors of each 32 consecutive entries */
PELLR_HD static inline void PellrRowSectors(const PetscInt *rp, const PetscInt *cj, PetscInt i, PetscInt cap, PetscInt64 *fresh, PetscInt64 *entries)
{
  PetscInt         sec[PELLR_SLICE];
  PetscInt         len = PetscMin(rp[i + 1] - rp[i], cap);
  PellrWarpSectors ws;

  for (PetscInt q = 0; q < len; q += PELLR_SLICE) {
    PetscInt nc = 0; /* a chunk's sectors, all new (consecutive chunks of a row rarely share one) */
    for (PetscInt t = q; t < PetscMin(len, q + PELLR_SLICE); t++) sec[nc++] = cj[rp[i] - rp[0] + t] / 4;
    *entries += nc;
    PellrWarpSectorsInit(&ws);
    *fresh += PellrStepSectors(&ws, nc, sec);
  }
}

/* whether the k rows rows[] (k = 32: a full slice) are all w long (w > 0) with entry j at the same column - row in
   every row: a diagonal slice of width w (the GPU's rule, pellr_diagonal_detect() in pellrcuda.cu) */
PELLR_HD static inline PetscBool PellrGroupDiagonal(const PetscInt *rp, const PetscInt *cj, const PetscInt rows[], PetscInt k, PetscInt w)
{
  if (k != PELLR_SLICE || w <= 0 || w > PELLR_PRED_SAMPLE_NNZ / 4) return PETSC_FALSE; /* rows beyond the sampling's cap: not checked */
  for (PetscInt r = 0; r < k; r++)
    if (rp[rows[r] + 1] - rp[rows[r]] != w) return PETSC_FALSE;
  for (PetscInt j = 0; j < w; j++) {
    const PetscInt64 d0 = (PetscInt64)cj[rp[rows[0]] - rp[0] + j] - rows[0];
    for (PetscInt r = 1; r < k; r++)
      if ((PetscInt64)cj[rp[rows[r]] - rp[0] + j] - rows[r] != d0) return PETSC_FALSE;
  }
  return PETSC_TRUE;
}


#if defined(PETSC_HAVE_CUDA)
PETSC_INTERN PetscErrorCode PellrLocalityCountDevice(const PellrLocalitySampling *, const PetscInt *, const PetscInt *, PellrLocalityCounts *); /* pellrpredict.cu */
#endif

/* the window [a, b) of consecutive rows number v (of s->nv) */
PELLR_HD static inline void PellrLocalityWindow(const PellrLocalitySampling *s, PetscInt v, PetscInt *a, PetscInt *b)
{
  *a = (PetscInt)((PetscInt64)v * s->nwin / s->nv) * s->W;
  *b = *a + s->W < s->m ? *a + s->W : s->m;
}

/* the sorted window [a, b) number v (of s->nvp) */
PELLR_HD static inline void PellrLocalitySortWindow(const PellrLocalitySampling *s, PetscInt v, PetscInt *a, PetscInt *b)
{
  *a = (PetscInt)((PetscInt64)v * s->nwp / s->nvp) * s->Wp;
  *b = *a + s->Wp < s->m ? *a + s->Wp : s->m;
}

/* one 32-row group [g, e) of a sampled window (g a multiple of 32 from the window's start; e <= g + 32): CSR's chunks of
   each row, the group's ELLR/SELL warp steps and whether it is a diagonal slice, and PELLR's long rows among them */
PELLR_HD static inline void PellrLocalityWindowGroup(const PellrLocalitySampling *s, const PetscInt *rp, const PetscInt *cj, PetscInt g, PetscInt e, PellrLocalityCounts *c)
{
  PetscInt rows[PELLR_SLICE], k = 0, w = 0;

  for (PetscInt i = g; i < e; i++) {
    const PetscInt l = rp[i + 1] - rp[i];
    PellrRowSectors(rp, cj, i, (PetscInt)s->cap, &c->xc, &c->ec); /* CSR */
    rows[k++] = i;
    w         = PetscMax(w, l);
  }
  PellrGroupSectors(rp, cj, rows, k, (PetscInt)s->cap, &c->xn, &c->en); /* ELLR, SELL */
  /* diagonal slices: SELL's slice is as wide as its longest row, ELLR's as the block's (windows start at multiples of
     32 rows, so these groups are the layouts' slices) */
  c->tsell += (PetscInt64)PELLR_SLICE * w;
  c->tellr += (PetscInt64)k * s->maxlen; /* ELLR's slots: m maxlen */
  if (PellrGroupDiagonal(rp, cj, rows, k, w)) {
    c->dsell += (PetscInt64)PELLR_SLICE * w;
    if (w == s->maxlen) c->dellr += (PetscInt64)PELLR_SLICE * w;
  }
  for (PetscInt i = g; i < e; i++) { /* PELLR's long rows: a warp (or block) each */
    const PetscInt l = rp[i + 1] - rp[i];
    if (s->long_min && l >= s->long_min) PellrRowSectors(rp, cj, i, (PetscInt)s->cap, &c->xl, &c->el);
  }
}

/* the c-th of the evenly spaced slices sampled from a sorted window of ns slice rows (at most nch of them): its first
   position *q in the window's order and its rows *k; false when there is no c-th */
PELLR_HD static inline PetscBool PellrLocalitySortedSlice(PetscInt ns, PetscInt nch, PetscInt c, PetscInt *q, PetscInt *k)
{
  const PetscInt nslc = (ns + PELLR_SLICE - 1) / PELLR_SLICE, take = PetscMin(nslc, nch);

  if (c >= take) return PETSC_FALSE;
  *q = (PetscInt)((PetscInt64)c * nslc / take) * PELLR_SLICE;
  *k = PetscMin(ns - *q, (PetscInt)PELLR_SLICE);
  return PETSC_TRUE;
}

/* one sampled slice of PELLR's sorted order: its k <= 32 rows rows[] (longest first) */
PELLR_HD static inline void PellrLocalitySlice(const PetscInt *rp, const PetscInt *cj, const PetscInt rows[], PetscInt k, PetscInt cap, PellrLocalityCounts *c)
{
  const PetscInt w = rp[rows[0] + 1] - rp[rows[0]]; /* the slice's width: its first (longest) row */

  PellrGroupSectors(rp, cj, rows, k, cap, &c->xs, &c->es);
  c->tpellr += (PetscInt64)PELLR_SLICE * w;
  if (PellrGroupDiagonal(rp, cj, rows, k, w)) c->dpellr += (PetscInt64)PELLR_SLICE * w;
  for (PetscInt r = 0; r < k; r++) { /* the distinct sectors of y the slice writes */
    PetscInt fresh = 1;
    for (PetscInt q = 0; q < r && fresh; q++) fresh = rows[q] / 4 != rows[r] / 4;
    c->ys += fresh;
  }
  c->rs += k;
}
