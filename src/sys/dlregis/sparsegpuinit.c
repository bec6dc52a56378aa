#include <petscsparsegpu.h> /*I "petscsparsegpu.h" I*/
#include <sparsegpuimpl.h>

static PetscBool PetscSparseGPUPackageInitialized = PETSC_FALSE;

/*@C
  PetscSparseGPUGetVersion - Gets the PETSc SparseGPU version string and the PETSc it was built against

  Not Collective

  Input Parameter:
. len - length of the string buffer

  Output Parameter:
. version - the version string

  Level: intermediate

.seealso: `PetscSparseGPUInitializePackage()`
@*/
PetscErrorCode PetscSparseGPUGetVersion(char version[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(PetscSNPrintf(version, len, "PETSc SparseGPU %d.%d.%d (built against PETSc %d.%d.%d%s)", PETSCSPARSEGPU_VERSION_MAJOR, PETSCSPARSEGPU_VERSION_MINOR, PETSCSPARSEGPU_VERSION_PATCH, PETSC_VERSION_MAJOR, PETSC_VERSION_MINOR, PETSC_VERSION_SUBMINOR,
#if defined(PETSC_HAVE_CUDA)
                         ", CUDA"
#else
                         ", no CUDA"
#endif
                         ));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  PetscSparseGPUFinalizePackage - Resets the package guard so that a later `PetscInitialize()` in the
  same process registers everything again (PETSc destroys its type lists at `PetscFinalize()`)

  Level: developer

.seealso: `PetscSparseGPUInitializePackage()`
@*/
PetscErrorCode PetscSparseGPUFinalizePackage(void)
{
  PetscFunctionBegin;
  PetscSparseGPUPackageInitialized = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  PetscSparseGPUInitializePackage - Registers the matrix types, preconditioner and ordering of PETSc SparseGPU
  and their log events. Called by `PetscDLLibraryRegister_petscsparsegpu()` when the library is loaded with
  `-dll_append`; a program linking the library directly may call it after `PetscInitialize()`.

  Not Collective

  Options Database Keys:
+ -sparsegpu_view - print the library version and its registered components when it is loaded
- -info :sys      - report the same through `PetscInfo()`

  Level: developer

.seealso: `PetscSparseGPUFinalizePackage()`, `MATPELLRCUDA`, `PCSUBTREEILU`, `MATORDERINGGPURCM`
@*/
PetscErrorCode PetscSparseGPUInitializePackage(void)
{
  char      version[256], components[256] = "";
  PetscBool view = PETSC_FALSE;

  PetscFunctionBegin;
  if (PetscSparseGPUPackageInitialized) PetscFunctionReturn(PETSC_SUCCESS);
  PetscSparseGPUPackageInitialized = PETSC_TRUE;
  /* Each component registers its types and log events (only implemented components are listed here) */
  /* PETSCSPARSEGPU_COMPONENTS_BEGIN */
  PetscCall(MatRegister_PELLR_Private());
  PetscCall(PellrPredictRegister_Private()); /* the storage-format predictor's log event (PELLRPredict) */
#if defined(PETSC_HAVE_CUDA)
  PetscCall(PetscStrlcat(components, " pellr pellrcuda", sizeof(components)));
#else
  PetscCall(PetscStrlcat(components, " pellr", sizeof(components)));
#endif
  PetscCall(MatOrderingRegister_GPURCM_Private());
  PetscCall(PetscStrlcat(components, " gpurcm", sizeof(components)));
  PetscCall(PCRegister_SubtreeILU_Private());
  PetscCall(PetscStrlcat(components, " subtree_ilu", sizeof(components)));
  /* PETSCSPARSEGPU_COMPONENTS_END */
  PetscCall(PetscSparseGPUGetVersion(version, sizeof(version)));
  PetscCall(PetscInfo(NULL, "%s loaded, registered:%s\n", version, components));
  /* Called while PETSc loads -dll_append libraries (PETSC_COMM_WORLD exists, options are read): only options, no objects */
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "PETSc SparseGPU (libpetscsparsegpu) options", "Sys");
  PetscCall(PetscOptionsBool("-sparsegpu_view", "Print the library version and registered components", "PetscSparseGPUInitializePackage", view, &view, NULL));
  PetscOptionsEnd();
  if (view) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "PETSc SparseGPU %d.%d.%d loaded\n  registered:%s\n", PETSCSPARSEGPU_VERSION_MAJOR, PETSCSPARSEGPU_VERSION_MINOR, PETSCSPARSEGPU_VERSION_PATCH, components));
  PetscCall(PetscRegisterFinalize(PetscSparseGPUFinalizePackage));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PetscDLLibraryRegister_petscsparsegpu - entry point found by PETSc's -dll_append loader (the name is
  derived from the file name libpetscsparsegpu.so). Only registration happens here: creating objects
  or touching CUDA this early is not safe.
*/
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_petscsparsegpu(void)
{
  PetscFunctionBegin;
  PetscCall(PetscSparseGPUInitializePackage());
  PetscFunctionReturn(PETSC_SUCCESS);
}
