/* Counted checks for the host tests that check many invariants (subtreeilu5, subtreeilu7): Expect() prints a WRONG
   line and counts it; ExpectReport() prints the count and fails the test if it is not zero */
#pragma once
#include <petscsys.h>

static PetscInt expect_nfail = 0;

#define Expect(cond, ...) \
  do { \
    if (!(cond)) { \
      expect_nfail++; \
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  WRONG: " __VA_ARGS__)); \
    } \
  } while (0)

static PetscErrorCode ExpectReport(void)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "failures: %" PetscInt_FMT "\n", expect_nfail));
  PetscCheck(!expect_nfail, PETSC_COMM_SELF, PETSC_ERR_PLIB, "%" PetscInt_FMT " failures", expect_nfail);
  PetscFunctionReturn(PETSC_SUCCESS);
}
