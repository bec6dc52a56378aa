/*
  CUDA kernels of MATPELLRCUDA. The layout (pellrimpl.h) is built on the host and copied once per nonzero
  pattern; a values-only change copies the gathered values only. All products write y[perm[k]] directly.
    long rows (sorted positions [0, nlong))    : a thread block per row
    slices with wide rows (tclass[0..4])       : a block of 32*T threads per slice, T threads (in T warps) per row,
                                                 so that every warp still reads 32 consecutive entries
    the other slices (tclass[5])               : a thread per row, a warp per slice
    empty rows                                 : y = 0 (or z) only
*/
#include <cuda_runtime.h>
#include <petscdevice_cuda.h>
#include "pellrimpl.h"

#define PELLR_LONG_THREADS 256

struct _p_PellrDevice {
  PetscInt     m, n, nnz, nlong, nblock, nrows, nslices, nslots;
  PetscInt     tclass[7];
  int         *perm, *longptr, *sliceptr, *rlen, *col;
  PetscScalar *val;
};

template <typename T>
static PetscErrorCode PellrCopy(T **d, const T *h, PetscInt n)
{
  PetscFunctionBegin;
  *d = NULL;
  if (n <= 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallCUDA(cudaMalloc((void **)d, (size_t)n * sizeof(T)));
  PetscCallCUDA(cudaMemcpy(*d, h, (size_t)n * sizeof(T), cudaMemcpyHostToDevice));
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
  for (int c = 0; c < 7; c++) d->tclass[c] = L->tclass[c];
  PetscCall(PellrCopy(&d->perm, L->perm, L->m));
  PetscCall(PellrCopy(&d->longptr, L->longptr, L->nlong + 1));
  PetscCall(PellrCopy(&d->sliceptr, L->sliceptr, L->nslices + 1));
  PetscCall(PellrCopy(&d->rlen, L->rlen, PELLR_SLICE * L->nslices));
  PetscCall(PellrCopy(&d->col, L->col, L->nslots));
  PetscCall(PellrCopy(&d->val, L->val, L->nslots));
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

PetscErrorCode PellrDeviceDestroy(PellrDevice *dp)
{
  PellrDevice d = *dp;

  PetscFunctionBegin;
  if (!d) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallCUDA(cudaFree(d->perm));
  PetscCallCUDA(cudaFree(d->longptr));
  PetscCallCUDA(cudaFree(d->sliceptr));
  PetscCallCUDA(cudaFree(d->rlen));
  PetscCallCUDA(cudaFree(d->col));
  PetscCallCUDA(cudaFree(d->val));
  PetscCall(PetscFree(d));
  *dp = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------------------------------ kernels */

__device__ static inline PetscScalar WarpSum(PetscScalar s)
{
  for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(0xffffffffu, s, off);
  return s;
}

/* long rows: one block per row */
__global__ static void pellr_long(int nlong, const int *__restrict__ perm, const int *__restrict__ longptr, const int *__restrict__ col, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ x, const PetscScalar *z, PetscScalar *y)
{
  __shared__ PetscScalar part[PELLR_LONG_THREADS / 32];
  const int              k = blockIdx.x;
  PetscScalar            s = 0;

  if (k >= nlong) return;
  for (int t = longptr[k] + threadIdx.x; t < longptr[k + 1]; t += blockDim.x) s += val[t] * x[col[t]];
  s = WarpSum(s);
  if ((threadIdx.x & 31) == 0) part[threadIdx.x / 32] = s;
  __syncthreads();
  if (threadIdx.x < 32) {
    s = threadIdx.x < blockDim.x / 32 ? part[threadIdx.x] : 0;
    s = WarpSum(s);
    if (threadIdx.x == 0) {
      const int row = perm[k];
      y[row]        = z ? z[row] + s : s;
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
  for (int t = longptr[k] + lane; t < longptr[k + 1]; t += 32) s += val[t] * x[col[t]];
  s = WarpSum(s);
  if (lane == 0) {
    const int row = perm[k];
    y[row]        = z ? z[row] + s : s;
  }
}

/* slices with T threads per row: block of 32*T threads per slice; warp w handles entries j = w, w+T, ... of all 32 rows */
template <int T>
__global__ static void pellr_slices_multi(int s0, int nlong, int nrows, const int *__restrict__ perm, const int *__restrict__ sliceptr, const int *__restrict__ rlen, const int *__restrict__ col, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ x, const PetscScalar *z, PetscScalar *y)
{
  __shared__ PetscScalar part[T][PELLR_SLICE];
  const int              s = s0 + blockIdx.x, r = threadIdx.x % PELLR_SLICE, w = threadIdx.x / PELLR_SLICE;
  const int              len = rlen[PELLR_SLICE * s + r], base = sliceptr[s] + r;
  PetscScalar            sum = 0;

  for (int j = w; j < len; j += T) sum += val[base + PELLR_SLICE * j] * x[col[base + PELLR_SLICE * j]];
  part[w][r] = sum;
  __syncthreads();
  if (w == 0) {
    const int k = nlong + PELLR_SLICE * s + r;
    for (int l = 1; l < T; l++) sum += part[l][r];
    if (k < nrows) {
      const int row = perm[k];
      y[row]        = z ? z[row] + sum : sum;
    }
  }
}

/* the other slices: a thread per row, a warp per slice */
__global__ static void pellr_slices_single(int s0, int s1, int nlong, int nrows, const int *__restrict__ perm, const int *__restrict__ sliceptr, const int *__restrict__ rlen, const int *__restrict__ col, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ x, const PetscScalar *z, PetscScalar *y)
{
  const long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
  const long s = s0 + g / PELLR_SLICE;
  const int  r = (int)(g % PELLR_SLICE);

  if (s >= s1) return;
  {
    const int   len = rlen[PELLR_SLICE * s + r], base = sliceptr[s] + r;
    const long  k   = nlong + PELLR_SLICE * s + r;
    PetscScalar sum = 0;
    if (k >= nrows) return;
    for (int j = 0; j < len; j++) sum += val[base + PELLR_SLICE * j] * x[col[base + PELLR_SLICE * j]];
    {
      const int row = perm[k];
      y[row]        = z ? z[row] + sum : sum;
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
/* y += A^T x with atomics: long rows a block per row, sliced rows a thread per row */
__global__ static void pellr_trans_long(int nlong, const int *__restrict__ perm, const int *__restrict__ longptr, const int *__restrict__ col, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ x, PetscScalar *y)
{
  const int k = blockIdx.x;
  if (k >= nlong) return;
  {
    const PetscScalar xr = x[perm[k]];
    for (int t = longptr[k] + threadIdx.x; t < longptr[k + 1]; t += blockDim.x) atomicAdd(&y[col[t]], val[t] * xr);
  }
}

__global__ static void pellr_trans_slices(int nslices, int nlong, int nrows, const int *__restrict__ perm, const int *__restrict__ sliceptr, const int *__restrict__ rlen, const int *__restrict__ col, const PetscScalar *__restrict__ val, const PetscScalar *__restrict__ x, PetscScalar *y)
{
  const long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
  const long s = g / PELLR_SLICE;
  const int  r = (int)(g % PELLR_SLICE);

  if (s >= nslices) return;
  {
    const long k = nlong + PELLR_SLICE * s + r;
    if (k >= nrows) return;
    {
      const int         len = rlen[PELLR_SLICE * s + r], base = sliceptr[s] + r;
      const PetscScalar xr  = x[perm[k]];
      for (int j = 0; j < len; j++) atomicAdd(&y[col[base + PELLR_SLICE * j]], val[base + PELLR_SLICE * j] * xr);
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

__global__ static void pellr_diag_slices(int nslices, int nlong, int nrows, const int *__restrict__ perm, const int *__restrict__ sliceptr, const int *__restrict__ rlen, const int *__restrict__ col, const PetscScalar *__restrict__ val, PetscScalar *d)
{
  const long g = (long)blockIdx.x * blockDim.x + threadIdx.x;
  const long s = g / PELLR_SLICE;
  const int  r = (int)(g % PELLR_SLICE);

  if (s >= nslices) return;
  {
    const long k = nlong + PELLR_SLICE * s + r;
    if (k >= nrows) return;
    {
      const int   len = rlen[PELLR_SLICE * s + r], base = sliceptr[s] + r, row = perm[k];
      PetscScalar v   = 0;
      for (int j = 0; j < len; j++)
        if (col[base + PELLR_SLICE * j] == row) v += val[base + PELLR_SLICE * j];
      d[row] = v;
    }
  }
}

static inline unsigned int Blocks(long work, int threads)
{
  return (unsigned int)((work + threads - 1) / threads);
}

static PetscErrorCode PellrLaunchEmpty(PellrDevice d, const PetscScalar *z, PetscScalar *y)
{
  PetscFunctionBegin;
  if (d->m > d->nrows && z != y) pellr_empty<<<Blocks(d->m - d->nrows, 256), 256>>>((int)d->nrows, (int)d->m, d->perm, z, y);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = z + A x (z may be NULL or y), all pointers in device memory */
PetscErrorCode PellrDeviceMult(PellrDevice d, const PetscScalar *x, const PetscScalar *z, PetscScalar *y)
{
  PetscFunctionBegin;
  PetscCheck(d, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PELLR device copy missing");
  PetscCall(PetscLogGpuTimeBegin());
  if (d->nblock) pellr_long<<<(unsigned int)d->nblock, PELLR_LONG_THREADS>>>((int)d->nblock, d->perm, d->longptr, d->col, d->val, x, z, y);
  if (d->nlong > d->nblock) pellr_long_warp<<<Blocks((d->nlong - d->nblock) * 32L, 128), 128>>>((int)d->nblock, (int)d->nlong, d->perm, d->longptr, d->col, d->val, x, z, y);
#define PELLR_MULTI(c, T) \
  if (d->tclass[c + 1] > d->tclass[c]) pellr_slices_multi<T><<<(unsigned int)(d->tclass[c + 1] - d->tclass[c]), 32 * T>>>((int)d->tclass[c], (int)d->nlong, (int)d->nrows, d->perm, d->sliceptr, d->rlen, d->col, d->val, x, z, y)
  PELLR_MULTI(0, 32);
  PELLR_MULTI(1, 16);
  PELLR_MULTI(2, 8);
  PELLR_MULTI(3, 4);
  PELLR_MULTI(4, 2);
#undef PELLR_MULTI
  if (d->tclass[6] > d->tclass[5]) pellr_slices_single<<<Blocks((d->tclass[6] - d->tclass[5]) * (long)PELLR_SLICE, 128), 128>>>((int)d->tclass[5], (int)d->tclass[6], (int)d->nlong, (int)d->nrows, d->perm, d->sliceptr, d->rlen, d->col, d->val, x, z, y);
  PetscCall(PellrLaunchEmpty(d, z, y));
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
  PetscCall(PetscLogGpuTimeBegin());
  if (z != y) {
    if (z) PetscCallCUDA(cudaMemcpy(y, z, (size_t)d->n * sizeof(PetscScalar), cudaMemcpyDeviceToDevice));
    else PetscCallCUDA(cudaMemset(y, 0, (size_t)d->n * sizeof(PetscScalar)));
  }
  if (d->nlong) pellr_trans_long<<<(unsigned int)d->nlong, PELLR_LONG_THREADS>>>((int)d->nlong, d->perm, d->longptr, d->col, d->val, x, y);
  if (d->nslices) pellr_trans_slices<<<Blocks(d->nslices * (long)PELLR_SLICE, 128), 128>>>((int)d->nslices, (int)d->nlong, (int)d->nrows, d->perm, d->sliceptr, d->rlen, d->col, d->val, x, y);
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
  if (d->nlong) pellr_diag_long<<<Blocks(d->nlong, 128), 128>>>((int)d->nlong, d->perm, d->longptr, d->col, d->val, diag);
  if (d->nslices) pellr_diag_slices<<<Blocks(d->nslices * (long)PELLR_SLICE, 128), 128>>>((int)d->nslices, (int)d->nlong, (int)d->nrows, d->perm, d->sliceptr, d->rlen, d->col, d->val, diag);
  PetscCall(PellrLaunchEmpty(d, NULL, diag));
  PetscCallCUDA(cudaGetLastError());
  PetscCall(PetscLogGpuTimeEnd());
  PetscFunctionReturn(PETSC_SUCCESS);
}
