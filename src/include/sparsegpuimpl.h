/* Internal declarations shared by the components of PETSc SparseGPU (not installed). */
#pragma once

#include <petscsparsegpu.h>

/* Component registration functions, called once from PetscSparseGPUInitializePackage() */
PETSC_INTERN PetscErrorCode MatRegister_PELLR_Private(void);
PETSC_INTERN PetscErrorCode PellrPredictRegister_Private(void);
PETSC_INTERN PetscErrorCode MatOrderingRegister_GPURCM_Private(void);
PETSC_INTERN PetscErrorCode PCRegister_SubtreeILU_Private(void);
