#include <petscis.h>
#include <petsctime.h>
#include <pthread.h>
typedef struct { PetscInt *d, *s, b, e; } Job;
static void *cp(void *a) { Job *j = (Job *)a; memcpy(j->d + j->b, j->s + j->b, (size_t)(j->e - j->b) * sizeof(PetscInt)); return NULL; }
int main(int argc, char **argv)
{
  PetscInt n = 1000000, nt = 2;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  for (int rep = 0; rep < 6; rep++) {
    PetscInt *a, *b; IS r1, c1, r2, c2; PetscLogDouble t0, t1, t2;
    PetscCall(PetscMalloc1(n, &a));
    for (PetscInt i = 0; i < n; i++) a[i] = n - 1 - i;
    PetscCall(PetscTime(&t0));
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, a, PETSC_COPY_VALUES, &r1));
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, a, PETSC_OWN_POINTER, &c1));
    PetscCall(PetscTime(&t1));
    PetscCall(ISDestroy(&r1)); PetscCall(ISDestroy(&c1));
    PetscCall(PetscMalloc1(n, &a));
    for (PetscInt i = 0; i < n; i++) a[i] = n - 1 - i;
    PetscCall(PetscTime(&t1));
    PetscCall(PetscMalloc1(n, &b));
    { pthread_t th; Job j[2] = {{b, a, 0, n / 2}, {b, a, n / 2, n}}; pthread_create(&th, NULL, cp, &j[1]); cp(&j[0]); pthread_join(th, NULL); }
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, a, PETSC_OWN_POINTER, &r2));
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, b, PETSC_OWN_POINTER, &c2));
    PetscCall(PetscTime(&t2));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "ISCreateGeneral copy + own %.3f ms; 2-thread copy (incl. thread start) + own + own %.3f ms\n", 1e3 * (t1 - t0), 1e3 * (t2 - t1)));
    PetscCall(ISDestroy(&r2)); PetscCall(ISDestroy(&c2));
  }
  PetscCall(PetscFinalize());
  return 0;
}
