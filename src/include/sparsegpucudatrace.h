/* Stage timing of GPU pipelines for -info (internal, CUDA host code only).

  With -info (or -info :sys) a traced pipeline reports the time of its stages: each stage ends with a device
  synchronization (which costs time itself, so the total is then an upper bound); with -sparsegpu_trace_host too the
  stages are not synchronized and their times are the host's (what the host spends issuing each stage: the CUDA API
  calls, the copies back); without -info nothing is synchronized or timed. Used by the PELLR GPU build and the gpurcm
  cuda backend. */
#pragma once

#include <string.h>
#include <petscsys.h>
#include <petscdevice_cuda.h>

#define SPARSEGPU_TRACE_MAX 24

typedef struct {
  PetscBool      on;
  PetscBool      host; /* -sparsegpu_trace_host: host times, the stages not synchronized */
  int            n;
  PetscLogDouble t0, tlast, dt[SPARSEGPU_TRACE_MAX]; /* start, end of the last stage, time per stage name */
  const char    *name[SPARSEGPU_TRACE_MAX];
  unsigned long long pool0; /* memory the device's stream-ordered pool had reserved at the start */
} SparseGPUCUDATrace;

/* the current device's stream-ordered memory pool: its release threshold, the memory it has reserved and the part of
   it in use (each optional; a pipeline whose allocations make the pool grow pays for mapping new memory; with
   threshold 0 the pool gives back what is unused at every synchronization) */
static inline PetscErrorCode SparseGPUCUDAPoolState(unsigned long long *threshold, unsigned long long *reserved, unsigned long long *used)
{
  int           dev;
  cudaMemPool_t pool;

  PetscFunctionBegin;
  PetscCallCUDA(cudaGetDevice(&dev));
  PetscCallCUDA(cudaDeviceGetMemPool(&pool, dev));
  if (threshold) PetscCallCUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, threshold));
  if (reserved) PetscCallCUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, reserved));
  if (used) PetscCallCUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, used));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static inline PetscErrorCode SparseGPUCUDATraceStart(SparseGPUCUDATrace *tr)
{
  PetscFunctionBegin;
  tr->n = 0;
  PetscCall(PetscInfoEnabled(PETSC_SMALLEST_CLASSID, &tr->on)); /* the class of PetscInfo(NULL, ...): -info or -info :sys */
  tr->host = PETSC_FALSE;
  if (tr->on) {
    PetscCall(PetscOptionsHasName(NULL, NULL, "-sparsegpu_trace_host", &tr->host));
    PetscCallCUDA(cudaDeviceSynchronize());
    PetscCall(SparseGPUCUDAPoolState(NULL, &tr->pool0, NULL));
    PetscCall(PetscTime(&tr->t0));
    tr->tlast = tr->t0;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ends a stage named `name` (a string that outlives the trace): the time since the end of the previous stage is added
   to that name's total, so stages repeated in a loop add up (names are reported in the order they first ended) */
static inline PetscErrorCode SparseGPUCUDATraceStage(SparseGPUCUDATrace *tr, const char *name)
{
  PetscLogDouble now;
  int            k;

  PetscFunctionBegin;
  if (!tr->on) PetscFunctionReturn(PETSC_SUCCESS);
  if (!tr->host) PetscCallCUDA(cudaDeviceSynchronize());
  PetscCall(PetscTime(&now));
  for (k = 0; k < tr->n && strcmp(tr->name[k], name); k++);
  if (k == tr->n && k < SPARSEGPU_TRACE_MAX) {
    tr->name[k] = name;
    tr->dt[k]   = 0;
    tr->n++;
  }
  if (k < tr->n) tr->dt[k] += now - tr->tlast;
  tr->tlast = now;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -info line "<what>, stages in us (synchronized): name time ...; total T" (T from the start to the end of the last
   stage); nothing without -info */
static inline PetscErrorCode SparseGPUCUDATraceReport(const SparseGPUCUDATrace *tr, const char what[])
{
  char       line[1024];
  size_t     len = 0;
  unsigned long long thr, pool1;

  PetscFunctionBegin;
  if (!tr->on) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SparseGPUCUDAPoolState(&thr, &pool1, NULL));
  line[0] = 0;
  for (int k = 0; k < tr->n; k++) {
    PetscCall(PetscSNPrintf(line + len, sizeof(line) - len, " %s %.1f", tr->name[k], 1e6 * tr->dt[k]));
    PetscCall(PetscStrlen(line, &len));
  }
  PetscCall(PetscInfo(NULL, "%s, stages in us (%s):%s; total %.1f; memory pool reserved %.1f -> %.1f MiB, release threshold %s\n", what, tr->host ? "host, not synchronized" : "synchronized", line, 1e6 * (tr->tlast - tr->t0), tr->pool0 / 1048576.0, pool1 / 1048576.0, thr == ~0ULL ? "unlimited" : (thr ? "finite" : "0")));
  PetscFunctionReturn(PETSC_SUCCESS);
}
