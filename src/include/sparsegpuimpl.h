/* Internal declarations shared by the components of PETSc SparseGPU (not installed). */
#pragma once

#include <petscsparsegpu.h>

/* Component registration functions, called once from PetscSparseGPUInitializePackage() */
PETSC_INTERN PetscErrorCode MatRegister_PELLR_Private(void);
PETSC_INTERN PetscErrorCode PellrPredictRegister_Private(void);
PETSC_INTERN PetscErrorCode MatOrderingRegister_GPURCM_Private(void);
PETSC_INTERN PetscErrorCode PCRegister_SubtreeILU_Private(void);

/* Host threads for the setups (src/sys/utils/sparsegputhreads.c): the functions run on threads are plain C (no PETSc
   calls) with signature fn(ctx, tid, begin, end) */
#define PETSC_SPARSEGPU_MAX_THREADS 64 /* most threads of one loop or task set: tid < this (per-thread arrays of callers) */
typedef struct _n_PetscSparseGPUTasks *PetscSparseGPUTasks;
PETSC_INTERN PetscInt       PetscSparseGPUAvailableCores(void);
PETSC_INTERN PetscBool      PetscSparseGPUCoresShared(PetscInt);
PETSC_INTERN PetscErrorCode PetscSparseGPUParallelFor(PetscInt, PetscInt, PetscInt, void (*)(void *, PetscInt, PetscInt, PetscInt), void *);
PETSC_INTERN PetscErrorCode PetscSparseGPUTasksStart(PetscInt, PetscBool, void (*)(void *, PetscInt, PetscInt, PetscInt), void *, PetscSparseGPUTasks *);
PETSC_INTERN PetscErrorCode PetscSparseGPUTasksJoin(PetscSparseGPUTasks *);
PETSC_INTERN int            PetscSparseGPUParallelForC(PetscInt, PetscInt, PetscInt, void (*)(void *, PetscInt, PetscInt, PetscInt), void *); /* (plain C versions, callable from a thread) */
PETSC_INTERN int            PetscSparseGPUPrefaultC(PetscInt, void *, size_t);

#if defined(PETSC_HAVE_CUDA)
/* Staged host-to-device copies through pinned buffers filled by threads (src/sys/utils/sparsegpustage.cu): seg[k].dst
   (device) = seg[k].src (host), seg[k].bytes each, complete on return; the driver's pageable copy where the system
   refuses the pinned buffers */
typedef struct {
  void       *dst;
  const void *src;
  size_t      bytes;
} PetscSparseGPUSegment;
PETSC_INTERN PetscErrorCode PetscSparseGPUStagedUpload(const PetscSparseGPUSegment *, PetscInt, PetscInt);
/* the same, staged only when the segments hold at least min_bytes together, else the driver's copies */
PETSC_INTERN PetscErrorCode PetscSparseGPUUpload(const PetscSparseGPUSegment *, PetscInt, PetscInt, size_t);
/* dst0 (host) = src (device), and dst1 = src too unless NULL, through the staging buffers of an earlier staged upload
   (*staged = PETSC_FALSE, nothing copied, when there are none) */
PETSC_INTERN PetscErrorCode PetscSparseGPUStagedDownload(void *, void *, const void *, size_t, PetscInt, PetscBool *);
#endif
