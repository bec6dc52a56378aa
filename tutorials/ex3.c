static char help[] = "Times repeated MatMult in a chosen matrix type (e.g. pellr, pellrcuda) on a Matrix Market matrix or a 3D Laplacian,\n\
checks the product against AIJ and prints the storage statistics (for PELLR: layout, warp iterations, perturbation).\n\
A plain PETSc program: load PETSc SparseGPU with -dll_append <path>/libpetscsparsegpu.so.\n\
  -f <file>        : Matrix Market file (.mtx or .mtx.gz, coordinate real/integer/pattern, general/symmetric)\n\
  -n <int>         : otherwise a 7-point 3D Laplacian on an n^3 grid (default 32)\n\
  -mat_type <type> : the type to convert to (default pellr)\n\
  -reps <int>      : timed products (default 100)\n\n";

#include <petscmat.h>

/* Every rank reads the file and inserts the rows it owns */
static PetscErrorCode LoadMatrixMarket(const char *path, Mat *A)
{
  char      cmd[PETSC_MAX_PATH_LEN + 32], line[1024];
  FILE     *f;
  PetscBool gz, symmetric = PETSC_FALSE, pattern = PETSC_FALSE, header = PETSC_TRUE;
  PetscInt  rstart = 0, rend = 0;
  long      m = 0, n = 0, nz = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscStrendswith(path, ".gz", &gz));
  PetscCall(PetscSNPrintf(cmd, sizeof(cmd), "%s '%s'", gz ? "gzip -dc" : "cat", path));
  f = popen(cmd, "r");
  PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot read %s", path);
  while (fgets(line, sizeof(line), f)) {
    if (line[0] == '%') {
      if (header && !strncmp(line, "%%MatrixMarket", 14)) {
        PetscCheck(strstr(line, "coordinate"), PETSC_COMM_SELF, PETSC_ERR_SUP, "Only coordinate Matrix Market files are supported");
        PetscCheck(!strstr(line, "complex"), PETSC_COMM_SELF, PETSC_ERR_SUP, "Complex Matrix Market files are not supported");
        symmetric = (PetscBool)(strstr(line, "symmetric") != NULL);
        pattern   = (PetscBool)(strstr(line, "pattern") != NULL);
      }
      continue;
    }
    if (header) {
      PetscCheck(sscanf(line, "%ld %ld %ld", &m, &n, &nz) == 3, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "Bad size line in %s", path);
      header = PETSC_FALSE;
      PetscCall(MatCreate(PETSC_COMM_WORLD, A));
      PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, (PetscInt)m, (PetscInt)n));
      PetscCall(MatSetType(*A, MATAIJ));
      PetscCall(MatSetUp(*A));
      PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
      PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
      continue;
    }
    {
      long   i, j;
      double a   = 1.0;
      int    got = sscanf(line, "%ld %ld %lf", &i, &j, &a);
      if (got < 2) continue;
      PetscCheck(pattern || got == 3, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "Missing value in %s", path);
      if (i - 1 >= rstart && i - 1 < rend) PetscCall(MatSetValue(*A, (PetscInt)(i - 1), (PetscInt)(j - 1), (PetscScalar)a, ADD_VALUES));
      if (symmetric && i != j && j - 1 >= rstart && j - 1 < rend) PetscCall(MatSetValue(*A, (PetscInt)(j - 1), (PetscInt)(i - 1), (PetscScalar)a, ADD_VALUES));
    }
  }
  pclose(f);
  PetscCheck(!header, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "No Matrix Market data in %s", path);
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Laplacian3d(PetscInt n, Mat *A)
{
  PetscInt rstart, rend, N = n * n * n;

  PetscFunctionBeginUser;
  PetscCall(MatCreateAIJ(PETSC_COMM_WORLD, PETSC_DECIDE, PETSC_DECIDE, N, N, 7, NULL, 6, NULL, A));
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  for (PetscInt row = rstart; row < rend; row++) {
    PetscInt    i = row % n, j = (row / n) % n, k = row / (n * n), c[7], nc = 0;
    PetscScalar v[7];
    if (k > 0) c[nc] = row - n * n, v[nc++] = -1;
    if (j > 0) c[nc] = row - n, v[nc++] = -1;
    if (i > 0) c[nc] = row - 1, v[nc++] = -1;
    c[nc] = row, v[nc++] = 6;
    if (i < n - 1) c[nc] = row + 1, v[nc++] = -1;
    if (j < n - 1) c[nc] = row + n, v[nc++] = -1;
    if (k < n - 1) c[nc] = row + n * n, v[nc++] = -1;
    PetscCall(MatSetValues(*A, 1, &row, nc, c, v, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Mat            A, B;
  Vec            x, y, xa, ya;
  char           file[PETSC_MAX_PATH_LEN] = "", type[64] = "pellr";
  PetscInt       n = 32, reps = 100, M, N;
  PetscBool      flg, logging;
  PetscReal      nrm, diff;
  PetscLogDouble t0, t1, tconv0, tconv1;
  MatInfo        info;
  MatType        btype;
  VecType        vtype;
  PetscRandom    rnd;
  PetscViewer    viewer;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscLogIsActive(&logging));
  if (!logging) PetscCall(PetscLogDefaultBegin()); /* for the time of the PELLR build event */
  PetscCall(PetscOptionsGetString(NULL, NULL, "-f", file, sizeof(file), &flg));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_type", type, sizeof(type), NULL));
  PetscCheck(reps > 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-reps must be positive");
  if (flg) PetscCall(LoadMatrixMarket(file, &A));
  else PetscCall(Laplacian3d(n, &A));
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(MatGetInfo(A, MAT_GLOBAL_SUM, &info));

  /* convert (the conversion builds the new storage) */
  PetscCall(PetscTime(&tconv0));
  PetscCall(MatConvert(A, type, MAT_INITIAL_MATRIX, &B));
  PetscCall(MatSetFromOptions(B)); /* options of the type, e.g. -mat_pellr_long_row_length */
  PetscCall(PetscTime(&tconv1));
  PetscCall(MatGetType(B, &btype));

  /* x random; products of B with vectors of its own default type (cuda for pellrcuda) */
  PetscCall(MatCreateVecs(B, &x, &y));
  PetscCall(MatCreateVecs(A, &xa, &ya));
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 3));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(VecSetRandom(xa, rnd));
  PetscCall(VecCopy(xa, x));
  PetscCall(VecGetType(y, &vtype));
  PetscCall(MatMult(A, xa, ya));
  PetscCall(MatMult(B, x, y)); /* warm-up */
  PetscCall(VecNorm(y, NORM_2, &nrm));
  PetscCall(PetscTime(&t0));
  for (PetscInt r = 0; r < reps; r++) PetscCall(MatMult(B, x, y));
  PetscCall(VecNorm(y, NORM_2, &nrm)); /* a reduction: the products have finished on the device too */
  PetscCall(PetscTime(&t1));
  PetscCall(VecAXPY(ya, -1.0, y));
  PetscCall(VecNorm(ya, NORM_INFINITY, &diff));
  PetscCall(VecNorm(y, NORM_INFINITY, &nrm));

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %" PetscInt_FMT " x %" PetscInt_FMT ", %.0f nonzeros\n", flg ? (strrchr(file, '/') ? strrchr(file, '/') + 1 : file) : "3D Laplacian", M, N, (double)info.nz_used));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "matrix type %s, vector type %s\n", btype, vtype));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "product identical to AIJ's (max rel. difference < 1e-12): %s\n", diff <= 1e-12 * PetscMax(nrm, 1e-300) ? "yes" : "NO"));
  {
    /* compulsory traffic of a CSR SpMV with 32-bit indices: values and columns once, row pointers, x and y once */
    double t = (t1 - t0) / reps, bytes = 12.0 * info.nz_used + 4.0 * (M + 1) + 8.0 * N + 8.0 * M;
    PetscLogEvent      ev;
    PetscEventPerfInfo pi;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "time: MatMult %.3e s (mean of %" PetscInt_FMT "), %.2f GFlop/s, %.1f GB/s effective; conversion %.3e s = %.1f products\n", t, reps, 2e-9 * info.nz_used / t, 1e-9 * bytes / t, tconv1 - tconv0, (tconv1 - tconv0) / t));
    /* the layout build alone (event PELLRBuild of the library: on the GPU for pellrcuda, without copying the CSR there) */
    PetscCall(PetscLogEventGetId("PELLRBuild", &ev));
    if (ev >= 0) {
      PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, ev, &pi));
      if (pi.count > 0) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "time: PELLR layout build %.3e s (mean of %d builds) = %.1f products\n", pi.time / pi.count, pi.count, pi.time / pi.count / t));
    }
  }
  PetscCall(PetscViewerASCIIGetStdout(PETSC_COMM_WORLD, &viewer));
  PetscCall(PetscViewerPushFormat(viewer, PETSC_VIEWER_ASCII_INFO));
  PetscCall(MatView(B, viewer));
  PetscCall(PetscViewerPopFormat(viewer));

  PetscCall(PetscRandomDestroy(&rnd));
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&xa));
  PetscCall(VecDestroy(&ya));
  PetscCall(MatDestroy(&B));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: laplacian
      args: -n 10 -reps 5 -dll_append ${SPARSEGPU_LIB}
      filter: grep -v "^time:"

   # the host type's diagonal slices (off by default): 20 of the 32 slices of sorted rows, as the GPU finds them
   test:
      suffix: laplacian_diagonal
      args: -n 10 -reps 5 -mat_pellr_diagonal_slices auto -dll_append ${SPARSEGPU_LIB}
      filter: grep -v "^time:"

   test:
      suffix: file
      args: -f ${SPARSEGPU_MATRICES}/hangGlider_2.mtx.gz -reps 5 -dll_append ${SPARSEGPU_LIB}
      filter: grep -v "^time:"

   test:
      suffix: mpi
      nsize: 2
      args: -f ${SPARSEGPU_MATRICES}/rajat19.mtx.gz -reps 5 -dll_append ${SPARSEGPU_LIB}
      filter: grep -v "^time:"

   test:
      suffix: cuda
      requires: cuda
      args: -n 10 -reps 5 -mat_type pellrcuda -mat_pellr_format pellr -dll_append ${SPARSEGPU_LIB}
      filter: grep -v "^time:" | sed -e "s/seqpellrcuda/seqpellr/" -e "s/vector type seqcuda/vector type seq/" -e "s/GPU products with cuda vectors/host products/" -e "s/, layout built on the GPU//" -e "s/-mat_pellr_format pellr/-mat_pellr_format auto/" -e "s/(requested pellr)/(requested auto)/" -e "/diagonal slices on the GPU: 20 of 32 (4352 slots)/d"
      output_file: output/ex3_laplacian.out

   # (the GPU's diagonal slices, deleted by the filters: 20 of the 32 slices of sorted rows of the 10^3 7-point grid)
   # 16-bit columns forced on (auto keeps 32 bits on these 7-entry rows): every slice of the 1000-row grid fits
   test:
      suffix: cuda_compact_on
      requires: cuda
      args: -n 10 -reps 5 -mat_type pellrcuda -mat_pellr_format pellr -mat_pellr_cuda_compact_columns on -dll_append ${SPARSEGPU_LIB}
      filter: grep -v "^time:" | sed -e "s/seqpellrcuda/seqpellr/" -e "s/vector type seqcuda/vector type seq/" -e "s/GPU products with cuda vectors/host products/" -e "s/, layout built on the GPU//" -e "s/-mat_pellr_format pellr/-mat_pellr_format auto/" -e "s/(requested pellr)/(requested auto)/" -e "s/; columns on the GPU as 16-bit offsets in 32 of 32 slices (-mat_pellr_cuda_compact_columns), 32-bit in the others/, 32-bit indices/" -e "/diagonal slices on the GPU: 20 of 32 (4352 slots)/d"
      output_file: output/ex3_laplacian.out

   # the storage-format predictor (auto): on a GPU with a calibration built into the library (H200, H100 80GB HBM3)
   # that calibration is used, on another GPU the analytic fallback, which the view names with why (pellrpredict2
   # checks which GPU gets which); the block is stored in one of the candidate formats
   test:
      suffix: cuda_auto
      requires: cuda
      args: -n 10 -reps 5 -mat_type pellrcuda -dll_append ${SPARSEGPU_LIB}
      filter: grep -E "storage format:|storage-format prediction" | sed -E -e "s/storage format: (pellr|sell|ellr|csr) [(]requested auto[)]/storage format: a candidate (requested auto)/" -e "s#model: src/mat/impls/pellr/models/h[0-9]+[.]model[)]#model: the built-in calibration of this GPU, or the analytic fallback)#" -e "s#model: analytic [(]no calibration built in for this .*[)][)]\$#model: the built-in calibration of this GPU, or the analytic fallback)#"

   # the memory budget of auto: within 1x the CSR's footprint only the CSR itself fits (every other layout adds the
   # permutation and lengths), so the predictor must keep csr whatever it predicts
   test:
      suffix: cuda_auto_memory
      requires: cuda
      args: -n 10 -reps 5 -mat_type pellrcuda -mat_pellr_max_memory_ratio 1 -dll_append ${SPARSEGPU_LIB}
      filter: grep -E "storage format:"

TEST*/
