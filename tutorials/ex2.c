static char help[] = "Orders a sparse matrix with a chosen MatOrdering and reports bandwidth and profile before and after, and the time.\n\
This is a plain PETSc program: load PETSc SparseGPU with -dll_append <path>/libpetscsparsegpu.so to use -ordering gpurcm.\n\
  -f <file>          : Matrix Market file (.mtx or .mtx.gz; symmetric files are expanded to both triangles)\n\
  -grid <2d,3d>      : otherwise generate a grid Laplacian (default 2d)\n\
  -n <int>           : grid points per direction (default 100)\n\
  -stencil <star,box>: 5/7-point (star) or 9/27-point (box) stencil (default star)\n\
  -ordering <type>   : MatOrderingType (default gpurcm; rcm, nd, natural, ... also work)\n\
  -repeat <int>      : time this many orderings and report the median (default 1)\n\
  -compare <type>    : also order with this type and report whether the permutations are identical\n\n";

#include <petscmat.h>

static PetscErrorCode ReadMatrixMarket(const char *file, Mat *A)
{
  FILE     *fp;
  char      line[4096], cmd[PETSC_MAX_PATH_LEN + 32], sym[64] = "general", obj[64], fmt[64], field[64];
  PetscInt  m = -1, n = -1, nz = -1, k = 0, *rows, *cols, *nnz;
  PetscBool gz, symmetric;
  size_t    len;

  PetscFunctionBeginUser;
  PetscCall(PetscStrlen(file, &len));
  gz = (PetscBool)(len > 3 && !strcmp(file + len - 3, ".gz"));
  if (gz) {
    PetscCall(PetscSNPrintf(cmd, sizeof(cmd), "gzip -dc '%s'", file));
    fp = popen(cmd, "r");
  } else fp = fopen(file, "r");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open %s", file);
  while (fgets(line, sizeof(line), fp)) {
    if (!strncmp(line, "%%MatrixMarket", 14)) {
      PetscCheck(sscanf(line, "%%%%MatrixMarket %63s %63s %63s %63s", obj, fmt, field, sym) == 4, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: bad Matrix Market header", file);
      PetscCheck(!strcasecmp(fmt, "coordinate"), PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: only coordinate Matrix Market files", file);
    }
    if (line[0] == '%') continue;
    if (sscanf(line, "%" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT, &m, &n, &nz) == 3) break;
  }
  PetscCheck(m >= 0 && n >= 0 && nz >= 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: no size line", file);
  PetscCheck(m == n, PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: matrix is %" PetscInt_FMT " x %" PetscInt_FMT ", orderings need a square matrix", file, m, n);
  symmetric = (PetscBool)(!strcasecmp(sym, "symmetric") || !strcasecmp(sym, "skew-symmetric") || !strcasecmp(sym, "hermitian"));
  PetscCall(PetscMalloc2(nz, &rows, nz, &cols));
  PetscCall(PetscCalloc1(m + 1, &nnz));
  while (k < nz && fgets(line, sizeof(line), fp)) {
    PetscInt r, c;
    if (line[0] == '%' || sscanf(line, "%" PetscInt_FMT " %" PetscInt_FMT, &r, &c) != 2) continue;
    PetscCheck(r >= 1 && r <= m && c >= 1 && c <= n, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: entry (%" PetscInt_FMT ",%" PetscInt_FMT ") out of range", file, r, c);
    rows[k] = r - 1;
    cols[k] = c - 1;
    nnz[r - 1]++;
    if (symmetric && r != c) nnz[c - 1]++;
    k++;
  }
  if (gz) pclose(fp);
  else fclose(fp);
  PetscCheck(k == nz, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: read %" PetscInt_FMT " of %" PetscInt_FMT " entries", file, k, nz);
  for (PetscInt i = 0; i < m; i++) nnz[i] = PetscMin(nnz[i], n);
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, m, n, 0, nnz, A));
  for (k = 0; k < nz; k++) {
    PetscCall(MatSetValue(*A, rows[k], cols[k], 1.0, ADD_VALUES));
    if (symmetric && rows[k] != cols[k]) PetscCall(MatSetValue(*A, cols[k], rows[k], 1.0, ADD_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree2(rows, cols));
  PetscCall(PetscFree(nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GridLaplacian(PetscBool three, PetscBool box, PetscInt n, Mat *A)
{
  PetscInt nz = three ? n : 1, N = n * n * nz;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, N, N, box ? (three ? 27 : 9) : (three ? 7 : 5), NULL, A));
  for (PetscInt r = 0; r < N; r++) {
    PetscInt i = r % n, j = (r / n) % n, k = r / (n * n), cols[27], c = 0;
    PetscScalar v[27];
    for (PetscInt dk = (three ? -1 : 0); dk <= (three ? 1 : 0); dk++)
      for (PetscInt dj = -1; dj <= 1; dj++)
        for (PetscInt di = -1; di <= 1; di++) {
          if (i + di < 0 || i + di >= n || j + dj < 0 || j + dj >= n || k + dk < 0 || k + dk >= nz) continue;
          if (!box && PetscAbsInt(di) + PetscAbsInt(dj) + PetscAbsInt(dk) > 1) continue;
          cols[c] = r + di + n * (dj + n * dk);
          v[c++]  = (di || dj || dk) ? -1.0 : (box ? (three ? 26.0 : 8.0) : (three ? 6.0 : 4.0));
        }
    PetscCall(MatSetValues(*A, 1, &r, c, cols, v, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Bandwidth max |i-j| and profile sum_i (i - min(i, first column of row i)) of P A P^T; perm[new] = old (NULL: identity) */
static PetscErrorCode BandwidthProfile(Mat A, const PetscInt *perm, PetscInt *bw, PetscInt64 *profile)
{
  PetscInt        n, *iperm;
  const PetscInt *ia, *ja;
  PetscBool       done;

  PetscFunctionBeginUser;
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "Cannot get the rows of this matrix type");
  PetscCall(PetscMalloc1(n, &iperm));
  for (PetscInt i = 0; i < n; i++) iperm[perm ? perm[i] : i] = i;
  *bw      = 0;
  *profile = 0;
  for (PetscInt r = 0; r < n; r++) {
    PetscInt nr = iperm[r], first = nr;
    for (PetscInt k = ia[r]; k < ia[r + 1]; k++) {
      PetscInt nc = iperm[ja[k]];
      *bw         = PetscMax(*bw, PetscAbsInt(nr - nc));
      first       = PetscMin(first, nc);
    }
    *profile += nr - first;
  }
  PetscCall(PetscFree(iperm));
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &n, &ia, &ja, &done));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int CompareDouble(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
  Mat             A;
  IS              rperm, cperm;
  char            file[PETSC_MAX_PATH_LEN] = "", grid[8] = "2d", stencil[8] = "star", ordering[64] = "gpurcm", compare[64] = "";
  PetscInt        n = 100, repeat = 1, N, bw0, bw1;
  PetscInt64      prof0, prof1;
  PetscBool       three, box, flg;
  PetscMPIInt     size;
  PetscLogDouble *times;
  const PetscInt *idx;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCheck(size == 1, PETSC_COMM_WORLD, PETSC_ERR_SUP, "This tutorial orders a sequential matrix: run it on one rank");
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Ordering tutorial options", "Mat");
  PetscCall(PetscOptionsString("-f", "Matrix Market file", "ex2", file, file, sizeof(file), NULL));
  PetscCall(PetscOptionsString("-grid", "2d or 3d grid", "ex2", grid, grid, sizeof(grid), NULL));
  PetscCall(PetscOptionsInt("-n", "Grid points per direction", "ex2", n, &n, NULL));
  PetscCall(PetscOptionsString("-stencil", "star or box", "ex2", stencil, stencil, sizeof(stencil), NULL));
  PetscCall(PetscOptionsString("-ordering", "MatOrderingType", "ex2", ordering, ordering, sizeof(ordering), NULL));
  PetscCall(PetscOptionsInt("-repeat", "Number of timed orderings", "ex2", repeat, &repeat, NULL));
  PetscCall(PetscOptionsString("-compare", "Second ordering to compare with", "ex2", compare, compare, sizeof(compare), NULL));
  PetscOptionsEnd();
  PetscCheck(n >= 1 && repeat >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-n and -repeat must be positive");
  PetscCall(PetscStrcmp(grid, "3d", &three));
  PetscCall(PetscStrcmp(stencil, "box", &box));
  if (file[0]) {
    PetscCall(ReadMatrixMarket(file, &A));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "Matrix %s\n", strrchr(file, '/') ? strrchr(file, '/') + 1 : file));
  } else {
    PetscCall(PetscStrcmp(grid, "2d", &flg));
    PetscCheck(flg || three, PETSC_COMM_WORLD, PETSC_ERR_ARG_WRONG, "-grid must be 2d or 3d, not %s", grid);
    PetscCall(GridLaplacian(three, box, n, &A));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s %s-point grid Laplacian, %" PetscInt_FMT " points per direction\n", three ? "3D" : "2D", box ? (three ? "27" : "9") : (three ? "7" : "5"), n));
  }
  PetscCall(MatGetSize(A, &N, NULL));
  PetscCall(BandwidthProfile(A, NULL, &bw0, &prof0));
  PetscCall(PetscMalloc1(repeat, &times));
  for (PetscInt r = 0; r < repeat; r++) {
    PetscLogDouble t0, t1;
    PetscCall(PetscTime(&t0));
    PetscCall(MatGetOrdering(A, ordering, &rperm, &cperm));
    PetscCall(PetscTime(&t1));
    times[r] = t1 - t0;
    if (r < repeat - 1) {
      PetscCall(ISDestroy(&rperm));
      PetscCall(ISDestroy(&cperm));
    }
  }
  qsort(times, (size_t)repeat, sizeof(*times), CompareDouble);
  PetscCall(ISGetIndices(rperm, &idx));
  PetscCall(BandwidthProfile(A, idx, &bw1, &prof1));
  PetscCall(ISRestoreIndices(rperm, &idx));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "rows %" PetscInt_FMT ", ordering %s\n", N, ordering));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  before: bandwidth %" PetscInt_FMT ", profile %" PetscInt64_FMT "\n", bw0, prof0));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  after:  bandwidth %" PetscInt_FMT ", profile %" PetscInt64_FMT "\n", bw1, prof1));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  ordering time: %.6f s (median of %" PetscInt_FMT ")\n", times[repeat / 2], repeat));
  if (compare[0]) {
    IS        r2, c2;
    PetscBool e1, e2;
    PetscCall(MatGetOrdering(A, compare, &r2, &c2));
    PetscCall(ISEqualUnsorted(rperm, r2, &e1));
    PetscCall(ISEqualUnsorted(cperm, c2, &e2));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %s permutation identical to %s: %s\n", ordering, compare, e1 && e2 ? "yes" : "no"));
    PetscCall(ISDestroy(&r2));
    PetscCall(ISDestroy(&c2));
  }
  PetscCall(PetscFree(times));
  PetscCall(ISDestroy(&rperm));
  PetscCall(ISDestroy(&cperm));
  PetscCall(MatDestroy(&A));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: grid2d
      args: -n 40 -ordering gpurcm -compare rcm -dll_append ${SPARSEGPU_LIB}
      filter: grep -v "ordering time"

   test:
      suffix: grid3d_threads
      args: -grid 3d -stencil box -n 14 -ordering gpurcm -compare rcm -mat_gpurcm_backend threads -mat_gpurcm_threads 2 -mat_gpurcm_serial_component 0 -dll_append ${SPARSEGPU_LIB}
      filter: grep -v "ordering time"

   # far more threads than cores: lowered to 4 per core (they spin-wait for each other; 240 threads on 2 cores took 26 s)
   test:
      suffix: threads_oversubscribed
      args: -n 60 -ordering gpurcm -compare rcm -mat_gpurcm_backend threads -mat_gpurcm_threads 65535 -mat_gpurcm_serial_component 0 -info -dll_append ${SPARSEGPU_LIB}
      filter: grep -E "lowered to|identical" | sed -E -e "s/^.*MatGetOrdering_GPURCM\(\): //" -e "s/lowered to [0-9]+/lowered to N/"

   # the threads backend's pool and node arrays kept between orderings (the first starts it, the others take it; the
   # last ordering, made on the kept pool, is compared with rcm), and started and freed at each ordering
   test:
      suffix: threads_keep
      args: -n 60 -ordering gpurcm -compare rcm -repeat 3 -mat_gpurcm_backend threads -mat_gpurcm_threads 3 -mat_gpurcm_serial_component 0 -info -dll_append ${SPARSEGPU_LIB}
      filter: grep -E "gpurcm threads: setup|identical" | sed -E -e "s/^.*gpurcm threads: setup.* pool [^ ]+ \((kept|started)\).* pool (kept|stopped) .*$/pool \1, then \2/"

   test:
      suffix: threads_nokeep
      args: -n 60 -ordering gpurcm -compare rcm -repeat 2 -mat_gpurcm_backend threads -mat_gpurcm_threads 3 -mat_gpurcm_serial_component 0 -mat_gpurcm_threads_keep false -info -dll_append ${SPARSEGPU_LIB}
      filter: grep -E "gpurcm threads: setup|identical" | sed -E -e "s/^.*gpurcm threads: setup.* pool [^ ]+ \((kept|started)\).* pool (kept|stopped) .*$/pool \1, then \2/"

   test:
      suffix: file
      args: -f ${SPARSEGPU_MATRICES}/bcsstk13.mtx.gz -ordering gpurcm -compare rcm -dll_append ${SPARSEGPU_LIB}
      filter: grep -v "ordering time"

   test:
      suffix: cuda
      requires: cuda
      args: -grid 3d -n 60 -ordering gpurcm -compare rcm -mat_gpurcm_backend cuda -dll_append ${SPARSEGPU_LIB}
      filter: grep -v "ordering time"

TEST*/
