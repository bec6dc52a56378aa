static char help[] = "PCSUBTREEILU threads backend and its persistent worker pool: many consecutive applies (all four kinds),\n\
PCReset() and a new setup with new values, a change of the number of threads, against the serial backend (bitwise\n\
in deterministic mode, to 1e-12 otherwise). Run it with -malloc_debug -malloc_dump to check that the pool leaks nothing.\n\
  -type <ilu|icc> -levels <k> -dim <2|3> -N <n> : factorization and generated matrix (default ilu, 0, 2, 40)\n\
  -applies <k>  : applies in each round (default 100)\n\
  -threads <t>  : threads of the first rounds (default 3), then -threads2 <t> (default 2)\n\
  -nondet       : nondeterministic mode (atomic partial sums): compare to 1e-12 instead of bitwise\n\
  -rows         : the row-level threads scheme (-pc_subtree_ilu_threads_rows) instead of the chunk DAG\n\
  -auto         : backend auto instead of threads (it alternates and times both on the first applies; either way the results equal serial)\n\
  -random <k>   : instead of the Laplacian, N^dim rows with k random columns each (a power-law matrix's chunk DAG: auto\n\
                  takes serial without timing threads)\n\n";

#include <petscsparsegpu.h>
#include <petscksp.h>
#include "subtreeilu_test.h"

