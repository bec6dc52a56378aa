/*
  CUDA backend of PCSUBTREEILU: synchronization-free subtree triangular solves with hardware atomics.

  Each triangular solve: a reset kernel sets the per-row counters of unresolved inputs + 1 (and zeroes the
  accumulators), then one thread per row, in topological order, decrements its row's counter once. Whoever brings a
  counter to zero (the row's own thread if all inputs were already final, else the thread that pushed the last
  input) solves that row and pushes x_i to the rows that depend on it (CSC column: atomicAdd of T_ji x_i into the
  accumulator, __threadfence, atomicSub of the counter); rows it completes go on its linked stack (next[], one slot
  per row, each row is pushed at most once) and it continues down that subtree. No thread ever waits or spins on
  another, so it cannot deadlock whatever the scheduling; the kernel ends when every thread has emptied its stack,
  which is when every row is solved.
  Deterministic mode: no floating-point atomics; the completer sums its row in CSR order itself (reads x through
  L2 with __ldcg after the acquiring fence), so results are bitwise reproducible.
*/
#include <petscdevice_cuda.h>
#include "subtreeiluimpl.h"

typedef struct {
  PetscInt     n, nnz;
  PetscBool    lower;
  PetscInt    *rowptr, *colidx, *colptr, *rowidx;
  PetscScalar *val, *cval;
} DevTri;

struct _PCSubtreeILUCUDA {
  PetscInt     n;
  DevTri       L, U;
  PetscInt    *rperm, *cperm;
  PetscScalar *dinv, *sqrtdinv;
  PetscScalar *t1, *t2, *hb, *hx; /* work, and device copies of host vectors */
  int         *cnt;
  PetscScalar *acc;
  PetscInt    *next;
};

#if defined(PETSC_USE_COMPLEX)
  #define SUBTREEILU_CUDA_SUPPORTED 0
#else
  #define SUBTREEILU_CUDA_SUPPORTED 1
#endif

