/*
  GPU part of the storage-format predictor (pellrpredict.c): one pass over the CSR row pointers in device memory
  summarizes the row lengths (the table of lengths < PELLR_PRED_HCAP, the list of longer ones, the sum over 32-row
  groups of the group's longest row, the sum of |len_i - len_{i-1}|); the host finishes every feature from this
  summary exactly as for host row pointers, so both paths give identical features. Integer atomics only: deterministic.
*/
#include <cuda_runtime.h>
#include <petscdevice_cuda.h>
#include "pellrimpl.h"
#include "pellrpredict.h"

#define PELLR_PRED_THREADS 256

typedef struct {
  unsigned long long ellr, pert;
  unsigned long long nbig;
  unsigned int       bad; /* a negative row length */
  unsigned long long cnt[PELLR_PRED_HCAP];
} PellrSummaryDev;

__device__ static inline long long WarpMaxLL(long long v)
{
  for (int off = 16; off > 0; off /= 2) v = max(v, __shfl_down_sync(0xffffffffu, v, off));
  return v;
}

__device__ static inline unsigned long long WarpSumULL(unsigned long long v)
{
  for (int off = 16; off > 0; off /= 2) v += __shfl_down_sync(0xffffffffu, v, off);
  return v;
}

/* grid-stride over 32-row groups: blockDim and the stride are multiples of 32, so each warp holds one whole group */
__global__ static void pellr_predict_summary(long long m, const PetscInt *__restrict__ rp, PellrSummaryDev *st, PetscInt *big, unsigned long long cap)
{
  __shared__ unsigned int hist[PELLR_PRED_HCAP];
  const int               lane   = threadIdx.x & 31;
  const long long         stride = (long long)gridDim.x * blockDim.x;
  unsigned long long      ellr = 0, pert = 0;

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
        if (pos < cap) big[pos] = (PetscInt)l;
      }
    }
    wmax = WarpMaxLL(l);
    if (lane == 0) ellr += (unsigned long long)wmax;
  }
  ellr = WarpSumULL(ellr);
  pert = WarpSumULL(pert);
  if (lane == 0) {
    if (ellr) atomicAdd(&st->ellr, ellr);
    if (pert) atomicAdd(&st->pert, pert);
  }
  __syncthreads();
  for (int t = threadIdx.x; t < PELLR_PRED_HCAP; t += blockDim.x)
    if (hist[t]) atomicAdd(&st->cnt[t], (unsigned long long)hist[t]);
}

PetscErrorCode PellrLengthSummaryDevice(PetscInt m, const PetscInt *rp, PellrLengthSummary *s)
{
  PellrSummaryDev *d_st = NULL, *h_st = NULL;
  PetscInt        *d_big = NULL, rp0 = 0, rpm = 0;
  PetscInt64       cap;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(s, sizeof(*s)));
  if (!m) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallCUDA(cudaMemcpy(&rp0, rp, sizeof(PetscInt), cudaMemcpyDeviceToHost));
  PetscCallCUDA(cudaMemcpy(&rpm, rp + m, sizeof(PetscInt), cudaMemcpyDeviceToHost));
  s->nnz = (PetscInt64)(rpm - rp0);
  PetscCheck(s->nnz >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "Row pointers give %" PetscInt64_FMT " nonzeros", s->nnz);
  cap = PetscMin((PetscInt64)m, s->nnz / PELLR_PRED_HCAP + 1);
  PetscCallCUDA(cudaMalloc((void **)&d_st, sizeof(PellrSummaryDev)));
  PetscCallCUDA(cudaMemset(d_st, 0, sizeof(PellrSummaryDev)));
  PetscCallCUDA(cudaMalloc((void **)&d_big, (size_t)cap * sizeof(PetscInt)));
  {
    int       dev, sms;
    long long blocks = ((long long)m + PELLR_PRED_THREADS - 1) / PELLR_PRED_THREADS;

    PetscCallCUDA(cudaGetDevice(&dev));
    PetscCallCUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    blocks = PetscMin(blocks, 4 * (long long)sms);
    pellr_predict_summary<<<(unsigned)blocks, PELLR_PRED_THREADS>>>((long long)m, rp, d_st, d_big, (unsigned long long)cap);
    PetscCallCUDA(cudaGetLastError());
  }
  PetscCall(PetscMalloc1(1, &h_st));
  PetscCallCUDA(cudaMemcpy(h_st, d_st, sizeof(PellrSummaryDev), cudaMemcpyDeviceToHost));
  s->ellr = (PetscInt64)h_st->ellr;
  s->pert = (PetscInt64)h_st->pert;
  s->nbig = (PetscInt)PetscMin(h_st->nbig, (unsigned long long)cap);
  for (PetscInt l = 0; l < PELLR_PRED_HCAP; l++) s->cnt[l] = (PetscInt64)h_st->cnt[l];
  PetscCall(PetscMalloc1(s->nbig, &s->big));
  if (s->nbig) PetscCallCUDA(cudaMemcpy(s->big, d_big, (size_t)s->nbig * sizeof(PetscInt), cudaMemcpyDeviceToHost));
  PetscCallCUDA(cudaFree(d_st));
  PetscCallCUDA(cudaFree(d_big));
  {
    const PetscBool bad = (PetscBool)(h_st->bad != 0), over = (PetscBool)(h_st->nbig > (unsigned long long)cap);

    PetscCall(PetscFree(h_st));
    if (bad || over) PetscCall(PetscFree(s->big));
    PetscCheck(!bad, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "Row pointers decrease (a negative row length)");
    PetscCheck(!over, PETSC_COMM_SELF, PETSC_ERR_PLIB, "More than nnz/%d rows of length >= %d", PELLR_PRED_HCAP, PELLR_PRED_HCAP);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
