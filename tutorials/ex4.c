static char help[] = "Solves A x = b with the subtree_ilu preconditioner of PETSc SparseGPU (ILU(k)/ICC(k) with\n\
synchronization-free subtree triangular solves) and reports setup and apply times and the dependency-DAG statistics.\n\
A plain PETSc program: load the library with -dll_append /path/to/libpetscsparsegpu.so.\n\
  -f <file.mtx[.gz]> : Matrix Market matrix (coordinate real/integer/pattern; gzip-compressed files are read with gzip -dc)\n\
  -dim <2|3> -n <N>  : otherwise the 2D 5-point or 3D 7-point Laplacian on an N^dim grid (default 2D, N = 100)\n\
  -applies <k>       : number of timed preconditioner applies (default 10)\n\
Any subtree_ilu option works, e.g. -pc_subtree_ilu_type icc -pc_subtree_ilu_levels 1 -pc_subtree_ilu_mat_ordering_type rcm\n\
-pc_subtree_ilu_backend cuda|threads|serial -pc_subtree_ilu_deterministic; -mat_type aijcusparse -vec_type cuda for the GPU.\n\n";

#include <petscksp.h>

/* Matrix Market reader: rank 0 reads, the matrix is assembled on PETSC_COMM_WORLD */
static PetscErrorCode ReadMatrixMarket(const char path[], Mat A)
{
  PetscMPIInt  rank;
  PetscInt     m = 0, n = 0, nz = 0, c = 0;
  PetscInt    *ii = NULL, *jj = NULL;
  PetscScalar *vv = NULL;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  if (rank == 0) {
    FILE     *f;
    char      line[1024], cmd[PETSC_MAX_PATH_LEN + 32], field[64] = "", sym[64] = "";
    size_t    len;
    PetscBool gz, pattern, issym, skew;

    PetscCall(PetscStrlen(path, &len));
    gz = (len > 3 && !strcmp(path + len - 3, ".gz")) ? PETSC_TRUE : PETSC_FALSE;
    if (gz) {
      PetscCall(PetscSNPrintf(cmd, sizeof(cmd), "gzip -dc '%s'", path));
      f = popen(cmd, "r");
    } else f = fopen(path, "r");
    PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open %s", path);
    PetscCheck(fgets(line, sizeof(line), f), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "Empty file %s", path);
    PetscCheck(sscanf(line, "%%%%MatrixMarket matrix coordinate %63s %63s", field, sym) == 2, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s is not a coordinate Matrix Market file", path);
    pattern = !strcmp(field, "pattern") ? PETSC_TRUE : PETSC_FALSE;
    PetscCheck(pattern || !strcmp(field, "real") || !strcmp(field, "integer"), PETSC_COMM_SELF, PETSC_ERR_SUP, "Matrix Market field %s not supported", field);
    issym = !strcmp(sym, "symmetric") ? PETSC_TRUE : PETSC_FALSE;
    skew  = !strcmp(sym, "skew-symmetric") ? PETSC_TRUE : PETSC_FALSE;
    do {
      PetscCheck(fgets(line, sizeof(line), f), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "No size line in %s", path);
    } while (line[0] == '%');
    {
      long long lm, ln, lnz;
      PetscCheck(sscanf(line, "%lld %lld %lld", &lm, &ln, &lnz) == 3, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "Bad size line in %s", path);
      m = (PetscInt)lm, n = (PetscInt)ln, nz = (PetscInt)lnz;
    }
    PetscCall(PetscMalloc3(2 * nz, &ii, 2 * nz, &jj, 2 * nz, &vv));
    for (PetscInt k = 0; k < nz; k++) {
      long long r, cc;
      double    v = 1.0;
      PetscCheck(fgets(line, sizeof(line), f), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "Premature end of %s", path);
      PetscCheck(sscanf(line, "%lld %lld %lf", &r, &cc, &v) >= (pattern ? 2 : 3), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "Bad entry in %s", path);
      ii[c] = (PetscInt)r - 1, jj[c] = (PetscInt)cc - 1, vv[c] = v, c++;
      if ((issym || skew) && r != cc) ii[c] = (PetscInt)cc - 1, jj[c] = (PetscInt)r - 1, vv[c] = skew ? -v : v, c++;
    }
    if (gz) pclose(f);
    else fclose(f);
  }
  PetscCallMPI(MPI_Bcast(&m, 1, MPIU_INT, 0, PETSC_COMM_WORLD));
  PetscCallMPI(MPI_Bcast(&n, 1, MPIU_INT, 0, PETSC_COMM_WORLD));
  PetscCheck(m == n, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "The matrix must be square, got %" PetscInt_FMT " x %" PetscInt_FMT, m, n);
  PetscCall(MatSetSizes(A, PETSC_DECIDE, PETSC_DECIDE, m, n));
  PetscCall(MatSetFromOptions(A));
  PetscCall(MatSetUp(A));
  PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  for (PetscInt k = 0; k < c; k++) PetscCall(MatSetValue(A, ii[k], jj[k], vv[k], ADD_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree3(ii, jj, vv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Laplacian(PetscInt dim, PetscInt N, Mat A)
{
  PetscInt rs, re, nn = dim == 2 ? N * N : N * N * N;

  PetscFunctionBeginUser;
  PetscCall(MatSetSizes(A, PETSC_DECIDE, PETSC_DECIDE, nn, nn));
  PetscCall(MatSetFromOptions(A));
  PetscCall(MatSeqAIJSetPreallocation(A, 2 * dim + 1, NULL));
  PetscCall(MatMPIAIJSetPreallocation(A, 2 * dim + 1, NULL, 2 * dim, NULL));
  PetscCall(MatSetUp(A));
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  for (PetscInt r = rs; r < re; r++) {
    PetscInt i = r % N, j = (r / N) % N, k = dim == 3 ? r / (N * N) : 0;
    PetscCall(MatSetValue(A, r, r, 2.0 * dim, INSERT_VALUES));
    if (i > 0) PetscCall(MatSetValue(A, r, r - 1, -1.0, INSERT_VALUES));
    if (i < N - 1) PetscCall(MatSetValue(A, r, r + 1, -1.0, INSERT_VALUES));
    if (j > 0) PetscCall(MatSetValue(A, r, r - N, -1.0, INSERT_VALUES));
    if (j < N - 1) PetscCall(MatSetValue(A, r, r + N, -1.0, INSERT_VALUES));
    if (dim == 3 && k > 0) PetscCall(MatSetValue(A, r, r - N * N, -1.0, INSERT_VALUES));
    if (dim == 3 && k < N - 1) PetscCall(MatSetValue(A, r, r + N * N, -1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat                A;
  Vec                x, b, u;
  KSP                ksp;
  PC                 pc;
  char               file[PETSC_MAX_PATH_LEN] = "";
  PetscInt           dim = 2, N = 100, applies = 10, its, nrows;
  PetscBool          hasfile;
  PetscLogDouble     t0, t1, t2, t3;
  PetscReal          rnorm, bnorm;
  KSPConvergedReason reason;
  PCType             pctype;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-f", file, sizeof(file), &hasfile));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-dim", &dim, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &N, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-applies", &applies, NULL));
  PetscCheck(dim == 2 || dim == 3, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-dim must be 2 or 3");

  PetscCall(MatCreate(PETSC_COMM_WORLD, &A));
  PetscCall(MatSetType(A, MATAIJ));
  if (hasfile) PetscCall(ReadMatrixMarket(file, A));
  else PetscCall(Laplacian(dim, N, A));
  PetscCall(MatGetSize(A, &nrows, NULL));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecDuplicate(x, &u));
  PetscCall(VecSet(u, 1.0));
  PetscCall(MatMult(A, u, b));

  PetscCall(KSPCreate(PETSC_COMM_WORLD, &ksp));
  PetscCall(KSPSetOperators(ksp, A, A));
  PetscCall(KSPGetPC(ksp, &pc));
  {
    PetscBool         haspc;
    PetscErrorCode (*create)(PC);

    PetscCall(PetscOptionsHasName(NULL, NULL, "-pc_type", &haspc));
    if (!haspc) { /* subtree_ilu by default; -pc_type ilu etc. for comparison */
      PetscCall(PCInitializePackage()); /* registers PETSc's PCs, so PCList is complete */
      PetscCall(PetscFunctionListFind(PCList, "subtree_ilu", &create));
      PetscCheck(create, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONGSTATE, "PC subtree_ilu is not registered: load PETSc SparseGPU with -dll_append /path/to/libpetscsparsegpu.so");
      PetscCall(PCSetType(pc, "subtree_ilu"));
    }
  }
  PetscCall(KSPSetTolerances(ksp, 1e-8, PETSC_CURRENT, PETSC_CURRENT, PETSC_CURRENT));
  PetscCall(KSPSetFromOptions(ksp));

  PetscCall(PetscTime(&t0));
  PetscCall(KSPSetUp(ksp));
  PetscCall(KSPSetUpOnBlocks(ksp));
  PetscCall(PetscTime(&t1));
  /* timed applies of the preconditioner alone (the first is a warm-up) */
  PetscCall(PCApply(pc, b, x));
  PetscCall(PetscTime(&t2));
  for (PetscInt k = 0; k < applies; k++) PetscCall(PCApply(pc, b, x));
  PetscCall(VecNorm(x, NORM_2, &rnorm)); /* a reduction: the applies have finished on the device too */
  PetscCall(PetscTime(&t3));

  PetscCall(VecSet(x, 0.0));
  PetscCall(KSPSolve(ksp, b, x));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetConvergedReason(ksp, &reason));
  PetscCall(KSPGetResidualNorm(ksp, &rnorm));
  PetscCall(VecNorm(b, NORM_2, &bnorm));
  PetscCall(PCGetType(pc, &pctype));

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %" PetscInt_FMT " rows, PC %s\n", hasfile ? file : (dim == 2 ? "2D Laplacian" : "3D Laplacian"), nrows, pctype));
  PetscCall(PCView(pc, PETSC_VIEWER_STDOUT_WORLD)); /* subtree_ilu: type, levels, ordering, backend, DAG depth and subtrees */
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s after %" PetscInt_FMT " iterations, relative residual %s 1e-8\n", reason > 0 ? "converged" : "DIVERGED", its, rnorm / bnorm <= 1e-8 ? "<=" : ">"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "time: setup %.6f s, apply %.6f s (mean of %" PetscInt_FMT ")\n", t1 - t0, applies ? (t3 - t2) / applies : 0.0, applies));

  PetscCall(KSPDestroy(&ksp));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(VecDestroy(&u));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: laplace2d
      args: -n 40 -dll_append ${SPARSEGPU_LIB}
      filter: grep -v "^time:"

   test:
      suffix: laplace3d_icc
      args: -dim 3 -n 12 -ksp_type cg -pc_subtree_ilu_type icc -pc_subtree_ilu_levels 1 -pc_subtree_ilu_mat_ordering_type rcm -dll_append ${SPARSEGPU_LIB}
      filter: grep -v "^time:"

   test:
      suffix: file
      args: -f ${SPARSEGPU_MATRICES}/sherman3.mtx.gz -pc_subtree_ilu_levels 1 -pc_subtree_ilu_backend threads -pc_subtree_ilu_threads 2 -ksp_max_it 1000 -dll_append ${SPARSEGPU_LIB}
      filter: grep -v "^time:" | sed -e "s|^[^ ]*matrices.||"

   test:
      suffix: mpi
      nsize: 2
      args: -n 40 -dll_append ${SPARSEGPU_LIB}
      filter: grep -v "^time:"

   test:
      suffix: cuda
      requires: cuda
      args: -n 40 -mat_type aijcusparse -vec_type cuda -dll_append ${SPARSEGPU_LIB} -options_left 0
      filter: grep -v "^time:" | sed -e "s/backend cuda/backend serial/" -e "s/type: seqaijcusparse/type: seqaij/" -e "/^ *cuda: one warp/d"
      output_file: output/ex4_laplace2d.out

TEST*/