static PetscErrorCode CreatePC(Mat A, const char prefix[], PC *pc)
{
  PetscFunctionBeginUser;
  PetscCall(PCCreate(PetscObjectComm((PetscObject)A), pc));
  PetscCall(PCSetOptionsPrefix(*pc, prefix));
  PetscCall(PCSetType(*pc, PCSUBTREEILU));
  PetscCall(PCSetOperators(*pc, A, A));
  PetscCall(PCSetFromOptions(*pc));
  PetscCall(PCSetUp(*pc));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the backend PCView() reports */
static PetscErrorCode CheckBackend(PC pc, const char backend[])
{
  PetscViewer v;
  char       *text = NULL, want[64], *found;
  PetscBool   ok;
  size_t      len  = 0;
  FILE       *f;
  const char *prefix;

  PetscFunctionBeginUser;
  f = open_memstream(&text, &len);
  PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_SYS, "open_memstream() failed");
  PetscCall(PetscViewerASCIIOpenWithFILE(PETSC_COMM_SELF, f, &v));
  PetscCall(PCView(pc, v));
  PetscCall(PetscViewerDestroy(&v));
  fclose(f);
  PetscCall(PetscSNPrintf(want, sizeof(want), "backend %s,", backend));
  PetscCall(PetscStrstr(text, want, &found));
  ok = found ? PETSC_TRUE : PETSC_FALSE;
  free(text);
  PetscCall(PCGetOptionsPrefix(pc, &prefix));
  PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PC %s does not use backend %s", prefix, backend);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* applies of thr and ser to changing right-hand sides: number of results not bitwise identical, largest difference */
static PetscErrorCode Round(const char what[], PC thr, PC ser, PetscBool icc, PetscBool det, Vec b, PetscInt applies)
{
  Vec                x1, x2, bb;
  PetscInt           n, differ = 0;
  PetscReal          worst = 0, nd, nx;
  const PetscScalar *a1, *a2;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(b, &x1));
  PetscCall(VecDuplicate(b, &x2));
  PetscCall(VecDuplicate(b, &bb));
  PetscCall(VecGetLocalSize(b, &n));
  for (PetscInt k = 0; k < applies; k++) {
    PetscInt kind = k % (icc ? 4 : 2);

    PetscCall(VecCopy(b, bb));
    PetscCall(VecShift(bb, (PetscScalar)(0.01 * k))); /* a different right-hand side each time */
    PetscCall(VecSet(x1, -1.0));
    PetscCall(VecSet(x2, -2.0));
    switch (kind) {
    case 0:
      PetscCall(PCApply(thr, bb, x1));
      PetscCall(PCApply(ser, bb, x2));
      break;
    case 1:
      PetscCall(PCApplyTranspose(thr, bb, x1));
      PetscCall(PCApplyTranspose(ser, bb, x2));
      break;
    case 2:
      PetscCall(PCApplySymmetricLeft(thr, bb, x1));
      PetscCall(PCApplySymmetricLeft(ser, bb, x2));
      break;
    default:
      PetscCall(PCApplySymmetricRight(thr, bb, x1));
      PetscCall(PCApplySymmetricRight(ser, bb, x2));
    }
    PetscCall(VecGetArrayRead(x1, &a1));
    PetscCall(VecGetArrayRead(x2, &a2));
    if (memcmp(a1, a2, n * sizeof(PetscScalar))) differ++;
    PetscCall(VecRestoreArrayRead(x1, &a1));
    PetscCall(VecRestoreArrayRead(x2, &a2));
    PetscCall(VecNorm(x2, NORM_INFINITY, &nx));
    PetscCall(VecAXPY(x1, -1.0, x2));
    PetscCall(VecNorm(x1, NORM_INFINITY, &nd));
    worst = PetscMax(worst, PetscIsInfOrNanReal(nd) ? PETSC_INFINITY : nd / (nx > 0 ? nx : 1.0));
  }
  if (det) PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: %" PetscInt_FMT " applies bitwise identical to serial: %s\n", what, applies, differ ? "NO" : "yes"));
  else PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: %" PetscInt_FMT " applies agree with serial to 1e-12: %s\n", what, applies, worst < 1e-12 ? "yes" : "NO"));
  PetscCall(VecDestroy(&x1));
  PetscCall(VecDestroy(&x2));
  PetscCall(VecDestroy(&bb));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* n rows, each with k columns drawn at random (a fixed linear congruential sequence) and a diagonal that dominates */
static PetscErrorCode GenerateRandom(PetscInt n, PetscInt k, Mat *A)
{
  unsigned long long s = 12345;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, k + 1, NULL, A));
  for (PetscInt r = 0; r < n; r++) {
    for (PetscInt q = 0; q < k; q++) {
      s = s * 6364136223846793005ULL + 1442695040888963407ULL;
      PetscCall(MatSetValue(*A, r, (PetscInt)((s >> 33) % (unsigned long long)n), -1.0, ADD_VALUES));
    }
    PetscCall(MatSetValue(*A, r, r, 2.0 * k + 1.0, ADD_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat         A;
  Vec         b;
  PC          thr, ser;
  PetscInt    N = 40, dim = 2, levels = 0, applies = 100, nt = 3, nt2 = 2, randk = 0;
  PetscBool   icc = PETSC_FALSE, nondet = PETSC_FALSE, det, rows = PETSC_FALSE, autob = PETSC_FALSE;
  char        type[16] = "ilu", buf[32];
  PetscRandom rnd;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscSparseGPUInitializePackage());
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-N", &N, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dim", &dim, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-levels", &levels, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-applies", &applies, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-threads", &nt, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-threads2", &nt2, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type", type, sizeof(type), NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-nondet", &nondet, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-rows", &rows, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-auto", &autob, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-random", &randk, NULL));
  PetscCall(PetscStrcmp(type, "icc", &icc));
  det = nondet ? PETSC_FALSE : PETSC_TRUE;

  /* options of the two PCs: the same factorization, backends threads and serial */
  PetscCall(PetscSNPrintf(buf, sizeof(buf), "%" PetscInt_FMT, levels));
  PetscCall(PetscOptionsSetValue(NULL, "-thr_pc_subtree_ilu_type", type));
  PetscCall(PetscOptionsSetValue(NULL, "-ser_pc_subtree_ilu_type", type));
  PetscCall(PetscOptionsSetValue(NULL, "-thr_pc_subtree_ilu_levels", buf));
  PetscCall(PetscOptionsSetValue(NULL, "-ser_pc_subtree_ilu_levels", buf));
  PetscCall(PetscOptionsSetValue(NULL, "-thr_pc_subtree_ilu_backend", autob ? "auto" : "threads"));
  if (rows) PetscCall(PetscOptionsSetValue(NULL, "-thr_pc_subtree_ilu_threads_rows", "1"));
  PetscCall(PetscOptionsSetValue(NULL, "-ser_pc_subtree_ilu_backend", "serial"));
  PetscCall(PetscSNPrintf(buf, sizeof(buf), "%" PetscInt_FMT, nt));
  PetscCall(PetscOptionsSetValue(NULL, "-thr_pc_subtree_ilu_threads", buf));
  if (det) PetscCall(PetscOptionsSetValue(NULL, "-thr_pc_subtree_ilu_deterministic", "1"));

  if (randk > 0) PetscCall(GenerateRandom(dim == 3 ? N * N * N : N * N, randk, &A));
  else PetscCall(SubtreeILUGenerateLaplacian(PETSC_COMM_SELF, dim, N, icc ? 0.0 : 0.3, &A));
  PetscCall(MatCreateVecs(A, NULL, &b));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 7));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(b, rnd));

  /* a PC destroyed before any apply: no workers were started */
  PetscCall(CreatePC(A, "thr_", &thr));
  PetscCall(PCDestroy(&thr));

  PetscCall(CreatePC(A, "thr_", &thr));
  PetscCall(CreatePC(A, "ser_", &ser));
  if (!autob) PetscCall(CheckBackend(thr, "threads"));
  PetscCall(CheckBackend(ser, "serial"));
  PetscCall(PetscSNPrintf(buf, sizeof(buf), "%" PetscInt_FMT " threads", nt));
  PetscCall(Round(buf, thr, ser, icc, det, b, applies));

  /* PCReset() (joins the workers), new values, a full new setup */
  PetscCall(PCReset(thr));
  PetscCall(MatScale(A, 2.0));
  PetscCall(MatShift(A, 0.5));
  PetscCall(PCSetOperators(thr, A, A));
  PetscCall(PCSetOperators(ser, A, A));
  PetscCall(PCSetUp(thr));
  PetscCall(PCSetUp(ser));
  PetscCall(Round("after PCReset and a new setup", thr, ser, icc, det, b, applies));

  /* refactorization with the same pattern (values only) while the pool lives */
  PetscCall(MatShift(A, 0.25));
  PetscCall(PCSetOperators(thr, A, A));
  PetscCall(PCSetOperators(ser, A, A));
  PetscCall(PCSetUp(thr));
  PetscCall(PCSetUp(ser));
  PetscCall(Round("after a numeric refactorization", thr, ser, icc, det, b, applies));

  /* another number of threads: the pool is rebuilt */
  PetscCall(PetscSNPrintf(buf, sizeof(buf), "%" PetscInt_FMT, nt2));
  PetscCall(PetscOptionsSetValue(NULL, "-thr_pc_subtree_ilu_threads", buf));
  PetscCall(PCSetFromOptions(thr));
  PetscCall(PCSetUp(thr));
  PetscCall(PetscSNPrintf(buf, sizeof(buf), "then %" PetscInt_FMT " threads", nt2));
  if (!autob) PetscCall(CheckBackend(thr, "threads"));
  PetscCall(Round(buf, thr, ser, icc, det, b, applies));

  PetscCall(PCDestroy(&thr));
  PetscCall(PCDestroy(&ser));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: ilu
      args: -applies 200 -malloc_debug -malloc_dump

   test:
      suffix: ilu1_3d
      args: -dim 3 -N 12 -levels 1 -threads 2 -threads2 4 -malloc_debug -malloc_dump

   test:
      suffix: icc
      args: -type icc -levels 1 -applies 200 -malloc_debug -malloc_dump

   test:
      suffix: ilu_nondet
      args: -nondet -applies 200 -threads 2 -threads2 3 -malloc_debug -malloc_dump

   test:
      suffix: one_thread
      args: -threads 1 -threads2 2 -applies 20 -malloc_debug -malloc_dump

   test:
      suffix: rows
      args: -rows -applies 200 -malloc_debug -malloc_dump
      output_file: output/subtreeilu3_ilu.out

   test:
      suffix: rows_nondet
      args: -rows -nondet -applies 200 -threads 2 -threads2 3 -malloc_debug -malloc_dump
      output_file: output/subtreeilu3_ilu_nondet.out

   test:
      suffix: rows_icc
      args: -rows -type icc -levels 1 -applies 200 -malloc_debug -malloc_dump
      output_file: output/subtreeilu3_icc.out

   test:
      suffix: auto
      args: -auto -dim 3 -N 32 -applies 8 -threads 2 -threads2 2 -malloc_debug -malloc_dump
      filter: sed -e "s/^2 threads/auto/" -e "s/^then 2 threads/then auto/"

   # ICC, 7 of every 28 applies a PCApply(): the timed trial of the first 6 completes (its choice made, the pool and
   # DAGs freed or kept) between transposed and symmetric applies, which run serially meanwhile
   test:
      suffix: auto_icc
      args: -auto -type icc -dim 3 -N 32 -applies 28 -threads 2 -threads2 2 -malloc_debug -malloc_dump -info :sys
      filter: grep -E "identical to serial|backend auto chose" | sed -e "s/.*backend auto chose.*$/auto chose a backend/" -e "s/^2 threads/auto/" -e "s/^then 2 threads/then auto/"

   # auto does not time threads where its chunk DAGs leave them no chance: a chain (2D natural, critical path 92% of
   # the chunks), and random columns (edges about as many as entries)
   test:
      suffix: auto_untimed
      args: -auto -N 200 -applies 4 -threads 2 -threads2 2 -info :sys -random {{0 8}separate output}
      filter: grep -E "identical to serial|backend auto chose" | sed -e "s/^.*ApplyHostAuto(): //" -e "s/^2 threads/auto/" -e "s/^then 2 threads/then auto/"

TEST*/
