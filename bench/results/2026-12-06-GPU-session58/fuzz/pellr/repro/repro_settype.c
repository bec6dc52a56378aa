/* MatSetType(assembled AIJ, "pellr") discards the matrix (PETSc's MatSetType converts in place only for types whose
   name begins with the current type name, e.g. seqaij -> seqaijcusparse; "seqpellr" does not), giving an empty,
   unassembled matrix; MatConvert(..., MAT_INPLACE_MATRIX) keeps it.
   run: ./repro_settype -dll_append /tmp/fuzz_pellr/libpetscsparsegpu.so */
#include <petscsparsegpu.h>
int main(int argc, char **argv)
{
  Mat       A;
  PetscBool as;
  MatInfo   info;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, 4, 4, 1, NULL, 0, NULL, &A));
  for (PetscInt i = 0; i < 4; i++) PetscCall(MatSetValue(A, i, i, 1.0 + i, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatSetType(A, MATPELLR));
  PetscCall(MatAssembled(A, &as));
  PetscCall(MatGetInfo(A, MAT_GLOBAL_SUM, &info));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "after MatSetType(pellr): assembled %d, nz_used %g (AIJ had 4)\n", (int)as, info.nz_used));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}
