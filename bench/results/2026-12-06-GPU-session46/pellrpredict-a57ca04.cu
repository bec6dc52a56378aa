/*
  GPU part of the storage-format predictor (pellrpredict.c): one pass over the CSR row pointers in device memory
  summarizes the row lengths (the table of lengths < PELLR_PRED_HCAP, the list of longer ones, the sums over the
  aligned 32-, 8- and 4-row groups of the group's longest row, the 32-row groups by thread class and each class's
  longest row, the sum of
  |len_i - len_{i-1}|); the host finishes every feature from this
  summary exactly as for host row pointers, so both paths give identical features. Integer atomics only: deterministic.
*/
#include <cuda_runtime.h>
#include <petscdevice_cuda.h>
#include "pellrimpl.h"
#include "pellrpredict.h"
#include "pellrlocality.h"
#include <cub/cub.cuh>

#define PELLR_PRED_THREADS 256
#define PELLR_PRED_INLINE  1024 /* lengths >= PELLR_PRED_HCAP stored in the summary itself (copied back with it) */

typedef struct {
  unsigned long long ellr, pert, nbig, q4, q8;
  unsigned long long gcls[6]; /* 32-row groups by the thread class of their longest row */
  unsigned long long gmax[6]; /* the longest row of each class's groups */
  long long          rp0, rpm; /* rowptr[0], rowptr[m] */
  unsigned int       bad;      /* a negative row length */
  unsigned long long cnt[PELLR_PRED_HCAP];
  PetscInt           big[PELLR_PRED_INLINE]; /* the first lengths >= PELLR_PRED_HCAP; the others in the overflow array */
} PellrSummaryDev;

__device__ static inline long long WarpMaxLL(long long v)
{
  for (int off = 16; off > 0; off /= 2) v = max(v, __shfl_down_sync(0xffffffffu, v, off));
  return v;
}

/* the maximum over the aligned groups of g lanes (g = 4, 8), in every lane */
__device__ static inline long long GroupMaxLL(long long v, int g)
{
  for (int off = 1; off < g; off *= 2) v = max(v, __shfl_xor_sync(0xffffffffu, v, off));
  return v;
}

/* PellrThreadClass() of pellrpredict.c: 0 for 32 threads per row (PellrThreadsPerRow()) ... 5 for one */
__device__ static inline int ThreadClass(long long w)
{
  int t = 1, c = 5;
  while (t < 32 && w >= 32LL * t) {
    t *= 2;
    c--;
  }
  return c;
}

