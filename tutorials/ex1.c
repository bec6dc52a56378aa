static char help[] = "Solves a 3D Poisson problem (7-point stencil on a DMDA) and reports what was used and how long it took.\n\
This is a plain PETSc program: it does not include or link PETSc SparseGPU. `make demo` loads the library into it\n\
with -dll_append and picks the library's types with runtime options, as any existing application would.\n\
  -n <int>        : grid points per direction (default 64)\n\
  -solves <int>   : number of timed KSPSolve calls after the first (default 1)\n\
  -view_solver    : view the KSP, PC and matrix once at the end\n\n";

/* Also accepts the usual options: -dm_mat_type, -mat_type, -dm_vec_type, -ksp_type, -pc_type, ... */

#include <petscdmda.h>
#include <petscksp.h>

static PetscErrorCode AssembleLaplacian(DM da, Mat A)
{
  DMDALocalInfo info;
  MatStencil    row, col[7];
  PetscScalar   v[7];

  PetscFunctionBeginUser;
  PetscCall(DMDAGetLocalInfo(da, &info));
  for (PetscInt k = info.zs; k < info.zs + info.zm; k++) {
    for (PetscInt j = info.ys; j < info.ys + info.ym; j++) {
      for (PetscInt i = info.xs; i < info.xs + info.xm; i++) {
        PetscInt n = 0;
        row.i = i, row.j = j, row.k = k;
        /* Dirichlet boundary: the boundary couplings are dropped, the diagonal stays 6 */
        if (k > 0) col[n].i = i, col[n].j = j, col[n].k = k - 1, v[n++] = -1.0;
        if (j > 0) col[n].i = i, col[n].j = j - 1, col[n].k = k, v[n++] = -1.0;
        if (i > 0) col[n].i = i - 1, col[n].j = j, col[n].k = k, v[n++] = -1.0;
        col[n].i = i, col[n].j = j, col[n].k = k, v[n++] = 6.0;
        if (i < info.mx - 1) col[n].i = i + 1, col[n].j = j, col[n].k = k, v[n++] = -1.0;
        if (j < info.my - 1) col[n].i = i, col[n].j = j + 1, col[n].k = k, v[n++] = -1.0;
        if (k < info.mz - 1) col[n].i = i, col[n].j = j, col[n].k = k + 1, v[n++] = -1.0;
        PetscCall(MatSetValuesStencil(A, 1, &row, n, col, v, INSERT_VALUES));
      }
    }
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  DM             da;
  Mat            A;
  Vec            x, b, u;
  KSP            ksp;
  PC             pc;
  PetscInt       n = 64, solves = 1, its, nrows;
  PetscReal      rnorm, bnorm, err;
  PetscLogDouble t0, t1, t2, t3;
  MatType        mtype;
  VecType        vtype;
  KSPType        ktype;
  PCType         ptype;
  MatInfo        info;
  char           mat_type[256] = "";
  PetscBool      flg, isfactor, view = PETSC_FALSE;
  KSPConvergedReason reason;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-solves", &solves, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-view_solver", &view, NULL));
  PetscCall(DMDACreate3d(PETSC_COMM_WORLD, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n, n, n, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da));
  PetscCall(DMSetFromOptions(da));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_type", mat_type, sizeof(mat_type), &flg));
  if (flg) PetscCall(DMSetMatType(da, mat_type)); /* -mat_type works like -dm_mat_type here */
  PetscCall(DMSetUp(da));

  PetscCall(PetscTime(&t0));
  PetscCall(DMCreateMatrix(da, &A));
  PetscCall(AssembleLaplacian(da, A));
  PetscCall(PetscTime(&t1));

  PetscCall(DMCreateGlobalVector(da, &x));
  PetscCall(VecDuplicate(x, &b));
  PetscCall(VecDuplicate(x, &u));
  PetscCall(VecSet(u, 1.0));
  PetscCall(MatMult(A, u, b));

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_CURRENT, PETSC_CURRENT, PETSC_CURRENT));
  PetscCall(KSPSetFromOptions(ksp));
  PetscCall(PetscTime(&t2));
  PetscCall(KSPSetUp(ksp));
  PetscCall(KSPSetUpOnBlocks(ksp));
  PetscCall(PetscTime(&t3));
  PetscCall(KSPSolve(ksp, b, x)); /* first solve: warm-up, not timed */
  PetscLogDouble tsolve = 0;
  for (PetscInt s = 0; s < solves; s++) {
    PetscLogDouble ts, te;
    PetscCall(VecSet(x, 0.0));
    PetscCall(PetscTime(&ts));
    PetscCall(KSPSolve(ksp, b, x));
    PetscCall(VecNorm(x, NORM_2, &err)); /* a reduction: the solve has finished on the device too */
    PetscCall(PetscTime(&te));
    tsolve += te - ts;
  }
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(KSPGetResidualNorm(ksp, &rnorm));
  PetscCall(VecNorm(b, NORM_2, &bnorm));
  PetscCall(VecAXPY(x, -1.0, u));
  PetscCall(VecNorm(x, NORM_INFINITY, &err));

  PetscCall(KSPGetType(ksp, &ktype));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCGetType(pc, &ptype));
  PetscCall(MatGetType(A, &mtype));
  PetscCall(VecGetType(b, &vtype));
  PetscCall(MatGetSize(A, &nrows, NULL));
  PetscCall(MatGetInfo(A, MAT_GLOBAL_SUM, &info));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "3D Poisson, %" PetscInt_FMT "^3 grid: %" PetscInt_FMT " rows, %.0f nonzeros\n", n, nrows, (double)info.nz_used));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "matrix type %s, vector type %s, KSP %s, PC %s\n", mtype, vtype, ktype, ptype));
  {
    char ordering[256];
    PetscCall(PetscOptionsGetString(NULL, NULL, "-pc_factor_mat_ordering_type", ordering, sizeof(ordering), &isfactor));
    if (isfactor) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "factor ordering %s\n", ordering));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s after %" PetscInt_FMT " iterations, relative residual %.2e, max error %.2e\n", reason > 0 ? "converged" : "DIVERGED", its, (double)(rnorm / bnorm), (double)err));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "time: assembly %.4f s, KSP setup %.4f s, solve %.4f s (mean of %" PetscInt_FMT " after one warm-up)\n", t1 - t0, t3 - t2, tsolve / solves, solves));

  if (view) PetscCall(KSPView(ksp, PETSC_VIEWER_STDOUT_WORLD));
  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&u));
  PetscCall(MatDestroy(&A));
  PetscCall(DMDestroy(&da));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: default
      args: -n 12 -ksp_type cg -pc_type jacobi -dll_append ${SPARSEGPU_LIB}
      filter: grep -v "^time:"

   test:
      suffix: ilu_mpi
      nsize: 2
      args: -n 12 -ksp_type gmres -pc_type bjacobi -sub_pc_type ilu -dll_append ${SPARSEGPU_LIB}
      filter: grep -v "^time:"

TEST*/
