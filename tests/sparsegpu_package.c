static char help[] = "Checks the package registration of PETSc SparseGPU: idempotent initialization, re-registration after\n\
PetscFinalize()/PetscInitialize() in one process (the finalizer resets the guard), and which type names are registered.\n\n";

#include <petscsparsegpu.h>

static PetscErrorCode ReportRegistered(void)
{
  /* the root names pellr/pellrcuda map to these by communicator size */
  const char *names[] = {MATSEQPELLR, MATSEQPELLRCUDA, PCSUBTREEILU, MATORDERINGGPURCM};
  PetscFunctionList lists[4];
  PetscVoidFn *f;
  char          version[256];
  PetscBool     prefix;

  PetscFunctionBeginUser;
  lists[0] = MatList, lists[1] = MatList, lists[2] = PCList, lists[3] = MatOrderingList;
  PetscCall(PetscSparseGPUGetVersion(version, sizeof(version)));
  PetscCall(PetscStrbeginswith(version, "PETSc SparseGPU ", &prefix));
  PetscCheck(prefix, PETSC_COMM_WORLD, PETSC_ERR_PLIB, "Unexpected version string %s", version);
  for (int i = 0; i < 4; i++) {
    PetscCall(PetscFunctionListFind_Private(lists[i], names[i], &f));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-13s %s\n", names[i], f ? "registered" : "not registered"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  /* MPI is initialized here so that PETSc can be initialized twice in one process */
  if (MPI_Init(&argc, &argv) != MPI_SUCCESS) return 1;
  for (int round = 1; round <= 2; round++) {
    PetscCall(PetscInitialize(&argc, &argv, NULL, help));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "round %d\n", round));
    PetscCall(PetscSparseGPUInitializePackage()); /* prints the -sparsegpu_view line once per round */
    PetscCall(PetscSparseGPUInitializePackage()); /* idempotent */
    PetscCall(ReportRegistered());
    PetscCall(PetscFinalize());
  }
  return MPI_Finalize() == MPI_SUCCESS ? 0 : 1;
}

/*TEST

   testset:
      args: -sparsegpu_view
      filter: sed -e '/registered:/d'
      test:
         requires: !cuda
      test:
         suffix: mpi
         requires: !cuda
         nsize: 2
      test:
         suffix: cuda
         requires: cuda
      test:
         suffix: cuda_mpi
         requires: cuda
         nsize: 2

TEST*/