__device__ static inline unsigned long long WarpSumULL(unsigned long long v)
{
  for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

/* grid-stride over 32-row groups: blockDim and the stride are multiples of 32, so each warp holds one whole group */
__global__ static void pellr_predict_summary(long long m, const PetscInt *__restrict__ rp, PellrSummaryDev *st, PetscInt *over, unsigned long long cap)
{
  __shared__ unsigned int hist[PELLR_PRED_HCAP];
  const int               lane   = threadIdx.x & 31;
  const long long         stride = (long long)gridDim.x * blockDim.x;
  unsigned long long      ellr = 0, pert = 0, q4 = 0, q8 = 0, gc[6] = {0, 0, 0, 0, 0, 0}, gm[6] = {0, 0, 0, 0, 0, 0};

  if (blockIdx.x == 0 && threadIdx.x == 0) {
    st->rp0 = (long long)rp[0];
    st->rpm = (long long)rp[m];
  }
  for (int t = threadIdx.x; t < PELLR_PRED_HCAP; t += blockDim.x) hist[t] = 0;
  __syncthreads();
  for (long long base = (long long)blockIdx.x * blockDim.x + (threadIdx.x & ~31); base < m; base += stride) {
    const long long i = base + lane;
    long long       l = 0, wmax;

    if (i < m) {
      l = (long long)(rp[i + 1] - rp[i]);
      if (l < 0) {
        atomicOr(&st->bad, 1u);
        l = 0;
      }
      if (i > 0) {
        long long lp = (long long)(rp[i] - rp[i - 1]);
        if (lp < 0) lp = 0;
        pert += (unsigned long long)(l > lp ? l - lp : lp - l);
      }
      if (l < PELLR_PRED_HCAP) atomicAdd(&hist[l], 1u);
      else {
        const unsigned long long pos = atomicAdd(&st->nbig, 1ull);
        if (pos < PELLR_PRED_INLINE) st->big[pos] = (PetscInt)l;
        else if (pos - PELLR_PRED_INLINE < cap) over[pos - PELLR_PRED_INLINE] = (PetscInt)l;
      }
    }
    {
      const long long m4 = GroupMaxLL(l, 4), m8 = GroupMaxLL(l, 8); /* rows past m count 0, as the host's partial groups */
      if (lane % 4 == 0) q4 += (unsigned long long)m4;
      if (lane % 8 == 0) q8 += (unsigned long long)m8;
    }
    wmax = WarpMaxLL(l);
    if (lane == 0) {
      ellr += (unsigned long long)wmax;
      const int c = ThreadClass(wmax);
      gc[c]++;
      gm[c] = max(gm[c], (unsigned long long)wmax);
    }
  }
  ellr = WarpSumULL(ellr);
  pert = WarpSumULL(pert);
  q4   = WarpSumULL(q4);
  q8   = WarpSumULL(q8);
  if (lane == 0) {
    if (ellr) atomicAdd(&st->ellr, ellr);
    if (pert) atomicAdd(&st->pert, pert);
    if (q4) atomicAdd(&st->q4, q4);
    if (q8) atomicAdd(&st->q8, q8);
    for (int c = 0; c < 6; c++) {
      if (gc[c]) atomicAdd(&st->gcls[c], gc[c]);
      if (gm[c]) atomicMax(&st->gmax[c], gm[c]);
    }
  }
  __syncthreads();
  for (int t = threadIdx.x; t < PELLR_PRED_HCAP; t += blockDim.x)
    if (hist[t]) atomicAdd(&st->cnt[t], (unsigned long long)hist[t]);
}

/*
  One memset, one kernel and one copy back (two when more than PELLR_PRED_INLINE rows reach PELLR_PRED_HCAP entries;
  the pass is repeated with a large enough overflow array in the rare case of more than PELLR_PRED_INLINE + 65536 such rows)
*/
PetscErrorCode PellrLengthSummaryDevice(PetscInt m, const PetscInt *rp, PellrLengthSummary *s)
{
  PellrSummaryDev   *d_st = NULL, *h_st = NULL;
  PetscInt          *d_over = NULL;
  unsigned long long cap    = (unsigned long long)PetscMax(0, PetscMin(m - PELLR_PRED_INLINE, 65536));
  int                dev, sms;
  long long          blocks = ((long long)m + PELLR_PRED_THREADS - 1) / PELLR_PRED_THREADS;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(s, sizeof(*s)));
  if (!m) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallCUDA(cudaGetDevice(&dev));
  PetscCallCUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  blocks = PetscMin(blocks, 4 * (long long)sms);
  PetscCall(PetscMalloc1(1, &h_st));
  PetscCallCUDA(cudaMallocAsync((void **)&d_st, sizeof(PellrSummaryDev), 0)); /* stream-ordered temporaries, as the PELLR build */
  for (int pass = 0; pass < 2; pass++) {
    if (cap) PetscCallCUDA(cudaMallocAsync((void **)&d_over, (size_t)cap * sizeof(PetscInt), 0));
    PetscCallCUDA(cudaMemsetAsync(d_st, 0, sizeof(PellrSummaryDev), 0));
    pellr_predict_summary<<<(unsigned)blocks, PELLR_PRED_THREADS>>>((long long)m, rp, d_st, d_over, cap);
    PetscCallCUDA(cudaGetLastError());
    PetscCallCUDA(cudaMemcpy(h_st, d_st, sizeof(PellrSummaryDev), cudaMemcpyDeviceToHost));
    if (h_st->nbig <= PELLR_PRED_INLINE + cap) break;
    if (d_over) PetscCallCUDA(cudaFreeAsync(d_over, 0)); /* too many long rows for the overflow array: again with room for all */
    d_over = NULL;
    cap    = h_st->nbig - PELLR_PRED_INLINE;
  }
  s->nnz  = (PetscInt64)(h_st->rpm - h_st->rp0);
  s->ellr = (PetscInt64)h_st->ellr;
  s->pert = (PetscInt64)h_st->pert;
  s->q4   = (PetscInt64)h_st->q4;
  s->q8   = (PetscInt64)h_st->q8;
  for (int c = 0; c < 6; c++) {
    s->gcls[c] = (PetscInt64)h_st->gcls[c];
    s->gmax[c] = (PetscInt64)h_st->gmax[c];
  }
  s->nbig = (PetscInt)PetscMin(h_st->nbig, PELLR_PRED_INLINE + cap);
  for (PetscInt l = 0; l < PELLR_PRED_HCAP; l++) s->cnt[l] = (PetscInt64)h_st->cnt[l];
  PetscCall(PetscMalloc1(s->nbig, &s->big));
  for (PetscInt k = 0; k < PetscMin(s->nbig, PELLR_PRED_INLINE); k++) s->big[k] = h_st->big[k];
  if (s->nbig > PELLR_PRED_INLINE) PetscCallCUDA(cudaMemcpy(s->big + PELLR_PRED_INLINE, d_over, (size_t)(s->nbig - PELLR_PRED_INLINE) * sizeof(PetscInt), cudaMemcpyDeviceToHost));
  PetscCallCUDA(cudaFreeAsync(d_st, 0));
  if (d_over) PetscCallCUDA(cudaFreeAsync(d_over, 0));
  {
    const PetscBool bad = (PetscBool)(h_st->bad != 0 || s->nnz < 0), over = (PetscBool)(h_st->nbig > PELLR_PRED_INLINE + cap);

    PetscCall(PetscFree(h_st));
    if (bad || over) PetscCall(PetscFree(s->big));
    PetscCheck(!bad, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "Row pointers decrease (a negative row length)");
    PetscCheck(!over, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Lost lengths of rows >= %d entries", PELLR_PRED_HCAP);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------------------------------ column access */

static_assert(sizeof(PellrLocalityCounts) == PELLR_LOCALITY_NCOUNTS * sizeof(PetscInt64), "PellrLocalityCounts: 16 counts, no padding");

__device__ static void PellrLocalityCountsAdd(PellrLocalityCounts *out, const PellrLocalityCounts *c)
{
  const PetscInt64   *src = (const PetscInt64 *)c;
  unsigned long long *dst = (unsigned long long *)out;

  for (int q = 0; q < PELLR_LOCALITY_NCOUNTS; q++)
    if (src[q]) atomicAdd(dst + q, (unsigned long long)src[q]);
}

/* one thread per 32-row group of the sampled windows (gw groups a window): the host's PellrLocalityWindowGroup() */
__global__ static void pellr_locality_windows(PellrLocalitySampling s, const PetscInt *__restrict__ rp, const PetscInt *__restrict__ cj, PetscInt gw, PellrLocalityCounts *out)
{
  const long long     t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  PellrLocalityCounts c;
  PetscInt            a, b, g;

  if (t >= (long long)s.nv * gw) return;
  PellrLocalityWindow(&s, (PetscInt)(t / gw), &a, &b);
  g = a + (PetscInt)(t % gw) * PELLR_SLICE;
  if (g >= b) return;
  memset(&c, 0, sizeof(c));
  PellrLocalityWindowGroup(&s, rp, cj, g, min(b, g + PELLR_SLICE), &c);
  PellrLocalityCountsAdd(out, &c);
}

/* the sort keys of PELLR's sorted windows, laid out one after the other (window v from v Wp): window v's slice rows
   (lengths 1..lmaxb) get v K + lmaxb - l + 1, by decreasing length; other rows nvp K, after all windows */
__global__ static void pellr_locality_keys(PellrLocalitySampling s, const PetscInt *__restrict__ rp, unsigned long long K, long long N, unsigned long long *__restrict__ key, PetscInt *__restrict__ row)
{
  const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  PetscInt        a, b, v, i, l;

  if (t >= N) return;
  v = (PetscInt)(t / s.Wp);
  PellrLocalitySortWindow(&s, v, &a, &b);
  i      = a + (PetscInt)(t - (long long)v * s.Wp);
  l      = rp[i + 1] - rp[i];
  key[t] = (l > 0 && l <= s.lmaxb) ? (unsigned long long)v * K + (unsigned long long)(s.lmaxb - l + 1) : (unsigned long long)s.nvp * K;
  row[t] = i;
}

__device__ static inline long long LowerBound(const unsigned long long *key, long long n, unsigned long long x)
{
  long long lo = 0, hi = n;

  while (lo < hi) {
    const long long mid = lo + (hi - lo) / 2;
    if (key[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* the slice rows of sorted window v: their number, from position *lo of the sorted keys */
__device__ static inline PetscInt SortedWindowRows(const unsigned long long *key, long long N, unsigned long long K, PetscInt v, long long *lo)
{
  *lo = LowerBound(key, N, (unsigned long long)v * K);
  return (PetscInt)(LowerBound(key, N, (unsigned long long)(v + 1) * K) - *lo);
}

/* thread c of block row v: slice c of the nch evenly spaced slices of sorted window v (the host's choice of slices) */
__global__ static void pellr_locality_slices(PellrLocalitySampling s, const PetscInt *__restrict__ rp, const PetscInt *__restrict__ cj, unsigned long long K, long long N, const unsigned long long *__restrict__ key, const PetscInt *__restrict__ row, PellrLocalityCounts *out)
{
  const PetscInt      v = (PetscInt)blockIdx.y, c = (PetscInt)(blockIdx.x * blockDim.x + threadIdx.x);
  long long           lo;
  PetscInt            q, k;
  PellrLocalityCounts cc;

  if (c >= s.nch || !PellrLocalitySortedSlice(SortedWindowRows(key, N, K, v, &lo), s.nch, c, &q, &k)) return;
  memset(&cc, 0, sizeof(cc));
  PellrLocalitySlice(rp, cj, row + lo + q, k, (PetscInt)s.cap, &cc);
  PellrLocalityCountsAdd(out, &cc);
}

/*
  The same counts with a warp per group or slice (lane r: row r), the default: a thread per group reads its rows' entries
  one after the other, each a memory latency (0.35 ms on a 2D 1000^2 mesh, 9 ms where one window holds all the samples
  of long rows, against 0.1-1.5 ms on the host); a warp reads a step of all its rows at once. The lanes compute the
  host's counts exactly: a step's distinct sectors by __match_any_sync() (a lane counts when it is the first of its
  value), those of the previous step by comparing with each of its reading lanes.
*/
#define PELLR_FULL_MASK 0xffffffffu

/* the key of a lane for __match_any_sync(): its sector when it reads, else its lane (never equal to a sector key) */
__device__ static inline unsigned long long SectorKey(bool act, PetscInt sec, int lane)
{
  return act ? (1ULL << 32) | (unsigned int)sec : (unsigned long long)lane;
}

/* lanes with act whose value is the first (lowest lane) of its value among those lanes: their number */
__device__ static inline int WarpDistinct(bool act, PetscInt val, int lane)
{
  const unsigned int same = __match_any_sync(PELLR_FULL_MASK, SectorKey(act, val, lane));
  return __popc(__ballot_sync(PELLR_FULL_MASK, act && (__ffs(same) - 1) == lane));
}

/*
  A team of P warps (a block of 32 P threads) counts one group or slice: warp t takes the warp steps j = t, t + P, ...
  and the row chunks numbered t, t + P, ... A step's new sectors depend only on that step and the one before, so each
  warp reads both (the previous step again) and the team's integer counts add up to the single warp's. One warp per
  group made the long rows' samples a single chain of memory latencies: where rows are long few groups are sampled
  (one 32-row group of rows 350 long, read step by step: about 1 ms on an H200, as long as the host).
*/

/* the steps of the group's rows (lane r: row at beg, len entries, if has) that warp t of a team of P takes:
   PellrGroupSectors()'s new x sectors and entries read over them */
__device__ static inline void WarpGroupSectors(const PetscInt *__restrict__ cj, bool has, PetscInt beg, PetscInt len, PetscInt cap, int lane, int t, int P, PetscInt64 *fresh, PetscInt64 *entries)
{
  const PetscInt w = min((PetscInt)__reduce_max_sync(PELLR_FULL_MASK, has ? (unsigned int)len : 0u), cap);

  for (PetscInt j = t; j < w; j += P) {
    const bool         act  = has && len > j;
    const bool         pact = j > 0 && has && len > j - 1; /* the lanes that read at the previous step */
    const PetscInt     sec  = act ? cj[beg + j] / 4 : 0;
    const PetscInt     psec = pact ? cj[beg + j - 1] / 4 : 0;
    const unsigned int now  = __ballot_sync(PELLR_FULL_MASK, act);
    const unsigned int prev = __ballot_sync(PELLR_FULL_MASK, pact);
    const unsigned int same = __match_any_sync(PELLR_FULL_MASK, SectorKey(act, sec, lane));
    bool               seen = false;

    for (unsigned int pm = prev; pm; pm &= pm - 1) { /* the previous step's reading lanes (warp-uniform) */
      const PetscInt ps = __shfl_sync(PELLR_FULL_MASK, psec, __ffs(pm) - 1);
      seen |= ps == sec;
    }
    *fresh += __popc(__ballot_sync(PELLR_FULL_MASK, act && (__ffs(same) - 1) == lane && !seen));
    *entries += __popc(now);
  }
}

/* PellrGroupDiagonal()'s test of the steps warp t of a team of P takes, k lanes' rows (lane r: row at beg, len
   entries); *cand: whether the group can be a diagonal slice at all (the same in every warp of the team) */
__device__ static inline bool WarpGroupDiagonal(const PetscInt *__restrict__ cj, PetscInt k, PetscInt row, PetscInt beg, PetscInt len, PetscInt w, int t, int P, bool *cand)
{
  bool ok = true;

  *cand = !(k != PELLR_SLICE || w <= 0 || w > PELLR_PRED_SAMPLE_NNZ / 4) && __all_sync(PELLR_FULL_MASK, len == w);
  if (!*cand) return false;
  for (PetscInt j = t; j < w; j += P) {
    const long long d = (long long)cj[beg + j] - row, d0 = __shfl_sync(PELLR_FULL_MASK, d, 0);
    ok = ok && d == d0;
  }
  return __all_sync(PELLR_FULL_MASK, ok);
}

/* the team's counts: each warp's (lane 0's) through shared memory, one atomic per nonzero count */
__device__ static void TeamCountsAdd(PellrLocalityCounts *out, const PellrLocalityCounts *c, int t, int P, int lane)
{
  __shared__ PetscInt64 part[32][PELLR_LOCALITY_NCOUNTS];

  if (lane == 0)
    for (int q = 0; q < PELLR_LOCALITY_NCOUNTS; q++) part[t][q] = ((const PetscInt64 *)c)[q];
  __syncthreads();
  if (threadIdx.x < PELLR_LOCALITY_NCOUNTS) {
    PetscInt64 sum = 0;
    for (int u = 0; u < P; u++) sum += part[u][threadIdx.x];
    if (sum) atomicAdd((unsigned long long *)out + threadIdx.x, (unsigned long long)sum);
  }
}

/* a team of P warps (blockDim.x = 32 P) per 32-row group of the sampled windows: PellrLocalityWindowGroup() */
__global__ static void __launch_bounds__(1024) pellr_locality_windows_warp(PellrLocalitySampling s, const PetscInt *__restrict__ rp, const PetscInt *__restrict__ cj, PetscInt gw, PellrLocalityCounts *out)
{
  const long long     grp = blockIdx.x; /* (block-uniform: the early returns below leave no warp of the team waiting) */
  const int           lane = threadIdx.x & 31, t = threadIdx.x / 32, P = blockDim.x / 32;
  PellrLocalityCounts c;
  PetscInt            a, b, g, k, row, beg = 0, len = 0, w, base = 0;
  bool                has, cand, diag;

  if (grp >= (long long)s.nv * gw) return;
  PellrLocalityWindow(&s, (PetscInt)(grp / gw), &a, &b);
  g = a + (PetscInt)(grp % gw) * PELLR_SLICE;
  if (g >= b) return;
  k   = min(b - g, (PetscInt)PELLR_SLICE);
  has = lane < k;
  row = g + lane;
  if (has) {
    beg = rp[row] - rp[0];
    len = rp[row + 1] - rp[row];
  }
  memset(&c, 0, sizeof(c));
  for (PetscInt r = 0; r < k; r++) { /* CSR: each row's chunks of 32 entries (numbered across the rows); PELLR's long rows */
    const PetscInt br = __shfl_sync(PELLR_FULL_MASK, beg, r), lr = __shfl_sync(PELLR_FULL_MASK, len, r);
    const PetscInt L = min(lr, (PetscInt)s.cap), nc = (L + PELLR_SLICE - 1) / PELLR_SLICE;
    const bool     islong = s.long_min && lr >= s.long_min;

    for (PetscInt qi = ((t - base) % P + P) % P; qi < nc; qi += P) {
      const PetscInt q = qi * PELLR_SLICE;
      const bool     act = q + lane < L;
      const int      fr = WarpDistinct(act, act ? cj[br + q + lane] / 4 : 0, lane);
      const PetscInt en = min((PetscInt)PELLR_SLICE, L - q);

      c.xc += fr;
      c.ec += en;
      if (islong) {
        c.xl += fr;
        c.el += en;
      }
    }
    base += nc;
  }
  WarpGroupSectors(cj, has, beg, len, (PetscInt)s.cap, lane, t, P, &c.xn, &c.en); /* ELLR, SELL */
  w = (PetscInt)__reduce_max_sync(PELLR_FULL_MASK, has ? (unsigned int)len : 0u);
  diag = WarpGroupDiagonal(cj, k, row, beg, len, w, t, P, &cand);
  diag = __syncthreads_and(diag) && cand;
  if (t == 0) {
    c.tsell += (PetscInt64)PELLR_SLICE * w;
    c.tellr += (PetscInt64)k * s.maxlen;
    if (diag) {
      c.dsell += (PetscInt64)PELLR_SLICE * w;
      if (w == s.maxlen) c.dellr += (PetscInt64)PELLR_SLICE * w;
    }
  }
  TeamCountsAdd(out, &c, t, P, lane);
}

/* a team of P warps (blockDim.x = 32 P) per slice: block (c, v) takes slice c of sorted window v, PellrLocalitySlice() */
__global__ static void __launch_bounds__(1024) pellr_locality_slices_warp(PellrLocalitySampling s, const PetscInt *__restrict__ rp, const PetscInt *__restrict__ cj, unsigned long long K, long long N, const unsigned long long *__restrict__ key, const PetscInt *__restrict__ rows, PellrLocalityCounts *out)
{
  const PetscInt      v = (PetscInt)blockIdx.y, c = (PetscInt)blockIdx.x; /* (block-uniform, as the early return) */
  const int           lane = threadIdx.x & 31, t = threadIdx.x / 32, P = blockDim.x / 32;
  long long           lo;
  PetscInt            q, k, row = 0, beg = 0, len = 0, w;
  bool                has, cand, diag;
  PellrLocalityCounts cc;

  if (c >= s.nch || !PellrLocalitySortedSlice(SortedWindowRows(key, N, K, v, &lo), s.nch, c, &q, &k)) return;
  has = lane < k;
  if (has) {
    row = rows[lo + q + lane];
    beg = rp[row] - rp[0];
    len = rp[row + 1] - rp[row];
  }
  memset(&cc, 0, sizeof(cc));
  WarpGroupSectors(cj, has, beg, len, (PetscInt)s.cap, lane, t, P, &cc.xs, &cc.es);
  w    = __shfl_sync(PELLR_FULL_MASK, len, 0); /* the slice's width: its first (longest) row */
  diag = WarpGroupDiagonal(cj, k, row, beg, len, w, t, P, &cand);
  diag = __syncthreads_and(diag) && cand;
  if (t == 0) {
    cc.tpellr += (PetscInt64)PELLR_SLICE * w;
    if (diag) cc.dpellr += (PetscInt64)PELLR_SLICE * w;
    cc.ys += WarpDistinct(has, row / 4, lane); /* the distinct sectors of y the slice writes */
    cc.rs += k;
  }
  TeamCountsAdd(out, &cc, t, P, lane);
}

/* -mat_pellr_predict_warp (developer, process-wide): false counts with a thread per group or slice;
   -mat_pellr_predict_team_warps (developer, process-wide): warps per group or slice, 0 = PellrTeamWarps() */
static PetscBool PellrLocalityWarp = PETSC_TRUE, PellrLocalityWarpRead = PETSC_FALSE;
static PetscInt  PellrLocalityTeam = 0;

/* warps per group or slice whose rows are up to w entries long (capped by the sampling's cap): about 32 steps each */
static inline unsigned PellrTeamWarps(PetscInt64 w, PetscInt64 cap)
{
  unsigned P = 1;

  if (PellrLocalityTeam > 0) return (unsigned)PellrLocalityTeam;
  w = PetscMin(w, cap);
  while (P < 32 && 32 * (PetscInt64)P < w) P *= 2;
  return P;
}

static inline int PellrKeyBits(unsigned long long v)
{
  int b = 1;
  while (b < 64 && (v >> b)) b++;
  return b;
}

/*
  PellrLocalityCountDevice - the counts of PellrLocalityCountHost() on a device CSR (rp, cj): the same sampled groups
  and slices, each counted by a team of warps, about 32 steps of its longest rows a warp (PellrTeamWarps(); or,
  -mat_pellr_predict_warp false, by one GPU thread with the host's code, pellrlocality.h). The host's stable counting sort of
  a sorted window is a stable radix sort by (window, decreasing length) here: the same order. Three kernels and one
  sort on stream 0, one copy back of the 16 counts.
*/
PetscErrorCode PellrLocalityCountDevice(const PellrLocalitySampling *s, const PetscInt *rp, const PetscInt *cj, PellrLocalityCounts *cnts)
{
  const PetscInt      gw = s->W / PELLR_SLICE;
  const long long     nthr = (long long)s->nv * gw;
  PellrLocalityCounts *d_cnt = NULL;
  unsigned long long  *key = NULL, K = 0;
  PetscInt           *row = NULL;
  char               *tmp = NULL;
  long long           N = 0;
  size_t              tb = 0, off = 0;

  PetscFunctionBegin;
  static_assert(sizeof(PetscInt) == sizeof(int), "the device CSR has 32-bit indices");
  if (!PellrLocalityWarpRead) {
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-mat_pellr_predict_warp", &PellrLocalityWarp, NULL));
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_pellr_predict_team_warps", &PellrLocalityTeam, NULL));
    PetscCheck(PellrLocalityTeam >= 0 && PellrLocalityTeam <= 32 && !(PellrLocalityTeam & (PellrLocalityTeam - 1)), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_pellr_predict_team_warps must be 0 (automatic), 1, 2, 4, 8, 16 or 32, not %" PetscInt_FMT, PellrLocalityTeam);
    PellrLocalityWarpRead = PETSC_TRUE;
  }
  if (s->sorted) {
    PetscInt a, b;
    PellrLocalitySortWindow(s, s->nvp - 1, &a, &b);
    N = (long long)(s->nvp - 1) * s->Wp + (b - a);
    K = (unsigned long long)s->lmaxb + 2;
    PetscCallCUDA(cub::DeviceRadixSort::SortPairs(NULL, tb, (const unsigned long long *)NULL, (unsigned long long *)NULL, (const PetscInt *)NULL, (PetscInt *)NULL, (int)N, 0, PellrKeyBits((unsigned long long)s->nvp * K), (cudaStream_t)0));
  }
  { /* one allocation: the counts, then (sorted) keys and rows twice and the sort's storage, 256-byte aligned */
    const size_t sz[6] = {sizeof(PellrLocalityCounts), (size_t)N * sizeof(unsigned long long), (size_t)N * sizeof(unsigned long long), (size_t)N * sizeof(PetscInt), (size_t)N * sizeof(PetscInt), tb};
    size_t       at[6];
    for (int k = 0; k < 6; k++) {
      at[k] = off;
      off += (sz[k] + 255) / 256 * 256;
    }
    PetscCallCUDA(cudaMallocAsync((void **)&tmp, off, 0));
    d_cnt = (PellrLocalityCounts *)(tmp + at[0]);
    PetscCallCUDA(cudaMemsetAsync(d_cnt, 0, sizeof(PellrLocalityCounts), 0));
    if (nthr) {
      if (PellrLocalityWarp) pellr_locality_windows_warp<<<(unsigned)nthr, 32 * PellrTeamWarps(s->maxlen, s->cap)>>>(*s, rp, cj, gw, d_cnt);
      else pellr_locality_windows<<<(unsigned)((nthr + 63) / 64), 64>>>(*s, rp, cj, gw, d_cnt);
      PetscCallCUDA(cudaGetLastError());
    }
    if (s->sorted && N > 0) {
      unsigned long long *keyo = (unsigned long long *)(tmp + at[2]);
      PetscInt           *rowo = (PetscInt *)(tmp + at[4]);
      size_t              tb2  = tb;

      key = (unsigned long long *)(tmp + at[1]);
      row = (PetscInt *)(tmp + at[3]);
      pellr_locality_keys<<<(unsigned)((N + 255) / 256), 256>>>(*s, rp, K, N, key, row);
      PetscCallCUDA(cudaGetLastError());
      PetscCallCUDA(cub::DeviceRadixSort::SortPairs(tmp + at[5], tb2, key, keyo, row, rowo, (int)N, 0, PellrKeyBits((unsigned long long)s->nvp * K), (cudaStream_t)0));
      if (PellrLocalityWarp) pellr_locality_slices_warp<<<dim3((unsigned)s->nch, (unsigned)s->nvp), 32 * PellrTeamWarps(s->lmaxb, s->cap)>>>(*s, rp, cj, K, N, keyo, rowo, d_cnt);
      else pellr_locality_slices<<<dim3((unsigned)((s->nch + 127) / 128), (unsigned)s->nvp), 128>>>(*s, rp, cj, K, N, keyo, rowo, d_cnt);
      PetscCallCUDA(cudaGetLastError());
    }
    PetscCallCUDA(cudaMemcpy(cnts, d_cnt, sizeof(PellrLocalityCounts), cudaMemcpyDeviceToHost));
    PetscCallCUDA(cudaFreeAsync(tmp, 0));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the current device's name and multiprocessor count (what PellrModelMatchesDevice() compares) */
PetscErrorCode PellrDeviceIdentify(char gpu[], size_t len, PetscInt *sm)
{
  int            dev;
  cudaDeviceProp prop;

  PetscFunctionBegin;
  PetscCallCUDA(cudaGetDevice(&dev));
  PetscCallCUDA(cudaGetDeviceProperties(&prop, dev));
  PetscCall(PetscStrncpy(gpu, prop.name, len));
  *sm = prop.multiProcessorCount;
  PetscFunctionReturn(PETSC_SUCCESS);
}

__global__ static void pellr_predict_empty(void) { }

/* the effective L2 capacity of the current device, MB: PELLR_PRED_L2_SHARE of its L2 (PELLR_PRED_DEFAULT_L2_MB when
   no device answers) */
PetscErrorCode PellrDeviceEffectiveL2(PetscReal *l2_mb)
{
  int dev, l2 = 0;

  PetscFunctionBegin;
  if (cudaGetDevice(&dev) != cudaSuccess || cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev) != cudaSuccess) {
    (void)cudaGetLastError();
    l2 = 0;
  }
  *l2_mb = l2 > 0 ? PELLR_PRED_L2_SHARE * (PetscReal)l2 / 1e6 : PELLR_PRED_DEFAULT_L2_MB;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PellrHardwareMeasure - the hardware line of a calibration: name and SMs of the current device, device-to-device copy
  bandwidth (bytes read + written per second of a cudaMemcpy of 2 x 128 MiB, best of 5), host-to-device bandwidth
  (cudaMemcpy of 64 MiB from pageable memory, as the CSR upload does, best of 5), the effective L2 capacity
  (PELLR_PRED_L2_SHARE of the device's L2) and launch latency (mean of 200
  synchronized empty launches). About 0.1 s: for the calibration driver, not for every matrix.
*/
PetscErrorCode PellrHardwareMeasure(PellrHardware *hw)
{
  const size_t big = (size_t)128 << 20, up = (size_t)64 << 20;
  void        *a = NULL, *b = NULL;
  char        *h = NULL;
  cudaEvent_t  e0, e1;
  float        ms, best;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(hw, sizeof(*hw)));
  PetscCall(PellrDeviceIdentify(hw->gpu, sizeof(hw->gpu), &hw->sm));
  PetscCall(PellrDeviceEffectiveL2(&hw->l2_mb));
  PetscCallCUDA(cudaEventCreate(&e0));
  PetscCallCUDA(cudaEventCreate(&e1));
  PetscCallCUDA(cudaMalloc(&a, big));
  PetscCallCUDA(cudaMalloc(&b, big));
  PetscCallCUDA(cudaMemset(a, 1, big));
  PetscCallCUDA(cudaMemset(b, 0, big));
  best = -1;
  for (int r = 0; r < 6; r++) {
    PetscCallCUDA(cudaEventRecord(e0, 0));
    PetscCallCUDA(cudaMemcpy(b, a, big, cudaMemcpyDeviceToDevice));
    PetscCallCUDA(cudaEventRecord(e1, 0));
    PetscCallCUDA(cudaEventSynchronize(e1));
    PetscCallCUDA(cudaEventElapsedTime(&ms, e0, e1));
    if (r > 0 && (best < 0 || ms < best)) best = ms; /* the first is a warm-up */
  }
  hw->copy_gbs = 2.0 * (PetscReal)big / (best * 1e-3) / 1e9;
  PetscCall(PetscMalloc1(up, &h));
  PetscCall(PetscMemzero(h, up));
  best = -1;
  for (int r = 0; r < 6; r++) {
    PetscCallCUDA(cudaEventRecord(e0, 0));
    PetscCallCUDA(cudaMemcpy(a, h, up, cudaMemcpyHostToDevice));
    PetscCallCUDA(cudaEventRecord(e1, 0));
    PetscCallCUDA(cudaEventSynchronize(e1));
    PetscCallCUDA(cudaEventElapsedTime(&ms, e0, e1));
    if (r > 0 && (best < 0 || ms < best)) best = ms;
  }
  hw->h2d_gbs = (PetscReal)up / (best * 1e-3) / 1e9;
  PetscCall(PetscFree(h));
  {
    PetscLogDouble t0, t1;
    pellr_predict_empty<<<1, 32>>>();
    PetscCallCUDA(cudaDeviceSynchronize());
    PetscCall(PetscTime(&t0));
    for (int r = 0; r < 200; r++) {
      pellr_predict_empty<<<1, 32>>>();
      PetscCallCUDA(cudaDeviceSynchronize());
    }
    PetscCall(PetscTime(&t1));
    hw->launch_us = (PetscReal)((t1 - t0) / 200 * 1e6);
  }
  PetscCallCUDA(cudaFree(a));
  PetscCallCUDA(cudaFree(b));
  PetscCallCUDA(cudaEventDestroy(e0));
  PetscCallCUDA(cudaEventDestroy(e1));
  PetscFunctionReturn(PETSC_SUCCESS);
}
