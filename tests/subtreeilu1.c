static char help[] = "Compares PCSUBTREEILU with PETSc's own PCILU/PCICC (same ordering and levels) on Matrix Market files and\n\
generated Laplacians: PCApply, PCApplyTranspose and (icc) PCApplySymmetricLeft/Right must agree to 1e-10 relative.\n\
  -dir <path>            : directory of the .mtx.gz files (default $SPARSEGPU_MATRICES, ../../shared/matrices or\n\
                           ../shared/matrices, the first that has MANIFEST.tsv; the tests run in tests/)\n\
  -matrices <a,b,...>    : names of the matrices (default: all of MANIFEST.tsv; none: no matrix file)\n\
  -gen <2d|3d|hubs|random> : also a generated Laplacian, -N grid points per direction, -conv convection strength\n\
                           (hubs: the 2D one with four hub nodes joined to many others: long rows and columns in both\n\
                           factors; random: N^2 rows, each joined to 3 random others, as a power-law graph's typical rows)\n\
  -type <ilu|icc> -levels <k> -ordering <natural|rcm|...> : the factorization (ICC only on symmetric matrices)\n\
  -shift_type <none|nonzero|positive_definite> : shift of both preconditioners\n\n";

#include <petscsparsegpu.h>
#include <petscpc.h>
#include "mmio.h"
#include "subtreeilu_test.h"

typedef struct {
  char      type[16], ordering[64], shift[32];
  PetscInt  levels;
  PetscBool shift_set;
} Ctx;

