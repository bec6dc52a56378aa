/* session 55, job 4: what the two ISes of an ordering cost on this host: the permutation written (as by the download), then
   ISCreateGeneral(COPY) and ISCreateGeneral(OWN), as gpurcm and rcm make them; 7 repetitions, n from -n */
#include <petscis.h>
#include <petsctime.h>
int main(int argc, char **argv)
{
  PetscInt n = 4096000, reps = 7;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  for (PetscInt r = 0; r < reps; r++) {
    PetscInt *perm, *p2; IS a, b; PetscLogDouble t0, t1, t2, t3, t4;
    PetscCall(PetscTime(&t0));
    PetscCall(PetscMalloc1(n, &perm));
    for (PetscInt i = 0; i < n; i++) perm[i] = n - 1 - i; /* the download's writes (faults) */
    PetscCall(PetscTime(&t1));
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, perm, PETSC_COPY_VALUES, &a));
    PetscCall(PetscTime(&t2));
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, perm, PETSC_OWN_POINTER, &b));
    PetscCall(PetscTime(&t3));
    PetscCall(ISSetPermutation(a)); PetscCall(ISSetPermutation(b));
    PetscCall(PetscTime(&t4));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "fill %.3f copyIS %.3f ownIS %.3f setperm %.3f ms\n", 1e3*(t1-t0), 1e3*(t2-t1), 1e3*(t3-t2), 1e3*(t4-t3)));
    PetscCall(ISDestroy(&a)); PetscCall(ISDestroy(&b));
    (void)p2;
  }
  PetscCall(PetscFinalize());
  return 0;
}
