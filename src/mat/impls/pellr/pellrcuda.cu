/*
  CUDA kernels of MATPELLRCUDA. The layout (pellrimpl.h) is built on the GPU from the CSR (PellrDeviceBuild(), the
  same layout as the host build, bit for bit) and a values-only change is one gather on the GPU through the stored
  map; with -mat_pellr_build host it is built on the host and copied, and a values-only change copies the values
  gathered on the host. All products write y[perm[k]] directly.
    long rows (sorted positions [0, nlong))    : a thread block per row
    slices with wide rows (tclass[0..4])       : a block of 32*T threads per slice, T threads (in T warps) per row,
                                                 so that every warp still reads 32 consecutive entries
    the other slices (tclass[5])               : a thread per row, a warp per slice
    empty rows                                 : y = 0 (or z) only
  SELL and ELLR (-mat_pellr_format) use the same kernels with perm = identity and no long rows; the slices of SELL
  are not in nonincreasing width, so the kernels of a class take the slices from the class-grouped list sorder.
  CSR keeps the CSR itself on the GPU (32-bit row pointers and columns) and runs cuSPARSE's SpMV (CSR_ALG1) with a
  handle, descriptors and work buffer cached in the device block. With -mat_pellr_cuda_compact_columns the slices that
  span at most 65536 columns keep them as 16-bit offsets from the slice's smallest column (PellrDeviceCompactColumns()).
  With -mat_pellr_cuda_diagonal_slices the slices whose entries each lie on one diagonal (stencils) are multiplied from
  a table of offsets instead of their columns (found by pellr_diagonal_detect() in the CSR during the GPU build, in the
  uploaded layout by PellrDeviceDiagonalSlices()).
*/
#include <cuda_runtime.h>
#include <cusparse.h>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/zip_iterator.h>
#include <cuda/std/tuple>
#include <petscdevice_cuda.h>
#include <functional>
#include "pellrimpl.h"
#include "sparsegpucudatrace.h"

struct _p_PellrDevice {
  MatPELLRFormat format;
  PetscInt     m, n, nnz, nlong, nblock, nrows, nslices, nslots, nonempty;
  PetscInt64   blockslots, longslots; /* entries of the block rows (longptr[nblock]) and of all long rows (longptr[nlong]) */
  PetscInt     nchunks;               /* blocks of the block-row kernel: ceil(blockslots / PELLR_LONG_CHUNK) */
  int         *longcnt;               /* per block row cut into pieces: pieces finished in the running product (0 between products) */
  PetscScalar *longpart;              /* per chunk: the partial sums of its first and of its last row */
  PetscInt     tclass[7];
  int         *perm, *longptr, *sliceptr, *rlen, *col; /* perm NULL: the identity (SELL and ELLR built on the GPU) */
  int         *sorder; /* SELL: the slices grouped by thread class */
  PetscScalar *val;
  /* compact columns (-mat_pellr_cuda_compact_columns, PellrDeviceCompactColumns()): col is then NULL; a slice s that
     spans at most 65536 columns has cbase[s] = its smallest column and slot t's column is cbase[s] + cidx[t -
     longslots]; the others have cbase[s] = -1 and their 32-bit columns in colx from xptr[s]; the long rows' columns are
     colx[0 .. longslots) */
  unsigned short *cidx;     /* [nslots - longslots] */
  int            *colx;     /* [longslots + slots of the 32-bit slices] */
  int            *xptr;     /* [nslices] */
  int            *cbase;    /* [nslices] */
  PetscInt        ncompact; /* slices with 16-bit offsets */
  /* diagonal slices (-mat_pellr_cuda_diagonal_slices, pellr_diagonal_detect()): a slice whose 32 rows are all
     rows of the block, all as long as the slice is wide (w), and whose entry j lies on one diagonal (column - row the
     same in all 32 rows) has its w offsets at doff[dptr[s]] (dptr[s] = -1 for the other slices): its products read no
     column index and x coalesced (x[row + offset]); the columns stay stored for the other kernels. A run of
     consecutive slices with the same offsets (a stencil's interior) shares one entry of doff */
  int            *dptr;     /* [nslices] */
  int            *doff;     /* the offsets of the runs */
  PetscInt        ndiag;    /* diagonal slices */
  PetscInt64      ndiagslots;
  /* CSR: rowptr (m+1, from 0), col and val (nnz) are the CSR; cuSPARSE SpMV objects, made at the first product */
  cusparseHandle_t     handle;
  cusparseSpMatDescr_t spmat;
  cusparseDnVecDescr_t vx, vy;
  void                *spbuf;
  size_t               spbufsize;
  PetscInt             csrthreads; /* > 0: our CSR kernel with that many threads a row instead of cuSPARSE (PellrCSRKernelSetUp()) */
  PetscInt             csrstream, csrblocks, csrshared; /* the row-block kernel (stream): entries a block (0: not used), blocks, shared bytes */
  int                 *csrblockrow;                   /* [csrblocks + 1] */
  /* built on the GPU, for values-only refreshes on the GPU: */
  int         *rowptr; /* the CSR row pointers (m+1): slot j of sorted row k holds value rowptr[perm[k]] - rowptr[0] + j */
  int         *map;    /* explicit transpose only: index in the CSR values of each slot (-1 padding) */
  PetscScalar *csrval; /* the CSR values copied from the host (nnz), only between PellrDeviceUploadValues() and PellrDeviceReleaseValues() */
  /* the GPU build carves the arrays it sizes at its last copy back (sliceptr, rlen, val, rowptr or map, dptr, doff, col
     unless it may be compacted, and longptr of SELL and ELLR) out of one allocation: one call instead of up to eight */
  char  *block;
  size_t blocksize;
};

/* -mat_pellr_cuda_reuse_block (process-wide): a GPU rebuild of a block (a new pattern, another format, an option that
   remakes the layout) reuses the memory block of the layout it replaces when the new layout fits in it with at most
   PELLR_SPARE_SLACK of it unused: no allocation of the largest array set, whose stream-ordered allocation took 0.2-0.4
   ms of the host in some builds of 4M rows even with the memory in the pool (session 26 job 2) */
#define PELLR_SPARE_SLACK (1.0 / 32)
static PetscBool PellrReuseBlock = PETSC_TRUE, PellrReuseBlockRead = PETSC_FALSE;