static PetscErrorCode DevTriDestroy(DevTri *T)
{
  PetscFunctionBegin;
  PetscCallCUDA(cudaFree(T->rowptr));
  PetscCallCUDA(cudaFree(T->colidx));
  PetscCallCUDA(cudaFree(T->colptr));
  PetscCallCUDA(cudaFree(T->rowidx));
  PetscCallCUDA(cudaFree(T->val));
  PetscCallCUDA(cudaFree(T->cval));
  PetscCall(PetscMemzero(T, sizeof(*T)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename T>
static PetscErrorCode Upload(T **d, const T *h, PetscInt n)
{
  PetscFunctionBegin;
  if (!*d) PetscCallCUDA(cudaMalloc((void **)d, PetscMax(n, 1) * sizeof(T)));
  if (n) PetscCallCUDA(cudaMemcpy(*d, h, n * sizeof(T), cudaMemcpyHostToDevice));
  PetscCall(PetscLogCpuToGpu(n * sizeof(T)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode DevTriSetUp(DevTri *D, const PCSubtreeILUTri *T, PetscBool valuesonly)
{
  PetscFunctionBegin;
  if (!valuesonly) {
    PetscCall(DevTriDestroy(D));
    D->n       = T->n;
    D->nnz     = T->nnz;
    D->lower   = T->lower;
    PetscCall(Upload(&D->rowptr, T->rowptr, T->n + 1));
    PetscCall(Upload(&D->colptr, T->colptr, T->n + 1));
    PetscCall(Upload(&D->colidx, T->colidx, T->nnz));
    PetscCall(Upload(&D->rowidx, T->rowidx, T->nnz));
  }
  PetscCall(Upload(&D->val, T->val, T->nnz));
  PetscCall(Upload(&D->cval, T->cval, T->nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_INTERN PetscErrorCode PCSubtreeILUCUDADestroy_Private(PCSubtreeILUCUDA *cuda)
{
  PCSubtreeILUCUDA c = *cuda;

  PetscFunctionBegin;
  if (!c) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DevTriDestroy(&c->L));
  PetscCall(DevTriDestroy(&c->U));
  PetscCallCUDA(cudaFree(c->rperm));
  PetscCallCUDA(cudaFree(c->cperm));
  PetscCallCUDA(cudaFree(c->dinv));
  PetscCallCUDA(cudaFree(c->sqrtdinv));
  PetscCallCUDA(cudaFree(c->t1));
  PetscCallCUDA(cudaFree(c->t2));
  PetscCallCUDA(cudaFree(c->hb));
  PetscCallCUDA(cudaFree(c->hx));
  PetscCallCUDA(cudaFree(c->cnt));
  PetscCallCUDA(cudaFree(c->acc));
  PetscCallCUDA(cudaFree(c->next));
  PetscCall(PetscFree(*cuda));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Copies the solve structures (valuesonly: only the values after a numeric refactorization) to the GPU */
PETSC_INTERN PetscErrorCode PCSubtreeILUCUDASetUp_Private(PC_SubtreeILU *st, PetscBool valuesonly)
{
  PCSubtreeILUCUDA c;
  PetscInt         n = st->n;

  PetscFunctionBegin;
  PetscCheck(SUBTREEILU_CUDA_SUPPORTED, PETSC_COMM_SELF, PETSC_ERR_SUP, "The cuda backend of PCSUBTREEILU needs real scalars");
  PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA));
  if (!valuesonly || !st->cuda) {
    PetscCall(PCSubtreeILUCUDADestroy_Private(&st->cuda));
    PetscCall(PetscNew(&st->cuda));
    c    = st->cuda;
    c->n = n;
    PetscCall(Upload(&c->rperm, st->rperm, n));
    PetscCall(Upload(&c->cperm, st->cperm, n));
    PetscCallCUDA(cudaMalloc((void **)&c->t1, PetscMax(n, 1) * sizeof(PetscScalar)));
    PetscCallCUDA(cudaMalloc((void **)&c->t2, PetscMax(n, 1) * sizeof(PetscScalar)));
    PetscCallCUDA(cudaMalloc((void **)&c->cnt, PetscMax(n, 1) * sizeof(int)));
    PetscCallCUDA(cudaMalloc((void **)&c->acc, PetscMax(n, 1) * sizeof(PetscScalar)));
    PetscCallCUDA(cudaMalloc((void **)&c->next, PetscMax(n, 1) * sizeof(PetscInt)));
    valuesonly = PETSC_FALSE;
  }
  c = st->cuda;
  PetscCall(DevTriSetUp(&c->L, &st->L, valuesonly));
  PetscCall(DevTriSetUp(&c->U, &st->U, valuesonly));
  PetscCall(Upload(&c->dinv, st->dinv, n));
  if (st->type == PC_SUBTREEILU_ICC) PetscCall(Upload(&c->sqrtdinv, st->sqrtdinv, n));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ kernels */
__global__ static void ResetKernel(PetscInt n, const PetscInt *__restrict__ dptr, int *__restrict__ cnt, PetscScalar *__restrict__ acc)
{
  for (PetscInt i = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; i < n; i += (PetscInt)gridDim.x * blockDim.x) {
    cnt[i] = (int)(dptr[i + 1] - dptr[i] + 1); /* inputs + the row's own thread */
    acc[i] = 0.0;
  }
}

/* t[i] = b[perm[i]] (perm may be NULL) times scale[i] (may be NULL) */
__global__ static void GatherKernel(PetscInt n, const PetscInt *__restrict__ perm, const PetscScalar *__restrict__ scale, const PetscScalar *__restrict__ b, PetscScalar *__restrict__ t)
{
  for (PetscInt i = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; i < n; i += (PetscInt)gridDim.x * blockDim.x) {
    PetscScalar v = b[perm ? perm[i] : i];
    t[i]          = scale ? v * scale[i] : v;
  }
}

/* x[perm[i]] = t[i] (perm may be NULL) times scale[i] (may be NULL) */
__global__ static void ScatterKernel(PetscInt n, const PetscInt *__restrict__ perm, const PetscScalar *__restrict__ scale, const PetscScalar *__restrict__ t, PetscScalar *__restrict__ x)
{
  for (PetscInt i = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; i < n; i += (PetscInt)gridDim.x * blockDim.x) {
    PetscScalar v        = scale ? t[i] * scale[i] : t[i];
    x[perm ? perm[i] : i] = v;
  }
}

/* One thread per row, rows in topological order (ascending: row = thread, else row = n-1-thread). Counters start at
   (inputs + 1): the row's own thread and every pushed input decrement it once; whoever brings it to zero solves the
   row, x_i = (b_i rs_i - sum_j T_ij x_j) ds_i, and pushes x_i on, continuing with the rows it completes (linked
   stack). A thread whose row is not ready simply exits: nobody waits. dptr/didx/dval: inputs of a row (the system's
   CSR), fptr/fidx/fval: rows depending on a row (the system's CSC). */
__global__ static void SolveKernel(PetscInt n, int ascending, const PetscInt *__restrict__ dptr, const PetscInt *__restrict__ didx, const PetscScalar *__restrict__ dval, const PetscInt *__restrict__ fptr, const PetscInt *__restrict__ fidx, const PetscScalar *__restrict__ fval, const PetscScalar *__restrict__ b, const PetscScalar *__restrict__ rs, const PetscScalar *__restrict__ ds, PetscScalar *x, int *cnt, PetscScalar *acc, PetscInt *next, int det)
{
  PetscInt t = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x;
  PetscInt top;

  if (t >= n) return;
  top = ascending ? t : n - 1 - t;
  if (atomicSub(&cnt[top], 1) != 1) return; /* an input is still missing: its pusher will solve this row */
  next[top] = -1;
  while (top >= 0) {
    PetscInt    i = top, k0 = fptr[i], k1 = fptr[i + 1]; /* read-only data is loaded before the fence */
    PetscScalar s = rs ? b[i] * rs[i] : b[i], dsi = ds ? ds[i] : 1.0, xi;

    __threadfence(); /* acquire: the last decrement of row i's counter was seen, now see its inputs/partial sums */
    top = next[i];
    if (det) {
      for (PetscInt k = dptr[i]; k < dptr[i + 1]; k++) s -= dval[k] * __ldcg(&x[didx[k]]);
    } else s -= __ldcg(&acc[i]);
    xi = ds ? s * dsi : s;
    __stcg(&x[i], xi);
    if (!det)
      for (PetscInt k = k0; k < k1; k++) atomicAdd(&acc[fidx[k]], fval[k] * xi);
    __threadfence(); /* release: x_i and the partial sums are visible before any counter is decremented */
    for (PetscInt k = k0; k < k1; k++) {
      PetscInt j = fidx[k];

      if (atomicSub(&cnt[j], 1) == 1) { /* this thread completed row j: solve it later (linked stack) */
        next[j] = top;
        top     = j;
      }
    }
  }
}

static inline int NumBlocks(PetscInt n, int bs)
{
  PetscInt nb = (n + bs - 1) / bs;
  return (int)PetscMin(PetscMax(nb, 1), 65535 * 16);
}

/* solves T x = b (transpose: T^T x = b) on the device, all pointers on the device */
static PetscErrorCode DevTriSolve(PC_SubtreeILU *st, const DevTri *T, PetscBool transpose, const PetscScalar *b, const PetscScalar *rs, const PetscScalar *ds, PetscScalar *x)
{
  PCSubtreeILUCUDA c = st->cuda;
  const PetscInt    *dptr, *didx, *fptr, *fidx;
  const PetscScalar *dval, *fval;
  PetscInt           n         = T->n;
  int                ascending = (T->lower && !transpose) || (!T->lower && transpose) ? 1 : 0;
  const int          bs        = 128;

  PetscFunctionBegin;
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  if (!transpose) dptr = T->rowptr, didx = T->colidx, dval = T->val, fptr = T->colptr, fidx = T->rowidx, fval = T->cval;
  else dptr = T->colptr, didx = T->rowidx, dval = T->cval, fptr = T->rowptr, fidx = T->colidx, fval = T->val;
  /* counters are reset for every solve */
  ResetKernel<<<NumBlocks(n, 256), 256, 0, PetscDefaultCudaStream>>>(n, dptr, c->cnt, c->acc);
  PetscCallCUDA(cudaGetLastError());
  SolveKernel<<<(unsigned int)((n + bs - 1) / bs), bs, 0, PetscDefaultCudaStream>>>(n, ascending, dptr, didx, dval, fptr, fidx, fval, b, rs, ds, x, c->cnt, c->acc, c->next, st->deterministic ? 1 : 0);
  PetscCallCUDA(cudaGetLastError());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = M^{-1} x (or the transposed/symmetric parts); device: x and y are device pointers, else host pointers */
PETSC_INTERN PetscErrorCode PCSubtreeILUCUDAApply_Private(PC_SubtreeILU *st, PCSubtreeILUApplyMode mode, const PetscScalar *x, PetscScalar *y, PetscBool device)
{
  PCSubtreeILUCUDA   c = st->cuda;
  PetscInt           n;
  const PetscScalar *b;
  PetscScalar       *out;
  PetscBool          icc = st->type == PC_SUBTREEILU_ICC ? PETSC_TRUE : PETSC_FALSE;

  PetscFunctionBegin;
  PetscCheck(c, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The cuda backend is not set up");
  n = c->n;
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  if (!device) {
    if (!c->hb) PetscCallCUDA(cudaMalloc((void **)&c->hb, n * sizeof(PetscScalar)));
    if (!c->hx) PetscCallCUDA(cudaMalloc((void **)&c->hx, n * sizeof(PetscScalar)));
    PetscCallCUDA(cudaMemcpyAsync(c->hb, x, n * sizeof(PetscScalar), cudaMemcpyHostToDevice, PetscDefaultCudaStream));
    PetscCall(PetscLogCpuToGpu(n * sizeof(PetscScalar)));
    b   = c->hb;
    out = c->hx;
  } else {
    b   = x;
    out = y;
  }
  if (icc && mode == PC_SUBTREEILU_APPLY_TRANSPOSE) mode = PC_SUBTREEILU_APPLY;
  PetscCall(PetscLogGpuTimeBegin());
  switch (mode) {
  case PC_SUBTREEILU_APPLY:
    GatherKernel<<<NumBlocks(n, 256), 256, 0, PetscDefaultCudaStream>>>(n, c->rperm, NULL, b, c->t1);
    PetscCallCUDA(cudaGetLastError());
    PetscCall(DevTriSolve(st, &c->L, PETSC_FALSE, c->t1, NULL, NULL, c->t2));
    PetscCall(DevTriSolve(st, &c->U, PETSC_FALSE, c->t2, icc ? c->dinv : NULL, icc ? NULL : c->dinv, c->t1));
    ScatterKernel<<<NumBlocks(n, 256), 256, 0, PetscDefaultCudaStream>>>(n, c->cperm, NULL, c->t1, out);
    break;
  case PC_SUBTREEILU_APPLY_TRANSPOSE:
    GatherKernel<<<NumBlocks(n, 256), 256, 0, PetscDefaultCudaStream>>>(n, c->cperm, NULL, b, c->t1);
    PetscCallCUDA(cudaGetLastError());
    PetscCall(DevTriSolve(st, &c->U, PETSC_TRUE, c->t1, NULL, c->dinv, c->t2));
    PetscCall(DevTriSolve(st, &c->L, PETSC_TRUE, c->t2, NULL, NULL, c->t1));
    ScatterKernel<<<NumBlocks(n, 256), 256, 0, PetscDefaultCudaStream>>>(n, c->rperm, NULL, c->t1, out);
    break;
  case PC_SUBTREEILU_APPLY_SYMMETRIC_LEFT:
    GatherKernel<<<NumBlocks(n, 256), 256, 0, PetscDefaultCudaStream>>>(n, c->rperm, NULL, b, c->t1);
    PetscCallCUDA(cudaGetLastError());
    PetscCall(DevTriSolve(st, &c->L, PETSC_FALSE, c->t1, NULL, NULL, c->t2));
    ScatterKernel<<<NumBlocks(n, 256), 256, 0, PetscDefaultCudaStream>>>(n, NULL, c->sqrtdinv, c->t2, out);
    break;
  case PC_SUBTREEILU_APPLY_SYMMETRIC_RIGHT:
    PetscCall(DevTriSolve(st, &c->U, PETSC_FALSE, b, c->sqrtdinv, NULL, c->t1));
    ScatterKernel<<<NumBlocks(n, 256), 256, 0, PetscDefaultCudaStream>>>(n, c->cperm, NULL, c->t1, out);
    break;
  }
  PetscCallCUDA(cudaGetLastError());
  PetscCall(PetscLogGpuTimeEnd());
  PetscCall(PetscLogGpuFlops(2.0 * (st->L.nnz + st->U.nnz) + n));
  if (!device) {
    PetscCallCUDA(cudaMemcpyAsync(y, c->hx, n * sizeof(PetscScalar), cudaMemcpyDeviceToHost, PetscDefaultCudaStream));
    PetscCallCUDA(cudaStreamSynchronize(PetscDefaultCudaStream));
    PetscCall(PetscLogGpuToCpu(n * sizeof(PetscScalar)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
