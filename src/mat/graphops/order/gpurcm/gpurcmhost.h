/* Internal declarations of gpurcm's host files (not installed): gpurcm.c (the MatOrdering: options, backend choice,
   graph and ISes), gpurcmserial.c (the serial backend) and gpurcmthreads.c (the threads backend). gpurcm.cu, the cuda
   backend, includes gpurcmimpl.h only. */
#pragma once

#include "gpurcmimpl.h"

/* The threads backend needs POSIX threads and C11 atomics */
#if defined(PETSC_HAVE_PTHREAD) && defined(PETSC_HAVE_STDATOMIC_H) && !defined(__STDC_NO_ATOMICS__)
  #define GPURCM_HAVE_THREADS 1
#endif

/* gpurcmserial.c */
PETSC_INTERN void      GPURCMOrderComponent(PetscInt, const PetscInt *, const PetscInt *, PetscInt *, PetscInt *, PetscInt *, PetscInt *, PetscInt *, PetscInt *, PetscInt *, PetscBool, PetscBool);
PETSC_INTERN PetscBool GPURCMCSRIsSymmetric(PetscInt, const PetscInt *, const PetscInt *, PetscInt *);

#if defined(GPURCM_HAVE_THREADS)
/* gpurcmthreads.c */
PETSC_INTERN PetscErrorCode MatGPURCMThreads_Private(PetscInt, const PetscInt[], const PetscInt[], PetscBool, PetscBool, const PetscInt[], const PetscInt[], const PetscInt[], const PetscInt[], PetscInt, PetscInt, PetscInt, PetscInt, PetscBool, MatGPURCMThreadsNumber, MatGPURCMThreadsWait, PetscBool, PetscBool, PetscInt[], PetscInt[], PetscBool *);
#endif