/* the option read once, also for matrices that never see MatSetFromOptions() (e.g. made by MatConvert()) */
static PetscErrorCode PellrReuseBlockOption(PetscBool *reuse)
{
  PetscFunctionBegin;
  if (!PellrReuseBlockRead) {
    PetscCall(PetscOptionsGetBool(NULL, NULL, "-mat_pellr_cuda_reuse_block", &PellrReuseBlock, NULL));
    PellrReuseBlockRead = PETSC_TRUE;
  }
  *reuse = PellrReuseBlock;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* whether array p lies in d's block (freed with it, not on its own) */
static inline PetscBool PellrInBlock(PellrDevice d, const void *p)
{
  return (PetscBool)(d->block && p && (const char *)p >= d->block && (const char *)p < d->block + d->blocksize);
}

static PetscErrorCode PellrDeviceCompactColumns(PellrDevice);
static PetscErrorCode PellrDeviceDiagonalSlices(PellrDevice);

/* SELL whose slices are all of one thread class: the class-grouped slice order is the identity, which the kernels then
   do not read (a dependent load less at the start of every thread) */
static inline PetscBool PellrSliceOrderIsIdentity(const PetscInt tclass[7], PetscInt nslices)
{
  for (int c = 0; c < 6; c++)
    if (tclass[c + 1] - tclass[c] == nslices) return PETSC_TRUE;
  return PETSC_FALSE;
}

template <typename T>
static PetscErrorCode PellrCopy(T **d, const T *h, PetscInt n)
{
  PetscFunctionBegin;
  *d = NULL;
  if (n <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallCUDA(cudaMallocAsync((void **)d, (size_t)n * sizeof(T), 0)); /* from the stream-ordered pool, as every array of the layout */
  PetscCallCUDA(cudaMemcpy(*d, h, (size_t)n * sizeof(T), cudaMemcpyHostToDevice));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the block-row kernel's chunks (d->blockslots set): their partial sums and the per-row piece counters (zeroed) */
static PetscErrorCode PellrLongChunksSetUp(PellrDevice d)
{
  PetscFunctionBegin;
  d->nchunks = (PetscInt)((d->blockslots + PELLR_LONG_CHUNK - 1) / PELLR_LONG_CHUNK);
  if (!d->nblock) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallCUDA(cudaMallocAsync((void **)&d->longcnt, (size_t)d->nblock * sizeof(int), 0));
  PetscCallCUDA(cudaMemsetAsync(d->longcnt, 0, (size_t)d->nblock * sizeof(int), 0));
  PetscCallCUDA(cudaMallocAsync((void **)&d->longpart, (size_t)(2 * d->nchunks) * sizeof(PetscScalar), 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PellrDeviceUpload(const PellrLayout *L, PellrDevice *dp)
{
  PellrDevice d;

  PetscFunctionBegin;
  PetscCall(PellrDeviceDestroy(dp));
  PetscCall(PetscNew(&d));
  d->m       = L->m;
  d->n       = L->n;
  d->nnz     = L->nnz;
  d->nlong   = L->nlong;
  d->nblock  = L->nblock;
  d->nrows   = L->nrows;
  d->nslices = L->nslices;
  d->nslots  = L->nslots;
  d->format   = L->format;
  d->nonempty = L->nonempty;
  PetscCheck(L->format != MAT_PELLR_FORMAT_CSR, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A CSR block is copied to the GPU from the CSR, not from a host layout");
  for (int c = 0; c < 7; c++) d->tclass[c] = L->tclass[c];
  PetscCall(PellrCopy(&d->perm, L->perm, L->m));
  if (L->sorder && !PellrSliceOrderIsIdentity(L->tclass, L->nslices)) PetscCall(PellrCopy(&d->sorder, L->sorder, L->nslices));
  PetscCall(PellrCopy(&d->longptr, L->longptr, L->nlong + 1));
  PetscCall(PellrCopy(&d->sliceptr, L->sliceptr, L->nslices + 1));
  PetscCall(PellrCopy(&d->rlen, L->rlen, PELLR_SLICE * L->nslices));
  PetscCall(PellrCopy(&d->col, L->col, L->nslots));
  PetscCall(PellrCopy(&d->val, L->val, L->nslots));
  d->blockslots = L->nlong ? L->longptr[L->nblock] : 0;
  d->longslots  = L->nlong ? L->longptr[L->nlong] : 0;
  PetscCall(PellrLongChunksSetUp(d));
  PetscCall(PellrDeviceCompactColumns(d));
  PetscCall(PellrDeviceDiagonalSlices(d));
  PetscCall(PetscLogCpuToGpu((PetscLogDouble)L->nslots * (sizeof(PetscScalar) + sizeof(int)) + (PetscLogDouble)(L->m + L->nlong + 1 + L->nslices * (PELLR_SLICE + 1) + 1) * sizeof(int)));
  *dp = d;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* values-only change: the host gathered the values through the stored map; copy them */
PetscErrorCode PellrDeviceRefresh(PellrDevice d, const PetscScalar *val, PetscInt nslots)
{
  PetscFunctionBegin;
  PetscCheck(nslots == d->nslots, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PELLR device copy has %" PetscInt_FMT " slots, not %" PetscInt_FMT, d->nslots, nslots);
  if (nslots) PetscCallCUDA(cudaMemcpy(d->val, val, (size_t)nslots * sizeof(PetscScalar), cudaMemcpyHostToDevice));
  PetscCall(PetscLogCpuToGpu((PetscLogDouble)nslots * sizeof(PetscScalar)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* with block: the layout's memory block is not freed but given to *block (size *size) */
static PetscErrorCode PellrDeviceDestroyImpl(PellrDevice *dp, void **block, size_t *size)
{
  PellrDevice d = *dp;

  PetscFunctionBegin;
  if (!d) PetscFunctionReturn(PETSC_SUCCESS);
  if (d->vx) PetscCallCUSPARSE(cusparseDestroyDnVec(d->vx));
  if (d->vy) PetscCallCUSPARSE(cusparseDestroyDnVec(d->vy));
  if (d->spmat) PetscCallCUSPARSE(cusparseDestroySpMat(d->spmat));
  if (d->handle) PetscCallCUSPARSE(cusparseDestroy(d->handle));
  {
    /* every array came from cudaMallocAsync() on the default stream: stream-ordered frees, no device synchronization */
    void *arrays[] = {d->perm, d->sorder, d->spbuf, d->longptr, d->sliceptr, d->rlen, d->col, d->val, d->rowptr, d->map, d->csrval, d->longcnt, d->longpart, d->cidx, d->colx, d->xptr, d->cbase, d->csrblockrow, d->dptr, d->doff};
    for (size_t a = 0; a < sizeof(arrays) / sizeof(arrays[0]); a++)
      if (arrays[a] && !PellrInBlock(d, arrays[a])) PetscCallCUDA(cudaFreeAsync(arrays[a], 0));
    if (d->block && block) {
      *block = d->block;
      *size  = d->blocksize;
    } else if (d->block) PetscCallCUDA(cudaFreeAsync(d->block, 0));
  }
  PetscCall(PetscFree(d));
  *dp = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PellrDeviceDestroy(PellrDevice *dp)
{
  PetscFunctionBegin;
  PetscCall(PellrDeviceDestroyImpl(dp, NULL, NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PellrDeviceDestroy() keeping the layout's memory block as *block (size *size) for the next build of its matrix block
   (-mat_pellr_cuda_reuse_block; a spare kept before is given back) */
PetscErrorCode PellrDeviceDestroyKeepBlock(PellrDevice *dp, void **block, size_t *size)
{
  PetscBool reuse;

  PetscFunctionBegin;
  PetscCall(PellrReuseBlockOption(&reuse));
  if (*dp && (*dp)->block && reuse) {
    PetscCall(PellrDeviceFreeBlock(block, size));
    PetscCall(PellrDeviceDestroyImpl(dp, block, size));
  } else PetscCall(PellrDeviceDestroy(dp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------------------------------ kernels */

__device__ static inline PetscScalar WarpSum(PetscScalar s)
{
  for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(0xffffffffu, s, off);
  return s;
}

/* the sum over the block of every thread's s, valid in thread 0 (red: PELLR_LONG_THREADS / 32 values of shared memory) */
__device__ static inline PetscScalar BlockSum(PetscScalar s, PetscScalar *red)
{
  s = WarpSum(s);
  __syncthreads(); /* red is free (its previous use is over) */
  if ((threadIdx.x & 31) == 0) red[threadIdx.x / 32] = s;
  __syncthreads();
  if (threadIdx.x < 32) s = WarpSum(threadIdx.x < blockDim.x / 32 ? red[threadIdx.x] : 0);
  return s;
}

/* the last sorted row r with longptr[r] <= t (0 <= t < longptr[nrows]), by bisection */
__device__ static inline int LongRowOf(int nrows, const int *__restrict__ longptr, int t)
{
  int lo = 0, hi = nrows - 1;

  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;

    if (longptr[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/*
  The block rows (sorted positions 0 .. nblock-1, at least PELLR_BLOCK_ROW entries each, stored one after the other from
  longptr[0] = 0): block b takes their entries b*CHUNK .. (b+1)*CHUNK-1, so the work is spread evenly over the grid
  whatever the longest row. A row within one chunk is summed and written by its block. A row cut into pieces (chunks cb
  .. ce) has its piece in block cb stored as that block's "last row" sum (longpart[2 cb + 1]) and in block c > cb as
  block c's "first row" sum (longpart[2 c]); the block that finishes the row's last piece (a counter per row, after a
  fence: CUDA's threadFenceReduction pattern) adds the pieces in chunk order and resets the counter. Deterministic:
  every piece is summed in a fixed order and the pieces always in chunk order, whichever block comes last.
*/
__global__ static void __launch_bounds__(PELLR_LONG_THREADS) pellr_long_chunks(int nblock, const int *__restrict__ perm, const int *__restrict__ longptr, const int *__restrict__ col, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ x, const PetscScalar *z, PetscScalar *y, PetscScalar *part, int *cnt)
{
  __shared__ PetscScalar red[PELLR_LONG_THREADS / 32];
  __shared__ int         first;
  const int              b = blockIdx.x, lo = b * PELLR_LONG_CHUNK, hi = min(lo + PELLR_LONG_CHUNK, longptr[nblock]);

  if (threadIdx.x == 0) first = LongRowOf(nblock, longptr, lo);
  __syncthreads();
  for (int r = first; r < nblock; r++) {
    const int   rs = longptr[r], re = longptr[r + 1], a = max(rs, lo), e = min(re, hi);
    PetscScalar s = 0;

    if (rs >= hi) break;
#pragma unroll 4
    for (int t = a + (int)threadIdx.x; t < e; t += PELLR_LONG_THREADS) s += val[t] * x[col[t]];
    s = BlockSum(s, red);
    if (threadIdx.x == 0) {
      const int cb = rs / PELLR_LONG_CHUNK, ce = (re - 1) / PELLR_LONG_CHUNK, row = perm[r];

      if (cb == ce) y[row] = z ? z[row] + s : s;
      else {
        part[2 * b + (b == cb ? 1 : 0)] = s;
        __threadfence(); /* the piece is visible before the counter says so */
        if (atomicAdd(&cnt[r], 1) == ce - cb) {
          PetscScalar tot;

          __threadfence();
          tot = __ldcg(&part[2 * cb + 1]); /* from L2: the other blocks' pieces */
          for (int c = cb + 1; c <= ce; c++) tot += __ldcg(&part[2 * c]);
          y[row]  = z ? z[row] + tot : tot;
          cnt[r] = 0; /* ready for the next product (kernel boundary) */
        }
      }
    }
  }
}

/* shorter long rows: a warp per row */
__global__ static void pellr_long_warp(int k0, int nlong, const int *__restrict__ perm, const int *__restrict__ longptr, const int *__restrict__ col, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ x, const PetscScalar *z, PetscScalar *y)
{
  const long  k    = k0 + ((long)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int   lane = threadIdx.x & 31;
  PetscScalar s    = 0;

  if (k >= nlong) return; /* the whole warp */
#pragma unroll 4
  for (int t = longptr[k] + lane; t < longptr[k + 1]; t += 32) s += val[t] * x[col[t]];
  s = WarpSum(s);
  if (lane == 0) {
    const int row = perm[k];
    y[row]        = z ? z[row] + s : s;
  }
}

/* the column indices of the slices, 32-bit (col) or compact (cidx, colx, xptr, cbase; see _p_PellrDevice), by value into the kernels */
typedef struct {
  const int            *col;
  const unsigned short *cidx;
  const int            *colx, *xptr, *cbase;
  int                   longslots;
  const int            *dptr; /* diagonal slices (the product kernels only; see _p_PellrDevice), NULL if none */
  const int            *doff;
} PellrColumns;

/* where row r of slice s finds its columns: entry j is c32[32 j] (32-bit), or cb + c16[32 j] (16-bit offsets) */
typedef struct {
  const int            *c32;
  const unsigned short *c16;
  int                   cb;
} PellrRowColumns;

__device__ static inline PellrRowColumns PellrSliceRow(const PellrColumns &c, const int *__restrict__ sliceptr, long s, int r)
{
  PellrRowColumns rc = {NULL, NULL, 0};

  if (!c.cidx) rc.c32 = c.col + sliceptr[s] + r;
  else {
    rc.cb = c.cbase[s]; /* not on the offsets' address path: its load overlaps theirs */
    if (rc.cb >= 0) rc.c16 = c.cidx + (sliceptr[s] - c.longslots) + r;
    else rc.c32 = c.colx + c.xptr[s] + r; /* a slice spanning more than 65536 columns (rare on local patterns) */
  }
  return rc;
}

__device__ static inline int PellrColumnAt(const PellrRowColumns &rc, int j)
{
  return rc.c16 ? rc.cb + (int)rc.c16[PELLR_SLICE * j] : rc.c32[PELLR_SLICE * j];
}

/* sum over the entries j = j0, j0 + STEP, ... < len of one slice row (v: its first value); one loop per index width */
template <int STEP>
__device__ static inline PetscScalar PellrSliceRowDot(const PellrRowColumns &rc, int j0, int len, const PetscScalar *__restrict__ v, const PetscScalar *__restrict__ x)
{
  PetscScalar sum = 0;

  if (rc.c16) {
    const unsigned short *__restrict__ c16 = rc.c16;
    const PetscScalar *__restrict__ xb     = x + rc.cb;
#pragma unroll 4 /* several entries' loads in flight per thread: the latency of the index, then x, is not paid entry after entry */
    for (int j = j0; j < len; j += STEP) sum += v[PELLR_SLICE * j] * xb[c16[PELLR_SLICE * j]];
  } else {
    const int *__restrict__ c32 = rc.c32;
#pragma unroll 4
    for (int j = j0; j < len; j += STEP) sum += v[PELLR_SLICE * j] * x[c32[PELLR_SLICE * j]];
  }
  return sum;
}

/* a row of a diagonal slice: sum over j = j0, j0 + STEP, ... < w of v[32 j] x[row + off[j]] (off[j] is the same for
   the whole warp: one broadcast load, and the warp's x loads are consecutive where its rows are) */
template <int STEP>
__device__ static inline PetscScalar PellrDiagonalRowDot(const int *__restrict__ off, int row, int j0, int w, const PetscScalar *__restrict__ v, const PetscScalar *__restrict__ x)
{
  const PetscScalar *__restrict__ xr  = x + row;
  PetscScalar                     sum = 0;

#pragma unroll 4
  for (int j = j0; j < w; j += STEP) sum += v[PELLR_SLICE * j] * xr[off[j]];
  return sum;
}

/* slices with T threads per row: block of 32*T threads per slice; warp w handles entries j = w, w+T, ... of all 32 rows.
   perm is NULL for SELL and ELLR (rows in their own order: sorted position k is row k) */
template <int T>
__global__ static void pellr_slices_multi(int s0, int nlong, int nrows, const int *__restrict__ sorder, const int *__restrict__ perm, const int *__restrict__ sliceptr, const int *__restrict__ rlen, PellrColumns cols, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ x, const PetscScalar *z, PetscScalar *y)
{
  __shared__ PetscScalar part[T][PELLR_SLICE];
  const int              s = sorder ? sorder[s0 + blockIdx.x] : s0 + blockIdx.x, r = threadIdx.x % PELLR_SLICE, w = threadIdx.x / PELLR_SLICE;
  const int              base = sliceptr[s] + r, dp = cols.dptr ? cols.dptr[s] : -1;
  PetscScalar            sum;

  if (dp >= 0) { /* a diagonal slice (uniform in the block): every row is as long as the slice is wide */
    const int k = nlong + PELLR_SLICE * s + r;
    sum         = PellrDiagonalRowDot<T>(cols.doff + dp, perm ? perm[k] : k, w, (sliceptr[s + 1] - sliceptr[s]) / PELLR_SLICE, val + base, x);
  } else sum = PellrSliceRowDot<T>(PellrSliceRow(cols, sliceptr, s, r), w, rlen[PELLR_SLICE * s + r], val + base, x);

  part[w][r] = sum;
  __syncthreads();
  if (w == 0) {
    const int k = nlong + PELLR_SLICE * s + r;
    for (int l = 1; l < T; l++) sum += part[l][r];
    if (k < nrows) {
      const int row = perm ? perm[k] : k;
      y[row]        = z ? z[row] + sum : sum;
    }
  }
}

/* the other slices: a thread per row, a warp per slice (slice positions s0 .. s1-1, in sorder if given) */
__global__ static void pellr_slices_single(int s0, int s1, int nlong, int nrows, const int *__restrict__ sorder, const int *__restrict__ perm, const int *__restrict__ sliceptr, const int *__restrict__ rlen, PellrColumns cols, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ x, const PetscScalar *z, PetscScalar *y)
{
  const long g  = (long)blockIdx.x * blockDim.x + threadIdx.x;
  const long sp = s0 + g / PELLR_SLICE;
  const int  r  = (int)(g % PELLR_SLICE);

  if (sp >= s1) return;
  {
    const long s = sorder ? sorder[sp] : sp;
    const long k = nlong + PELLR_SLICE * s + r;
    const int  dp = cols.dptr ? cols.dptr[s] : -1;
    if (dp >= 0) { /* a diagonal slice (uniform in the warp): all 32 rows are rows of the block, as long as the slice is wide */
      const int         base = sliceptr[s], row = perm ? perm[k] : (int)k;
      const PetscScalar sum  = PellrDiagonalRowDot<1>(cols.doff + dp, row, 0, (sliceptr[s + 1] - base) / PELLR_SLICE, val + base + r, x);
      y[row]                 = z ? z[row] + sum : sum;
      return;
    }
    if (k >= nrows) return;
    {
      const int len = rlen[PELLR_SLICE * s + r], base = sliceptr[s] + r;
      const PetscScalar sum = PellrSliceRowDot<1>(PellrSliceRow(cols, sliceptr, s, r), 0, len, val + base, x);
      const int         row = perm ? perm[k] : (int)k;
      y[row]                = z ? z[row] + sum : sum;
    }
  }
}

/* empty rows: y = z or 0 */
__global__ static void pellr_empty(int nrows, int m, const int *__restrict__ perm, const PetscScalar *z, PetscScalar *y)
{
  const long k = nrows + (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (k < m) {
    const int row = perm[k];
    y[row]        = z ? z[row] : 0;
  }
}

#if !defined(PETSC_USE_COMPLEX)
/* y += A^T x with atomics: the long rows' entries (longptr[0] = 0 .. longptr[nlong]) in chunks of PELLR_LONG_CHUNK
   per block (a long row spread over several blocks), sliced rows a thread per row */
__global__ static void __launch_bounds__(PELLR_LONG_THREADS) pellr_trans_long_chunks(int nlong, const int *__restrict__ perm, const int *__restrict__ longptr, const int *__restrict__ col, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ x, PetscScalar *y)
{
  __shared__ int first;
  const int      lo = blockIdx.x * PELLR_LONG_CHUNK, hi = min(lo + PELLR_LONG_CHUNK, longptr[nlong]);

  if (threadIdx.x == 0) first = LongRowOf(nlong, longptr, lo);
  __syncthreads();
  for (int r = first; r < nlong && longptr[r] < hi; r++) {
    const PetscScalar xr = x[perm[r]];
    const int         e  = min(longptr[r + 1], hi);

    for (int t = max(longptr[r], lo) + (int)threadIdx.x; t < e; t += PELLR_LONG_THREADS) atomicAdd(&y[col[t]], val[t] * xr);
  }
}

__global__ static void pellr_trans_slices(int nslices, int nlong, int nrows, const int *__restrict__ perm, const int *__restrict__ sliceptr, const int *__restrict__ rlen, PellrColumns cols, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ x, PetscScalar *y)
{
  const long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
  const long s = g / PELLR_SLICE;
  const int  r = (int)(g % PELLR_SLICE);

  if (s >= nslices) return;
  {
    const long k = nlong + PELLR_SLICE * s + r;
    if (k >= nrows) return;
    {
      const int             len = rlen[PELLR_SLICE * s + r], base = sliceptr[s] + r;
      const PetscScalar     xr  = x[perm ? perm[k] : k];
      const PellrRowColumns rc  = PellrSliceRow(cols, sliceptr, s, r);
      for (int j = 0; j < len; j++) atomicAdd(&y[PellrColumnAt(rc, j)], val[base + PELLR_SLICE * j] * xr);
    }
  }
}
#endif

/* diagonal: the entry whose column is the row's own index */
__global__ static void pellr_diag_long(int nlong, const int *__restrict__ perm, const int *__restrict__ longptr, const int *__restrict__ col, const PetscScalar *__restrict__ val, PetscScalar *d)
{
  const long k = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (k < nlong) {
    const int   row = perm[k];
    PetscScalar v   = 0;
    for (int t = longptr[k]; t < longptr[k + 1]; t++)
      if (col[t] == row) v += val[t];
    d[row] = v;
  }
}

__global__ static void pellr_diag_slices(int nslices, int nlong, int nrows, const int *__restrict__ perm, const int *__restrict__ sliceptr, const int *__restrict__ rlen, PellrColumns cols, const PetscScalar *__restrict__ val, PetscScalar *d)
{
  const long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
  const long s = g / PELLR_SLICE;
  const int  r = (int)(g % PELLR_SLICE);

  if (s >= nslices) return;
  {
    const long k = nlong + PELLR_SLICE * s + r;
    if (k >= nrows) return;
    {
      const int             len = rlen[PELLR_SLICE * s + r], base = sliceptr[s] + r, row = perm ? perm[k] : (int)k;
      const PellrRowColumns rc  = PellrSliceRow(cols, sliceptr, s, r);
      PetscScalar           v   = 0;
      for (int j = 0; j < len; j++)
        if (PellrColumnAt(rc, j) == row) v += val[base + PELLR_SLICE * j];
      d[row] = v;
    }
  }
}

/* the long rows' columns: always 32-bit (col, or the start of colx when the slices are compact) */
static inline const int *PellrLongColumns(PellrDevice d)
{
  return d->cidx ? d->colx : d->col;
}

static inline PellrColumns PellrSliceColumns(PellrDevice d)
{
  PellrColumns c = {d->col, d->cidx, d->colx, d->xptr, d->cbase, (int)d->longslots, d->dptr, d->doff};
  return c;
}

static inline unsigned int Blocks(long work, int threads)
{
  return (unsigned int)((work + threads - 1) / threads);
}

/* y = z (or 0) on the empty rows, when there are any and z is not y already; the caller checks the launch */
static void PellrLaunchEmpty(PellrDevice d, const PetscScalar *z, PetscScalar *y, cudaStream_t st)
{
  if (d->m > d->nrows && z != y) pellr_empty<<<Blocks(d->m - d->nrows, 256), 256, 0, st>>>((int)d->nrows, (int)d->m, d->perm, z, y);
}

#if defined(PETSC_USE_COMPLEX)
  #if defined(PETSC_USE_REAL_SINGLE)
    #define PELLR_CUDA_SCALAR CUDA_C_32F
  #else
    #define PELLR_CUDA_SCALAR CUDA_C_64F
  #endif
#else
  #if defined(PETSC_USE_REAL_SINGLE)
    #define PELLR_CUDA_SCALAR CUDA_R_32F
  #else
    #define PELLR_CUDA_SCALAR CUDA_R_64F
  #endif
#endif

/*
  CSR by our own kernel (-mat_pellr_cuda_csr_kernel): T threads a row, each group's loads aligned to T entries. On rows
  of regular length (16 or more entries on average, none over 4 times the average: finite-element and Kronecker
  matrices) it beats cuSPARSE's CSR by 4-22% on the H200 (session 19, jobs 1-2): a group reads a row's values, columns
  and the x entries of its clustered columns in few sectors. Irregular rows (power-law) stay with cuSPARSE.
*/
template <int T>
__global__ static void __launch_bounds__(256) pellr_csr_vector(int m, const int *__restrict__ rowptr, const int *__restrict__ col, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ x, const PetscScalar *z, PetscScalar *y)
{
  const long  g   = (long)blockIdx.x * blockDim.x + threadIdx.x;
  const int   row = (int)(g / T), lane = (int)(g % T);
  PetscScalar sum = 0;

  if (row < m) {
    const int s = rowptr[row], e = rowptr[row + 1];
    int       k = (s & ~(T - 1)) + lane;

    if (k < s) k += T;
#pragma unroll 4
    for (; k < e; k += T) sum += val[k] * x[col[k]];
  }
  for (int off = T / 2; off > 0; off /= 2) sum += __shfl_down_sync(0xffffffffu, sum, off, T); /* every thread of the grid takes part */
  if (lane == 0 && row < m) y[row] = z ? z[row] + sum : sum;
}

/*
  CSR by row blocks (opt-in: -mat_pellr_cuda_csr_kernel stream; the CSR-Stream of CSR-Adaptive, Greathouse & Daga 2014):
  a block takes consecutive rows that start in one window [b E, (b+1) E) of entries (the last window also the rows
  starting at nnz), at most R of them (pellr_build_stream_starts()), so its entries are fewer than E + the longest row.
  Its threads first compute the products of all of them, coalesced and independent (many loads in flight), into
  shared memory, then TR threads a row add each row's products.
*/
template <int TR>
__global__ static void __launch_bounds__(256) pellr_csr_stream(const int *__restrict__ blockrow, const int *__restrict__ rowptr, const int *__restrict__ col, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ x, const PetscScalar *z, PetscScalar *y)
{
  extern __shared__ PetscScalar prod[];
  const int r0 = blockrow[blockIdx.x], r1 = blockrow[blockIdx.x + 1];
  const int lane = threadIdx.x % TR, grp = threadIdx.x / TR, ngrp = 256 / TR;

  if (r0 >= r1) return; /* the whole block: no row starts in its entries */
  {
    const int j0 = rowptr[r0], j1 = rowptr[r1];
    int       s = 0, e = 0;

    if (r0 + grp < r1) { /* the first row's bounds, loaded while the products are */
      s = rowptr[r0 + grp];
      e = rowptr[r0 + grp + 1];
    }
#pragma unroll 4
    for (int j = j0 + (int)threadIdx.x; j < j1; j += 256) prod[j - j0] = val[j] * x[col[j]];
    __syncthreads();
    for (int rb = r0; rb < r1; rb += ngrp) { /* uniform over the block: every lane takes part in the shuffles */
      const int   r   = rb + grp;
      PetscScalar sum = 0;

      if (r < r1) {
        if (rb != r0) {
          s = rowptr[r];
          e = rowptr[r + 1];
        }
        for (int k = s + lane; k < e; k += TR) sum += prod[k - j0];
      }
      for (int off = TR / 2; off > 0; off /= 2) sum += __shfl_down_sync(0xffffffffu, sum, off, TR);
      if (lane == 0 && r < r1) y[r] = z ? z[r] + sum : sum;
    }
  }
}

/*
  the stream kernel's row blocks: a block starts at every row that begins in a new window of E entries (the last
  window also takes the rows starting at nnz), so rows starting in one window share a block and it holds fewer than
  E + the longest row entries, and after every R rows, so no block walks an unbounded run of empty rows (rows that
  all start at the same entry, as in an MPI off-diagonal block, would otherwise fall into one block and one thread
  block would loop over all of them). start[r] = 1 where a block starts; pos its exclusive scan
*/
__global__ static void pellr_build_stream_starts(int m, int nwin, int E, int R, const int *__restrict__ rowptr, int *__restrict__ start)
{
  const long r = (long)blockIdx.x * blockDim.x + threadIdx.x;

  if (r < m) start[r] = (r % R == 0 || min(rowptr[r] / E, nwin - 1) != min(rowptr[r - 1] / E, nwin - 1)) ? 1 : 0;
}

/* blockrow[pos[r]] = r at every block start; the blocks past the last start (nbmax is an upper bound) are empty: m */
__global__ static void pellr_build_blockrow(int m, int nbmax, const int *__restrict__ start, const int *__restrict__ pos, int *__restrict__ blockrow)
{
  const long k  = (long)blockIdx.x * blockDim.x + threadIdx.x;
  const int  nb = pos[m - 1] + start[m - 1];

  if (k < m && start[k]) blockrow[pos[k]] = (int)k;
  if (k <= nbmax && k >= nb) blockrow[k] = m;
}

static MatPELLRCSRKernel PellrCSRKernel = MAT_PELLR_CSR_KERNEL_AUTO; /* -mat_pellr_cuda_csr_kernel (process-wide) */
static PetscInt          PellrCSRThreads = 0;                        /* -mat_pellr_cuda_csr_threads: 0 from the row lengths */
static PetscInt          PellrCSRStreamEntries = 2048;               /* -mat_pellr_cuda_csr_stream_entries */
static PetscBool         PellrCSRRead    = PETSC_FALSE;

PetscErrorCode PellrDeviceSetCSRKernel(MatPELLRCSRKernel kernel, PetscInt threads, PetscInt entries)
{
  PetscFunctionBegin;
  PetscCheck(threads == 0 || threads == 2 || threads == 4 || threads == 8 || threads == 16 || threads == 32, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_pellr_cuda_csr_threads must be 0 (from the row lengths), 2, 4, 8, 16 or 32, not %" PetscInt_FMT, threads);
  PetscCheck(entries >= 256 && entries <= 4096, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_pellr_cuda_csr_stream_entries must be in 256 .. 4096, not %" PetscInt_FMT, entries);
  PetscCheck(kernel >= MAT_PELLR_CSR_KERNEL_AUTO && kernel <= MAT_PELLR_CSR_KERNEL_STREAM, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unknown CSR kernel %d", (int)kernel);
  PellrCSRKernel        = kernel;
  PellrCSRThreads       = threads;
  PellrCSRStreamEntries = entries;
  PellrCSRRead          = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PellrDeviceGetCSRKernel(MatPELLRCSRKernel *kernel, PetscInt *threads, PetscInt *entries)
{
  PetscFunctionBegin;
  *kernel  = PellrCSRKernel;
  *threads = PellrCSRThreads;
  *entries = PellrCSRStreamEntries;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the CSR kernel of a csr block: threads a row (0: cuSPARSE) and, for the stream kernel, entries a thread block (else 0) */
PetscErrorCode PellrDeviceGetCSRThreads(PellrDevice d, PetscInt *threads, PetscInt *entries)
{
  PetscFunctionBegin;
  *threads = d ? d->csrthreads : 0;
  *entries = d ? d->csrstream : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* CSR: y = z + A x by our kernel (d->csrthreads > 0) or cuSPARSE (y = z first, then beta = 1; the handle, descriptors and
   buffer are made once) */
static PetscErrorCode PellrDeviceMultCSR(PellrDevice d, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  const PetscScalar one = 1.0, zero = 0.0;
  const PetscScalar *beta = z ? &one : &zero;

  PetscFunctionBegin;
  if (!d->m) PetscFunctionReturn(PETSC_SUCCESS);
  if (d->csrstream) { /* row blocks */
    const unsigned int nb = (unsigned int)d->csrblocks;
    const size_t       sh = (size_t)d->csrshared;

    switch (d->csrthreads) {
    case 1: pellr_csr_stream<1><<<nb, 256, sh>>>(d->csrblockrow, d->rowptr, d->col, d->val, x, z, y); break;
    case 2: pellr_csr_stream<2><<<nb, 256, sh>>>(d->csrblockrow, d->rowptr, d->col, d->val, x, z, y); break;
    case 4: pellr_csr_stream<4><<<nb, 256, sh>>>(d->csrblockrow, d->rowptr, d->col, d->val, x, z, y); break;
    case 8: pellr_csr_stream<8><<<nb, 256, sh>>>(d->csrblockrow, d->rowptr, d->col, d->val, x, z, y); break;
    case 16: pellr_csr_stream<16><<<nb, 256, sh>>>(d->csrblockrow, d->rowptr, d->col, d->val, x, z, y); break;
    default: pellr_csr_stream<32><<<nb, 256, sh>>>(d->csrblockrow, d->rowptr, d->col, d->val, x, z, y); break;
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (d->csrthreads) { /* our kernel: y = z + A x in one pass */
    const unsigned int nb = Blocks((long)d->m * d->csrthreads, 256);

    switch (d->csrthreads) {
    case 2: pellr_csr_vector<2><<<nb, 256>>>((int)d->m, d->rowptr, d->col, d->val, x, z, y); break;
    case 4: pellr_csr_vector<4><<<nb, 256>>>((int)d->m, d->rowptr, d->col, d->val, x, z, y); break;
    case 8: pellr_csr_vector<8><<<nb, 256>>>((int)d->m, d->rowptr, d->col, d->val, x, z, y); break;
    case 16: pellr_csr_vector<16><<<nb, 256>>>((int)d->m, d->rowptr, d->col, d->val, x, z, y); break;
    default: pellr_csr_vector<32><<<nb, 256>>>((int)d->m, d->rowptr, d->col, d->val, x, z, y); break;
    }
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (z && z != y) PetscCallCUDA(cudaMemcpyAsync(y, z, (size_t)d->m * sizeof(PetscScalar), cudaMemcpyDeviceToDevice, 0));
  if (!d->nnz || !d->n) { /* no entries: y = z (done) or 0 */
    if (!z) PetscCallCUDA(cudaMemsetAsync(y, 0, (size_t)d->m * sizeof(PetscScalar), 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!d->handle) {
    size_t bs = 0;
    PetscCallCUSPARSE(cusparseCreate(&d->handle));
    PetscCallCUSPARSE(cusparseSetStream(d->handle, 0));
    PetscCallCUSPARSE(cusparseSetPointerMode(d->handle, CUSPARSE_POINTER_MODE_HOST));
    PetscCallCUSPARSE(cusparseCreateCsr(&d->spmat, d->m, d->n, d->nnz, d->rowptr, d->col, d->val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, PELLR_CUDA_SCALAR));
    PetscCallCUSPARSE(cusparseCreateDnVec(&d->vx, d->n, (void *)x, PELLR_CUDA_SCALAR));
    PetscCallCUSPARSE(cusparseCreateDnVec(&d->vy, d->m, (void *)y, PELLR_CUDA_SCALAR));
    PetscCallCUSPARSE(cusparseSpMV_bufferSize(d->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, d->spmat, d->vx, &one, d->vy, PELLR_CUDA_SCALAR, CUSPARSE_SPMV_CSR_ALG1, &bs));
    d->spbufsize = bs;
    if (bs) PetscCallCUDA(cudaMallocAsync(&d->spbuf, bs, 0));
#if PETSC_PKG_CUDA_VERSION_GE(12, 4, 0)
    /* the analysis of the pattern that aijcusparse also makes once (cuSPARSE >= 12.4): 7% faster products on
       block-diagonal bcsstk17 on the H200; valid as long as the pattern is (a new pattern makes a new device block) */
    PetscCallCUSPARSE(cusparseSpMV_preprocess(d->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, d->spmat, d->vx, &one, d->vy, PELLR_CUDA_SCALAR, CUSPARSE_SPMV_CSR_ALG1, d->spbuf));
#endif
  } else {
    PetscCallCUSPARSE(cusparseDnVecSetValues(d->vx, (void *)x));
    PetscCallCUSPARSE(cusparseDnVecSetValues(d->vy, (void *)y));
  }
  PetscCallCUSPARSE(cusparseSpMV(d->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, d->spmat, d->vx, beta, d->vy, PELLR_CUDA_SCALAR, CUSPARSE_SPMV_CSR_ALG1, d->spbuf));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* CSR diagonal: a thread per row */
__global__ static void pellr_diag_csr(int m, const int *__restrict__ rowptr, const int *__restrict__ col, const PetscScalar *__restrict__ val, PetscScalar *d)
{
  const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    PetscScalar v = 0;
    for (int t = rowptr[i]; t < rowptr[i + 1]; t++)
      if (col[t] == i) v += val[t];
    d[i] = v;
  }
}

/*
  The product's kernels write disjoint rows of y, so they may run at once. The kernels too small to fill the GPU
  (under a quarter of its resident threads: the wide slice classes, the long rows, latency-bound chains of loads),
  except the largest kernel of the product, are launched first on side streams (forked from and joined to the default
  stream by events) and overlap the others, which run in sequence on the default stream, instead of each adding its
  own chain of loads to the product's time (-mat_pellr_cuda_overlap, process-wide; products
  of fewer than -mat_pellr_cuda_overlap_min_nnz entries (2^20), where the events' cost would count, stay on one stream).
*/
typedef struct {
  long                              threads;
  std::function<void(cudaStream_t)> launch;
} PellrLaunch;
#define PELLR_MAX_LAUNCHES 9 /* block rows, warp rows, 5 multi-thread slice classes, thread-per-row slices, empty rows */

#define PELLR_SIDE_STREAMS 3
static cudaStream_t PellrSideStream[PELLR_SIDE_STREAMS];
static cudaEvent_t  PellrForkEvent, PellrJoinEvent[PELLR_SIDE_STREAMS];
static long         PellrResidentThreads = 0;
static PetscBool    PellrOverlap = PETSC_TRUE, PellrOverlapRead = PETSC_FALSE; /* -mat_pellr_cuda_overlap (process-wide) */
static PetscInt     PellrOverlapMinNnz = 1 << 20;                          /* -mat_pellr_cuda_overlap_min_nnz */

static PetscErrorCode PellrSideStreamsDestroy(void)
{
  PetscFunctionBegin;
  if (PellrResidentThreads > 0) {
    for (int i = 0; i < PELLR_SIDE_STREAMS; i++) {
      PetscCallCUDA(cudaStreamDestroy(PellrSideStream[i]));
      PetscCallCUDA(cudaEventDestroy(PellrJoinEvent[i]));
    }
    PetscCallCUDA(cudaEventDestroy(PellrForkEvent));
  }
  PellrResidentThreads = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -mat_pellr_cuda_overlap and -mat_pellr_cuda_overlap_min_nnz as MatSetFromOptions() found them */
PetscErrorCode PellrDeviceSetOverlap(PetscBool overlap, PetscInt min_nnz)
{
  PetscFunctionBegin;
  PetscCheck(min_nnz >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_pellr_cuda_overlap_min_nnz must be >= 0, not %" PetscInt_FMT, min_nnz);
  PellrOverlap       = overlap;
  PellrOverlapMinNnz = min_nnz;
  PellrOverlapRead   = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PellrDeviceGetOverlap(PetscBool *overlap, PetscInt *min_nnz)
{
  PetscFunctionBegin;
  *overlap = PellrOverlap;
  *min_nnz = PellrOverlapMinNnz;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PellrSideStreamsSetUp(void)
{
  PetscFunctionBegin;
  if (!PellrOverlapRead) { /* also for matrices that never see MatSetFromOptions() (e.g. made by MatConvert()) */
    PetscBool overlap = PellrOverlap;
    PetscInt  min_nnz = PellrOverlapMinNnz;

    PetscCall(PetscOptionsGetBool(NULL, NULL, "-mat_pellr_cuda_overlap", &overlap, NULL));
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_pellr_cuda_overlap_min_nnz", &min_nnz, NULL));
    PetscCall(PellrDeviceSetOverlap(overlap, min_nnz));
  }
  if (PellrResidentThreads || !PellrOverlap) PetscFunctionReturn(PETSC_SUCCESS);
  {
    int dev, sms, tpm;

    PetscCallCUDA(cudaGetDevice(&dev));
    PetscCallCUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    PetscCallCUDA(cudaDeviceGetAttribute(&tpm, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
    for (int i = 0; i < PELLR_SIDE_STREAMS; i++) {
      PetscCallCUDA(cudaStreamCreateWithFlags(&PellrSideStream[i], cudaStreamNonBlocking));
      PetscCallCUDA(cudaEventCreateWithFlags(&PellrJoinEvent[i], cudaEventDisableTiming));
    }
    PetscCallCUDA(cudaEventCreateWithFlags(&PellrForkEvent, cudaEventDisableTiming));
    PellrResidentThreads = (long)sms * tpm;
    PetscCall(PetscRegisterFinalize(PellrSideStreamsDestroy));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PellrLaunchOverlapped(int nk, const PellrLaunch k[], PetscInt64 nnz)
{
  int  nside = 0, imax = 0;
  bool side[PELLR_MAX_LAUNCHES];

  PetscFunctionBegin;
  PetscCall(PellrSideStreamsSetUp());
  for (int i = 1; i < nk; i++)
    if (k[i].threads > k[imax].threads) imax = i;
  for (int i = 0; i < nk; i++) { /* small, and not the largest (which stays on the default stream when all are small) */
    side[i] = PellrOverlap && PellrResidentThreads > 0 && nnz >= PellrOverlapMinNnz && i != imax && 4 * k[i].threads < PellrResidentThreads;
    nside += side[i];
  }
  if (!nside) {
    for (int i = 0; i < nk; i++) k[i].launch(0);
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCallCUDA(cudaEventRecord(PellrForkEvent, 0));
  nside = 0;
  for (int i = 0; i < nk; i++) {
    if (!side[i]) continue;
    if (nside < PELLR_SIDE_STREAMS) PetscCallCUDA(cudaStreamWaitEvent(PellrSideStream[nside], PellrForkEvent, 0));
    k[i].launch(PellrSideStream[nside % PELLR_SIDE_STREAMS]);
    nside++;
  }
  for (int i = 0; i < nk; i++)
    if (!side[i]) k[i].launch(0);
  for (int s = 0; s < PetscMin(nside, PELLR_SIDE_STREAMS); s++) {
    PetscCallCUDA(cudaEventRecord(PellrJoinEvent[s], PellrSideStream[s]));
    PetscCallCUDA(cudaStreamWaitEvent(0, PellrJoinEvent[s], 0));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = z + A x (z may be NULL or y), all pointers in device memory */
PetscErrorCode PellrDeviceMult(PellrDevice d, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  PetscFunctionBegin;
  PetscCheck(d, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PELLR device copy missing");
  if (d->format == MAT_PELLR_FORMAT_CSR) {
    PetscCall(PetscLogGpuTimeBegin());
    PetscCall(PellrDeviceMultCSR(d, x, z, y));
    PetscCallCUDA(cudaGetLastError());
    PetscCall(PetscLogGpuTimeEnd());
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogGpuTimeBegin());
  {
    /* the product's kernels (thread count, launch); see PellrLaunchOverlapped() */
    PellrLaunch        k[PELLR_MAX_LAUNCHES];
    int                nk      = 0;
    const PellrColumns cols    = PellrSliceColumns(d);
    const int         *rowperm = d->format == MAT_PELLR_FORMAT_PELLR ? d->perm : NULL; /* SELL, ELLR: the identity, not read */

    if (d->nblock) k[nk++] = {(long)d->nchunks * PELLR_LONG_THREADS, [=](cudaStream_t st) { pellr_long_chunks<<<(unsigned int)d->nchunks, PELLR_LONG_THREADS, 0, st>>>((int)d->nblock, d->perm, d->longptr, PellrLongColumns(d), d->val, x, z, y, d->longpart, d->longcnt); }};
    if (d->nlong > d->nblock) k[nk++] = {(d->nlong - d->nblock) * 32L, [=](cudaStream_t st) { pellr_long_warp<<<Blocks((d->nlong - d->nblock) * 32L, 128), 128, 0, st>>>((int)d->nblock, (int)d->nlong, d->perm, d->longptr, PellrLongColumns(d), d->val, x, z, y); }};
#define PELLR_MULTI(c, T) \
  if (d->tclass[c + 1] > d->tclass[c]) k[nk++] = {(long)(d->tclass[c + 1] - d->tclass[c]) * 32 * T, [=](cudaStream_t st) { pellr_slices_multi<T><<<(unsigned int)(d->tclass[c + 1] - d->tclass[c]), 32 * T, 0, st>>>((int)d->tclass[c], (int)d->nlong, (int)d->nrows, d->sorder, rowperm, d->sliceptr, d->rlen, cols, d->val, x, z, y); }}
    PELLR_MULTI(0, 32);
    PELLR_MULTI(1, 16);
    PELLR_MULTI(2, 8);
    PELLR_MULTI(3, 4);
    PELLR_MULTI(4, 2);
#undef PELLR_MULTI
    if (d->tclass[6] > d->tclass[5]) k[nk++] = {(long)(d->tclass[6] - d->tclass[5]) * PELLR_SLICE, [=](cudaStream_t st) { pellr_slices_single<<<Blocks((d->tclass[6] - d->tclass[5]) * (long)PELLR_SLICE, 128), 128, 0, st>>>((int)d->tclass[5], (int)d->tclass[6], (int)d->nlong, (int)d->nrows, d->sorder, rowperm, d->sliceptr, d->rlen, cols, d->val, x, z, y); }};
    if (d->m > d->nrows && z != y) k[nk++] = {(long)(d->m - d->nrows), [=](cudaStream_t st) { PellrLaunchEmpty(d, z, y, st); }};
    PetscCall(PellrLaunchOverlapped(nk, k, d->nnz));
  }
  PetscCallCUDA(cudaGetLastError());
  PetscCall(PetscLogGpuTimeEnd());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = z + A^T x with atomics (z may be NULL or y); y has d->n entries */
PetscErrorCode PellrDeviceMultTransposeAtomic(PellrDevice d, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  PetscFunctionBegin;
#if defined(PETSC_USE_COMPLEX)
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "-mat_pellr_transpose atomic needs real scalars; use explicit");
#else
  PetscCheck(d, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PELLR device copy missing");
  PetscCheck(d->format != MAT_PELLR_FORMAT_CSR, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A CSR block uses the explicit transpose");
  PetscCall(PetscLogGpuTimeBegin());
  if (z != y) {
    if (z) PetscCallCUDA(cudaMemcpy(y, z, (size_t)d->n * sizeof(PetscScalar), cudaMemcpyDeviceToDevice));
    else PetscCallCUDA(cudaMemset(y, 0, (size_t)d->n * sizeof(PetscScalar)));
  }
  if (d->longslots) pellr_trans_long_chunks<<<(unsigned int)((d->longslots + PELLR_LONG_CHUNK - 1) / PELLR_LONG_CHUNK), PELLR_LONG_THREADS>>>((int)d->nlong, d->perm, d->longptr, PellrLongColumns(d), d->val, x, y);
  if (d->nslices) pellr_trans_slices<<<Blocks(d->nslices * (long)PELLR_SLICE, 128), 128>>>((int)d->nslices, (int)d->nlong, (int)d->nrows, d->perm, d->sliceptr, d->rlen, PellrSliceColumns(d), d->val, x, y);
  PetscCallCUDA(cudaGetLastError());
  PetscCall(PetscLogGpuTimeEnd());
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PellrDeviceGetDiagonal(PellrDevice d, PetscScalar *diag)
{
  PetscFunctionBegin;
  PetscCheck(d, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PELLR device copy missing");
  PetscCall(PetscLogGpuTimeBegin());
  if (d->format == MAT_PELLR_FORMAT_CSR) {
    if (d->m) pellr_diag_csr<<<Blocks(d->m, 128), 128>>>((int)d->m, d->rowptr, d->col, d->val, diag);
    PetscCallCUDA(cudaGetLastError());
    PetscCall(PetscLogGpuTimeEnd());
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (d->nlong) pellr_diag_long<<<Blocks(d->nlong, 128), 128>>>((int)d->nlong, d->perm, d->longptr, PellrLongColumns(d), d->val, diag);
  if (d->nslices) pellr_diag_slices<<<Blocks(d->nslices * (long)PELLR_SLICE, 128), 128>>>((int)d->nslices, (int)d->nlong, (int)d->nrows, d->perm, d->sliceptr, d->rlen, PellrSliceColumns(d), d->val, diag);
  PellrLaunchEmpty(d, NULL, diag, 0);
  PetscCallCUDA(cudaGetLastError());
  PetscCall(PetscLogGpuTimeEnd());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------------------------------ build on the GPU */
/*
  PellrDeviceBuild() makes on the GPU exactly the layout PellrLayoutBuild() (pellr.c) makes on the host:
    row lengths and their statistics (one pass, warp reductions), a stable radix sort of the rows on the key
    maxlen - length (ascending, so longest first and, stable, rows of equal length in increasing order: the host's
    stable counting sort), the long rows (the prefix of rows >= long_row_length, then the rows >= 32 up to the first
    one whose slice would be more than 1/3 padding), prefix sums for the long-row and slice pointers, one scatter of
    the columns (a warp per long row, a thread per slice row, column-major in the slice), and the values copied by
    rows through the kept CSR row pointers (also the values-only refresh). The explicit transpose first makes the
    transposed CSR (stable sort of the entries by column) with a map back into the untransposed values, builds from it
    and keeps that map (one gather per refresh).
  The diagonal slices are found in the CSR before the sizes are read back. Everything stays on the GPU except a few
  scalars read back to size the arrays: PELLR two small copies (after the lengths, after the sort), SELL and ELLR one.
*/

/* rows with length >= PellrThr[c]; the last threshold is the long-row length */
#define PELLR_NTHR 8

typedef struct {
  unsigned int       maxlen;
  unsigned int       cnt[PELLR_NTHR];
  unsigned int       nlongc; /* ~ the smallest sorted position that ends the long rows (an atomicMax of ~k from 0: the statistics start as zeros, one memset) */
  unsigned int       nlong;  /* PELLR: the end of the long rows, set by pellr_build_sizes_sorted() */
  unsigned long long ellr, pert, pellr;
  long long          longslots, widthsum; /* the sizes that decide the allocations: slots of the long rows, slice widths summed */
  long long          blockslots;          /* slots of the block rows (the block-row kernel's grid) */
  unsigned int       sclass[6];           /* SELL: slices of each thread class */
  unsigned long long diag[3];             /* diagonal slices: their count, slots and offsets in the table (pellr_diagonal_runs()) */
  long long          colxslots;           /* compact columns found in the CSR: length of colx (long rows and 32-bit slices) */
  unsigned int       ncompact;            /* ... and the slices with 16-bit offsets (pellr_compact_bases_csr()) */
} PellrBuildStats;

__device__ static inline unsigned long long WarpSumU64(unsigned long long s)
{
  for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(0xffffffffu, s, off);
  return s;
}

/*
  lengths and statistics. Grid-stride over the rows with the statistics reduced in registers, then per warp (shuffles)
  and per block (shared memory), and ONE atomic per statistic and block: per-warp atomics on the eleven counters of
  one struct serialized in one L2 slice (m/32 x 11 of them: milliseconds on 16M rows). blockDim is PELLR_BUILD_T, a
  multiple of 32, and every chunk starts at a multiple of it, so a warp always holds 32 consecutive rows (ELLR groups).
*/
/* thread class of a slice of width w (PellrThreadsPerRow() in pellrimpl.h): 5 - log2(threads per row) */
__device__ static inline unsigned PellrClass(long long w)
{
  unsigned t = 1, l = 0;
  while (t < 32 && w >= 32LL * t) t *= 2, l++;
  return 5 - l;
}

#define PELLR_BUILD_T    256
#define PELLR_BUILD_GRID 1056 /* 8 blocks of PELLR_BUILD_T per multiprocessor of an H200: enough to saturate memory */
/* SELL too (sw non-NULL): a warp is a slice (32 consecutive rows), so its longest row is the slice's width: sw[s] (and
   sw[nslices] = 0 for the scan), the class key skey[s] and index sidx[s] for the stable sort by thread class, the
   classes' counts into st->sclass; the widths' sum is st->ellr (two kernel launches fewer, each a few microseconds
   of the host's time in a build of a few hundred) */
__global__ static void __launch_bounds__(PELLR_BUILD_T) pellr_build_len(int m, const int *__restrict__ ai, int longlen, int *__restrict__ len, PellrBuildStats *st, long long *__restrict__ sw, unsigned *__restrict__ skey, int *__restrict__ sidx)
{
  __shared__ unsigned long long sh_ellr[PELLR_BUILD_T / 32], sh_pert[PELLR_BUILD_T / 32];
  __shared__ unsigned           sh_max[PELLR_BUILD_T / 32], sh_cnt[PELLR_NTHR][PELLR_BUILD_T / 32], sh_cls[6][PELLR_BUILD_T / 32];
  const int          lane = threadIdx.x & 31, warp = threadIdx.x / 32;
  const unsigned     thr[PELLR_NTHR] = {1u, 32u, 64u, 128u, 256u, 512u, (unsigned)PELLR_BLOCK_ROW, (unsigned)longlen};
  unsigned long long ellr = 0, pert = 0;
  unsigned           mx = 0, cnt[PELLR_NTHR], cls[6] = {0, 0, 0, 0, 0, 0};

  for (int c = 0; c < PELLR_NTHR; c++) cnt[c] = 0;
  for (long base = (long)blockIdx.x * blockDim.x; base < m; base += (long)gridDim.x * blockDim.x) { /* uniform per block */
    const long i = base + threadIdx.x;
    unsigned   l = 0, d = 0, wm;
    if (i < m) {
      l      = (unsigned)(ai[i + 1] - ai[i]);
      len[i] = (int)l;
      if (i > 0) {
        const unsigned lp = (unsigned)(ai[i] - ai[i - 1]);
        d                 = l > lp ? l - lp : lp - l;
      }
    }
    wm = __reduce_max_sync(0xffffffffu, l); /* the group's longest row, the same in every lane: counted once below */
    ellr += wm;
    mx = max(mx, l);
    pert += d;
    for (int c = 0; c < PELLR_NTHR; c++) cnt[c] += l >= thr[c] ? 1u : 0u;
    if (sw && lane == 0) {
      const long s = (i - lane) / PELLR_SLICE, nslices = (m + PELLR_SLICE - 1) / PELLR_SLICE;
      if (s < nslices) {
        const unsigned c = PellrClass(wm);
        sw[s]            = wm;
        skey[s]          = c;
        sidx[s]          = (int)s;
        for (unsigned q = 0; q < 6; q++) cls[q] += q == c ? 1u : 0u; /* (a register array indexed by c would go to local memory) */
        if (s == nslices - 1) sw[nslices] = 0;
      }
    }
  }
  pert = WarpSumU64(pert);
  mx   = __reduce_max_sync(0xffffffffu, mx);
  for (int c = 0; c < PELLR_NTHR; c++) cnt[c] = __reduce_add_sync(0xffffffffu, cnt[c]);
  if (lane == 0) {
    sh_ellr[warp] = ellr;
    sh_pert[warp] = pert;
    sh_max[warp]  = mx;
    for (int c = 0; c < PELLR_NTHR; c++) sh_cnt[c][warp] = cnt[c];
    for (int c = 0; c < 6; c++) sh_cls[c][warp] = cls[c]; /* lane 0's: the warp's */
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < PELLR_BUILD_T / 32; w++) {
      ellr += sh_ellr[w];
      pert += sh_pert[w];
      mx = max(mx, sh_max[w]);
      for (int c = 0; c < PELLR_NTHR; c++) cnt[c] += sh_cnt[c][w];
      for (int c = 0; c < 6; c++) cls[c] += sh_cls[c][w];
    }
    if (ellr) atomicAdd(&st->ellr, ellr);
    if (pert) atomicAdd(&st->pert, pert);
    if (mx) atomicMax(&st->maxlen, mx);
    for (int c = 0; c < PELLR_NTHR; c++)
      if (cnt[c]) atomicAdd(&st->cnt[c], cnt[c]);
    for (int c = 0; c < 6; c++)
      if (cls[c]) atomicAdd(&st->sclass[c], cls[c]);
  }
}

__global__ static void pellr_build_keys(int m, unsigned maxlen, const int *__restrict__ len, unsigned *__restrict__ key, int *__restrict__ idx)
{
  const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    key[i] = maxlen - (unsigned)len[i];
    idx[i] = (int)i;
  }
}

/* sorted lengths (slen[m] = 0) and the PELLR warp iterations: the first row of each warp of the sorted order.
   Grid-stride, reduced per warp and block: one atomic per block (one per warp on the single counter cost about 0.5 ms
   on 16M rows on the H200) */
__global__ static void __launch_bounds__(PELLR_BUILD_T) pellr_build_slen(int m, unsigned maxlen, const unsigned *__restrict__ key, int *__restrict__ slen, PellrBuildStats *st)
{
  __shared__ unsigned long long sh[PELLR_BUILD_T / 32];
  unsigned long long             v = 0;

  for (long k = (long)blockIdx.x * blockDim.x + threadIdx.x; k <= m; k += (long)gridDim.x * blockDim.x) {
    if (k < m) {
      const int l = (int)(maxlen - key[k]);
      slen[k]     = l;
      if (k % PELLR_SLICE == 0) v += (unsigned long long)l;
    } else slen[k] = 0;
  }
  v = WarpSumU64(v);
  if ((threadIdx.x & 31) == 0) sh[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    for (int w = 1; w < PELLR_BUILD_T / 32; w++) v += sh[w];
    if (v) atomicAdd(&st->pellr, v);
  }
}

/* sorted positions [k0, k1) hold the rows of length 32 .. long_row_length-1: the long rows end at the first one whose slice would be > 1/3 padding */
__global__ static void pellr_build_nlong(int k0, int k1, int nrows, const int *__restrict__ slen, PellrBuildStats *st)
{
  const long k = k0 + (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (k < k1) {
    long long sum = 0;
    for (int r = 0; r < PELLR_SLICE && k + r < nrows; r++) sum += slen[k + r];
    if (3 * sum >= 2LL * PELLR_SLICE * slen[k]) atomicMax(&st->nlongc, ~(unsigned)k);
  }
}

/* ELLR (rows in their order, no long rows) slice widths (w[nslices] = 0) for the prefix sum of the slice pointers: the
   longest row of the block (st->maxlen, read here so that its build needs no copy back before its sizes); SELL's come
   from pellr_build_len(), PELLR's from pellr_build_widths_sorted() */
__global__ static void pellr_build_widths(int nslices, const PellrBuildStats *st, long long *__restrict__ w)
{
  const long s = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (s < nslices) w[s] = st->maxlen;
  else if (s == nslices) w[s] = 0;
}

/* CSR copy: row pointers from 0 */
__global__ static void pellr_build_rowptr(int m, const int *__restrict__ ai, int *__restrict__ rowptr)
{
  const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= m) rowptr[i] = ai[i] - ai[0];
}

/*
  PELLR before the host knows the long rows (so that one copy back brings every size): the long rows end at nlong =
  min(~st->nlongc, k1) (pellr_build_nlong() left its atomicMax of the complement there; k1 when it found none), the slices of 32 sorted
  rows follow. Widths w[s] = slen[nlong + 32 s] (the slice's first row) for the nslices = ceil((nrows - nlong) / 32)
  slices, 0 up to nsmax (the slices when nlong = k0, the most)
*/
__global__ static void pellr_build_widths_sorted(int nsmax, int k1, int nrows, const PellrBuildStats *st, const int *__restrict__ slen, long long *__restrict__ w)
{
  const long s = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (s <= nsmax) {
    const int nlong = (int)min(~st->nlongc, (unsigned)k1), nslices = (nrows - nlong + PELLR_SLICE - 1) / PELLR_SLICE;
    w[s]            = s < nslices ? slen[nlong + PELLR_SLICE * s] : 0;
  }
}

/* ... and the sizes, with the final nlong into the statistics for the copy back; longptr holds the k1 + 1 prefix sums of slen */
__global__ static void pellr_build_sizes_sorted(int k1, int nrows, int nblockrows, const int *__restrict__ longptr, const long long *__restrict__ wscan, PellrBuildStats *st)
{
  const int nlong = (int)min(~st->nlongc, (unsigned)k1), nslices = (nrows - nlong + PELLR_SLICE - 1) / PELLR_SLICE;
  st->nlong       = (unsigned)nlong;
  st->blockslots  = longptr[min(nlong, nblockrows)];
  st->longslots   = longptr[nlong];
  st->widthsum    = wscan[nslices];
}

/* slice pointers after the longslots slots of the long rows; zero (SELL, ELLR: no long rows): their longptr[0] = 0 */
__global__ static void pellr_build_sliceptr(int nslices, int longslots, const long long *__restrict__ wscan, int *__restrict__ sliceptr, int *zero)
{
  const long s = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (s <= nslices) sliceptr[s] = (int)(longslots + PELLR_SLICE * wscan[s]);
  if (s == 0 && zero) *zero = 0;
}

/* long rows: a warp per row, unpadded */
__global__ static void pellr_build_long(int nlong, const int *__restrict__ ai, const int *__restrict__ aj, const int *__restrict__ vmap, const int *__restrict__ perm, const int *__restrict__ longptr, int *__restrict__ col, int *__restrict__ map)
{
  const long k    = ((long)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int  lane = threadIdx.x & 31;
  if (k < nlong) {
    const int row = perm[k], src = ai[row] - ai[0], l = ai[row + 1] - ai[row], dst = longptr[k];
    for (int j = lane; j < l; j += 32) {
      col[dst + j] = aj[src + j];
      if (map) map[dst + j] = vmap ? vmap[src + j] : src + j;
    }
  }
}

/*
  the slice pointers (sliceptr[s] = longslots + 32 wscan[s], s < nslices, and longslots + 32 widthsum; *zero = 0 if zero: longptr[0] of SELL and
  ELLR) and the copy of the row pointers (rowptr = ai, m + 1 of them, if rowptr), by the scatter's threads: two launches
  fewer. Every thread of the grid takes part in the copy (grid-stride). The last slice's end is widthsum, not
  wscan[nslices] (not scanned by SELL and ELLR)
*/
__device__ static inline void PellrScatterPointers(long g, int nslices, long long longslots, const long long *__restrict__ wscan, long long widthsum, int *__restrict__ sliceptr, int *zero, int m, const int *__restrict__ ai, int *__restrict__ rowptr)
{
  if (rowptr)
    for (long i = g; i <= m; i += (long)gridDim.x * blockDim.x) rowptr[i] = ai[i];
  if (g < (long)PELLR_SLICE * nslices && g % PELLR_SLICE == 0) {
    const long s = g / PELLR_SLICE;
    sliceptr[s]  = (int)(longslots + PELLR_SLICE * wscan[s]);
    if (s == nslices - 1) sliceptr[nslices] = (int)(longslots + PELLR_SLICE * widthsum); /* (wscan[nslices], which SELL and ELLR do not scan) */
  }
  if (g == 0 && zero) *zero = 0;
}

/* slices: a thread per slice row, entry j of row r of slice s at sliceptr[s] + 32 j + r; padding col 0, map -1 */
__global__ static void pellr_build_slices(int nslices, int nlong, int nrows, long long longslots, const long long *__restrict__ wscan, long long widthsum, int *__restrict__ sliceptr, int *zero, int m, int *__restrict__ rowptr, const int *__restrict__ ai, const int *__restrict__ aj, const int *__restrict__ vmap, const int *__restrict__ perm, const int *__restrict__ slen, int *__restrict__ rlen, int *__restrict__ col, int *__restrict__ map)
{
  const long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
  PellrScatterPointers(g, nslices, longslots, wscan, widthsum, sliceptr, zero, m, ai, rowptr);
  if (g < (long)PELLR_SLICE * nslices) {
    const long s = g / PELLR_SLICE, k = nlong + g;
    const int  r = (int)(g % PELLR_SLICE), base = (int)(longslots + PELLR_SLICE * wscan[s]), w = (int)((s + 1 < nslices ? wscan[s + 1] : widthsum) - wscan[s]);
    int        l = 0, src = 0;
    if (k < nrows) {
      const int row = perm ? perm[k] : (int)k;
      l             = slen[k];
      src           = ai[row] - ai[0];
    }
    rlen[g] = l;
    for (int j = 0; j < w; j++) {
      const long t = base + (long)PELLR_SLICE * j + r;
      if (j < l) {
        col[t] = aj[src + j];
        if (map) map[t] = vmap ? vmap[src + j] : src + j;
      } else {
        col[t] = 0;
        if (map) map[t] = -1;
      }
    }
  }
}

/* the same with compact columns (cbase, xptr from pellr_compact_bases_csr()): slot t of a 16-bit slice stores column -
   cbase[s] at cidx[t - longslots], a 32-bit slice its columns at colx[xptr[s] + t - sliceptr[s]]; padding 0 */
__global__ static void pellr_build_slices_compact(int nslices, int nlong, int nrows, long long longslots, const long long *__restrict__ wscan, long long widthsum, int *__restrict__ sliceptr, int *zero, int m, int *__restrict__ rowptr, const int *__restrict__ ai, const int *__restrict__ aj, const int *__restrict__ vmap, const int *__restrict__ perm, const int *__restrict__ slen, const int *__restrict__ cbase, const int *__restrict__ xptr, int *__restrict__ rlen, unsigned short *__restrict__ cidx, int *__restrict__ colx, int *__restrict__ map)
{
  const long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
  PellrScatterPointers(g, nslices, longslots, wscan, widthsum, sliceptr, zero, m, ai, rowptr);
  if (g < (long)PELLR_SLICE * nslices) {
    const long s = g / PELLR_SLICE, k = nlong + g;
    const int  r = (int)(g % PELLR_SLICE), base = (int)(longslots + PELLR_SLICE * wscan[s]), w = (int)((s + 1 < nslices ? wscan[s + 1] : widthsum) - wscan[s]), cb = cbase[s];
    int        l = 0, src = 0;
    if (k < nrows) {
      const int row = perm ? perm[k] : (int)k;
      l             = slen[k];
      src           = ai[row] - ai[0];
    }
    rlen[g] = l;
    if (cb >= 0) {
      unsigned short *c16 = cidx + (base - longslots) + r;
      for (int j = 0; j < w; j++) c16[PELLR_SLICE * j] = j < l ? (unsigned short)(aj[src + j] - cb) : (unsigned short)0;
    } else {
      int *c32 = colx + xptr[s] + r;
      for (int j = 0; j < w; j++) c32[PELLR_SLICE * j] = j < l ? aj[src + j] : 0;
    }
    if (map)
      for (int j = 0; j < w; j++) map[base + (long)PELLR_SLICE * j + r] = j < l ? (vmap ? vmap[src + j] : src + j) : -1;
  }
}

/*
  compact columns, 1: a warp per slice (lane r = row r): the slice's smallest column, or -1 if its columns span more
  than 65536 (cbase), and its slots if so (xslots, 0 if not: scanned into xptr); ncompact counts the compact slices
  (one atomic per block). One base per slice, not per entry position (a per-position base was one more load a slot,
  and slower); the base is a load of its own, not on the address path of the offsets (an offset table there was a
  dependent load before each row's first entry, and cost more than the 2 bytes a slot saved on 5- and 7-point rows)
*/
#define PELLR_COMPACT_T 256
__global__ static void __launch_bounds__(PELLR_COMPACT_T) pellr_compact_bases(int nslices, const int *__restrict__ sliceptr, const int *__restrict__ rlen, const int *__restrict__ col, int *__restrict__ cbase, int *__restrict__ xslots, int *ncompact)
{
  const long s    = ((long)blockIdx.x * blockDim.x + threadIdx.x) / PELLR_SLICE;
  const int  r    = threadIdx.x % PELLR_SLICE;
  bool       fits = false;

  if (s < nslices) { /* whole warps: s is uniform in a warp */
    const int len = rlen[PELLR_SLICE * s + r], base = sliceptr[s];
    unsigned  lo = 0xffffffffu, hi = 0;

    for (int j = 0; j < len; j++) {
      const unsigned c = (unsigned)col[base + PELLR_SLICE * j + r];
      lo               = min(lo, c);
      hi               = max(hi, c);
    }
    lo   = __reduce_min_sync(0xffffffffu, lo);
    hi   = __reduce_max_sync(0xffffffffu, hi);
    fits = lo == 0xffffffffu || hi - lo <= 0xffffu; /* (no entries at all: cannot occur, w >= 1) */
    if (r == 0) {
      cbase[s]  = fits ? (lo == 0xffffffffu ? 0 : (int)lo) : -1;
      xslots[s] = fits ? 0 : sliceptr[s + 1] - base;
    }
  }
  {
    const int cnt = __syncthreads_count(fits && r == 0);
    if (threadIdx.x == 0 && cnt) atomicAdd(ncompact, cnt);
  }
}

/* compact columns, 2: offsets or 32-bit columns (a thread per slice row; padding 0); xptr is the scan of xslots from longslots */
__global__ static void pellr_compact_write(int nslices, int longslots, const int *__restrict__ sliceptr, const int *__restrict__ rlen, const int *__restrict__ col, const int *__restrict__ cbase, const int *__restrict__ xptr, unsigned short *__restrict__ cidx, int *__restrict__ colx)
{
  const long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (g < (long)PELLR_SLICE * nslices) {
    const long s  = g / PELLR_SLICE;
    const int  r  = (int)(g % PELLR_SLICE), len = rlen[g], base = sliceptr[s], w = (sliceptr[s + 1] - base) / PELLR_SLICE;
    const int  cb = cbase[s];

    if (cb >= 0) {
      for (int j = 0; j < w; j++) cidx[base - longslots + PELLR_SLICE * j + r] = j < len ? (unsigned short)(col[base + PELLR_SLICE * j + r] - cb) : 0;
    } else {
      for (int j = 0; j < w; j++) colx[xptr[s] + PELLR_SLICE * j + r] = col[base + PELLR_SLICE * j + r];
    }
  }
}

/*
  diagonal slices. A slice is diagonal when its 32 rows are rows of the block (sorted positions below nrows), each as
  long as the slice is wide, and for every entry j the column minus the row is the same in all 32 rows. The passes
  read a slice through an accessor A: the CSR itself during the GPU build (PellrDiagCSR: before the scatter, so that
  the counts come back with the sizes, in the build's one copy back after its sort) or a layout on the device
  (PellrDiagLayout: a host build uploaded). A::slot(s, r, row, len): the row at sorted position nlong + 32 s + r and
  its length (false past nrows); A::width(s, len0): the slice's width, given its first row's length; A::columns(s, r,
  row)[j]: that row's j-th column.
*/
struct PellrDiagCSR {
  struct Row {
    const int *c;
    __device__ int operator[](int j) const { return c[j]; }
  };
  const int *ai, *aj, *perm;       /* the CSR (aj[0] is entry ai[0]); perm: sorted position -> row, NULL for SELL and ELLR */
  int                    nrows;    /* rows in the slices and long rows (PELLR: the nonempty ones) */
  int                    sorted;   /* PELLR: the long rows (st->nlong, final after pellr_build_sizes_sorted()) come first */
  int                    ellr;     /* ELLR: every slice is st->maxlen wide */
  const PellrBuildStats *st;
  __device__ int nlong() const { return sorted ? (int)st->nlong : 0; }
  __device__ int nslices() const { return (nrows - nlong() + PELLR_SLICE - 1) / PELLR_SLICE; }
  __device__ bool slot(long s, int r, int &row, int &len) const
  {
    const long k = nlong() + PELLR_SLICE * s + r;
    row = 0, len = 0;
    if (k >= nrows) return false;
    row = perm ? perm[k] : (int)k;
    len = ai[row + 1] - ai[row];
    return true;
  }
  __device__ int width(long, int len0) const { return ellr ? (int)st->maxlen : len0; }
  __device__ Row columns(long, int, int row) const { return Row{aj + (ai[row] - ai[0])}; }
};

struct PellrDiagLayout {
  struct Row {
    PellrRowColumns rc;
    __device__ int operator[](int j) const { return PellrColumnAt(rc, j); }
  };
  int          nlong_, nrows, nslices_;
  const int   *perm, *sliceptr, *rlen; /* perm NULL: the identity */
  PellrColumns cols;
  __device__ int nlong() const { return nlong_; }
  __device__ int nslices() const { return nslices_; }
  __device__ bool slot(long s, int r, int &row, int &len) const
  {
    const long k = nlong_ + PELLR_SLICE * s + r;
    row = 0, len = 0;
    if (k >= nrows) return false;
    row = perm ? perm[k] : (int)k;
    len = rlen[PELLR_SLICE * s + r];
    return true;
  }
  __device__ int width(long s, int) const { return (sliceptr[s + 1] - sliceptr[s]) / PELLR_SLICE; }
  __device__ Row columns(long s, int r, int) const { return Row{PellrSliceRow(cols, sliceptr, s, r)}; }
};

/*
  diagonal slices, 1: a warp per slice s < nsmax (lane r = row r; slices past A::nslices() get 0). dw[s] = the width of
  a diagonal slice, else 0 (the check stops at the first entry that differs). same[s] = 1 when its first row has the
  offsets of the previous slice's first row (then, if that slice is diagonal too, they share the offsets: all their
  rows have them)
*/
#define PELLR_DIAG_T 256
template <class A>
__global__ static void __launch_bounds__(PELLR_DIAG_T) pellr_diagonal_detect(int nsmax, A a, int *__restrict__ dw, unsigned char *__restrict__ same)
{
  const long s = ((long)blockIdx.x * blockDim.x + threadIdx.x) / PELLR_SLICE;
  const int  r = threadIdx.x % PELLR_SLICE;
  int        w = 0, sm = 0;

  if (s >= nsmax) return; /* whole warps: s is uniform in a warp */
  if (s < a.nslices()) {
    int        row, len;
    const bool valid = a.slot(s, r, row, len);
    bool       diag;

    w    = a.width(s, __shfl_sync(0xffffffffu, len, 0));
    diag = __all_sync(0xffffffffu, valid && w > 0 && len == w);
    if (diag) {
      const typename A::Row c = a.columns(s, r, row);
      for (int j = 0; j < w && diag; j++) { /* diag is uniform in the warp */
        const int dl = c[j] - row, d0 = __shfl_sync(0xffffffffu, dl, 0);
        diag         = __all_sync(0xffffffffu, dl == d0);
      }
    }
    if (!diag) w = 0;
    else if (s > 0) { /* the previous slice's first row, entries j = r, r + 32, ... in lane r */
      int       prow, plen;
      const int row0 = __shfl_sync(0xffffffffu, row, 0);
      (void)a.slot(s - 1, 0, prow, plen); /* a position before a full slice's: a row of the block */
      if (plen == w) {
        const typename A::Row c0 = a.columns(s, 0, row0), cp = a.columns(s - 1, 0, prow);
        bool                  eq = true;
        for (int j = r; j < w && eq; j += PELLR_SLICE) eq = c0[j] - row0 == cp[j] - prow;
        sm = __all_sync(0xffffffffu, eq) ? 1 : 0;
      }
    }
  }
  if (r == 0) {
    dw[s]   = w;
    same[s] = (unsigned char)sm;
  }
}

/*
  diagonal slices, 2: a thread per slice s < nsmax. A diagonal slice starts a run unless the slice before it is
  diagonal, as wide, with the same offsets; tlen[s] = its offsets' length in the table if it starts one (else 0).
  cnt[0..2] += the diagonal slices, their slots and the table's length (one atomic each per block)
*/
__global__ static void __launch_bounds__(256) pellr_diagonal_runs(int nsmax, const int *__restrict__ dw, const unsigned char *__restrict__ same, int *__restrict__ tlen, unsigned long long *cnt)
{
  __shared__ unsigned long long sh[3][256 / 32];
  const long                    s = (long)blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long            v[3] = {0, 0, 0};

  if (s < nsmax) {
    const int  w     = dw[s];
    const bool start = w > 0 && !(s > 0 && dw[s - 1] == w && same[s]);
    tlen[s]          = start ? w : 0;
    if (w > 0) {
      v[0] = 1;
      v[1] = (unsigned long long)PELLR_SLICE * (unsigned long long)w;
      v[2] = start ? (unsigned long long)w : 0;
    }
  }
  for (int q = 0; q < 3; q++) {
    v[q] = WarpSumU64(v[q]);
    if ((threadIdx.x & 31) == 0) sh[q][threadIdx.x / 32] = v[q];
  }
  __syncthreads();
  if (threadIdx.x < 3) {
    unsigned long long t = 0;
    for (int k = 0; k < (int)blockDim.x / 32; k++) t += sh[threadIdx.x][k];
    if (t) atomicAdd(&cnt[threadIdx.x], t);
  }
}

/*
  diagonal slices, 3 (when they are kept): a thread per slice. tpos is the exclusive scan of tlen, so a run's start s0
  has its offsets at tpos[s0] and a later slice s of the run (tlen 0, as wide: w) at tpos[s] - w. The start copies its
  first row's offsets into the table; dptr[s] = -1 for the slices that are not diagonal
*/
template <class A>
__global__ static void pellr_diagonal_table(int nslices, A a, const int *__restrict__ dw, const int *__restrict__ tlen, const int *__restrict__ tpos, int *__restrict__ dptr, int *__restrict__ doff)
{
  const long s = (long)blockIdx.x * blockDim.x + threadIdx.x;

  if (s < nslices) {
    const int w = dw[s];
    if (!w) dptr[s] = -1;
    else if (!tlen[s]) dptr[s] = tpos[s] - w;
    else {
      int row, len;
      (void)a.slot(s, 0, row, len);
      const typename A::Row c = a.columns(s, 0, row);
      dptr[s]                 = tpos[s];
      for (int j = 0; j < w; j++) doff[tpos[s] + j] = c[j] - row;
    }
  }
}
/* the 32-bit columns back from the compact layout (PellrDeviceDownload(): the layout as the host build has it, padding 0) */
__global__ static void pellr_compact_expand(int nslices, const int *__restrict__ sliceptr, const int *__restrict__ rlen, PellrColumns cols, int *__restrict__ col)
{
  const long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (g < (long)PELLR_SLICE * nslices) {
    const long            s = g / PELLR_SLICE;
    const int             r = (int)(g % PELLR_SLICE), len = rlen[g], base = sliceptr[s], w = (sliceptr[s + 1] - base) / PELLR_SLICE;
    const PellrRowColumns rc = PellrSliceRow(cols, sliceptr, s, r);
    for (int j = 0; j < w; j++) col[base + PELLR_SLICE * j + r] = j < len ? PellrColumnAt(rc, j) : 0;
  }
}

/* xptr (cub's exclusive scan of xslots) shifted past the long rows, and the total length of colx */
__global__ static void pellr_compact_xptr(int nslices, int longslots, const int *__restrict__ xslots, int *__restrict__ xptr, long long *total)
{
  const long s = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (s < nslices) {
    xptr[s] += longslots;
    if (s == nslices - 1) *total = (long long)xptr[s] + xslots[s];
  }
}

/*
  compact columns found in the CSR before the scatter (the GPU build), so that the scatter writes the 16-bit offsets
  itself and no 32-bit copy of the columns is ever made: pellr_compact_bases()'s pass, reading the slices through the
  accessor of the diagonal passes (PellrDiagCSR), for the nsmax slices the build may have (those past a.nslices() get
  base 0 and no slots); w[s] is slice s's width. The count of compact slices goes into st->ncompact (one atomic per
  block), back to the host with the sizes
*/
template <class A>
__global__ static void __launch_bounds__(PELLR_COMPACT_T) pellr_compact_bases_csr(int nsmax, A a, const long long *__restrict__ w, int *__restrict__ cbase, int *__restrict__ xslots, PellrBuildStats *st)
{
  const long s    = ((long)blockIdx.x * blockDim.x + threadIdx.x) / PELLR_SLICE;
  const int  r    = threadIdx.x % PELLR_SLICE;
  bool       fits = false;

  if (s < nsmax) { /* whole warps: s is uniform in a warp */
    if (s < a.nslices()) {
      int      row, len;
      unsigned lo = 0xffffffffu, hi = 0;

      if (a.slot(s, r, row, len)) {
        const typename A::Row c = a.columns(s, r, row);
        for (int j = 0; j < len; j++) {
          const unsigned cj = (unsigned)c[j];
          lo                = min(lo, cj);
          hi                = max(hi, cj);
        }
      }
      lo   = __reduce_min_sync(0xffffffffu, lo);
      hi   = __reduce_max_sync(0xffffffffu, hi);
      fits = lo == 0xffffffffu || hi - lo <= 0xffffu;
      if (r == 0) {
        cbase[s]  = fits ? (lo == 0xffffffffu ? 0 : (int)lo) : -1;
        xslots[s] = fits ? 0 : (int)(PELLR_SLICE * w[s]);
      }
    } else if (r == 0) {
      cbase[s]  = 0;
      xslots[s] = 0;
    }
  }
  {
    const int cnt = __syncthreads_count(fits && r == 0);
    if (threadIdx.x == 0 && cnt) atomicAdd(&st->ncompact, (unsigned)cnt);
  }
}

/* ... xptr (the exclusive scan of xslots) shifted past the long rows (st->longslots, final), and colx's length into the statistics */
__global__ static void pellr_compact_xptr_csr(int nsmax, const int *__restrict__ xslots, int *__restrict__ xptr, PellrBuildStats *st)
{
  const long s = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (s < nsmax) {
    const long long longslots = st->longslots;
    if (s == nsmax - 1) st->colxslots = longslots + (long long)xptr[s] + xslots[s];
    xptr[s] += (int)longslots;
  }
}

/* values-only refresh without a map (the layout of the CSR itself): long rows a warp per row, slices a thread per row */
__global__ static void pellr_refresh_long(int nlong, const int *__restrict__ rowptr, const int *__restrict__ perm, const int *__restrict__ longptr, const PetscScalar *__restrict__ a, PetscScalar *__restrict__ val)
{
  const long k    = ((long)blockIdx.x * blockDim.x + threadIdx.x) / 32;
  const int  lane = threadIdx.x & 31;
  if (k < nlong) {
    const int src = rowptr[perm[k]] - rowptr[0], dst = longptr[k], l = longptr[k + 1] - dst;
    for (int j = lane; j < l; j += 32) val[dst + j] = a[src + j];
  }
}

__global__ static void pellr_refresh_slices(int nslices, int nlong, int nrows, const int *__restrict__ rowptr, const int *__restrict__ perm, const int *__restrict__ sliceptr, const int *__restrict__ rlen, const PetscScalar *__restrict__ a, PetscScalar *__restrict__ val)
{
  const long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (g < (long)PELLR_SLICE * nslices) {
    const long s = g / PELLR_SLICE, k = nlong + g;
    const int  r = (int)(g % PELLR_SLICE), base = sliceptr[s], w = (sliceptr[s + 1] - base) / PELLR_SLICE, l = rlen[g];
    const int  src = k < nrows ? rowptr[perm ? perm[k] : k] - rowptr[0] : 0;
    for (int j = 0; j < w; j++) val[base + (long)PELLR_SLICE * j + r] = j < l ? a[src + j] : (PetscScalar)0.0;
  }
}

__global__ static void pellr_gather(long nslots, const int *__restrict__ map, const PetscScalar *__restrict__ a, PetscScalar *__restrict__ val)
{
  const long t = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t < nslots) {
    const int q = map[t];
    val[t]      = q >= 0 ? a[q] : (PetscScalar)0.0;
  }
}

/* transpose: the row of every entry, column counts */
__global__ static void pellr_build_rowof(int m, const int *__restrict__ ai, int *__restrict__ rowof)
{
  const long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m)
    for (int t = ai[i]; t < ai[i + 1]; t++) rowof[t - ai[0]] = (int)i;
}

__global__ static void pellr_build_colcount(long nnz, const int *__restrict__ aj, int *__restrict__ cnt)
{
  const long t = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t < nnz) atomicAdd(&cnt[aj[t]], 1);
}

__global__ static void pellr_build_iota(long n, int *__restrict__ idx)
{
  const long t = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) idx[t] = (int)t;
}

__global__ static void pellr_build_tj(long nnz, const int *__restrict__ pos, const int *__restrict__ rowof, int *__restrict__ tj)
{
  const long p = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (p < nnz) tj[p] = rowof[pos[p]];
}

__global__ static void pellr_build_toint(long n, const PetscInt *__restrict__ a, int *__restrict__ b)
{
  const long t = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) b[t] = (int)a[t];
}

/*
  persistent arrays of the layout (freed by PellrDeviceDestroy() with cudaFreeAsync()): stream-ordered from the device's
  default memory pool like the build's temporaries, so a build neither synchronizes nor maps fresh memory for them
  (with cudaMalloc() and a trim of the pool after each build, the H200 builds took about 1 ms even for small
  matrices); the pool reuses what the temporaries and earlier layouts gave back
*/
/* a traced build (-info with -sparsegpu_trace_host) records the host time of its allocations of 1 MiB or more and the
   pool's reserved and used memory before each: whether a slow allocation grew the pool or found its memory there */
#define PELLR_ALLOC_TRACE_MAX 8
static struct {
  PetscBool on;
  int       n;
  double    mib[PELLR_ALLOC_TRACE_MAX], us[PELLR_ALLOC_TRACE_MAX], reserved[PELLR_ALLOC_TRACE_MAX], used[PELLR_ALLOC_TRACE_MAX];
} PellrAllocTrace;

static PetscErrorCode PellrMallocAsync(void **p, size_t bytes)
{
  PetscFunctionBegin;
  if (PellrAllocTrace.on && bytes >= ((size_t)1 << 20) && PellrAllocTrace.n < PELLR_ALLOC_TRACE_MAX) {
    int                k   = PellrAllocTrace.n++;
    unsigned long long res = 0, used = 0;
    PetscLogDouble     t0, t1;

    PetscCall(SparseGPUCUDAPoolState(NULL, &res, &used));
    PetscCall(PetscTime(&t0));
    PetscCallCUDA(cudaMallocAsync(p, bytes, 0));
    PetscCall(PetscTime(&t1));
    PellrAllocTrace.mib[k]      = bytes / 1048576.0;
    PellrAllocTrace.us[k]       = 1e6 * (t1 - t0);
    PellrAllocTrace.reserved[k] = res / 1048576.0;
    PellrAllocTrace.used[k]     = used / 1048576.0;
  } else PetscCallCUDA(cudaMallocAsync(p, bytes, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename T>
static PetscErrorCode PellrAlloc(T **p, PetscInt64 n)
{
  PetscFunctionBegin;
  *p = NULL;
  if (n > 0) PetscCall(PellrMallocAsync((void **)p, (size_t)n * sizeof(T)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* temporaries of the build, stream-ordered on the default stream (no device synchronization) */
template <typename T>
static PetscErrorCode PellrTmpAlloc(T **p, PetscInt64 n)
{
  PetscFunctionBegin;
  *p = NULL;
  if (n > 0) PetscCall(PellrMallocAsync((void **)p, (size_t)n * sizeof(T)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename T>
static PetscErrorCode PellrFreeAsync(T **p)
{
  PetscFunctionBegin;
  if (*p) PetscCallCUDA(cudaFreeAsync(*p, 0));
  *p = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  the build's temporaries carved out of one stream-ordered allocation: one allocation and one free instead of one of
  each per array (about ten of each per build, their host-side cost a visible part of builds of a few hundred us).
  carve(a) places the arrays at 256-byte aligned offsets of a->base and returns the bytes used; with a->base NULL it
  only counts (every pointer NULL)
*/
typedef struct {
  char  *base;
  size_t size;
} PellrArena;

template <typename T>
static void PellrArenaTake(const PellrArena *a, size_t *off, T **p, PetscInt64 n)
{
  *p = (a->base && n > 0) ? (T *)(a->base + *off) : NULL;
  if (n > 0) *off += ((size_t)n * sizeof(T) + 255) & ~(size_t)255;
}

template <typename F>
static PetscErrorCode PellrArenaAlloc(PellrArena *a, F carve)
{
  PetscFunctionBegin;
  a->base = NULL;
  a->size = carve(a);
  PetscCall(PellrTmpAlloc(&a->base, (PetscInt64)a->size));
  (void)carve(a);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PellrDeviceSetReuseBlock(PetscBool reuse)
{
  PetscFunctionBegin;
  PellrReuseBlock     = reuse;
  PellrReuseBlockRead = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PellrDeviceGetReuseBlock(PetscBool *reuse)
{
  PetscFunctionBegin;
  PetscCall(PellrReuseBlockOption(reuse));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* gives back a spare block (stream-ordered: the products that used it are before the free on the default stream) */
PetscErrorCode PellrDeviceFreeBlock(void **block, size_t *size)
{
  PetscFunctionBegin;
  if (*block) PetscCallCUDA(cudaFreeAsync(*block, 0));
  *block = NULL;
  *size  = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PellrArenaAlloc() taking the spare block (*spare, *sparesize) when the arena fits in it with little to spare; a spare
   that does not fit is given back first, so the pool can use its memory for the new arena */
template <typename F>
static PetscErrorCode PellrArenaAllocSpare(PellrArena *a, void **spare, size_t *sparesize, F carve)
{
  PetscFunctionBegin;
  if (spare && *spare) {
    a->base           = NULL;
    const size_t need = carve(a);
    if (need > 0 && need <= *sparesize && (double)(*sparesize - need) <= PELLR_SPARE_SLACK * (double)need) {
      a->base    = (char *)*spare;
      a->size    = *sparesize;
      *spare     = NULL;
      *sparesize = 0;
      (void)carve(a);
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    PetscCall(PellrDeviceFreeBlock(spare, sparesize));
  }
  PetscCall(PellrArenaAlloc(a, carve));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* exclusive prefix sums of the slice widths w and of the diagonal slices' table lengths tlen (n each) in one scan
   (zipped pairs): one cub call, two kernel launches, instead of two calls. wscan[n] is not written */
struct PellrPairSum {
  __host__ __device__ cuda::std::tuple<long long, int> operator()(const cuda::std::tuple<long long, int> &a, const cuda::std::tuple<long long, int> &b) const
  {
    return {cuda::std::get<0>(a) + cuda::std::get<0>(b), cuda::std::get<1>(a) + cuda::std::get<1>(b)};
  }
};
static cudaError_t PellrScanWidthsAndTable(void *tmp, size_t &tb, const long long *w, const int *tlen, long long *wscan, int *tpos, int n)
{
  return cub::DeviceScan::ExclusiveScan(tmp, tb, thrust::make_zip_iterator(w, tlen), thrust::make_zip_iterator(wscan, tpos), PellrPairSum(), cuda::std::tuple<long long, int>(0, 0), n, (cudaStream_t)0);
}

static inline int PellrBits(unsigned long long v)
{
  int b = 1;
  while (b < 32 && (v >> b)) b++;
  return b;
}

/* a host CSR copied to the GPU before its build, for the format predictor (PellrChooseFormat()); the next
   PellrDeviceCSR() of the same host arrays takes it instead of copying them again */
static struct {
  const PetscInt *ai, *aj;
  PetscInt        m, first;
  PetscInt64      nnz;
  int            *dai, *daj;
} PellrStaged;
static PetscBool PellrStagedFinalize = PETSC_FALSE;

PetscErrorCode PellrDeviceStageDrop(void)
{
  PetscFunctionBegin;
  if (PellrStaged.dai) PetscCall(PellrFreeAsync(&PellrStaged.dai));
  if (PellrStaged.daj) PetscCall(PellrFreeAsync(&PellrStaged.daj));
  PetscCall(PetscMemzero(&PellrStaged, sizeof(PellrStaged)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the CSR (ai, aj in host or device memory) as 32-bit device arrays dai[m+1], daj[nnz] (daj[0] is entry ai[0]); own: they
   were allocated here (free dai, and daj unless joint: then daj lies in dai's allocation, asked for with joint when
   the caller keeps neither array); first: ai[0] */
static PetscErrorCode PellrDeviceCSR(PetscInt m, const PetscInt *ai, const PetscInt *aj, PetscMemType mtype, PetscBool *joint, int **dai, int **daj, PetscBool *own, PetscInt64 *nnz, PetscInt *first)
{
  PetscInt ends[2] = {0, 0};

  PetscFunctionBegin;
  if (PellrStaged.dai && PetscMemTypeHost(mtype) && PellrStaged.ai == ai && PellrStaged.aj == aj && PellrStaged.m == m) { /* copied already */
    *dai   = PellrStaged.dai;
    *daj   = PellrStaged.daj;
    *own   = PETSC_TRUE;
    *joint = PETSC_FALSE;
    *nnz   = PellrStaged.nnz;
    *first = PellrStaged.first;
    PetscCall(PetscMemzero(&PellrStaged, sizeof(PellrStaged)));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  *dai = *daj = NULL;
  *own        = PETSC_TRUE;
  *nnz        = 0;
  *first      = 0;
  if (m <= 0 || !(PetscMemTypeHost(mtype) && sizeof(PetscInt) == sizeof(int))) *joint = PETSC_FALSE;
  if (m <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  if (PetscMemTypeHost(mtype)) ends[0] = ai[0], ends[1] = ai[m];
  else {
    PetscCallCUDA(cudaMemcpy(&ends[0], ai, sizeof(PetscInt), cudaMemcpyDeviceToHost));
    PetscCallCUDA(cudaMemcpy(&ends[1], ai + m, sizeof(PetscInt), cudaMemcpyDeviceToHost));
  }
  *nnz   = (PetscInt64)(ends[1] - ends[0]);
  *first = ends[0];
  PetscCheck(m <= PETSC_INT32_MAX && *nnz <= PETSC_INT32_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "PELLR stores 32-bit indices: a block of %" PetscInt_FMT " rows with %" PetscInt64_FMT " nonzeros is too large; use more MPI processes or MATAIJ", m, *nnz);
  if (sizeof(PetscInt) == sizeof(int)) {
    if (PetscMemTypeDevice(mtype)) {
      *dai = (int *)ai;
      *daj = (int *)(aj + ends[0]);
      *own = PETSC_FALSE;
    } else {
      if (*joint) { /* one allocation */
        PetscCall(PellrTmpAlloc(dai, m + 1 + *nnz));
        *daj = *dai + (m + 1);
      } else {
        PetscCall(PellrTmpAlloc(dai, m + 1));
        PetscCall(PellrTmpAlloc(daj, *nnz));
      }
      PetscCallCUDA(cudaMemcpy(*dai, ai, (size_t)(m + 1) * sizeof(int), cudaMemcpyHostToDevice));
      if (*nnz) PetscCallCUDA(cudaMemcpy(*daj, aj + ends[0], (size_t)*nnz * sizeof(int), cudaMemcpyHostToDevice));
      /* a copy from pageable memory returns once the data is staged, before its last DMA ends: wait for it here, so that
         the copy's tail is the copy's time (PELLRCopyToGPU), not the build's */
      PetscCallCUDA(cudaStreamSynchronize(0));
      PetscCall(PetscLogCpuToGpu((PetscLogDouble)(m + 1 + *nnz) * sizeof(int)));
    }
  } else { /* 64-bit PetscInt: copy to the device as is, then narrow (the sizes were checked) */
    PetscInt *tmp;
    PetscInt64 len[2] = {m + 1, *nnz};
    const PetscInt *src[2] = {ai, aj + ends[0]};
    int      **dst[2] = {dai, daj};
    for (int k = 0; k < 2; k++) {
      PetscCall(PellrTmpAlloc(dst[k], len[k]));
      if (!len[k]) continue;
      PetscCall(PellrTmpAlloc(&tmp, len[k]));
      PetscCallCUDA(cudaMemcpy(tmp, src[k], (size_t)len[k] * sizeof(PetscInt), PetscMemTypeHost(mtype) ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToDevice));
      pellr_build_toint<<<(unsigned int)((len[k] + 255) / 256), 256>>>((long)len[k], tmp, *dst[k]);
      PetscCallCUDA(cudaGetLastError());
      PetscCall(PellrFreeAsync(&tmp));
    }
    if (PetscMemTypeHost(mtype)) PetscCallCUDA(cudaStreamSynchronize(0)); /* (as above: the copies' tails are theirs) */
    if (PetscMemTypeHost(mtype)) PetscCall(PetscLogCpuToGpu((PetscLogDouble)(m + 1 + *nnz) * sizeof(PetscInt)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PellrDeviceStageCSR - copies the host CSR (ai, aj) of m > 0 rows to the GPU now, for the format predictor: *dai,
  *daj are the device copies (32-bit PetscInt), which the block's build then takes (PellrDeviceCSR()); PellrDeviceStageDrop()
  frees them if no build did. The copy is the one the build would make: logged as PELLRCopyToGPU as well.
*/
PetscErrorCode PellrDeviceStageCSR(PetscInt m, const PetscInt *ai, const PetscInt *aj, const PetscInt **dai, const PetscInt **daj)
{
  PetscBool joint = PETSC_FALSE, own;

  PetscFunctionBegin;
  PetscCheck(sizeof(PetscInt) == sizeof(int) && m > 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Staged CSR copies need 32-bit PetscInt and rows");
  PetscCall(PellrDeviceStageDrop());
  if (!PellrStagedFinalize) { /* a copy no build took (an error in between) is freed at PetscFinalize() at the latest */
    PetscCall(PetscRegisterFinalize(PellrDeviceStageDrop));
    PellrStagedFinalize = PETSC_TRUE;
  }
  PetscCall(PetscLogEventBegin(MAT_PELLR_CopyToGPU, 0, 0, 0, 0));
  PetscCall(PellrDeviceCSR(m, ai, aj, PETSC_MEMTYPE_HOST, &joint, &PellrStaged.dai, &PellrStaged.daj, &own, &PellrStaged.nnz, &PellrStaged.first));
  PetscCall(PetscLogEventEnd(MAT_PELLR_CopyToGPU, 0, 0, 0, 0));
  PellrStaged.ai = ai;
  PellrStaged.aj = aj;
  PellrStaged.m  = m;
  *dai           = (const PetscInt *)PellrStaged.dai;
  *daj           = (const PetscInt *)PellrStaged.daj;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* With -info the GPU build reports the time of its stages (sparsegpucudatrace.h) */
static PetscErrorCode PellrBuildTraceReport(SparseGPUCUDATrace *tr, PetscInt m, PetscInt64 nnz, MatPELLRFormat fmt)
{
  char what[128];

  PetscFunctionBegin;
  if (!tr->on) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscSNPrintf(what, sizeof(what), "PELLR GPU build (%s, %" PetscInt_FMT " rows, %" PetscInt64_FMT " nonzeros)", MatPELLRFormats[fmt], m, nnz));
  PetscCall(SparseGPUCUDATraceReport(tr, what));
  if (PellrAllocTrace.n) {
    char   line[512];
    size_t len = 0;
    line[0]    = 0;
    for (int k = 0; k < PellrAllocTrace.n; k++) {
      PetscCall(PetscSNPrintf(line + len, sizeof(line) - len, " %.1f MiB %.1f us (pool %.0f/%.0f);", PellrAllocTrace.mib[k], PellrAllocTrace.us[k], PellrAllocTrace.used[k], PellrAllocTrace.reserved[k]));
      PetscCall(PetscStrlen(line, &len));
    }
    PetscCall(PetscInfo(NULL, "%s, allocations of 1 MiB or more, host time (pool used/reserved MiB before):%s\n", what, line));
  }
  PellrAllocTrace.on = PETSC_FALSE;
  PellrAllocTrace.n  = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -mat_pellr_cuda_compact_columns (process-wide, as the overlap options) */
static MatPELLRCompact PellrCompact     = MAT_PELLR_COMPACT_AUTO;
static PetscBool       PellrCompactRead = PETSC_FALSE;

PetscErrorCode PellrDeviceSetCompactColumns(MatPELLRCompact compact)
{
  PetscFunctionBegin;
  PellrCompact     = compact;
  PellrCompactRead = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PellrDeviceGetCompactColumns(MatPELLRCompact *compact)
{
  PetscFunctionBegin;
  *compact = PellrCompact;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* slices stored with 16-bit column offsets (-1: the columns are 32-bit: compaction off, a CSR block, or no slices) */
PetscErrorCode PellrDeviceGetCompactSlices(PellrDevice d, PetscInt *ncompact)
{
  PetscFunctionBegin;
  *ncompact = d && d->cidx ? d->ncompact : -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* whether the compaction pass runs on the layout d (nnz, nonempty, format and nslices set): then col may be freed, so the
   GPU build allocates it on its own */
static PetscErrorCode PellrCompactMode(MatPELLRCompact *mode)
{
  PetscFunctionBegin;
  if (!PellrCompactRead) {
    MatPELLRCompact compact = PellrCompact;
    PetscCall(PetscOptionsGetEnum(NULL, NULL, "-mat_pellr_cuda_compact_columns", MatPELLRCompacts, (PetscEnum *)&compact, NULL));
    PetscCall(PellrDeviceSetCompactColumns(compact));
  }
  *mode = PellrCompact;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* whether a block of nnz entries in nonempty nonempty rows stored in format fmt with nslices slices is compacted */
static PetscBool PellrCompactWanted(MatPELLRCompact mode, MatPELLRFormat fmt, PetscInt64 nnz, PetscInt64 nonempty, PetscInt64 nslices)
{
  if (mode == MAT_PELLR_COMPACT_OFF || fmt == MAT_PELLR_FORMAT_CSR || nslices <= 0) return PETSC_FALSE;
  /* auto: only large blocks of long rows gained (H200, session 16 jobs 2-4: 27-point meshes of 26M and 110M entries 6-7%
     faster, 5- and 7-point rows and blocks of 10M entries 1-7% slower) */
  if (mode == MAT_PELLR_COMPACT_AUTO && (nnz < (PetscInt64)PELLR_COMPACT_MIN_ROW * PetscMax(nonempty, 1) || nnz < PELLR_COMPACT_MIN_NNZ)) return PETSC_FALSE;
  return PETSC_TRUE;
}

static PetscErrorCode PellrCompactCandidate(PellrDevice d, PetscBool *candidate)
{
  MatPELLRCompact mode;

  PetscFunctionBegin;
  PetscCall(PellrCompactMode(&mode));
  *candidate = PellrCompactWanted(mode, d->format, (PetscInt64)d->nnz, (PetscInt64)d->nonempty, (PetscInt64)d->nslices);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* auto keeps the 32-bit columns unless PELLR_COMPACT_MIN_FIT of the slices fit: a slice kept in 32 bits costs a dependent load of its columns' offset */
static PetscBool PellrCompactKept(MatPELLRCompact mode, PetscInt64 ncompact, PetscInt64 nslices)
{
  return (PetscBool)!(mode == MAT_PELLR_COMPACT_AUTO && (PetscReal)ncompact < PELLR_COMPACT_MIN_FIT * (PetscReal)nslices);
}

/* the GPU build's compact columns, found in the CSR before its last copy back (accessor a, ns slices at most, widths
   w): d->cbase and d->xptr (allocated here; freed by the caller if the compaction is not kept), the count of compact
   slices and colx's length into st. xslots: ns temporaries; tmp: tb bytes, enough for the scan of ns ints */
template <class A>
static PetscErrorCode PellrLaunchCompactBases(PellrDevice d, int ns, const A &a, const long long *w, int *xslots, PellrBuildStats *st, char *tmp, size_t tb)
{
  PetscFunctionBegin;
  if (ns <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PellrAlloc(&d->cbase, ns));
  PetscCall(PellrAlloc(&d->xptr, ns));
  pellr_compact_bases_csr<<<Blocks(ns * (long)PELLR_SLICE, PELLR_COMPACT_T), PELLR_COMPACT_T>>>(ns, a, w, d->cbase, xslots, st);
  PetscCallCUDA(cudaGetLastError());
  PetscCallCUDA(cub::DeviceScan::ExclusiveSum(tmp, tb, xslots, d->xptr, ns, (cudaStream_t)0));
  pellr_compact_xptr_csr<<<Blocks(ns, 256), 256>>>(ns, xslots, d->xptr, st);
  PetscCallCUDA(cudaGetLastError());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Compact columns: the slices' column indices as 16-bit offsets where they fit. A product reads 8 bytes of value and 4
  of column per slot, so on bandwidth-bound matrices 2-byte indices take about a sixth off the traffic. The offsets are
  from the slice's smallest column: on meshes a slice of 32 rows spans twice the bandwidth (up to 2 n^2 + 32 on an n^3
  grid), so it fits up to about 180^3 and 32000^2; random columns and rows of the sorted order far apart do not: such a
  slice keeps its 32-bit columns (colx). Costs two passes over the columns and one copy of two scalars back; the
  32-bit array col is freed.
*/
static PetscErrorCode PellrDeviceCompactColumns(PellrDevice d)
{
  PetscBool  candidate;
  int       *xslots = NULL, *cnt = NULL;
  long long *total  = NULL;
  char      *tmp    = NULL;
  size_t     tb     = 0;
  long long  htotal = 0;
  int        hcnt   = 0;

  PetscFunctionBegin;
  PetscCall(PellrCompactCandidate(d, &candidate));
  if (!candidate || !d->col) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PellrAlloc(&d->cbase, d->nslices));
  PetscCall(PellrAlloc(&d->xptr, d->nslices));
  PetscCall(PellrTmpAlloc(&xslots, d->nslices));
  PetscCall(PellrTmpAlloc(&total, 2)); /* the total of colx, then the count of compact slices */
  cnt = (int *)(total + 1);
  PetscCallCUDA(cudaMemsetAsync(cnt, 0, sizeof(int), 0));
  pellr_compact_bases<<<Blocks(d->nslices * (long)PELLR_SLICE, PELLR_COMPACT_T), PELLR_COMPACT_T>>>((int)d->nslices, d->sliceptr, d->rlen, d->col, d->cbase, xslots, cnt);
  PetscCallCUDA(cudaGetLastError());
  PetscCallCUDA(cub::DeviceScan::ExclusiveSum(NULL, tb, xslots, d->xptr, (int)d->nslices, (cudaStream_t)0));
  PetscCall(PellrTmpAlloc(&tmp, PetscMax((PetscInt64)tb, 1)));
  PetscCallCUDA(cub::DeviceScan::ExclusiveSum(tmp, tb, xslots, d->xptr, (int)d->nslices, (cudaStream_t)0));
  pellr_compact_xptr<<<Blocks(d->nslices, 256), 256>>>((int)d->nslices, (int)d->longslots, xslots, d->xptr, total);
  PetscCallCUDA(cudaGetLastError());
  {
    long long h[2];
    PetscCallCUDA(cudaMemcpy(h, total, sizeof(h), cudaMemcpyDeviceToHost)); /* one copy back */
    htotal = h[0];
    memcpy(&hcnt, &h[1], sizeof(int));
  }
  d->ncompact = hcnt;
  if (!PellrCompactKept(PellrCompact, hcnt, d->nslices)) {
    PetscCall(PellrFreeAsync(&d->cbase));
    PetscCall(PellrFreeAsync(&d->xptr));
  } else {
    PetscCall(PellrAlloc(&d->cidx, (PetscInt64)d->nslots - (PetscInt64)d->longslots));
    PetscCall(PellrAlloc(&d->colx, htotal));
    if (d->longslots) PetscCallCUDA(cudaMemcpyAsync(d->colx, d->col, (size_t)d->longslots * sizeof(int), cudaMemcpyDeviceToDevice, 0));
    pellr_compact_write<<<Blocks(d->nslices * (long)PELLR_SLICE, 128), 128>>>((int)d->nslices, (int)d->longslots, d->sliceptr, d->rlen, d->col, d->cbase, d->xptr, d->cidx, d->colx);
    PetscCallCUDA(cudaGetLastError());
    PetscCheck(!PellrInBlock(d, d->col), PETSC_COMM_SELF, PETSC_ERR_PLIB, "PELLR: compacted columns carved from the layout block");
    PetscCall(PellrFreeAsync(&d->col));
  }
  PetscCall(PellrFreeAsync(&xslots));
  PetscCall(PellrFreeAsync(&total));
  PetscCall(PellrFreeAsync(&tmp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -mat_pellr_cuda_diagonal_slices (process-wide, as the compact columns) */
static MatPELLRDiagonal PellrDiagonal     = MAT_PELLR_DIAGONAL_AUTO;
static PetscBool        PellrDiagonalRead = PETSC_FALSE;

PetscErrorCode PellrDeviceSetDiagonalSlices(MatPELLRDiagonal diagonal)
{
  PetscFunctionBegin;
  PetscCheck(diagonal >= MAT_PELLR_DIAGONAL_AUTO && diagonal <= MAT_PELLR_DIAGONAL_OFF, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Unknown diagonal-slice mode %d", (int)diagonal);
  PellrDiagonal     = diagonal;
  PellrDiagonalRead = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PellrDeviceGetDiagonalSlices(MatPELLRDiagonal *diagonal)
{
  PetscFunctionBegin;
  *diagonal = PellrDiagonal;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the mode the next GPU build uses: the option is read once, also for matrices that never see MatSetFromOptions() */
PetscErrorCode PellrDeviceDiagonalSlicesMode(MatPELLRDiagonal *diagonal)
{
  PetscFunctionBegin;
  if (!PellrDiagonalRead) {
    MatPELLRDiagonal mode = PellrDiagonal;
    PetscCall(PetscOptionsGetEnum(NULL, NULL, "-mat_pellr_cuda_diagonal_slices", MatPELLRDiagonals, (PetscEnum *)&mode, NULL));
    PetscCall(PellrDeviceSetDiagonalSlices(mode));
  }
  *diagonal = PellrDiagonal;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* diagonal slices of a device layout and their slots (-1, -1: none used: off, a CSR block, or too few of them) */
PetscErrorCode PellrDeviceGetDiagonalSliceCount(PellrDevice d, PetscInt *ndiag, PetscInt64 *nslots)
{
  PetscFunctionBegin;
  *ndiag = d && d->dptr ? d->ndiag : -1;
  if (nslots) *nslots = d && d->dptr ? d->ndiagslots : -1;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Diagonal slices: on stencil matrices (finite differences on structured grids, DMDA) almost every slice of 32 rows
  has entries j that all lie on one diagonal; the product then reads 8 bytes a slot instead of 12 (10 with compact
  columns), the x entries of a warp are consecutive, and a diagonal slice reads no row lengths. auto keeps them when
  at least PELLR_DIAGONAL_MIN_SHARE of the slice slots are diagonal, on whenever one slice is. Device memory: 4 bytes
  a slice and the runs' offsets (a stencil: a few runs per grid line); the columns stay (the transposed products, the
  diagonal and the download read them). The GPU build finds them in the CSR before its last copy back (passes 1-2,
  their counts in that copy), so they cost it two passes, a scan and the table, and no synchronization.
*/
static PetscBool PellrDiagonalKept(MatPELLRDiagonal mode, PellrDevice d, const unsigned long long cnt[3])
{
  return PellrDiagonalSlicesKept(mode, (PetscInt64)cnt[0], (PetscInt64)cnt[1], (PetscInt64)d->nslots - (PetscInt64)d->longslots);
}

/* passes 1-2 over the first ns slices (none if ns is 0): dw, same, tlen, and the counts added to cnt[0..2] */
template <class A>
static PetscErrorCode PellrLaunchDiagonalDetect(int ns, const A &a, int *dw, unsigned char *same, int *tlen, unsigned long long *cnt)
{
  PetscFunctionBegin;
  if (ns <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  pellr_diagonal_detect<<<Blocks(ns * (long)PELLR_SLICE, PELLR_DIAG_T), PELLR_DIAG_T>>>(ns, a, dw, same);
  pellr_diagonal_runs<<<Blocks(ns, 256), 256>>>(ns, dw, same, tlen, cnt);
  PetscCallCUDA(cudaGetLastError());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the end, after passes 1-2 (cnt: their counts on the host): if kept, dptr and the table (scan of tlen into tpos, pass
   3; dptr and doff allocated here unless the caller carved them); tmp holds tb bytes, enough to scan d->nslices
   entries. Nothing is copied back */
template <class A>
static PetscErrorCode PellrDiagonalFinish(PellrDevice d, MatPELLRDiagonal mode, const unsigned long long cnt[3], const A &a, const int *dw, const int *tlen, int *tpos, PetscBool scanned, char *tmp, size_t tb)
{
  PetscFunctionBegin;
  d->ndiag      = (PetscInt)cnt[0];
  d->ndiagslots = (PetscInt64)cnt[1];
  if (!d->nslices || !PellrDiagonalKept(mode, d, cnt)) PetscFunctionReturn(PETSC_SUCCESS);
  if (!d->dptr) PetscCall(PellrAlloc(&d->dptr, d->nslices)); /* unless carved from the layout block */
  if (!d->doff) PetscCall(PellrAlloc(&d->doff, (PetscInt64)cnt[2]));
  if (!scanned) PetscCallCUDA(cub::DeviceScan::ExclusiveSum(tmp, tb, tlen, tpos, (int)d->nslices, (cudaStream_t)0));
  pellr_diagonal_table<<<Blocks(d->nslices, 256), 256>>>((int)d->nslices, a, dw, tlen, tpos, d->dptr, d->doff);
  PetscCallCUDA(cudaGetLastError());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the diagonal slices of a layout uploaded from a host build: passes 1-2 on the device layout, one copy back of the
   counts, the end */
static PetscErrorCode PellrDeviceDiagonalSlices(PellrDevice d)
{
  PellrArena          A = {NULL, 0};
  unsigned long long *cnt = NULL, h[3] = {0, 0, 0};
  int                *dw = NULL, *tlen = NULL, *tpos = NULL;
  unsigned char      *same = NULL;
  char               *tmp  = NULL;
  size_t              tb   = 0;
  MatPELLRDiagonal    mode;
  PellrDiagLayout     a;

  PetscFunctionBegin;
  PetscCall(PellrDeviceDiagonalSlicesMode(&mode));
  PetscCall(PellrFreeAsync(&d->dptr));
  PetscCall(PellrFreeAsync(&d->doff));
  d->ndiag      = 0;
  d->ndiagslots = 0;
  if (mode == MAT_PELLR_DIAGONAL_OFF || d->format == MAT_PELLR_FORMAT_CSR || !d->nslices || (PetscInt64)d->nslots <= (PetscInt64)d->longslots) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallCUDA(cub::DeviceScan::ExclusiveSum(NULL, tb, tlen, tpos, (int)d->nslices, (cudaStream_t)0));
  PetscCall(PellrArenaAlloc(&A, [&](const PellrArena *ar) {
    size_t off = 0;
    PellrArenaTake(ar, &off, &cnt, 3);
    PellrArenaTake(ar, &off, &dw, d->nslices);
    PellrArenaTake(ar, &off, &tlen, d->nslices);
    PellrArenaTake(ar, &off, &tpos, d->nslices);
    PellrArenaTake(ar, &off, &same, d->nslices);
    PellrArenaTake(ar, &off, &tmp, (PetscInt64)PetscMax(tb, (size_t)1));
    return off;
  }));
  PetscCallCUDA(cudaMemsetAsync(cnt, 0, 3 * sizeof(unsigned long long), 0));
  a.nlong_   = (int)d->nlong;
  a.nrows    = (int)d->nrows;
  a.nslices_ = (int)d->nslices;
  a.perm     = d->format == MAT_PELLR_FORMAT_PELLR ? d->perm : NULL;
  a.sliceptr = d->sliceptr;
  a.rlen     = d->rlen;
  a.cols     = PellrSliceColumns(d);
  PetscCall(PellrLaunchDiagonalDetect((int)d->nslices, a, dw, same, tlen, cnt));
  PetscCallCUDA(cudaMemcpy(h, cnt, sizeof(h), cudaMemcpyDeviceToHost)); /* the one copy back */
  PetscCall(PellrDiagonalFinish(d, mode, h, a, dw, tlen, tpos, PETSC_FALSE, tmp, PetscMax(tb, (size_t)1)));
  PetscCall(PellrFreeAsync(&A.base));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* threads a row for rows of avg entries on average: a power of 2 with about 4 entries a thread, lo .. 32 */
static PetscInt PellrCSRGroupSize(double avg, PetscInt lo)
{
  PetscInt t = lo;

  while (t < 32 && 4.0 * (2 * t) <= avg) t *= 2;
  return t;
}

/*
  the GPU product of the csr block d (rows, entries and row pointers set; longest row maxlen): csrthreads = 0 for
  cuSPARSE, else our vector kernel's threads a row; with -mat_pellr_cuda_csr_kernel stream also the row blocks, when a
  block's entries and its longest row fit the 48 KiB of shared memory a block gets without opting in (else the vector
  kernel)
*/
static PetscErrorCode PellrCSRKernelSetUp(PellrDevice d, PetscInt64 maxlen)
{
  const double avg = d->m > 0 ? (double)d->nnz / (double)d->m : 0.0;

  PetscFunctionBegin;
  if (!PellrCSRRead) { /* also for matrices that never see MatSetFromOptions() (e.g. made by MatConvert()) */
    PetscEnum kernel = (PetscEnum)PellrCSRKernel;
    PetscInt  t = PellrCSRThreads, E = PellrCSRStreamEntries;

    PetscCall(PetscOptionsGetEnum(NULL, NULL, "-mat_pellr_cuda_csr_kernel", MatPELLRCSRKernels, &kernel, NULL));
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_pellr_cuda_csr_threads", &t, NULL));
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_pellr_cuda_csr_stream_entries", &E, NULL));
    PetscCall(PellrDeviceSetCSRKernel((MatPELLRCSRKernel)kernel, t, E));
  }
  d->csrthreads = 0;
  if (PellrCSRKernel == MAT_PELLR_CSR_KERNEL_CUSPARSE || d->m <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  if (PellrCSRKernel == MAT_PELLR_CSR_KERNEL_AUTO && !(avg >= PELLR_CSR_VECTOR_MIN_ROW && (double)maxlen <= PELLR_CSR_VECTOR_MAX_RATIO * avg)) PetscFunctionReturn(PETSC_SUCCESS);
  d->csrthreads = PellrCSRThreads ? PellrCSRThreads : PellrCSRGroupSize(avg, 4);
  if (PellrCSRKernel == MAT_PELLR_CSR_KERNEL_STREAM) {
    const PetscInt E = PellrCSRStreamEntries;

    if ((E + (PetscInt)maxlen) * (PetscInt)sizeof(PetscScalar) <= 48 * 1024) {
      const PetscInt nwin = PetscMax(1, (PetscInt)((d->nnz + E - 1) / E));
      PellrArena     A    = {NULL, 0};
      int           *start = NULL, *pos = NULL;
      char          *tmp = NULL;
      size_t         tb;
      PetscInt       R;

      d->csrthreads = PellrCSRGroupSize(avg, 1);
      R             = 8 * (256 / d->csrthreads); /* at most 8 rounds of a block's row loop */
      d->csrstream  = E;
      d->csrblocks  = nwin + (d->m + R - 1) / R; /* an upper bound: the blocks past the last start are empty */
      d->csrshared  = (E + (PetscInt)maxlen) * (PetscInt)sizeof(PetscScalar);
      PetscCheck(d->csrblocks <= PETSC_INT32_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "Too many row blocks for the stream kernel");
      PetscCallCUDA(cub::DeviceScan::ExclusiveSum(NULL, tb, start, pos, (int)d->m, (cudaStream_t)0));
      PetscCall(PellrArenaAlloc(&A, [&](const PellrArena *a) {
        size_t off = 0;
        PellrArenaTake(a, &off, &start, d->m);
        PellrArenaTake(a, &off, &pos, d->m);
        PellrArenaTake(a, &off, &tmp, (PetscInt64)PetscMax(tb, (size_t)1));
        return off;
      }));
      PetscCall(PellrAlloc(&d->csrblockrow, d->csrblocks + 1));
      pellr_build_stream_starts<<<Blocks(d->m, 256), 256>>>((int)d->m, (int)nwin, (int)E, (int)R, d->rowptr, start);
      PetscCallCUDA(cudaGetLastError());
      PetscCallCUDA(cub::DeviceScan::ExclusiveSum(tmp, tb, start, pos, (int)d->m, (cudaStream_t)0));
      pellr_build_blockrow<<<Blocks(PetscMax(d->m, d->csrblocks + 1), 256), 256>>>((int)d->m, (int)d->csrblocks, start, pos, d->csrblockrow);
      PetscCallCUDA(cudaGetLastError());
      PetscCall(PellrFreeAsync(&A.base));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  the layout in format fmt of the m x n CSR (dai, daj) on the device; vmap (device, or NULL for the identity) maps CSR
  positions to value indices (PELLR only). Only PELLR sorts the rows (and so knows its own warp iterations); SELL and
  ELLR keep the rows in their order (perm NULL, the identity), have no long rows and read back their sizes once; CSR is
  the CSR itself: with adopt (dai, daj are the build's own copy of the CSR, dai[0] = 0) it keeps those arrays instead of
  copying them. A build in another format than PELLR leaves info->it_pellr = -1 (PellrDeviceWarpIterationsPELLR()).
*/
static PetscErrorCode PellrDeviceBuildCSR(PetscInt m, PetscInt n, PetscInt64 nnz, int *dai, int *daj, PetscBool adopt, const int *vmap, PetscInt longlen, MatPELLRFormat fmt, void **spare, size_t *sparesize, PellrLayout *info, PellrDevice *dp)
{
  PellrDevice     d;
  PellrBuildStats hst, *dst = NULL;
  int            *len = NULL, *idx = NULL, *slen = NULL;
  unsigned       *key = NULL, *skey = NULL;
  long long      *w = NULL, *wscan = NULL;
  char           *tmp = NULL;
  size_t          tbytes = 1, tb;
  PetscInt        nrows = 0, nlong = 0, nslices = 0, nblock = 0, cntX[PELLR_NTHR];
  PetscInt64      nslots = 0;
  PellrArena      A1 = {NULL, 0}, A2 = {NULL, 0}; /* the temporaries: before the first copy back, and after it */
  const unsigned  T      = 256;
  const PetscBool sorted   = (PetscBool)(fmt == MAT_PELLR_FORMAT_PELLR);
  const PetscBool unsorted = (PetscBool)(fmt == MAT_PELLR_FORMAT_SELL || fmt == MAT_PELLR_FORMAT_ELLR); /* rows in their order, no long rows */
  SparseGPUCUDATrace tr;
  MatPELLRDiagonal   dmode;
  PetscBool          diagonal;
  PetscInt           nsdiag = 0; /* slices the diagonal-slice passes look at (0: none) */
  int               *dw = NULL, *dtlen = NULL, *dtpos = NULL;
  unsigned char     *dsame = NULL;
  PellrDiagCSR       dacc = {};
  MatPELLRCompact    cmode;
  PetscBool          precompact = PETSC_FALSE, compact = PETSC_FALSE, sepcol = PETSC_FALSE; /* compact columns found in the CSR, kept; or compacted after the scatter */
  int               *xslots     = NULL;

  PetscFunctionBegin;
  PetscCall(PellrDeviceDestroy(dp));
  PetscCall(PetscMemzero(info, sizeof(*info)));
  PetscCheck(fmt != MAT_PELLR_FORMAT_AUTO && (!vmap || fmt == MAT_PELLR_FORMAT_PELLR), PETSC_COMM_SELF, PETSC_ERR_PLIB, "Wrong PELLR device build format %d", (int)fmt);
  PetscCheck(!adopt || fmt == MAT_PELLR_FORMAT_CSR, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Only the CSR format adopts the CSR arrays");
  PetscCheck(n <= PETSC_INT32_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "PELLR stores 32-bit indices: %" PetscInt_FMT " columns are too many; use more MPI processes or MATAIJ", n);
  longlen = PetscMin(PetscMax(longlen, 1), PETSC_INT32_MAX);
  PetscCall(PellrDeviceDiagonalSlicesMode(&dmode));
  diagonal = (PetscBool)(dmode != MAT_PELLR_DIAGONAL_OFF && fmt != MAT_PELLR_FORMAT_CSR);
  PetscCall(PellrCompactMode(&cmode));
  PetscCall(PetscNew(&d));
  d->m = info->m = m;
  d->n = info->n = n;
  d->nnz = info->nnz = (PetscInt)nnz;
  d->format = info->format = fmt;
  for (int c = 0; c < 7; c++) d->tclass[c] = info->tclass[c] = 0;
  for (int c = 0; c < PELLR_NTHR; c++) cntX[c] = 0;
  PetscCall(SparseGPUCUDATraceStart(&tr));
  PellrAllocTrace.on = (PetscBool)(tr.on && tr.host);
  PellrAllocTrace.n  = 0;
  if (m > 0) {
    /* 1. lengths and statistics; read back now only where the host needs them before the sizes: the sort's key width
       and the long rows (PELLR), the kernel choice (CSR) */
    PetscCall(PetscMemzero(&hst, sizeof(hst)));
    if (unsorted) { /* SELL, ELLR: every size of the temporaries is known now: one allocation for all of them */
      nslices = (m + PELLR_SLICE - 1) / PELLR_SLICE;
      nsdiag  = diagonal ? nslices : 0;
      /* the compact columns are found in the CSR when the block surely qualifies (m bounds the nonempty rows, unknown
         here); otherwise they are decided after the sizes and found in the scattered columns */
      precompact = PellrCompactWanted(cmode, fmt, nnz, m, nslices);
      if (precompact) PetscCallCUDA(cub::DeviceScan::ExclusiveSum(NULL, tb, xslots, d->xptr, (int)nslices, (cudaStream_t)0));
      if (precompact) tbytes = PetscMax(tbytes, tb);
      if (nsdiag) PetscCallCUDA(PellrScanWidthsAndTable(NULL, tb, w, dtlen, wscan, dtpos, (int)nslices));
      else PetscCallCUDA(cub::DeviceScan::ExclusiveSum(NULL, tb, w, wscan, (int)(nslices + 1), (cudaStream_t)0));
      tbytes = PetscMax(tbytes, tb);
      if (fmt == MAT_PELLR_FORMAT_SELL) {
        PetscCallCUDA(cub::DeviceRadixSort::SortPairs(NULL, tb, key, skey, idx, d->sorder, (int)nslices, 0, 3, (cudaStream_t)0));
        tbytes = PetscMax(tbytes, tb);
      }
    }
    PetscCall(PellrArenaAlloc(&A1, [&](const PellrArena *a) {
      size_t off = 0;
      PellrArenaTake(a, &off, &dst, 1);
      PellrArenaTake(a, &off, &len, m);
      if (unsorted) {
        PellrArenaTake(a, &off, &w, nslices + 1);
        PellrArenaTake(a, &off, &wscan, nslices + 1);
        if (fmt == MAT_PELLR_FORMAT_SELL) { /* the slices' class keys, sorted keys, indices */
          PellrArenaTake(a, &off, &key, nslices);
          PellrArenaTake(a, &off, &skey, nslices);
          PellrArenaTake(a, &off, &idx, nslices);
        }
        PellrArenaTake(a, &off, &tmp, (PetscInt64)tbytes);
        PellrArenaTake(a, &off, &dw, nsdiag);
        PellrArenaTake(a, &off, &dtlen, nsdiag);
        PellrArenaTake(a, &off, &dtpos, nsdiag);
        PellrArenaTake(a, &off, &dsame, nsdiag);
        PellrArenaTake(a, &off, &xslots, precompact ? nslices : 0);
      }
      return off;
    }));
    dacc = {dai, daj, NULL, 0, 0, 0, dst};
    PetscCallCUDA(cudaMemsetAsync(dst, 0, sizeof(hst), 0)); /* the statistics start as zeros, without a synchronous copy */
    pellr_build_len<<<PetscMin(Blocks(m, PELLR_BUILD_T), (unsigned)PELLR_BUILD_GRID), PELLR_BUILD_T>>>((int)m, dai, (int)longlen, len, dst, fmt == MAT_PELLR_FORMAT_SELL ? w : NULL, key, idx);
    PetscCallCUDA(cudaGetLastError());
    if (sorted || fmt == MAT_PELLR_FORMAT_CSR) {
      PetscCallCUDA(cudaMemcpy(&hst, dst, sizeof(hst), cudaMemcpyDeviceToHost));
      for (int c = 0; c < PELLR_NTHR; c++) cntX[c] = (PetscInt)hst.cnt[c];
    }
    PetscCall(SparseGPUCUDATraceStage(&tr, "lengths"));
    if (sorted) {
      /* 2. stable sort by decreasing length: ascending radix sort on maxlen - length (stable) */
      const PetscInt k0 = cntX[PELLR_NTHR - 1], k1 = PetscMax(k0, cntX[1]), nsmax = (cntX[0] - k0 + PELLR_SLICE - 1) / PELLR_SLICE;
      const int      bits = PellrBits(hst.maxlen);

      nrows = cntX[0];
      PetscCallCUDA(cub::DeviceRadixSort::SortPairs(NULL, tb, key, skey, idx, d->perm, (int)m, 0, bits, (cudaStream_t)0));
      tbytes = PetscMax(tbytes, tb);
      PetscCallCUDA(cub::DeviceScan::ExclusiveSum(NULL, tb, slen, d->longptr, (int)(k1 + 1), (cudaStream_t)0));
      tbytes = PetscMax(tbytes, tb);
      PetscCallCUDA(cub::DeviceScan::ExclusiveSum(NULL, tb, w, wscan, (int)(nsmax + 1), (cudaStream_t)0));
      tbytes = PetscMax(tbytes, tb);
      nsdiag = diagonal ? nsmax : 0;
      if (nsdiag) PetscCallCUDA(cub::DeviceScan::ExclusiveSum(NULL, tb, dtlen, dtpos, (int)nsdiag, (cudaStream_t)0));
      tbytes     = PetscMax(tbytes, tb);
      precompact = PellrCompactWanted(cmode, fmt, nnz, nrows, nsmax); /* nrows: the nonempty rows */
      if (precompact) PetscCallCUDA(cub::DeviceScan::ExclusiveSum(NULL, tb, xslots, d->xptr, (int)nsmax, (cudaStream_t)0));
      if (precompact) tbytes = PetscMax(tbytes, tb);
      PetscCall(PellrArenaAlloc(&A2, [&](const PellrArena *a) {
        size_t off = 0;
        PellrArenaTake(a, &off, &key, m);
        PellrArenaTake(a, &off, &skey, m);
        PellrArenaTake(a, &off, &idx, m);
        PellrArenaTake(a, &off, &slen, m + 1);
        PellrArenaTake(a, &off, &w, nsmax + 1);
        PellrArenaTake(a, &off, &wscan, nsmax + 1);
        PellrArenaTake(a, &off, &tmp, (PetscInt64)tbytes);
        PellrArenaTake(a, &off, &dw, nsdiag);
        PellrArenaTake(a, &off, &dtlen, nsdiag);
        PellrArenaTake(a, &off, &dtpos, nsdiag);
        PellrArenaTake(a, &off, &dsame, nsdiag);
        PellrArenaTake(a, &off, &xslots, precompact ? nsmax : 0);
        return off;
      }));
      PetscCall(PellrAlloc(&d->perm, m));
      pellr_build_keys<<<Blocks(m, T), T>>>((int)m, hst.maxlen, len, key, idx);
      PetscCallCUDA(cudaGetLastError());
      tb = tbytes;
      PetscCallCUDA(cub::DeviceRadixSort::SortPairs(tmp, tb, key, skey, idx, d->perm, (int)m, 0, bits, (cudaStream_t)0));
      PetscCall(SparseGPUCUDATraceStage(&tr, "sort"));
      pellr_build_slen<<<PetscMin(Blocks(m + 1, PELLR_BUILD_T), (unsigned)PELLR_BUILD_GRID), PELLR_BUILD_T>>>((int)m, hst.maxlen, skey, slen, dst);
      PetscCallCUDA(cudaGetLastError());
      /* 3. long rows: all rows >= longlen, then rows >= 32 while their slice would be more than 1/3 padding (the end
         stays on the device: the long-row pointers are the prefix sums of all k1 candidates, the slice widths start
         after the end) */
      if (k1 > k0) pellr_build_nlong<<<Blocks(k1 - k0, T), T>>>((int)k0, (int)k1, (int)nrows, slen, dst);
      PetscCallCUDA(cudaGetLastError());
      PetscCall(PellrAlloc(&d->longptr, k1 + 1));
      tb = tbytes;
      if (k1) PetscCallCUDA(cub::DeviceScan::ExclusiveSum(tmp, tb, slen, d->longptr, (int)(k1 + 1), (cudaStream_t)0));
      else PetscCallCUDA(cudaMemsetAsync(d->longptr, 0, sizeof(int), 0));
      /* 4. pointers: long rows unpadded, slices 32 x width */
      pellr_build_widths_sorted<<<Blocks(nsmax + 1, T), T>>>((int)nsmax, (int)k1, (int)nrows, dst, slen, w);
      PetscCallCUDA(cudaGetLastError());
      tb = tbytes;
      PetscCallCUDA(cub::DeviceScan::ExclusiveSum(tmp, tb, w, wscan, (int)(nsmax + 1), (cudaStream_t)0));
      pellr_build_sizes_sorted<<<1, 1>>>((int)k1, (int)nrows, (int)cntX[6], d->longptr, wscan, dst);
      PetscCallCUDA(cudaGetLastError());
      dacc.perm   = d->perm;
      dacc.nrows  = (int)nrows;
      dacc.sorted = 1;
      PetscCall(PellrLaunchDiagonalDetect((int)nsdiag, dacc, dw, dsame, dtlen, dst->diag));
      if (precompact) PetscCall(PellrLaunchCompactBases(d, (int)nsmax, dacc, w, xslots, dst, tmp, tbytes));
      PetscCall(SparseGPUCUDATraceStage(&tr, "pointers"));
      PetscCallCUDA(cudaMemcpy(&hst, dst, sizeof(hst), cudaMemcpyDeviceToHost)); /* the second and last copy back of PELLR */
      nlong   = (PetscInt)hst.nlong;
      nblock  = PetscMin(nlong, cntX[6]);
      nslices = (nrows - nlong + PELLR_SLICE - 1) / PELLR_SLICE;
    } else if (fmt != MAT_PELLR_FORMAT_CSR) {
      /* SELL, ELLR: every row in a slice, in its own order (perm NULL); the lengths are the "sorted" lengths */
      nrows = m;
      slen  = len;
      /* SELL's widths, class keys and counts came with the lengths (pellr_build_len()) */
      if (fmt == MAT_PELLR_FORMAT_ELLR) pellr_build_widths<<<Blocks(nslices + 1, T), T>>>((int)nslices, dst, w);
      PetscCallCUDA(cudaGetLastError());
      dacc.perm  = NULL;
      dacc.nrows = (int)m;
      dacc.ellr  = fmt == MAT_PELLR_FORMAT_ELLR ? 1 : 0;
      PetscCall(PellrLaunchDiagonalDetect((int)nsdiag, dacc, dw, dsame, dtlen, dst->diag));
      /* the slice widths' prefix sums; with the diagonal passes, in the same scan as their table lengths' (one scan less) */
      tb = tbytes;
      if (nsdiag) PetscCallCUDA(PellrScanWidthsAndTable(tmp, tb, w, dtlen, wscan, dtpos, (int)nslices));
      else PetscCallCUDA(cub::DeviceScan::ExclusiveSum(tmp, tb, w, wscan, (int)(nslices + 1), (cudaStream_t)0));
      if (precompact) PetscCall(PellrLaunchCompactBases(d, (int)nslices, dacc, w, xslots, dst, tmp, tbytes));
      PetscCall(SparseGPUCUDATraceStage(&tr, "pointers"));
      PetscCallCUDA(cudaMemcpy(&hst, dst, sizeof(hst), cudaMemcpyDeviceToHost)); /* the one copy back of SELL and ELLR */
      for (int c = 0; c < PELLR_NTHR; c++) cntX[c] = (PetscInt)hst.cnt[c];
      if (fmt == MAT_PELLR_FORMAT_ELLR) hst.widthsum = (long long)nslices * (long long)hst.maxlen; /* every slice as wide as the longest row */
      else hst.widthsum = (long long)hst.ellr;                                                   /* SELL: the slices' longest rows summed */
    }
    if (fmt == MAT_PELLR_FORMAT_CSR) {
      /* the CSR itself: row pointers from 0, columns; values by PellrDeviceUploadValues()/PellrDeviceSetValues() */
      if (spare) PetscCall(PellrDeviceFreeBlock(spare, sparesize)); /* no block to reuse it for */
      nrows  = cntX[0];
      nslots = nnz;
      if (adopt) {
        d->rowptr = dai;
        d->col    = daj;
      } else {
        PetscCall(PellrAlloc(&d->rowptr, m + 1));
        pellr_build_rowptr<<<Blocks(m + 1, T), T>>>((int)m, dai, d->rowptr);
        PetscCallCUDA(cudaGetLastError());
        PetscCall(PellrAlloc(&d->col, nnz));
        if (nnz) PetscCallCUDA(cudaMemcpyAsync(d->col, daj, (size_t)nnz * sizeof(int), cudaMemcpyDeviceToDevice, 0));
      }
      PetscCall(PellrAlloc(&d->val, nnz));
      PetscCall(PellrCSRKernelSetUp(d, hst.maxlen));
      PetscCall(SparseGPUCUDATraceStage(&tr, "csr"));
    } else {
      nslots        = (PetscInt64)hst.longslots + (PetscInt64)PELLR_SLICE * hst.widthsum;
      d->blockslots = hst.blockslots;
      d->longslots  = hst.longslots;
      PetscCall(SparseGPUCUDATraceStage(&tr, "sizes back"));
      PetscCheck(nslots <= PETSC_INT32_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "PELLR stores 32-bit indices: %" PetscInt64_FMT " value slots exceed %d; use more MPI processes or MATAIJ", nslots, PETSC_INT32_MAX);
      {
        PetscBool  keepdiag;
        PellrArena B = {NULL, 0};

        /* the layout's arrays in one allocation (the block), but col on its own if the compaction may free it; from the
           stream-ordered pool (session 23 job 4 took the block from cudaMalloc() when the pool lacked the memory: 300-400
           us a build, paid at every build, and cudaFree() synchronizes, so the 1M-row builds took 0.6-0.7 ms, not 0.3) */
        d->nonempty = cntX[0];
        d->nslices  = nslices;
        d->nslots   = (PetscInt)nslots;
        if (precompact) {
          compact = (PetscBool)(nslices > 0 && PellrCompactKept(cmode, (PetscInt64)hst.ncompact, nslices));
          if (!compact) {
            PetscCall(PellrFreeAsync(&d->cbase));
            PetscCall(PellrFreeAsync(&d->xptr));
          } else d->ncompact = (PetscInt)hst.ncompact;
        } else PetscCall(PellrCompactCandidate(d, &sepcol));
        keepdiag = (PetscBool)(nsdiag && nslices && PellrDiagonalKept(dmode, d, hst.diag));
        PetscCall(PellrArenaAllocSpare(&B, spare, sparesize, [&](const PellrArena *a) {
          size_t off = 0;
          PellrArenaTake(a, &off, &d->val, nslots);
          if (compact) { /* the columns as the compaction leaves them, written by the scatter */
            PellrArenaTake(a, &off, &d->cidx, nslots - (PetscInt64)hst.longslots);
            PellrArenaTake(a, &off, &d->colx, (PetscInt64)hst.colxslots);
          } else if (!sepcol) PellrArenaTake(a, &off, &d->col, nslots);
          if (vmap) PellrArenaTake(a, &off, &d->map, nslots); /* the transpose: a map back into the untransposed values */
          else PellrArenaTake(a, &off, &d->rowptr, m + 1);    /* the CSR itself: its row pointers suffice (4 (m+1) bytes instead of 4 per slot) */
          PellrArenaTake(a, &off, &d->sliceptr, nslices + 1);
          PellrArenaTake(a, &off, &d->rlen, (PetscInt64)PELLR_SLICE * nslices);
          if (keepdiag) {
            PellrArenaTake(a, &off, &d->dptr, nslices);
            PellrArenaTake(a, &off, &d->doff, (PetscInt64)hst.diag[2]);
          }
          if (unsorted) PellrArenaTake(a, &off, &d->longptr, 1);
          return off;
        }));
        d->block     = B.base;
        d->blocksize = B.size;
        PetscCall(SparseGPUCUDATraceStage(&tr, "layout alloc"));
        if (sepcol) PetscCall(PellrAlloc(&d->col, nslots));
      }
      /* 5. scatter columns and value map; values are gathered by PellrDeviceSetValues(). The slices' kernel writes the
         slice pointers and copies the row pointers (CSR itself: no map) too */
      if (!nslices) {
        pellr_build_sliceptr<<<1, 32>>>(0, (int)hst.longslots, wscan, d->sliceptr, unsorted ? d->longptr : NULL);
        PetscCallCUDA(cudaGetLastError());
        if (!vmap) PetscCallCUDA(cudaMemcpyAsync(d->rowptr, dai, (size_t)(m + 1) * sizeof(int), cudaMemcpyDeviceToDevice, 0));
      }
      if (nlong) pellr_build_long<<<Blocks(nlong * 32L, 128), 128>>>((int)nlong, dai, daj, vmap, d->perm, d->longptr, compact ? d->colx : d->col, d->map);
      if (nslices && compact)
        pellr_build_slices_compact<<<Blocks(nslices * (long)PELLR_SLICE, 128), 128>>>((int)nslices, (int)nlong, (int)nrows, hst.longslots, wscan, hst.widthsum, d->sliceptr, unsorted ? d->longptr : NULL, (int)m, vmap ? NULL : d->rowptr, dai, daj, vmap, d->perm, slen, d->cbase, d->xptr, d->rlen, d->cidx, d->colx, d->map);
      else if (nslices) pellr_build_slices<<<Blocks(nslices * (long)PELLR_SLICE, 128), 128>>>((int)nslices, (int)nlong, (int)nrows, hst.longslots, wscan, hst.widthsum, d->sliceptr, unsorted ? d->longptr : NULL, (int)m, vmap ? NULL : d->rowptr, dai, daj, vmap, d->perm, slen, d->rlen, d->col, d->map);
      PetscCallCUDA(cudaGetLastError());
      PetscCall(SparseGPUCUDATraceStage(&tr, "scatter"));
      d->tclass[6] = nslices;
      if (fmt == MAT_PELLR_FORMAT_PELLR) {
        /* GPU thread classes (see PellrLayoutBuild()): class < c iff the slice width is >= 2^(10-c), c = 1..5; slices are in nonincreasing width */
        for (int c = 1; c <= 5; c++) {
          const PetscInt cnt = cntX[6 - c]; /* rows of length >= 512, 256, 128, 64, 32 */
          d->tclass[c]       = PetscMin(nslices, PetscMax(0, (cnt - nlong + PELLR_SLICE - 1) / PELLR_SLICE));
        }
      } else if (fmt == MAT_PELLR_FORMAT_ELLR) {
        /* one width, one class */
        PetscInt t = 1, cls = 5;
        while (t < 32 && (PetscInt64)hst.maxlen >= 32 * (PetscInt64)t) t *= 2, cls--;
        for (int c = 1; c <= 5; c++) d->tclass[c] = c <= cls ? 0 : nslices;
      } else if (nslices) {
        /* SELL: the classes from their counts; unless all slices are of one class (the identity), the slice indices
           stably sorted by class (radix sort of the class keys) */
        for (int c = 0; c < 5; c++) d->tclass[c + 1] = d->tclass[c] + (PetscInt)hst.sclass[c];
        if (!PellrSliceOrderIsIdentity(d->tclass, nslices)) {
          PetscCall(PellrAlloc(&d->sorder, nslices));
          tb = tbytes;
          PetscCallCUDA(cub::DeviceRadixSort::SortPairs(tmp, tb, key, skey, idx, d->sorder, (int)nslices, 0, 3, (cudaStream_t)0));
        }
      }
    }
    PetscCall(SparseGPUCUDATraceStage(&tr, "classes"));
    d->nonempty = info->nonempty = cntX[0];
    d->nslices                   = nslices;
    d->nslots                    = (PetscInt)nslots;
    if (nsdiag) {
      PetscCall(PellrDiagonalFinish(d, dmode, hst.diag, dacc, dw, dtlen, dtpos, unsorted, tmp, tbytes)); /* SELL and ELLR scanned tlen with the widths */
      PetscCall(SparseGPUCUDATraceStage(&tr, "diagonal"));
    }
    if (sepcol) PetscCall(PellrDeviceCompactColumns(d)); /* compact columns not found in the CSR */
    PetscCall(SparseGPUCUDATraceStage(&tr, "compact"));
    PetscCall(PellrFreeAsync(&A1.base));
    PetscCall(PellrFreeAsync(&A2.base));
    PetscCall(SparseGPUCUDATraceStage(&tr, "free"));
    /* the seed's statistics, with the host's formulas (MatPELLRWarpIterations(), MatPELLRPerturbation()) */
    info->maxlen   = (PetscInt)hst.maxlen;
    info->it_ell   = (PetscInt64)((m + PELLR_SLICE - 1) / PELLR_SLICE) * (PetscInt64)hst.maxlen;
    info->it_ellr  = (PetscInt64)hst.ellr;
    info->it_pellr = sorted ? (PetscInt64)hst.pellr : -1;
    if (m > 1 && nnz > 0) info->perturbation = (PetscReal)hst.pert / ((PetscReal)(m - 1) * ((PetscReal)nnz / (PetscReal)m));
  }
  d->nlong = info->nlong = nlong;
  d->nblock = info->nblock = nblock;
  PetscCall(PellrLongChunksSetUp(d));
  d->nrows = info->nrows = nrows;
  d->nslices = info->nslices = nslices;
  d->nslots = info->nslots = (PetscInt)nslots;
  for (int c = 0; c < 7; c++) info->tclass[c] = d->tclass[c];
  PetscCall(PellrBuildTraceReport(&tr, m, nnz, fmt));
  *dp = d;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Build on the GPU the layout in format fmt of the m x n CSR (ai, aj) in host or device memory (mtype), or with
  transpose the PELLR layout of its transpose (with the map back into the CSR values; fmt is ignored). info gets the
  statistics (no arrays).
*/
PetscErrorCode PellrDeviceBuild(PetscInt m, PetscInt n, const PetscInt *ai, const PetscInt *aj, PetscMemType mtype, PetscInt longlen, MatPELLRFormat fmt, PetscBool transpose, void **spare, size_t *sparesize, PellrLayout *info, PellrDevice *dp)
{
  int       *dai, *daj;
  PetscBool  own, adopt, joint = (PetscBool)(transpose || fmt != MAT_PELLR_FORMAT_CSR); /* the CSR format may adopt the arrays */
  PetscInt64 nnz;
  PetscInt   first;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MAT_PELLR_CopyToGPU, 0, 0, 0, 0));
  PetscCall(PellrDeviceCSR(m, ai, aj, mtype, &joint, &dai, &daj, &own, &nnz, &first));
  PetscCall(PetscLogEventEnd(MAT_PELLR_CopyToGPU, 0, 0, 0, 0));
  /* the CSR format keeps the device copy of a host CSR as its own arrays (no second copy on the device) */
  adopt = (PetscBool)(own && first == 0 && !transpose && fmt == MAT_PELLR_FORMAT_CSR);
  /* the event times the build from the CSR on the GPU (the copy of a host CSR is PELLRCopyToGPU) */
  PetscCall(PetscLogEventBegin(transpose ? MAT_PELLR_TransposeBuild : MAT_PELLR_Build, 0, 0, 0, 0));
  PetscCall(PetscLogGpuTimeBegin());
  if (!transpose) PetscCall(PellrDeviceBuildCSR(m, n, nnz, dai, daj, adopt, NULL, longlen, fmt, spare, sparesize, info, dp));
  else {
    int *rowof = NULL, *cnt = NULL, *ti = NULL, *tj = NULL, *pos = NULL, *iota = NULL, *scol = NULL;
    char  *tmp = NULL;
    size_t tb  = 0, tb2 = 0;

    PetscCheck(n <= PETSC_INT32_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "PELLR stores 32-bit indices: %" PetscInt_FMT " columns are too many", n);
    PetscCall(PellrTmpAlloc(&ti, n + 1));
    PetscCall(PellrTmpAlloc(&cnt, n + 1));
    if (n + 1 > 0) PetscCallCUDA(cudaMemsetAsync(cnt, 0, (size_t)(n + 1) * sizeof(int), 0));
    if (nnz) {
      /* entries sorted by column, stably: within a column in increasing row order, as the host's transpose */
      PetscCall(PellrTmpAlloc(&rowof, nnz));
      PetscCall(PellrTmpAlloc(&iota, nnz));
      PetscCall(PellrTmpAlloc(&pos, nnz));
      PetscCall(PellrTmpAlloc(&scol, nnz));
      PetscCall(PellrTmpAlloc(&tj, nnz));
      pellr_build_rowof<<<Blocks(m, 256), 256>>>((int)m, dai, rowof);
      pellr_build_colcount<<<Blocks(nnz, 256), 256>>>((long)nnz, daj, cnt);
      pellr_build_iota<<<Blocks(nnz, 256), 256>>>((long)nnz, iota);
      PetscCallCUDA(cudaGetLastError());
      PetscCallCUDA(cub::DeviceRadixSort::SortPairs(NULL, tb, (const unsigned *)daj, (unsigned *)scol, iota, pos, (int)nnz, 0, PellrBits((unsigned long long)PetscMax(n - 1, 1)), (cudaStream_t)0));
      PetscCallCUDA(cub::DeviceScan::ExclusiveSum(NULL, tb2, cnt, ti, (int)(n + 1), (cudaStream_t)0));
      tb = PetscMax(tb, tb2);
      PetscCall(PellrTmpAlloc(&tmp, PetscMax((PetscInt64)tb, 1)));
      tb2 = tb;
      PetscCallCUDA(cub::DeviceRadixSort::SortPairs(tmp, tb2, (const unsigned *)daj, (unsigned *)scol, iota, pos, (int)nnz, 0, PellrBits((unsigned long long)PetscMax(n - 1, 1)), (cudaStream_t)0));
      tb2 = tb;
      PetscCallCUDA(cub::DeviceScan::ExclusiveSum(tmp, tb2, cnt, ti, (int)(n + 1), (cudaStream_t)0));
      pellr_build_tj<<<Blocks(nnz, 256), 256>>>((long)nnz, pos, rowof, tj);
      PetscCallCUDA(cudaGetLastError());
    } else if (n + 1 > 0) PetscCallCUDA(cudaMemsetAsync(ti, 0, (size_t)(n + 1) * sizeof(int), 0));
    PetscCall(PellrDeviceBuildCSR(n, m, nnz, ti, tj, PETSC_FALSE, pos, longlen, MAT_PELLR_FORMAT_PELLR, NULL, NULL, info, dp));
    PetscCall(PellrFreeAsync(&rowof));
    PetscCall(PellrFreeAsync(&cnt));
    PetscCall(PellrFreeAsync(&ti));
    PetscCall(PellrFreeAsync(&tj));
    PetscCall(PellrFreeAsync(&pos));
    PetscCall(PellrFreeAsync(&iota));
    PetscCall(PellrFreeAsync(&scol));
    PetscCall(PellrFreeAsync(&tmp));
  }
  if (own && !adopt) {
    PetscCall(PellrFreeAsync(&dai));
    if (!joint) PetscCall(PellrFreeAsync(&daj));
  }
  PetscCallCUDA(cudaStreamSynchronize(0)); /* the build is finished when the event ends (honest timings; costs one synchronization) */
  PetscCall(PetscLogGpuTimeEnd());
  PetscCall(PetscLogEventEnd(transpose ? MAT_PELLR_TransposeBuild : MAT_PELLR_Build, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the CSR values in device memory: aa itself, or uploaded (host) into d's buffer; d must be GPU-built (it knows nnz) */
PetscErrorCode PellrDeviceUploadValues(PellrDevice d, const PetscScalar *aa, PetscMemType mtype, const PetscScalar **dvals)
{
  PetscFunctionBegin;
  if (PetscMemTypeDevice(mtype) || !d->nnz) {
    *dvals = aa;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(MAT_PELLR_CopyToGPU, 0, 0, 0, 0));
  if (d->format == MAT_PELLR_FORMAT_CSR) { /* straight into the CSR copy's values */
    PetscCallCUDA(cudaMemcpy(d->val, aa, (size_t)d->nnz * sizeof(PetscScalar), cudaMemcpyHostToDevice));
    PetscCall(PetscLogCpuToGpu((PetscLogDouble)d->nnz * sizeof(PetscScalar)));
    PetscCall(PetscLogEventEnd(MAT_PELLR_CopyToGPU, 0, 0, 0, 0));
    *dvals = d->val;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!d->csrval) PetscCallCUDA(cudaMallocAsync((void **)&d->csrval, (size_t)d->nnz * sizeof(PetscScalar), 0));
  PetscCallCUDA(cudaMemcpy(d->csrval, aa, (size_t)d->nnz * sizeof(PetscScalar), cudaMemcpyHostToDevice));
  PetscCall(PetscLogCpuToGpu((PetscLogDouble)d->nnz * sizeof(PetscScalar)));
  PetscCall(PetscLogEventEnd(MAT_PELLR_CopyToGPU, 0, 0, 0, 0));
  *dvals = d->csrval;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the copy of the CSR values made by PellrDeviceUploadValues() is no longer needed (device memory stays about that of the layout) */
PetscErrorCode PellrDeviceReleaseValues(PellrDevice d)
{
  PetscFunctionBegin;
  if (d && d->csrval) PetscCallCUDA(cudaFreeAsync(d->csrval, 0));
  if (d) d->csrval = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* values of a GPU-built layout from the CSR values in device memory: through the map (transpose), else by rows */
PetscErrorCode PellrDeviceSetValues(PellrDevice d, const PetscScalar *dvals)
{
  PetscFunctionBegin;
  PetscCheck(d && (d->map || d->rowptr || !d->nslots), PETSC_COMM_SELF, PETSC_ERR_PLIB, "PELLR device layout has no value map (not built on the GPU)");
  if (d->format == MAT_PELLR_FORMAT_CSR) {
    if (d->nnz && dvals != d->val) PetscCallCUDA(cudaMemcpyAsync(d->val, dvals, (size_t)d->nnz * sizeof(PetscScalar), cudaMemcpyDeviceToDevice, 0));
  } else if (d->nslots) {
    PetscCall(PetscLogGpuTimeBegin());
    if (d->map) pellr_gather<<<Blocks(d->nslots, 256), 256>>>((long)d->nslots, d->map, dvals, d->val);
    else {
      if (d->nlong) pellr_refresh_long<<<Blocks(d->nlong * 32L, 128), 128>>>((int)d->nlong, d->rowptr, d->perm, d->longptr, dvals, d->val);
      if (d->nslices) pellr_refresh_slices<<<Blocks(d->nslices * (long)PELLR_SLICE, 128), 128>>>((int)d->nslices, (int)d->nlong, (int)d->nrows, d->rowptr, d->perm, d->sliceptr, d->rlen, dvals, d->val);
    }
    PetscCallCUDA(cudaGetLastError());
    PetscCall(PetscLogGpuTimeEnd());
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename T>
static PetscErrorCode PellrDownload(T **h, const T *d, PetscInt n)
{
  PetscFunctionBegin;
  *h = NULL;
  if (n <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscMalloc1(n, h));
  PetscCallCUDA(cudaMemcpy(*h, d, (size_t)n * sizeof(T), cudaMemcpyDeviceToHost));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* copy of the device layout's arrays (and sizes) into L (for tests comparing the GPU build with the host build); map only if built on the GPU */
PetscErrorCode PellrDeviceDownload(PellrDevice d, PellrLayout *L)
{
  PetscFunctionBegin;
  PetscCall(PellrLayoutDestroy(L));
  L->m       = d->m;
  L->n       = d->n;
  L->nnz     = d->nnz;
  L->nlong   = d->nlong;
  L->nblock  = d->nblock;
  L->nrows   = d->nrows;
  L->nslices = d->nslices;
  L->nslots  = d->nslots;
  L->format   = d->format;
  L->nonempty = d->nonempty;
  for (int c = 0; c < 7; c++) L->tclass[c] = d->tclass[c];
  PetscCallCUDA(cudaDeviceSynchronize());
  if (d->perm) PetscCall(PellrDownload(&L->perm, d->perm, d->m));
  else if ((d->format == MAT_PELLR_FORMAT_SELL || d->format == MAT_PELLR_FORMAT_ELLR) && d->m > 0) { /* the identity, not kept on the GPU */
    PetscCall(PetscMalloc1(d->m, &L->perm));
    for (PetscInt i = 0; i < d->m; i++) L->perm[i] = (int)i;
  }
  if (d->sorder) PetscCall(PellrDownload(&L->sorder, d->sorder, d->nslices));
  else if (d->format == MAT_PELLR_FORMAT_SELL && d->nslices) { /* the identity, not kept on the GPU */
    PetscCall(PetscMalloc1(d->nslices, &L->sorder));
    for (PetscInt s = 0; s < d->nslices; s++) L->sorder[s] = (int)s;
  }
  if (d->longptr) PetscCall(PellrDownload(&L->longptr, d->longptr, d->m > 0 ? d->nlong + 1 : 0));
  if (d->sliceptr) PetscCall(PellrDownload(&L->sliceptr, d->sliceptr, d->m > 0 ? d->nslices + 1 : 0));
  PetscCall(PellrDownload(&L->rlen, d->rlen, PELLR_SLICE * d->nslices));
  if (d->cidx) { /* the 32-bit columns back from the compact stream */
    int *col = NULL;
    PetscCall(PellrTmpAlloc(&col, d->nslots));
    if (d->longslots) PetscCallCUDA(cudaMemcpyAsync(col, d->colx, (size_t)d->longslots * sizeof(int), cudaMemcpyDeviceToDevice, 0));
    pellr_compact_expand<<<Blocks(d->nslices * (long)PELLR_SLICE, 128), 128>>>((int)d->nslices, d->sliceptr, d->rlen, PellrSliceColumns(d), col);
    PetscCallCUDA(cudaGetLastError());
    PetscCall(PellrDownload(&L->col, col, d->nslots));
    PetscCall(PellrFreeAsync(&col));
  } else PetscCall(PellrDownload(&L->col, d->col, d->nslots));
  if (d->map) PetscCall(PellrDownload(&L->map, d->map, d->nslots));
  PetscCall(PellrDownload(&L->val, d->val, d->nslots));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The PELLR warp iterations (MatPELLRWarpIterations()) of the block d that the GPU built in another format: such a
  build does not sort the rows, which that statistic needs (the longest row of each slice of the sorted order), so it
  is computed here on demand (-mat_view, MatPELLRGetInfo(), the build comparison), from the row lengths copied back:
  the CSR's row pointers, or the per-row lengths of SELL and ELLR (their rows in their own order)
*/
PetscErrorCode PellrDeviceWarpIterationsPELLR(PellrDevice d, PetscInt64 *it)
{
  PetscInt *len;
  int      *h = NULL;

  PetscFunctionBegin;
  *it = 0;
  if (!d || d->m <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(d->format == MAT_PELLR_FORMAT_CSR ? d->rowptr != NULL : (d->rlen && !d->nlong && d->nrows == d->m), PETSC_COMM_SELF, PETSC_ERR_PLIB, "PELLR device layout without its row lengths");
  PetscCall(PetscMalloc1(d->m, &len));
  PetscCallCUDA(cudaDeviceSynchronize());
  if (d->format == MAT_PELLR_FORMAT_CSR) {
    PetscCall(PellrDownload(&h, d->rowptr, d->m + 1));
    for (PetscInt i = 0; i < d->m; i++) len[i] = h[i + 1] - h[i];
  } else {
    PetscCall(PellrDownload(&h, d->rlen, d->m));
    for (PetscInt i = 0; i < d->m; i++) len[i] = h[i];
  }
  PetscCall(MatPELLRWarpIterations(d->m, len, PELLR_SLICE, NULL, NULL, it));
  PetscCall(PetscFree(h));
  PetscCall(PetscFree(len));
  PetscFunctionReturn(PETSC_SUCCESS);
}