/* Sets up a PC, catching PETSc errors (e.g. a missing diagonal): returns the error code */
static PetscErrorCode TrySetUp(PC pc, PetscErrorCode *ierr)
{
  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  *ierr = PCSetUp(pc);
  PetscCall(PetscPopErrorHandler());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one operation of both PCs on b: *worst becomes the larger of itself and the relative difference of the results */
static PetscErrorCode CompareOp(PetscErrorCode (*op)(PC, Vec, Vec), PC ref, PC st, Vec b, Vec x1, Vec x2, PetscReal *worst)
{
  PetscReal rel;

  PetscFunctionBeginUser;
  PetscCall(op(ref, b, x1));
  PetscCall(op(st, b, x2));
  PetscCall(MaxRelDiff(x1, x2, &rel));
  *worst = PetscMax(*worst, rel);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Compare(const char name[], Mat A, Ctx *ctx)
{
  PC             ref, st;
  Vec            b, x1, x2;
  PetscRandom    rnd;
  PetscErrorCode e1 = PETSC_SUCCESS, e2 = PETSC_SUCCESS;
  PCFailedReason r1, r2;
  PetscReal      worst = 0;
  PetscBool      icc;
  char           opt[256];

  PetscFunctionBeginUser;
  PetscCall(PetscStrcmp(ctx->type, "icc", &icc));
  PetscCall(PCCreate(PETSC_COMM_SELF, &ref));
  PetscCall(PCSetType(ref, icc ? PCICC : PCILU));
  PetscCall(PCSetOperators(ref, A, A));
  PetscCall(PCFactorSetLevels(ref, ctx->levels));
  PetscCall(PCFactorSetMatOrderingType(ref, ctx->ordering));
  if (ctx->shift_set) {
    PetscInt s;
    PetscBool found;
    PetscCall(PetscEListFind(4, (const char *[]){"NONE", "NONZERO", "POSITIVE_DEFINITE", "INBLOCKS"}, ctx->shift, &s, &found));
    if (!found) PetscCall(PetscEListFind(4, (const char *[]){"none", "nonzero", "positive_definite", "inblocks"}, ctx->shift, &s, &found));
    PetscCall(PCFactorSetShiftType(ref, (MatFactorShiftType)s));
  }

  PetscCall(PCCreate(PETSC_COMM_SELF, &st));
  PetscCall(PCSetOptionsPrefix(st, "st_"));
  PetscCall(PCSetType(st, PCSUBTREEILU));
  PetscCall(PCSetOperators(st, A, A));
  PetscCall(PetscOptionsSetValue(NULL, "-st_pc_subtree_ilu_type", ctx->type));
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "%" PetscInt_FMT, ctx->levels));
  PetscCall(PetscOptionsSetValue(NULL, "-st_pc_subtree_ilu_levels", opt));
  PetscCall(PetscOptionsSetValue(NULL, "-st_pc_subtree_ilu_mat_ordering_type", ctx->ordering));
  if (ctx->shift_set) PetscCall(PetscOptionsSetValue(NULL, "-st_pc_subtree_ilu_shift_type", ctx->shift));
  PetscCall(PCSetFromOptions(st));

  PetscCall(TrySetUp(ref, &e1));
  PetscCall(TrySetUp(st, &e2));
  PetscCall(PCGetFailedReason(ref, &r1));
  PetscCall(PCGetFailedReason(st, &r2));
  if (e1 || r1) {
    char *msg = NULL;

    if (e1) PetscCall(PetscErrorMessage(e1, NULL, &msg));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: PETSc cannot factor it (%s): skipped; subtree_ilu fails alike: %s\n", name, e1 ? (msg ? msg : "error") : PCFailedReasons[r1], (e1 && e2) || (!e1 && r1 == r2) ? "yes" : "NO"));
  } else if (e2 || r2) {
    char *msg = NULL;

    if (e2) PetscCall(PetscErrorMessage(e2, NULL, &msg));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: PETSc factors it but subtree_ilu fails (%s): NO\n", name, e2 ? (msg ? msg : "error") : PCFailedReasons[r2]));
  } else {
    PetscCall(MatCreateVecs(A, &x1, &b));
    PetscCall(VecDuplicate(x1, &x2));
    PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
    PetscCall(PetscRandomSetSeed(rnd, 7));
    PetscCall(PetscRandomSeed(rnd));
    PetscCall(VecSetRandom(b, rnd));
    PetscCall(CompareOp(PCApply, ref, st, b, x1, x2, &worst));
    PetscCall(CompareOp(PCApplyTranspose, ref, st, b, x1, x2, &worst));
    if (icc) {
      PetscCall(CompareOp(PCApplySymmetricLeft, ref, st, b, x1, x2, &worst));
      PetscCall(CompareOp(PCApplySymmetricRight, ref, st, b, x1, x2, &worst));
    }
    PetscCall(PetscInfo(st, "%s: max rel. difference %g\n", name, (double)worst));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: %s(%" PetscInt_FMT ") %s: max rel. difference < 1e-10: %s\n", name, ctx->type, ctx->levels, ctx->ordering, worst < 1e-10 ? "yes" : "NO"));
    PetscCall(PetscRandomDestroy(&rnd));
    PetscCall(VecDestroy(&b));
    PetscCall(VecDestroy(&x1));
    PetscCall(VecDestroy(&x2));
  }
  PetscCall(PCDestroy(&ref));
  PetscCall(PCDestroy(&st));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char      dir[PETSC_MAX_PATH_LEN] = "../../shared/matrices", *names[64], gen[8] = "";
  PetscInt  nnames = 64, N = 20;
  PetscReal conv = 0.0;
  PetscBool flg, icc;
  Ctx       ctx = {"ilu", "natural", "", 0, PETSC_FALSE};

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscSparseGPUInitializePackage());
  PetscCall(PetscOptionsGetString(NULL, NULL, "-dir", dir, sizeof(dir), &flg));
  if (!flg) PetscCall(MMDefaultDirectory(dir, sizeof(dir)));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type", ctx.type, sizeof(ctx.type), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-ordering", ctx.ordering, sizeof(ctx.ordering), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-shift_type", ctx.shift, sizeof(ctx.shift), &ctx.shift_set));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-levels", &ctx.levels, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-gen", gen, sizeof(gen), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-N", &N, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-conv", &conv, NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-matrices", names, &nnames, &flg));
  PetscCall(PetscStrcmp(ctx.type, "icc", &icc));
  if (flg && nnames == 1 && !strcmp(names[0], "none")) {
    PetscCall(PetscFree(names[0]));
    nnames = 0;
  }
  if (!flg) { /* every matrix of the manifest */
    char  path[PETSC_MAX_PATH_LEN], line[4096];
    FILE *f;

    nnames = 0;
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/MANIFEST.tsv", dir));
    f = fopen(path, "r");
    PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open %s", path);
    while (fgets(line, sizeof(line), f)) {
      char *tab = strchr(line, '\t');
      if (!tab || !strncmp(line, "name\t", 5)) continue;
      *tab = 0;
      if (nnames < 64) PetscCall(PetscStrallocpy(line, &names[nnames++]));
    }
    fclose(f);
    if (!strcmp(gen, "only")) {
      for (PetscInt i = 0; i < nnames; i++) PetscCall(PetscFree(names[i]));
      nnames = 0;
    }
  }
  for (PetscInt i = 0; i < nnames; i++) {
    char      path[PETSC_MAX_PATH_LEN];
    Mat        A;
    MMTriplets t;
    PetscBool  sym;

    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s.mtx.gz", dir, names[i]));
    PetscCall(MMRead(path, PETSC_TRUE, &t)); /* the full matrix of a symmetric file */
    PetscCall(MMTripletsAssemble(PETSC_COMM_SELF, &t, MATSEQAIJ, PETSC_FALSE, &A));
    sym = (PetscBool)(t.symmetric && !t.skew);
    PetscCall(MMTripletsDestroy(&t));
    if (icc && !sym) PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: not symmetric: icc skipped\n", names[i]));
    else PetscCall(Compare(names[i], A, &ctx));
    PetscCall(MatDestroy(&A));
    PetscCall(PetscFree(names[i]));
  }
  if (gen[0] && strcmp(gen, "none")) {
    Mat A;
    if (!strcmp(gen, "only")) PetscCall(PetscStrcpy(gen, "2d"));
    if (!strcmp(gen, "hubs")) PetscCall(SubtreeILUGenerateHubs(N, conv, &A));
    else if (!strcmp(gen, "random")) PetscCall(SubtreeILUGenerateRandom(N, conv, &A));
    else PetscCall(SubtreeILUGenerateLaplacian(PETSC_COMM_SELF, !strcmp(gen, "3d") ? 3 : 2, N, conv, &A));
    PetscCall(Compare(gen, A, &ctx));
    PetscCall(MatDestroy(&A));
  }
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: ilu0
      args: -type ilu -levels 0 -gen 2d -N 20 -conv 0.3

   test:
      suffix: ilu1_rcm
      args: -type ilu -levels 1 -ordering rcm -gen 3d -N 8 -conv 0.2

   test:
      suffix: ilu2_nd
      args: -type ilu -levels 2 -ordering nd -gen 2d -N 16

   test:
      suffix: icc0
      args: -type icc -levels 0 -gen 2d -N 20

   test:
      suffix: ilu0_rcm
      args: -type ilu -levels 0 -ordering rcm -gen 3d -N 8 -conv 0.2

   test:
      suffix: icc0_nd
      args: -type icc -levels 0 -ordering nd -gen 2d -N 16

   test:
      suffix: cuda_icc0_rcm
      requires: cuda
      args: -type icc -levels 0 -ordering rcm -gen 2d -N 16 -st_pc_subtree_ilu_backend cuda
      output_file: output/subtreeilu1_icc0_rcm.out

   test:
      suffix: icc0_rcm
      args: -type icc -levels 0 -ordering rcm -gen 2d -N 16

   test:
      suffix: icc1_rcm
      args: -type icc -levels 1 -ordering rcm -gen 3d -N 8

   test:
      suffix: ilu0_threads
      args: -type ilu -levels 0 -gen 3d -N 10 -conv 0.1 -st_pc_subtree_ilu_backend threads -st_pc_subtree_ilu_threads 3 -matrices bcsstk13,sherman3,jpwh_991,Pd
      output_file: output/subtreeilu1_ilu0_threads.out

   test:
      suffix: icc1_threads_det
      args: -type icc -levels 1 -gen 2d -N 30 -st_pc_subtree_ilu_backend threads -st_pc_subtree_ilu_threads 2 -st_pc_subtree_ilu_deterministic -matrices bcsstk17,1138_bus

   test:
      suffix: ilu_shift_nonzero
      args: -type ilu -levels 0 -shift_type nonzero -matrices west0479,gemat11,bayer10,mbeacxc,e30r4000,hangGlider_2,zenios

   test:
      suffix: ilu_shift_pd
      args: -type ilu -levels 1 -shift_type positive_definite -matrices zenios,bcsstk13,sherman1

   test:
      suffix: icc_shift_none
      args: -type icc -levels 0 -shift_type none -matrices zenios,bcsstk05

   test:
      suffix: cuda_ilu0
      requires: cuda
      args: -type ilu -levels 0 -gen 2d -N 20 -conv 0.3 -st_pc_subtree_ilu_backend cuda
      output_file: output/subtreeilu1_ilu0.out

   test:
      suffix: cuda_ilu1_rcm_det
      requires: cuda
      args: -type ilu -levels 1 -ordering rcm -gen 3d -N 8 -conv 0.2 -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_deterministic
      output_file: output/subtreeilu1_ilu1_rcm.out

   test:
      suffix: cuda_icc1_rcm
      requires: cuda
      args: -type icc -levels 1 -ordering rcm -gen 3d -N 8 -st_pc_subtree_ilu_backend cuda
      output_file: output/subtreeilu1_icc1_rcm.out

   test:
      suffix: ilu0_hubs
      args: -type ilu -levels 0 -gen hubs -N 40 -conv 0.3 -matrices none

   test:
      suffix: icc0_hubs_rcm
      args: -type icc -levels 0 -ordering rcm -gen hubs -N 40 -matrices none

   test:
      suffix: cuda_ilu0_hubs
      requires: cuda
      args: -type ilu -levels 0 -gen hubs -N 40 -conv 0.3 -matrices none -st_pc_subtree_ilu_backend cuda
      output_file: output/subtreeilu1_ilu0_hubs.out

   test:
      suffix: cuda_ilu0_hubs_det_rcm
      requires: cuda
      args: -type ilu -levels 0 -ordering rcm -gen hubs -N 40 -conv 0.3 -matrices none -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_deterministic
      filter: sed -e "s/ rcm:/ natural:/"
      output_file: output/subtreeilu1_ilu0_hubs.out

   test:
      suffix: cuda_icc0_hubs
      requires: cuda
      args: -type icc -levels 0 -ordering rcm -gen hubs -N 40 -matrices none -st_pc_subtree_ilu_backend cuda
      output_file: output/subtreeilu1_icc0_hubs_rcm.out

   test:
      suffix: cuda_icc0_hubs_natural
      requires: cuda
      args: -type icc -levels 0 -gen hubs -N 40 -matrices none -st_pc_subtree_ilu_backend cuda
      filter: sed -e "s/ natural:/ rcm:/"
      output_file: output/subtreeilu1_icc0_hubs_rcm.out

   test:
      suffix: cuda_ilu1_long_row
      requires: cuda
      args: -type ilu -levels 1 -ordering rcm -gen 3d -N 8 -conv 0.2 -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_long_row 1
      output_file: output/subtreeilu1_ilu1_rcm.out

   test:
      suffix: ilu0_random
      args: -type ilu -levels 0 -gen random -N 60 -conv 0.3 -matrices none

   test:
      suffix: icc1_random_rcm
      args: -type icc -levels 1 -ordering rcm -gen random -N 60 -matrices none

   # the level-sorted numbering of the cuda solves (-pc_subtree_ilu_cuda_level_sort): auto takes it on random columns
   # of 160,000 rows (-info says so; on a GPU of 132 multiprocessors, H100/H200: more groups a hop than warps), forced on grids (chains, RCM levels), hubs (long rows in the new numbering), ILU(1) and ICC
   # (L = U^T in U's numbering), the transposed and symmetric applies, and shared matrices
   test:
      suffix: cuda_ilu0_random
      requires: cuda
      args: -type ilu -levels 0 -gen random -N 400 -conv 0.3 -matrices none -st_pc_subtree_ilu_backend cuda -info :sys
      filter: grep -E "level sort of [LU] [(]|max rel" | sed -E -e "s/.*(level sort of [LU]) .*: (sorted|kept)$/\1: \2/"
      output_file: output/subtreeilu1_cuda_ilu0_random.out

   test:
      suffix: cuda_icc1_random_rcm
      requires: cuda
      args: -type icc -levels 1 -ordering rcm -gen random -N 60 -matrices none -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_deterministic
      output_file: output/subtreeilu1_icc1_random_rcm.out

   test:
      suffix: cuda_ilu0_random_unsorted
      requires: cuda
      args: -type ilu -levels 0 -gen random -N 60 -conv 0.3 -matrices none -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_level_sort no
      output_file: output/subtreeilu1_ilu0_random.out

   test:
      suffix: cuda_level_sort_2d
      requires: cuda
      args: -type ilu -levels 0 -gen 2d -N 20 -conv 0.3 -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_level_sort yes -matrices bcsstk13,sherman3,jpwh_991,Pd,west0479
      output_file: output/subtreeilu1_cuda_level_sort_2d.out

   test:
      suffix: cuda_level_sort_ilu1_rcm
      requires: cuda
      args: -type ilu -levels 1 -ordering rcm -gen 3d -N 8 -conv 0.2 -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_level_sort yes
      output_file: output/subtreeilu1_ilu1_rcm.out

   test:
      suffix: cuda_level_sort_icc1_rcm
      requires: cuda
      args: -type icc -levels 1 -ordering rcm -gen 3d -N 8 -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_level_sort yes
      output_file: output/subtreeilu1_icc1_rcm.out

   test:
      suffix: cuda_level_sort_icc0
      requires: cuda
      args: -type icc -levels 0 -gen 2d -N 20 -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_level_sort yes -matrices bcsstk17,1138_bus,bcsstk05
      output_file: output/subtreeilu1_cuda_level_sort_icc0.out

   test:
      suffix: cuda_level_sort_hubs
      requires: cuda
      args: -type ilu -levels 0 -gen hubs -N 40 -conv 0.3 -matrices none -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_level_sort yes
      output_file: output/subtreeilu1_ilu0_hubs.out

   test:
      suffix: cuda_level_sort_icc0_hubs
      requires: cuda
      args: -type icc -levels 0 -ordering rcm -gen hubs -N 40 -matrices none -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_level_sort yes
      output_file: output/subtreeilu1_icc0_hubs_rcm.out

   test:
      suffix: ilu0_setup_threads
      args: -type ilu -levels 0 -gen 3d -N 64 -conv 0.1 -st_pc_subtree_ilu_setup_threads 5 -matrices bcsstk17,sherman3

   test:
      suffix: icc1_rcm_setup_threads
      args: -type icc -levels 1 -ordering rcm -gen 3d -N 40 -st_pc_subtree_ilu_setup_threads 5 -st_pc_subtree_ilu_backend threads -matrices bcsstk17

   test:
      suffix: cuda_icc0_setup_threads
      requires: cuda
      args: -type icc -levels 0 -gen 3d -N 64 -st_pc_subtree_ilu_setup_threads 5 -st_pc_subtree_ilu_backend cuda -matrices bcsstk17
      output_file: output/subtreeilu1_icc0_setup_threads.out

   test:
      suffix: cuda_ilu1_setup_threads
      requires: cuda
      args: -type ilu -levels 1 -gen 3d -N 40 -conv 0.1 -st_pc_subtree_ilu_setup_threads 5 -st_pc_subtree_ilu_backend cuda -matrices sherman3
      output_file: output/subtreeilu1_ilu1_setup_threads.out

   test:
      suffix: icc0_setup_threads
      args: -type icc -levels 0 -gen 3d -N 64 -st_pc_subtree_ilu_setup_threads 5 -matrices bcsstk17

   test:
      suffix: ilu1_setup_threads
      args: -type ilu -levels 1 -gen 3d -N 40 -conv 0.1 -st_pc_subtree_ilu_setup_threads 5 -matrices sherman3

   # -pc_subtree_ilu_cuda_first_factorization: the first numeric factorization by the plan on the GPU (PETSc's where a
   # pivot would not pass its check unchanged: the shift and zero-pivot cases), and auto's decisions
   test:
      suffix: cuda_first_ilu0
      requires: cuda
      args: -type ilu -levels 0 -gen 2d -N 20 -conv 0.3 -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_first_factorization device
      output_file: output/subtreeilu1_ilu0.out

   test:
      suffix: cuda_first_ilu1_rcm
      requires: cuda
      args: -type ilu -levels 1 -ordering rcm -gen 3d -N 8 -conv 0.2 -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_first_factorization device
      output_file: output/subtreeilu1_ilu1_rcm.out

   test:
      suffix: cuda_first_icc1_rcm
      requires: cuda
      args: -type icc -levels 1 -ordering rcm -gen 3d -N 8 -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_first_factorization device
      output_file: output/subtreeilu1_icc1_rcm.out

   test:
      suffix: cuda_first_ilu0_hubs
      requires: cuda
      args: -type ilu -levels 0 -gen hubs -N 40 -conv 0.3 -matrices none -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_first_factorization device
      output_file: output/subtreeilu1_ilu0_hubs.out

   test:
      suffix: cuda_first_icc0_hubs_rcm
      requires: cuda
      args: -type icc -levels 0 -ordering rcm -gen hubs -N 40 -matrices none -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_first_factorization device
      output_file: output/subtreeilu1_icc0_hubs_rcm.out

   test:
      suffix: cuda_first_ilu_shift_nonzero
      requires: cuda
      args: -type ilu -levels 0 -shift_type nonzero -matrices west0479,gemat11,bayer10,mbeacxc,e30r4000,hangGlider_2,zenios -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_first_factorization device
      output_file: output/subtreeilu1_ilu_shift_nonzero.out

   test:
      suffix: cuda_first_icc_shift_none
      requires: cuda
      args: -type icc -levels 0 -shift_type none -matrices zenios,bcsstk05 -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_first_factorization device
      output_file: output/subtreeilu1_icc_shift_none.out

   test:
      suffix: cuda_first_level_sort_2d
      requires: cuda
      args: -type ilu -levels 0 -gen 2d -N 20 -conv 0.3 -st_pc_subtree_ilu_cuda_level_sort yes -matrices bcsstk13,sherman3,jpwh_991,Pd,west0479 -st_pc_subtree_ilu_backend cuda -st_pc_subtree_ilu_cuda_first_factorization device
      output_file: output/subtreeilu1_cuda_level_sort_2d.out

   test:
      suffix: cuda_first_auto_random
      requires: cuda
      args: -type ilu -levels 0 -gen random -N 520 -conv 0.3 -matrices none -st_pc_subtree_ilu_backend cuda -info :pc
      filter: grep -E "first numeric factorization of the pattern|max rel. difference <" | sed -E -e "s/.*(the first numeric factorization of the pattern [^:]+):.+$/\1/"
      output_file: output/subtreeilu1_cuda_first_auto_random.out

   test:
      suffix: cuda_first_auto_2d
      requires: cuda
      args: -type ilu -levels 0 -gen 2d -N 520 -conv 0.3 -matrices none -st_pc_subtree_ilu_backend cuda -info :pc
      filter: grep -E "first numeric factorization of the pattern|max rel. difference <" | sed -E -e "s/.*(the first numeric factorization of the pattern [^:]+):.+$/\1/"
      output_file: output/subtreeilu1_cuda_first_auto_2d.out

TEST*/
