static char help[] = "PCSUBTREEILU behaviour: bitwise reproducible deterministic mode, refactorization with the same pattern,\n\
zero pivots (error or failed PC like PCILU, shifts like PCILU), other matrix types, parallel (diagonal blocks) against\n\
PCBJACOBI+ILU, and many repeated applies.\n\
  -N <n>        : grid points per direction of the generated 2D convection-diffusion matrix (default 24)\n\
  -repeats <r>  : applies in the repeated-apply check (default 20)\n\n";

#include <petscsparsegpu.h>
#include <petscksp.h>
#include "subtreeilu_test.h"

static PetscErrorCode CreatePC(Mat A, PCType type, const char prefix[], PC *pc)
{
  PetscFunctionBeginUser;
  PetscCall(PCCreate(PetscObjectComm((PetscObject)A), pc));
  PetscCall(PCSetOptionsPrefix(*pc, prefix));
  PetscCall(PCSetType(*pc, type));
  PetscCall(PCSetOperators(*pc, A, A));
  PetscCall(PCSetFromOptions(*pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* apply of subtree_ilu (options prefix st_) against the reference PC (prefix ref_), plain and transposed */
static PetscErrorCode CompareApply(const char what[], PC ref, PC st, Vec b)
{
  Vec       x1, x2;
  PetscReal r1, r2;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(b, &x1));
  PetscCall(VecDuplicate(b, &x2));
  PetscCall(PCApply(ref, b, x1));
  PetscCall(PCApply(st, b, x2));
  PetscCall(MaxRelDiff(x1, x2, &r1));
  PetscCall(PCApplyTranspose(ref, b, x1));
  PetscCall(PCApplyTranspose(st, b, x2));
  PetscCall(MaxRelDiff(x1, x2, &r2));
  PetscCall(PetscPrintf(PetscObjectComm((PetscObject)b), "%s: apply and transpose apply agree to 1e-10: %s\n", what, PetscMax(r1, r2) < 1e-10 ? "yes" : "NO"));
  PetscCall(VecDestroy(&x1));
  PetscCall(VecDestroy(&x2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* repeated applies: bitwise identical to the first in deterministic mode, else within 1e-12 (sums in any order) */
static PetscErrorCode TestRepeats(Mat A, Vec b, PetscInt repeats)
{
  PC                 pc;
  Vec                x, x0;
  const PetscScalar *a0, *a;
  PetscInt           n, same = 0;
  PetscBool          det = PETSC_FALSE, cmp;
  PetscReal          rel, worst = 0;

  PetscFunctionBeginUser;
  PetscCall(CreatePC(A, PCSUBTREEILU, "det_", &pc));
  PetscCall(PetscOptionsGetBool(NULL, "det_", "-pc_subtree_ilu_deterministic", &det, NULL));
  PetscCall(VecDuplicate(b, &x));
  PetscCall(VecDuplicate(b, &x0));
  PetscCall(PCApply(pc, b, x0));
  PetscCall(VecGetLocalSize(b, &n));
  for (PetscInt r = 0; r < repeats; r++) {
    PetscCall(VecSet(x, 0.0));
    PetscCall(PCApply(pc, b, x));
    PetscCall(VecGetArrayRead(x0, &a0));
    PetscCall(VecGetArrayRead(x, &a));
    if (!memcmp(a0, a, n * sizeof(PetscScalar))) same++;
    PetscCall(VecRestoreArrayRead(x0, &a0));
    PetscCall(VecRestoreArrayRead(x, &a));
    PetscCall(MaxRelDiff(x0, x, &rel));
    worst = PetscMax(worst, rel);
  }
  if (det) PetscCall(PetscPrintf(PETSC_COMM_SELF, "deterministic: repeated applies bitwise identical to the first: %s\n", same == repeats ? "yes" : "NO"));
  else PetscCall(PetscPrintf(PETSC_COMM_SELF, "repeated applies agree with the first to 1e-12: %s\n", worst < 1e-12 ? "yes" : "NO"));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-compare_serial", &cmp));
  if (det && cmp) { /* CPU threads in deterministic mode compute exactly what the serial backend computes */
    PC ser;

    PetscCall(PetscOptionsSetValue(NULL, "-ser_pc_subtree_ilu_backend", "serial"));
    PetscCall(CreatePC(A, PCSUBTREEILU, "ser_", &ser));
    PetscCall(PCApply(ser, b, x));
    PetscCall(VecGetArrayRead(x0, &a0));
    PetscCall(VecGetArrayRead(x, &a));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "deterministic threads bitwise identical to serial: %s\n", !memcmp(a0, a, n * sizeof(PetscScalar)) ? "yes" : "NO"));
    PetscCall(VecRestoreArrayRead(x0, &a0));
    PetscCall(VecRestoreArrayRead(x, &a));
    PetscCall(PCDestroy(&ser));
  }

  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&x0));
  PetscCall(PCDestroy(&pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* three setups with new values and the same pattern: one symbolic factorization, results match PCILU each time */
static PetscErrorCode TestRefactor(Mat A, Vec b)
{
  PC                 ref, st;
  PetscLogEvent      ev;
  PetscEventPerfInfo info0, info1;
  Mat                B;
  char               mtype[64] = MATAIJ;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetString(NULL, NULL, "-refactor_mat_type", mtype, sizeof(mtype), NULL));
  PetscCall(MatConvert(A, mtype, MAT_INITIAL_MATRIX, &B)); /* subtree_ilu refactors other types through a SeqAIJ copy */
  PetscCall(CreatePC(B, PCILU, "ref_", &ref));
  PetscCall(CreatePC(B, PCSUBTREEILU, "st_", &st));
  PetscCall(PetscLogEventGetId("MatILUFactorSym", &ev));
  PetscCall(PCSetUp(ref));
  PetscCall(PCSetUp(st));
  PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, ev, &info0));
  for (PetscInt k = 0; k < 3; k++) {
    char what[64];

    PetscCall(MatScale(B, 1.5));
    PetscCall(MatShift(B, 0.25 * (k + 1)));
    PetscCall(PCSetOperators(ref, B, B));
    PetscCall(PCSetOperators(st, B, B));
    PetscCall(PetscSNPrintf(what, sizeof(what), "refactorization %" PetscInt_FMT, k + 1));
    PetscCall(CompareApply(what, ref, st, b));
  }
  PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, ev, &info1));
  /* PCILU and subtree_ilu both refactor numerically only */
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "refactorization: symbolic factorizations during the 3 refactorizations: %d\n", info1.count - info0.count));
  PetscCall(PCDestroy(&ref));
  PetscCall(PCDestroy(&st));
  PetscCall(MatDestroy(&B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PCILU (prefix <p>ref_) and subtree_ilu (prefix <p>st_) of A, both with the given shift type */
static PetscErrorCode CompareShift(Mat A, Vec b, const char p[], const char shift[])
{
  PC   ref, st;
  char name[64], value[64];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(name, sizeof(name), "-%sref_pc_factor_shift_type", p));
  PetscCall(PetscOptionsSetValue(NULL, name, shift));
  PetscCall(PetscSNPrintf(name, sizeof(name), "-%sst_pc_subtree_ilu_shift_type", p));
  PetscCall(PetscOptionsSetValue(NULL, name, shift));
  PetscCall(PetscSNPrintf(name, sizeof(name), "%sref_", p));
  PetscCall(CreatePC(A, PCILU, name, &ref));
  PetscCall(PetscSNPrintf(name, sizeof(name), "%sst_", p));
  PetscCall(CreatePC(A, PCSUBTREEILU, name, &st));
  PetscCall(PetscSNPrintf(value, sizeof(value), "zero pivot with shift %s", shift));
  PetscCall(CompareApply(value, ref, st, b));
  PetscCall(PCDestroy(&ref));
  PetscCall(PCDestroy(&st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a matrix with a zero pivot (diagonal entry 0 stored): PCILU and subtree_ilu fail alike; with a shift both work */
static PetscErrorCode TestZeroPivot(void)
{
  Mat            A;
  PC             ref, st;
  Vec            b, x;
  PCFailedReason r1, r2;
  PetscErrorCode e1, e2;
  PetscInt       n = 6;
  KSP            ksp;
  KSPConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 3, NULL, &A));
  for (PetscInt i = 0; i < n; i++) {
    PetscCall(MatSetValue(A, i, i, i == 2 ? 0.0 : 4.0, INSERT_VALUES));
    if (i > 0) PetscCall(MatSetValue(A, i, i - 1, -1.0, INSERT_VALUES));
    if (i < n - 1 && i != 1) PetscCall(MatSetValue(A, i, i + 1, -1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1.0));

  /* default: the PC fails (failed reason), applies give Inf; KSP reports DIVERGED_PC_FAILED */
  PetscCall(CreatePC(A, PCILU, "zref_", &ref));
  PetscCall(CreatePC(A, PCSUBTREEILU, "zst_", &st));
  PetscCall(PCSetUp(ref));
  PetscCall(PCSetUp(st));
  PetscCall(PCGetFailedReason(ref, &r1));
  PetscCall(PCGetFailedReason(st, &r2));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "zero pivot: PCILU %s, subtree_ilu %s: %s\n", PCFailedReasons[r1], PCFailedReasons[r2], r1 == r2 && r1 ? "same" : "DIFFERENT"));
  PetscCall(KSPCreate(PETSC_COMM_SELF, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetPC(ksp, st));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "zero pivot: KSP with subtree_ilu: %s\n", KSPConvergedReasons[reason]));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(PCDestroy(&ref));
  PetscCall(PCDestroy(&st));

  /* error if failure: both give PETSc's zero-pivot error */
  PetscCall(CreatePC(A, PCILU, "zref_", &ref));
  PetscCall(CreatePC(A, PCSUBTREEILU, "zst_", &st));
  PetscCall(PCSetErrorIfFailure(ref, PETSC_TRUE));
  PetscCall(PCSetErrorIfFailure(st, PETSC_TRUE));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  e1 = PCSetUp(ref);
  e2 = PCSetUp(st);
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "zero pivot with error if failure: PCILU error %s, subtree_ilu error %s\n", e1 == PETSC_ERR_MAT_LU_ZRPVT ? "PETSC_ERR_MAT_LU_ZRPVT" : "other", e2 == PETSC_ERR_MAT_LU_ZRPVT ? "PETSC_ERR_MAT_LU_ZRPVT" : "other"));
  PetscCall(PCDestroy(&ref));
  PetscCall(PCDestroy(&st));

  /* shifts (options prefixes sref_/sst_ and pref_/pst_) */
  PetscCall(CompareShift(A, b, "s", "nonzero"));
  PetscCall(CompareShift(A, b, "p", "positive_definite"));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat         A, Ab;
  Vec         b;
  PC          ref, st;
  PetscInt    N = 24, repeats = 20;
  PetscMPIInt size;
  PetscRandom rnd;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscSparseGPUInitializePackage());
  PetscCall(PetscLogDefaultBegin());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-N", &N, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-repeats", &repeats, NULL));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(SubtreeILUGenerateLaplacian(PETSC_COMM_WORLD, 2, N, 0.3, &A));
  PetscCall(MatCreateVecs(A, NULL, &b));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 11));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(b, rnd));

  /* reference: PCILU on one process, PCBJACOBI (ILU on each process's diagonal block) in parallel */
  PetscCall(CreatePC(A, size > 1 ? PCBJACOBI : PCILU, "ref_", &ref));
  PetscCall(CreatePC(A, PCSUBTREEILU, "st_", &st));
  PetscCall(CompareApply(size > 1 ? "parallel, against bjacobi+ilu" : "against ilu", ref, st, b));
  PetscCall(PCDestroy(&st));
  /* another matrix type: converted to SeqAIJ internally */
  if (size == 1) {
    PetscCall(MatConvert(A, MATBAIJ, MAT_INITIAL_MATRIX, &Ab));
    PetscCall(CreatePC(Ab, PCSUBTREEILU, "st_", &st));
    PetscCall(CompareApply("baij matrix, against ilu of aij", ref, st, b));
    PetscCall(PCDestroy(&st));
    PetscCall(MatDestroy(&Ab));
    PetscCall(TestRepeats(A, b, repeats));
    PetscCall(TestRefactor(A, b));
    PetscCall(TestZeroPivot());
  }
  PetscCall(PCDestroy(&ref));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: serial
      args: -det_pc_subtree_ilu_deterministic -det_pc_subtree_ilu_backend serial

   test:
      suffix: threads
      args: -det_pc_subtree_ilu_deterministic -det_pc_subtree_ilu_backend threads -det_pc_subtree_ilu_threads 3 -st_pc_subtree_ilu_backend threads -st_pc_subtree_ilu_threads 2 -zst_pc_subtree_ilu_backend threads -N 40 -compare_serial

   test:
      suffix: levels
      args: -det_pc_subtree_ilu_deterministic -det_pc_subtree_ilu_backend threads -det_pc_subtree_ilu_levels 2 -ref_pc_factor_levels 1 -st_pc_subtree_ilu_levels 1 -ref_pc_factor_mat_ordering_type rcm -st_pc_subtree_ilu_mat_ordering_type rcm
      output_file: output/subtreeilu2_serial.out

   test:
      suffix: refactor_baij
      args: -det_pc_subtree_ilu_deterministic -refactor_mat_type baij
      output_file: output/subtreeilu2_serial.out

   test:
      suffix: mpi
      nsize: 2
      args: -N 30

   test:
      suffix: mpi_levels
      nsize: 2
      args: -N 30 -ref_sub_pc_factor_levels 2 -st_pc_subtree_ilu_levels 2 -st_pc_subtree_ilu_backend threads -st_pc_subtree_ilu_threads 2
      output_file: output/subtreeilu2_mpi.out

   test:
      suffix: mpi_empty_rank
      nsize: 2
      args: -N 1
      output_file: output/subtreeilu2_mpi.out

   test:
      suffix: cuda
      requires: cuda
      args: -det_pc_subtree_ilu_deterministic -det_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_backend cuda -zst_pc_subtree_ilu_backend cuda -sst_pc_subtree_ilu_backend cuda -pst_pc_subtree_ilu_backend cuda
      output_file: output/subtreeilu2_serial.out

   test:
      suffix: cuda_repeats
      requires: cuda
      args: -det_pc_subtree_ilu_deterministic -det_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_backend cuda -N 200 -repeats 1000
      output_file: output/subtreeilu2_serial.out

   test:
      suffix: cuda_repeats_nondet
      requires: cuda
      args: -det_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_backend cuda -N 200 -repeats 1000
      filter: grep "repeated applies"

   test:
      suffix: cuda_repeats_long_row
      requires: cuda
      args: -det_pc_subtree_ilu_deterministic -det_pc_subtree_ilu_backend cuda -det_pc_subtree_ilu_levels 2 -det_pc_subtree_ilu_mat_ordering_type rcm -det_pc_subtree_ilu_cuda_long_row 1 -st_pc_subtree_ilu_backend cuda -N 100 -repeats 200
      filter: grep "repeated applies bitwise"

   test:
      suffix: threads_nondet
      args: -det_pc_subtree_ilu_backend threads -det_pc_subtree_ilu_threads 3 -N 60 -repeats 50
      filter: grep "repeated applies"
      output_file: output/subtreeilu2_cuda_repeats_nondet.out

TEST*/
