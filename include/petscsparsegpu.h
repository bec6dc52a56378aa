/*
  PETSc SparseGPU: GPU sparse kernels for unmodified PETSc 3.22 applications.

  Load into any PETSc application with
      -dll_append /path/to/libpetscsparsegpu.so
  (or through PETSC_OPTIONS) and select the components with runtime options:
      -mat_type pellrcuda | pellr            (matrix storage)
      -pc_type subtree_ilu                   (ILU(k)/ICC(k) with sync-free triangular solves)
      -mat_ordering_type gpurcm              (Reverse Cuthill-McKee ordering)
  A program may also link the library and call PetscSparseGPUInitializePackage() itself.
*/
#pragma once

#include <petscmat.h>
#include <petscpc.h>

/* SUBMANSEC = Mat */

/*J
  MATPELLR - "pellr": AIJ on the host with a PELLR (row-length sorted, sliced ELLPACK-R) copy used for host products
  MATPELLRCUDA - "pellrcuda": AIJ on the host with a PELLR copy on the GPU used for products with cuda vectors

  Level: beginner
J*/
#define MATPELLR        "pellr"
#define MATSEQPELLR     "seqpellr"
#define MATMPIPELLR     "mpipellr"
#define MATPELLRCUDA    "pellrcuda"
#define MATSEQPELLRCUDA "seqpellrcuda"
#define MATMPIPELLRCUDA "mpipellrcuda"

/* "subtree_ilu": ILU(k)/ICC(k) preconditioner with synchronization-free subtree partial-sum triangular solves */
#define PCSUBTREEILU "subtree_ilu"

/* "gpurcm": Reverse Cuthill-McKee by speculative parallel batches, identical to MATORDERINGRCM */
#define MATORDERINGGPURCM "gpurcm"

/* Version of this library */
#define PETSCSPARSEGPU_VERSION_MAJOR 0
#define PETSCSPARSEGPU_VERSION_MINOR 1
#define PETSCSPARSEGPU_VERSION_PATCH 0

PETSC_EXTERN PetscErrorCode PetscSparseGPUInitializePackage(void);
PETSC_EXTERN PetscErrorCode PetscSparseGPUFinalizePackage(void);
PETSC_EXTERN PetscErrorCode PetscSparseGPUGetVersion(char[], size_t);
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_petscsparsegpu(void);
