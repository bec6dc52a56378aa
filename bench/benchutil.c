/* popen, pclose, opendir: POSIX */
#if !defined(_POSIX_C_SOURCE)
  #define _POSIX_C_SOURCE 200809L
#endif
/* Shared helpers of the benchmark drivers: matrix input/generation, timing, bandwidth references. */
#include "benchutil.h"
#include <petscdmda.h>
#include <petscdevice.h>
#include <dirent.h>
#include <ctype.h>
#include <string.h>
#include <math.h>

/* ------------------------------------------------------------------------------------------------ options, lists */
PetscErrorCode BenchInitialize(BenchCtx *ctx, const char csvdefault[], const char header[])
{
  char      csv[PETSC_MAX_PATH_LEN];
  PetscBool nogpu = PETSC_FALSE;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(ctx, sizeof(*ctx)));
  PetscCall(PetscTime(&ctx->start));
  ctx->time_limit = 1.0e9;
  ctx->warmup     = 3;
  ctx->reps       = 30;
  ctx->batch      = 1;
  ctx->case_time  = 2.0;
  PetscCall(PetscStrncpy(ctx->matdir, "../shared/matrices", sizeof(ctx->matdir)));
  PetscCall(PetscStrncpy(csv, csvdefault, sizeof(csv)));
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "Benchmark driver options (bench/README.md)", NULL);
  PetscCall(PetscOptionsString("-matdir", "Directory of the Matrix Market .mtx.gz files", NULL, ctx->matdir, ctx->matdir, sizeof(ctx->matdir), NULL));
  PetscCall(PetscOptionsString("-csv", "CSV output file (rows are flushed as they are measured)", NULL, csv, csv, sizeof(csv), NULL));
  PetscCall(PetscOptionsReal("-time_limit", "Seconds after which remaining matrices are skipped (reported as skipped_time_limit)", NULL, ctx->time_limit, &ctx->time_limit, NULL));
  PetscCall(PetscOptionsInt("-warmup", "Untimed calls before timing", NULL, ctx->warmup, &ctx->warmup, NULL));
  PetscCall(PetscOptionsInt("-reps", "Timed calls (the median is reported); GPU timings always use all of them", NULL, ctx->reps, &ctx->reps, NULL));
  PetscCall(PetscOptionsInt("-batch", "GPU timings: each sample is the mean of this many calls issued back to back between one pair of CUDA events (1: each call timed alone)", NULL, ctx->batch, &ctx->batch, NULL));
  PetscCall(PetscOptionsReal("-case_time", "Host timings use fewer reps (at least 3) when reps calls would take longer than this (s)", NULL, ctx->case_time, &ctx->case_time, NULL));
  PetscCall(PetscOptionsBool("-no_gpu", "Skip every GPU measurement", NULL, nogpu, &nogpu, NULL));
  PetscCall(PetscOptionsBool("-gate", "GPU timings: hold the stream until all timed calls are enqueued, so the events measure the device's time only (not the host's enqueueing)", NULL, ctx->gate, &ctx->gate, NULL));
  PetscOptionsEnd();
  PetscCheck(ctx->reps >= 1 && ctx->warmup >= 0 && ctx->batch >= 1, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-reps and -batch must be >= 1 and -warmup >= 0");
  PetscCall(MatInitializePackage());
  PetscCall(PCInitializePackage());
#if defined(PETSC_HAVE_CUDA)
  if (!nogpu) {
    int         ndev = 0;
    cudaError_t cerr = cudaGetDeviceCount(&ndev);

    if (cerr == cudaSuccess && ndev > 0) {
      PetscDeviceContext dctx;

      Mat W;
      Vec x, y;

      ctx->gpu = PETSC_TRUE;
      /* creates PETSc's global device context, which sets PetscDefaultCudaStream (the stream PETSc's kernels use) */
      PetscCall(PetscDeviceContextGetCurrentContext(&dctx));
      PetscCall(PetscDeviceContextSynchronize(dctx));
      /* sellcuda (and other kernels) launch on the legacy default stream: events on PetscDefaultCudaStream bracket them
         only while that is the default stream (PETSc's default, -root_device_context_stream_type default) */
      if (PetscDefaultCudaStream)
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# WARNING: PETSc uses a non-default CUDA stream: kernels launched on the default stream may be timed wrongly\n"));
      /* one untimed product so that CUDA/cuSPARSE initialization is not charged to the first measured matrix */
      PetscCall(MatCreate(PETSC_COMM_SELF, &W));
      PetscCall(MatSetSizes(W, 2, 2, 2, 2));
      PetscCall(MatSetType(W, MATSEQAIJCUSPARSE));
      PetscCall(MatSeqAIJSetPreallocation(W, 1, NULL));
      PetscCall(MatSetValue(W, 0, 0, 1.0, INSERT_VALUES));
      PetscCall(MatSetValue(W, 1, 1, 2.0, INSERT_VALUES));
      PetscCall(MatAssemblyBegin(W, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(W, MAT_FINAL_ASSEMBLY));
      PetscCall(MatCreateVecs(W, &x, &y));
      PetscCall(VecSet(x, 1.0));
      PetscCall(MatMult(W, x, y));
      PetscCall(VecDestroy(&x));
      PetscCall(VecDestroy(&y));
      PetscCall(MatDestroy(&W));
      PetscCall(PetscDeviceContextSynchronize(dctx));
    } else {
      (void)cudaGetLastError();
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# PETSc has CUDA but no GPU is visible (%s): GPU measurements are skipped\n", cudaGetErrorString(cerr)));
    }
  }
#else
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# PETSc was built without CUDA: GPU measurements are skipped (host parts only)\n"));
#endif
  ctx->csv = fopen(csv, "w");
  PetscCheck(ctx->csv, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open CSV file %s", csv);
  fprintf(ctx->csv, "%s\n", header);
  fflush(ctx->csv);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchFinalize(BenchCtx *ctx)
{
  PetscFunctionBegin;
  if (ctx->csv) fclose(ctx->csv);
  ctx->csv = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Splits the comma-separated value of option (or dflt when the option is not given) */
PetscErrorCode BenchGetList(const char option[], const char dflt[], char *list[], PetscInt *n)
{
  char      buf[8192], *p, *q;
  PetscBool set;

  PetscFunctionBegin;
  PetscCall(PetscOptionsGetString(NULL, NULL, option, buf, sizeof(buf), &set));
  if (!set) PetscCall(PetscStrncpy(buf, dflt, sizeof(buf)));
  *n = 0;
  for (p = buf; p && *p;) {
    q = strchr(p, ',');
    if (q) *q = 0;
    while (*p == ' ') p++;
    if (*p) {
      PetscCheck(*n < BENCH_MAX_LIST, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Too many entries in %s", option);
      PetscCall(PetscStrallocpy(p, &list[(*n)++]));
    }
    p = q ? q + 1 : NULL;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchFreeList(char *list[], PetscInt n)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < n; i++) PetscCall(PetscFree(list[i]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int CompareStr(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* mtx:all / real expand to every NAME.mtx.gz of matdir, sorted by name */
PetscErrorCode BenchExpandMatrixSpecs(BenchCtx *ctx, char *in[], PetscInt nin, char *out[], PetscInt *nout)
{
  PetscFunctionBegin;
  *nout = 0;
  for (PetscInt i = 0; i < nin; i++) {
    PetscBool all, real;

    PetscCall(PetscStrcmp(in[i], "mtx:all", &all));
    PetscCall(PetscStrcmp(in[i], "real", &real));
    if (all || real) {
      DIR           *d = opendir(ctx->matdir);
      struct dirent *e;
      char          *names[BENCH_MAX_LIST];
      PetscInt       k = 0;

      PetscCheck(d, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open matrix directory %s (option -matdir)", ctx->matdir);
      while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l > 7 && !strcmp(e->d_name + l - 7, ".mtx.gz") && k < BENCH_MAX_LIST) {
          PetscCall(PetscStrallocpy(e->d_name, &names[k]));
          names[k][l - 7] = 0;
          k++;
        }
      }
      closedir(d);
      qsort(names, (size_t)k, sizeof(char *), CompareStr);
      for (PetscInt j = 0; j < k; j++) {
        PetscCheck(*nout < BENCH_MAX_LIST, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Too many matrices");
        out[(*nout)++] = names[j];
      }
    } else {
      PetscCheck(*nout < BENCH_MAX_LIST, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Too many matrices");
      PetscCall(PetscStrallocpy(in[i], &out[(*nout)++]));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 12, 4k, 16M, 1G */
PetscErrorCode BenchParseSize(const char s[], PetscInt64 *v)
{
  char  *end;
  double x = strtod(s, &end);

  PetscFunctionBegin;
  PetscCheck(end != s, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Bad size '%s' in a matrix spec", s);
  if (*end == 'k' || *end == 'K') x *= 1e3, end++;
  else if (*end == 'M') x *= 1e6, end++;
  else if (*end == 'G') x *= 1e9, end++;
  PetscCheck(*end == 0 || *end == ':', PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Bad size '%s' in a matrix spec", s);
  *v = (PetscInt64)(x + 0.5);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------------------------------ CSR helpers */
typedef struct {
  PetscInt     m, n;
  PetscInt    *ia, *ja;
  PetscScalar *va;
} CSR;

static PetscErrorCode CheckSize(PetscInt64 v, const char what[])
{
  PetscFunctionBegin;
  PetscCheck(v >= 0 && v <= (PetscInt64)PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "%s = %" PetscInt64_FMT " does not fit PetscInt (%d-bit indices); use a smaller size", what, v, (int)(8 * sizeof(PetscInt)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CSRAlloc(CSR *c, PetscInt64 m, PetscInt64 n, PetscInt64 nzmax)
{
  PetscFunctionBegin;
  PetscCall(CheckSize(m, "rows"));
  PetscCall(CheckSize(n, "columns"));
  PetscCall(CheckSize(nzmax, "nonzeros"));
  c->m = (PetscInt)m;
  c->n = (PetscInt)n;
  PetscCall(PetscMalloc1(m + 1, &c->ia));
  PetscCall(PetscMalloc1(PetscMax(nzmax, 1), &c->ja));
  PetscCall(PetscMalloc1(PetscMax(nzmax, 1), &c->va));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CSRFree(CSR *c)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(c->ia));
  PetscCall(PetscFree(c->ja));
  PetscCall(PetscFree(c->va));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The Mat takes ownership of the arrays (freed with it) */
static PetscErrorCode CSRToMat(CSR *c, Mat *A)
{
  PetscFunctionBegin;
  PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, c->m, c->n, c->ia, c->ja, c->va, A));
  PetscCall(PetscObjectContainerCompose((PetscObject)*A, "bench_csr_ia", c->ia, PetscContainerUserDestroyDefault));
  PetscCall(PetscObjectContainerCompose((PetscObject)*A, "bench_csr_ja", c->ja, PetscContainerUserDestroyDefault));
  PetscCall(PetscObjectContainerCompose((PetscObject)*A, "bench_csr_va", c->va, PetscContainerUserDestroyDefault));
  c->ia = c->ja = NULL;
  c->va         = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Reads NAME.mtx.gz (or a path to a .mtx/.mtx.gz): coordinate real/integer/pattern, general/symmetric/skew-symmetric;
   duplicates are summed, stored zeros kept, missing diagonals stay missing */
static PetscErrorCode ReadMatrixMarket(BenchCtx *ctx, const char name[], CSR *c)
{
  char        path[PETSC_MAX_PATH_LEN], cmd[PETSC_MAX_PATH_LEN + 32], line[1024], obj[64], fmt[64], field[64], sym[64];
  FILE       *f;
  PetscBool   gz, pipe = PETSC_FALSE, pattern, symm, skew;
  long long   m, n, nz, k = 0;
  PetscInt   *ri, *ci, *cnt;
  PetscScalar *vv;

  PetscFunctionBegin;
  if (strchr(name, '/')) PetscCall(PetscStrncpy(path, name, sizeof(path)));
  else PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s.mtx.gz", ctx->matdir, name));
  PetscCall(PetscStrendswith(path, ".gz", &gz));
  if (gz) {
    f = fopen(path, "r");
    PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open %s (set -matdir)", path);
    fclose(f);
    PetscCall(PetscSNPrintf(cmd, sizeof(cmd), "gzip -dc '%s'", path));
    f    = popen(cmd, "r");
    pipe = PETSC_TRUE;
  } else f = fopen(path, "r");
  PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open %s (set -matdir)", path);
  PetscCheck(fgets(line, sizeof(line), f), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "Empty file %s", path);
  for (char *p = line; *p; p++) *p = (char)tolower((unsigned char)*p);
  PetscCheck(sscanf(line, "%%%%matrixmarket %63s %63s %63s %63s", obj, fmt, field, sym) == 4, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: not a Matrix Market file", path);
  PetscCheck(!strcmp(fmt, "coordinate"), PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: only coordinate Matrix Market files are supported", path);
  PetscCheck(strcmp(field, "complex"), PETSC_COMM_SELF, PETSC_ERR_SUP, "%s: complex matrices are not supported", path);
  pattern = (PetscBool)!strcmp(field, "pattern");
  symm    = (PetscBool)(!strcmp(sym, "symmetric") || !strcmp(sym, "hermitian"));
  skew    = (PetscBool)!strcmp(sym, "skew-symmetric");
  do {
    PetscCheck(fgets(line, sizeof(line), f), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s: no size line", path);
  } while (line[0] == '%' || line[0] == '\n');
  PetscCheck(sscanf(line, "%lld %lld %lld", &m, &n, &nz) == 3, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: bad size line", path);
  PetscCall(CheckSize(2 * nz, "nonzeros"));
  PetscCall(PetscMalloc3(2 * nz + 1, &ri, 2 * nz + 1, &ci, 2 * nz + 1, &vv));
  for (long long e = 0; e < nz; e++) {
    long long i, j;
    double    v = 1.0;
    int       r;

    PetscCheck(fgets(line, sizeof(line), f), PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "%s: only %lld of %lld entries", path, e, nz);
    r = pattern ? sscanf(line, "%lld %lld", &i, &j) : sscanf(line, "%lld %lld %lf", &i, &j, &v);
    PetscCheck(r == (pattern ? 2 : 3), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: bad entry line %lld", path, e);
    PetscCheck(i >= 1 && i <= m && j >= 1 && j <= n, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: entry (%lld,%lld) out of range", path, i, j);
    ri[k] = (PetscInt)(i - 1), ci[k] = (PetscInt)(j - 1), vv[k++] = v;
    if ((symm || skew) && i != j) ri[k] = (PetscInt)(j - 1), ci[k] = (PetscInt)(i - 1), vv[k++] = skew ? -v : v;
  }
  if (pipe) pclose(f);
  else fclose(f);
  /* COO -> CSR, rows sorted by column, duplicates summed */
  PetscCall(CSRAlloc(c, m, n, k));
  PetscCall(PetscCalloc1(m + 1, &cnt));
  for (long long e = 0; e < k; e++) cnt[ri[e] + 1]++;
  for (long long i = 0; i < m; i++) cnt[i + 1] += cnt[i];
  for (long long e = 0; e < k; e++) {
    PetscInt p = cnt[ri[e]]++;
    c->ja[p] = ci[e], c->va[p] = vv[e];
  }
  PetscCall(PetscFree3(ri, ci, vv));
  {
    PetscInt nzo = 0, start = 0;

    c->ia[0] = 0;
    for (PetscInt i = 0; i < c->m; i++) {
      PetscInt end = cnt[i]; /* after the fill loop cnt[i] is the end of row i */
      PetscCall(PetscSortIntWithScalarArray(end - start, c->ja + start, c->va + start));
      for (PetscInt p = start; p < end; p++) {
        if (nzo > c->ia[i] && c->ja[nzo - 1] == c->ja[p]) c->va[nzo - 1] += c->va[p];
        else c->ja[nzo] = c->ja[p], c->va[nzo++] = c->va[p];
      }
      c->ia[i + 1] = nzo;
      start        = end;
    }
  }
  PetscCall(PetscFree(cnt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* 2D 5-point (dim 2, points 5), 3D 7-point (dim 3, points 7) or 27-point (dim 3, points 27) on N^dim, natural ordering
   (the ordering of a one-rank DMDA), Dirichlet couplings dropped; diagonal = number of neighbours in the full stencil */
static PetscErrorCode GenStencil(PetscInt64 N, PetscInt dim, PetscInt points, CSR *c)
{
  PetscInt64 m = dim == 2 ? N * N : N * N * N;
  PetscInt   nn = (PetscInt)N, p = 0;

  PetscFunctionBegin;
  PetscCheck(N >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Grid size must be >= 1");
  PetscCall(CSRAlloc(c, m, m, m * points));
  c->ia[0] = 0;
  if (dim == 2) {
    for (PetscInt j = 0; j < nn; j++)
      for (PetscInt i = 0; i < nn; i++) {
        PetscInt row = j * nn + i;
        if (j > 0) c->ja[p] = row - nn, c->va[p++] = -1.0;
        if (i > 0) c->ja[p] = row - 1, c->va[p++] = -1.0;
        c->ja[p] = row, c->va[p++] = 4.0;
        if (i < nn - 1) c->ja[p] = row + 1, c->va[p++] = -1.0;
        if (j < nn - 1) c->ja[p] = row + nn, c->va[p++] = -1.0;
        c->ia[row + 1] = p;
      }
  } else if (points == 7) {
    for (PetscInt k = 0; k < nn; k++)
      for (PetscInt j = 0; j < nn; j++)
        for (PetscInt i = 0; i < nn; i++) {
          PetscInt row = (k * nn + j) * nn + i;
          if (k > 0) c->ja[p] = row - nn * nn, c->va[p++] = -1.0;
          if (j > 0) c->ja[p] = row - nn, c->va[p++] = -1.0;
          if (i > 0) c->ja[p] = row - 1, c->va[p++] = -1.0;
          c->ja[p] = row, c->va[p++] = 6.0;
          if (i < nn - 1) c->ja[p] = row + 1, c->va[p++] = -1.0;
          if (j < nn - 1) c->ja[p] = row + nn, c->va[p++] = -1.0;
          if (k < nn - 1) c->ja[p] = row + nn * nn, c->va[p++] = -1.0;
          c->ia[row + 1] = p;
        }
  } else {
    for (PetscInt k = 0; k < nn; k++)
      for (PetscInt j = 0; j < nn; j++)
        for (PetscInt i = 0; i < nn; i++) {
          PetscInt row = (k * nn + j) * nn + i;
          for (PetscInt dk = -1; dk <= 1; dk++) {
            if (k + dk < 0 || k + dk >= nn) continue;
            for (PetscInt dj = -1; dj <= 1; dj++) {
              if (j + dj < 0 || j + dj >= nn) continue;
              for (PetscInt di = -1; di <= 1; di++) {
                if (i + di < 0 || i + di >= nn) continue;
                c->ja[p]   = row + (dk * nn + dj) * nn + di;
                c->va[p++] = (dk || dj || di) ? -1.0 : 26.0;
              }
            }
          }
          c->ia[row + 1] = p;
        }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* kron(A, B): row (i,k) -> i*mB + k, entries a_ij b_kl at column j*nB + l (sorted since A's and B's rows are) */
static PetscErrorCode GenKron(const CSR *a, const CSR *b, CSR *c)
{
  PetscInt64 p = 0;

  PetscFunctionBegin;
  PetscCall(CSRAlloc(c, (PetscInt64)a->m * b->m, (PetscInt64)a->n * b->n, (PetscInt64)a->ia[a->m] * b->ia[b->m]));
  c->ia[0] = 0;
  for (PetscInt i = 0; i < a->m; i++)
    for (PetscInt k = 0; k < b->m; k++) {
      for (PetscInt pa = a->ia[i]; pa < a->ia[i + 1]; pa++)
        for (PetscInt pb = b->ia[k]; pb < b->ia[k + 1]; pb++) c->ja[p] = a->ja[pa] * b->n + b->ja[pb], c->va[p++] = a->va[pa] * b->va[pb];
      c->ia[(PetscInt64)i * b->m + k + 1] = (PetscInt)p;
    }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* kron(I_k, A) */
static PetscErrorCode GenBlockDiag(const CSR *a, PetscInt64 k, CSR *c)
{
  PetscInt nza = a->ia[a->m];

  PetscFunctionBegin;
  PetscCall(CSRAlloc(c, k * a->m, k * a->n, k * nza));
  c->ia[0] = 0;
  for (PetscInt64 b = 0; b < k; b++) {
    PetscInt off = (PetscInt)(b * nza), coff = (PetscInt)(b * a->n);
    for (PetscInt p = 0; p < nza; p++) c->ja[off + p] = a->ja[p] + coff, c->va[off + p] = a->va[p];
    for (PetscInt i = 0; i < a->m; i++) c->ia[b * a->m + i + 1] = off + a->ia[i + 1];
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static inline PetscInt64 SplitMix(unsigned long long *s)
{
  unsigned long long z = (*s += 0x9E3779B97F4A7C15ULL);
  z                    = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z                    = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return (PetscInt64)((z ^ (z >> 31)) >> 1);
}

/* a Pareto(shape) row length of mean ~avg: xmin u^(-1/shape), u uniform in (0,1], xmin = avg (shape - 1) / shape */
static double ParetoLength(unsigned long long *s, double avg, double shape)
{
  double u = ((double)SplitMix(s) + 1.0) / 9223372036854775808.0; /* (0,1] */
  return ceil(avg * (shape - 1) / shape * pow(u, -1.0 / shape));
}

/* row i of an M x M CSR at c->ja + *p: the diagonal plus len - 1 uniformly random columns, duplicates removed and
   sorted; diagonal = the row's length (diagonally dominant), off-diagonals -1; sets c->ia[i + 1] and advances *p */
static PetscErrorCode RandomRow(unsigned long long *s, PetscInt64 i, PetscInt len, PetscInt64 M, CSR *c, PetscInt64 *p)
{
  PetscInt64 start = *p;
  PetscInt   l;

  PetscFunctionBegin;
  c->ja[(*p)++] = (PetscInt)i;
  for (PetscInt e = 1; e < len; e++) c->ja[(*p)++] = (PetscInt)(SplitMix(s) % M);
  l = (PetscInt)(*p - start);
  PetscCall(PetscSortRemoveDupsInt(&l, c->ja + start));
  *p = start + l;
  for (PetscInt64 q = start; q < *p; q++) c->va[q] = (c->ja[q] == i) ? (PetscScalar)l : -1.0;
  c->ia[i + 1] = (PetscInt)*p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* M rows, lengths ~ 1 + Pareto(shape) scaled to mean avg (capped at M), diagonal plus uniformly random distinct columns;
   diagonal = row length (diagonally dominant), off-diagonals -1 */
static PetscErrorCode GenPowerLaw(PetscInt64 M, PetscReal avg, PetscReal shape, CSR *c)
{
  unsigned long long s = 12345;
  PetscInt          *len;
  PetscInt64         tot = 0, p = 0;

  PetscFunctionBegin;
  PetscCheck(M >= 1 && avg >= 1 && shape > 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "powerlaw:M:AVG[:SHAPE] needs M >= 1, AVG >= 1, SHAPE > 1");
  PetscCall(CheckSize(M, "rows"));
  PetscCall(PetscMalloc1(M, &len));
  for (PetscInt64 i = 0; i < M; i++) {
    double l = ParetoLength(&s, avg, shape); /* not inside PetscMin(), which evaluates its arguments twice */
    len[i]   = (PetscInt)PetscMin(l, (double)M);
    tot += len[i];
  }
  PetscCall(CSRAlloc(c, M, M, tot));
  c->ia[0] = 0;
  for (PetscInt64 i = 0; i < M; i++) PetscCall(RandomRow(&s, i, len[i], M, c, &p));
  PetscCall(PetscFree(len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Synthetic training matrices of the format predictor's calibration (synth:DIST:COLS:M:AVG): M x M, mean row length ~AVG,
  row lengths by DIST = const (AVG each), uniform (1 .. 2 AVG - 1), zipf (Pareto 1.5, as powerlaw), bimodal (90% of the
  rows AVG/4, 10% long so that the mean is AVG) or denserow (AVG each and row M/2 full); columns by COLS = band (a
  contiguous band around the diagonal) or rand (the diagonal plus random columns). Deterministic (fixed seed).
*/
static PetscErrorCode GenSynth(const char dist[], const char cols[], PetscInt64 M, PetscReal avg, CSR *c)
{
  unsigned long long s = 987654321ULL;
  PetscInt          *len;
  PetscInt64         tot = 0, p = 0;
  PetscBool          band;

  PetscFunctionBegin;
  PetscCheck(M >= 1 && avg >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "synth:DIST:COLS:M:AVG needs M >= 1 and AVG >= 1");
  PetscCheck(!strcmp(cols, "band") || !strcmp(cols, "rand"), PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "synth: COLS must be band or rand, not %s", cols);
  band = (PetscBool)!strcmp(cols, "band");
  PetscCall(CheckSize(M, "rows"));
  PetscCall(PetscMalloc1(M, &len));
  for (PetscInt64 i = 0; i < M; i++) {
    double l;
    if (!strcmp(dist, "const") || !strcmp(dist, "denserow")) l = avg;
    else if (!strcmp(dist, "uniform")) l = 1 + (double)(SplitMix(&s) % (unsigned long long)PetscMax(1, (PetscInt64)(2 * avg - 1)));
    else if (!strcmp(dist, "zipf")) l = ParetoLength(&s, avg, 1.5);
    else if (!strcmp(dist, "bimodal")) {
      double shortl = PetscMax(1.0, floor(avg / 4));
      l             = (SplitMix(&s) % 10 == 0) ? PetscMax(shortl, ceil((avg - 0.9 * shortl) / 0.1)) : shortl;
    } else SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "synth: DIST must be const, uniform, zipf, bimodal or denserow, not %s", dist);
    if (!strcmp(dist, "denserow") && i == M / 2) l = (double)M;
    len[i] = (PetscInt)PetscMin(PetscMax(l, 1.0), (double)M);
    tot += len[i];
  }
  PetscCall(CSRAlloc(c, M, M, tot));
  c->ia[0] = 0;
  for (PetscInt64 i = 0; i < M; i++) {
    PetscInt l = len[i];
    if (band || l == M) { /* a contiguous band around the diagonal (a full row: all columns) */
      PetscInt64 start = p, j0 = PetscMin(PetscMax(i - l / 2, 0), M - l);
      for (PetscInt e = 0; e < l; e++) c->ja[p++] = (PetscInt)(j0 + e);
      for (PetscInt64 q = start; q < p; q++) c->va[q] = (c->ja[q] == i) ? (PetscScalar)l : -1.0;
      c->ia[i + 1] = (PetscInt)p;
    } else PetscCall(RandomRow(&s, i, l, M, c, &p));
  }
  PetscCall(PetscFree(len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A PETSc DMDA operator (one rank): 2D 5-point or 3D 7-point Laplacian assembled with MatSetValuesStencil into the
   matrix DMCreateMatrix preallocates (how PETSc's DMDA examples such as KSP ex45 build theirs; slower than the CSR
   generators, use it up to a few million rows) */
static PetscErrorCode GenDMDA(PetscInt dim, PetscInt N, Mat *A)
{
  DM            da;
  DMDALocalInfo info;
  MatStencil    row, col[7];
  PetscScalar   v[7];

  PetscFunctionBegin;
  if (dim == 2) PetscCall(DMDACreate2d(PETSC_COMM_SELF, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, N, N, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, &da));
  else PetscCall(DMDACreate3d(PETSC_COMM_SELF, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, N, N, N, PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, NULL, NULL, NULL, &da));
  PetscCall(DMSetMatType(da, MATAIJ));
  PetscCall(DMSetUp(da));
  PetscCall(DMCreateMatrix(da, A));
  PetscCall(DMDAGetLocalInfo(da, &info));
  for (PetscInt k = 0; k < (dim == 3 ? info.mz : 1); k++)
    for (PetscInt j = 0; j < info.my; j++)
      for (PetscInt i = 0; i < info.mx; i++) {
        PetscInt n = 0;
        row.i = i, row.j = j, row.k = k;
        if (dim == 3 && k > 0) col[n].i = i, col[n].j = j, col[n].k = k - 1, v[n++] = -1.0;
        if (j > 0) col[n].i = i, col[n].j = j - 1, col[n].k = k, v[n++] = -1.0;
        if (i > 0) col[n].i = i - 1, col[n].j = j, col[n].k = k, v[n++] = -1.0;
        col[n].i = i, col[n].j = j, col[n].k = k, v[n++] = 2.0 * dim;
        if (i < info.mx - 1) col[n].i = i + 1, col[n].j = j, col[n].k = k, v[n++] = -1.0;
        if (j < info.my - 1) col[n].i = i, col[n].j = j + 1, col[n].k = k, v[n++] = -1.0;
        if (dim == 3 && k < info.mz - 1) col[n].i = i, col[n].j = j, col[n].k = k + 1, v[n++] = -1.0;
        PetscCall(MatSetValuesStencil(*A, 1, &row, n, col, v, INSERT_VALUES));
      }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(DMDestroy(&da));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LoadNamed(BenchCtx *ctx, const char name[], CSR *c)
{
  PetscBool is;

  PetscFunctionBegin;
  PetscCall(PetscStrbeginswith(name, "lap", &is));
  if (is) { /* allow kron:lap2d... is not supported: keep to real matrices */
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Scale-ups take Matrix Market names, not '%s'", name);
  }
  PetscCall(ReadMatrixMarket(ctx, name, c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode BenchMatrixCreate_Private(BenchCtx *, const char[], BenchMatrix *, PetscBool *);

/* Creates the matrix of one spec; *ok = PETSC_FALSE (with a message) when the spec cannot be made (unknown spec,
   missing file, too large for 32-bit indices, out of memory) */
PetscErrorCode BenchMatrixCreate(BenchCtx *ctx, const char spec[], BenchMatrix *bm, PetscBool *ok)
{
  PetscErrorCode ierr;

  PetscFunctionBegin;
  BenchTry(ierr, BenchMatrixCreate_Private(ctx, spec, bm, ok));
  if (ierr) {
    char note[512];
    PetscCall(BenchErrorNote(ierr, "cannot make matrix", note, sizeof(note)));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# %s: %s (skipped)\n", spec, note));
    *ok = PETSC_FALSE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode BenchMatrixCreate_Private(BenchCtx *ctx, const char spec[], BenchMatrix *bm, PetscBool *ok)
{
  char           buf[512], *f[5] = {NULL, NULL, NULL, NULL, NULL};
  PetscInt       nf = 0;
  CSR            c  = {0, 0, NULL, NULL, NULL};
  PetscLogDouble t0, t1;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(bm, sizeof(*bm)));
  *ok = PETSC_TRUE;
  PetscCall(PetscStrncpy(buf, spec, sizeof(buf)));
  for (char *p = buf; p && nf < 5;) {
    f[nf++] = p;
    p       = strchr(p, ':');
    if (p) *p++ = 0;
  }
  PetscCall(PetscTime(&t0));
  if (nf == 1 || !strcmp(f[0], "mtx")) {
    const char *name = nf == 1 ? f[0] : f[1];
    const char *base = strrchr(name, '/') ? strrchr(name, '/') + 1 : name;
    PetscCall(ReadMatrixMarket(ctx, name, &c));
    PetscCall(PetscStrncpy(bm->kind, "mtx", sizeof(bm->kind)));
    PetscCall(PetscStrncpy(bm->name, base, sizeof(bm->name)));
    {
      char *dot = strstr(bm->name, ".mtx");
      if (dot) *dot = 0;
    }
  } else if (!strcmp(f[0], "lap2d") || !strcmp(f[0], "lap3d") || !strcmp(f[0], "lap3d7") || !strcmp(f[0], "lap3d27")) {
    PetscInt64 N;
    PetscInt   dim = f[0][3] == '2' ? 2 : 3, pts = dim == 2 ? 5 : (!strcmp(f[0], "lap3d27") ? 27 : 7);
    PetscCheck(nf == 2, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Spec %s: use %s:N", spec, f[0]);
    PetscCall(BenchParseSize(f[1], &N));
    PetscCall(GenStencil(N, dim, pts, &c));
    PetscCall(PetscSNPrintf(bm->kind, sizeof(bm->kind), "%s", dim == 2 ? "lap2d5" : (pts == 7 ? "lap3d7" : "lap3d27")));
    PetscCall(PetscSNPrintf(bm->name, sizeof(bm->name), "%s_%" PetscInt64_FMT, bm->kind, N));
  } else if (!strcmp(f[0], "dmda2d") || !strcmp(f[0], "dmda3d")) {
    PetscInt64      N;
    PetscInt        dim = f[0][4] == '2' ? 2 : 3;
    const PetscInt *ia;
    PetscInt        mm;
    PetscBool       done;
    PetscCheck(nf == 2, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Spec %s: use %s:N", spec, f[0]);
    PetscCall(BenchParseSize(f[1], &N));
    PetscCall(CheckSize(dim == 2 ? N * N * 5 : N * N * N * 7, "nonzeros"));
    PetscCall(GenDMDA(dim, (PetscInt)N, &bm->A));
    PetscCall(PetscSNPrintf(bm->kind, sizeof(bm->kind), "%s", dim == 2 ? "dmda2d5" : "dmda3d7"));
    PetscCall(PetscSNPrintf(bm->name, sizeof(bm->name), "%s_%" PetscInt64_FMT, bm->kind, N));
    /* statistics from the assembled matrix (the CSR generators' path below is skipped) */
    PetscCall(MatGetSize(bm->A, &bm->m, &bm->n));
    PetscCall(MatGetRowIJ(bm->A, 0, PETSC_FALSE, PETSC_FALSE, &mm, &ia, NULL, &done));
    c.m  = mm;
    c.ia = (PetscInt *)ia;
  } else if (!strcmp(f[0], "blkdiag")) {
    CSR        a;
    PetscInt64 target, k;
    PetscCheck(nf == 3, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Spec %s: use blkdiag:NAME:NNZ", spec);
    PetscCall(BenchParseSize(f[2], &target));
    PetscCall(LoadNamed(ctx, f[1], &a));
    k = PetscMax(1, (target + a.ia[a.m] - 1) / PetscMax(1, a.ia[a.m]));
    PetscCall(GenBlockDiag(&a, k, &c));
    PetscCall(CSRFree(&a));
    PetscCall(PetscStrncpy(bm->kind, "blkdiag", sizeof(bm->kind)));
    PetscCall(PetscSNPrintf(bm->name, sizeof(bm->name), "blkdiag_%s_x%" PetscInt64_FMT, f[1], k));
  } else if (!strcmp(f[0], "kron")) {
    CSR a, b;
    PetscCheck(nf == 3, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Spec %s: use kron:NAMEA:NAMEB", spec);
    PetscCall(LoadNamed(ctx, f[1], &a));
    PetscCall(LoadNamed(ctx, f[2], &b));
    PetscCall(GenKron(&a, &b, &c));
    PetscCall(CSRFree(&a));
    PetscCall(CSRFree(&b));
    PetscCall(PetscStrncpy(bm->kind, "kron", sizeof(bm->kind)));
    PetscCall(PetscSNPrintf(bm->name, sizeof(bm->name), "kron_%s_%s", f[1], f[2]));
  } else if (!strcmp(f[0], "powerlaw")) {
    PetscInt64 M;
    PetscReal  avg, shape = 1.5;
    PetscCheck(nf == 3 || nf == 4, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Spec %s: use powerlaw:M:AVG[:SHAPE]", spec);
    PetscCall(BenchParseSize(f[1], &M));
    avg = atof(f[2]);
    if (nf == 4) shape = atof(f[3]);
    PetscCall(GenPowerLaw(M, avg, shape, &c));
    PetscCall(PetscStrncpy(bm->kind, "powerlaw", sizeof(bm->kind)));
    PetscCall(PetscSNPrintf(bm->name, sizeof(bm->name), "powerlaw_%s_%s%s%s", f[1], f[2], nf == 4 ? "_" : "", nf == 4 ? f[3] : ""));
  } else if (!strcmp(f[0], "synth")) {
    PetscInt64 M;
    PetscCheck(nf == 5, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "Spec %s: use synth:DIST:COLS:M:AVG", spec);
    PetscCall(BenchParseSize(f[3], &M));
    PetscCall(GenSynth(f[1], f[2], M, atof(f[4]), &c));
    PetscCall(PetscStrncpy(bm->kind, "synth", sizeof(bm->kind)));
    PetscCall(PetscSNPrintf(bm->name, sizeof(bm->name), "synth_%s_%s_%s_%s", f[1], f[2], f[3], f[4]));
  } else {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "# unknown matrix spec '%s' (see bench/README.md)\n", spec));
    *ok = PETSC_FALSE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (!bm->A) {
    bm->m = c.m;
    bm->n = c.n;
  }
  bm->nnz = c.ia[c.m];
  {
    double s = 0, s2 = 0;
    for (PetscInt i = 0; i < c.m; i++) {
      PetscInt l = c.ia[i + 1] - c.ia[i];
      bm->rowmax = PetscMax(bm->rowmax, l);
      s += l, s2 += (double)l * l;
    }
    if (c.m) {
      double mean = s / c.m, var = s2 / c.m - mean * mean;
      bm->rowcv = mean > 0 ? PetscSqrtReal(PetscMax(var, 0)) / mean : 0;
    }
  }
  if (!bm->A) PetscCall(CSRToMat(&c, &bm->A));
  else { /* DMDA: c.ia borrowed from MatGetRowIJ */
    PetscInt  mm;
    PetscBool done;
    PetscCall(MatRestoreRowIJ(bm->A, 0, PETSC_FALSE, PETSC_FALSE, &mm, (const PetscInt **)&c.ia, NULL, &done));
    c.ia = NULL;
  }
  PetscCall(PetscTime(&t1));
  bm->gen_s = t1 - t0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchMatrixDestroy(BenchMatrix *bm)
{
  PetscFunctionBegin;
  PetscCall(MatDestroy(&bm->A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------------------------------ timing */
PetscBool BenchTimeLeft(BenchCtx *ctx)
{
  PetscLogDouble now;

  if (PetscTime(&now)) return PETSC_FALSE;
  return (PetscBool)(now - ctx->start < ctx->time_limit);
}

PetscErrorCode BenchSync(BenchCtx *ctx)
{
  PetscFunctionBegin;
#if defined(PETSC_HAVE_CUDA)
  if (ctx->gpu) PetscCallCUDA(cudaDeviceSynchronize());
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int CompareDouble(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : (x > y ? 1 : 0);
}

double BenchMedian(const double t[], PetscInt n)
{
  double *s, med;

  if (n <= 0) return NAN;
  s = (double *)malloc(sizeof(double) * (size_t)n);
  if (!s) return NAN;
  memcpy(s, t, sizeof(double) * (size_t)n);
  qsort(s, (size_t)n, sizeof(double), CompareDouble);
  med = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  free(s);
  return med;
}

double BenchMin(const double t[], PetscInt n)
{
  double m = INFINITY;
  for (PetscInt i = 0; i < n; i++) m = PetscMin(m, t[i]);
  return n > 0 ? m : NAN;
}

/*
  Times op: ctx->warmup untimed calls (followed by a device synchronization; on the host a single one when it takes
  more than 10 ms), then the timed calls.
  gpu: every call (with -batch b > 1: every b calls issued back to back, a sample being their mean) is bracketed by
  CUDA events recorded on PetscDefaultCudaStream (PETSc's stream, which its cuSPARSE handles use), without host
  synchronization between calls; all reps are used (median of reps). A batch keeps the device busy while the host
  issues the next call, so that the host's gaps between a call's kernels do not enter the time of µs-scale products.
  With ctx->gate (-gate) the stream is held until all calls are enqueued, so every sample is device time (the calls'
  kernels back to back) and the host's enqueueing, which varies from run to run, is left out. host: PetscTime()
  around each call; reps are reduced to at least 3 when reps calls would exceed ctx->case_time, and a call longer than
  ctx->case_time is timed once (its warm-up call; reps = 1).
  Returns the median and the minimum in seconds and the number of timed calls.
*/
#if defined(PETSC_HAVE_CUDA)
/* The gate of gated GPU timings (-gate): a host function first in the stream, so the stream runs nothing until the
   host has enqueued every timed call and opens it; the events then bracket device work only. It opens by itself
   after 0.5 s, so a call that waits for the device while it is enqueued (a synchronizing call) costs time, never a
   hang; such timings are counted in gate_timeouts. */
typedef struct {
  int open, timed_out;
} BenchGate;

static void CUDART_CB BenchGateWait(void *p)
{
  BenchGate     *g = (BenchGate *)p;
  PetscLogDouble t0, t;

  (void)PetscTime(&t0);
  while (!__atomic_load_n(&g->open, __ATOMIC_ACQUIRE)) {
    (void)PetscTime(&t);
    if (t - t0 > 0.5) {
      __atomic_store_n(&g->timed_out, 1, __ATOMIC_RELEASE);
      break;
    }
  }
}
#endif

PetscErrorCode BenchTimeOp(BenchCtx *ctx, PetscBool gpu, BenchOp op, void *opctx, PetscInt reps, double *median, double *mn, PetscInt *nreps)
{
  double        *t;
  PetscLogDouble t0, t1;
  PetscInt       nwarm = PetscMax(ctx->warmup, 1);

  PetscFunctionBegin;
  if (reps <= 0) reps = ctx->reps;
  if (gpu && ctx->gpu) reps = PetscMax(reps, 20); /* GPU medians always of at least 20 calls */
  PetscCall(PetscTime(&t0));
  for (PetscInt i = 0; i < PetscMax(ctx->warmup, 1); i++) {
    PetscCall((*op)(opctx));
    if (!gpu) { /* host: one warm-up call is enough when it takes more than 10 ms */
      PetscCall(PetscTime(&t1));
      nwarm = i + 1;
      if (t1 - t0 > 0.01) break;
    }
  }
  PetscCall(BenchSync(ctx));
  PetscCall(PetscTime(&t1));
  if (!gpu) {
    double per = (t1 - t0) / nwarm;
    if (per > ctx->case_time) { /* a call longer than case_time: its warm-up call is the measurement */
      *median = per;
      if (mn) *mn = per;
      if (nreps) *nreps = 1;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    if (per * reps > ctx->case_time) reps = PetscMax(3, (PetscInt)(ctx->case_time / PetscMax(per, 1e-9)));
  }
  PetscCall(PetscMalloc1(reps, &t));
#if defined(PETSC_HAVE_CUDA)
  if (gpu && ctx->gpu) {
    cudaEvent_t *ev;

    BenchGate gate = {0, 0};

    PetscCall(PetscMalloc1(2 * reps, &ev));
    for (PetscInt i = 0; i < 2 * reps; i++) PetscCallCUDA(cudaEventCreate(&ev[i]));
    if (ctx->gate) PetscCallCUDA(cudaLaunchHostFunc(PetscDefaultCudaStream, BenchGateWait, &gate));
    for (PetscInt i = 0; i < reps; i++) {
      PetscCallCUDA(cudaEventRecord(ev[2 * i], PetscDefaultCudaStream));
      for (PetscInt j = 0; j < ctx->batch; j++) PetscCall((*op)(opctx));
      PetscCallCUDA(cudaEventRecord(ev[2 * i + 1], PetscDefaultCudaStream));
    }
    if (ctx->gate) __atomic_store_n(&gate.open, 1, __ATOMIC_RELEASE);
    PetscCallCUDA(cudaEventSynchronize(ev[2 * reps - 1]));
    if (__atomic_load_n(&gate.timed_out, __ATOMIC_ACQUIRE)) ctx->gate_timeouts++;
    PetscCall(BenchSync(ctx));
    for (PetscInt i = 0; i < reps; i++) {
      float ms;
      PetscCallCUDA(cudaEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]));
      t[i] = 1e-3 * ms / (double)ctx->batch;
    }
    for (PetscInt i = 0; i < 2 * reps; i++) PetscCallCUDA(cudaEventDestroy(ev[i]));
    PetscCall(PetscFree(ev));
  } else
#endif
  {
    for (PetscInt i = 0; i < reps; i++) {
      PetscCall(PetscTime(&t0));
      PetscCall((*op)(opctx));
      if (gpu) PetscCall(BenchSync(ctx));
      PetscCall(PetscTime(&t1));
      t[i] = t1 - t0;
    }
  }
  *median = BenchMedian(t, reps);
  if (mn) *mn = BenchMin(t, reps);
  if (nreps) *nreps = reps;
  PetscCall(PetscFree(t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchDeviceFreeMemory(BenchCtx *ctx, size_t *freemem)
{
  PetscFunctionBegin;
  *freemem = 0;
#if defined(PETSC_HAVE_CUDA)
  if (ctx->gpu) {
    /* free device memory as the application sees it: what the device reports free plus what the default memory pool
       holds in reserve without using it (PETSc keeps every stream-ordered free there: its release threshold is
       UINT64_MAX), so the difference of two calls is the memory objects hold, not what the pool happens to keep */
    size_t             total;
    cudaMemPool_t      pool;
    cuuint64_t         reserved = 0, used = 0;
    int                dev;
    PetscCall(BenchSync(ctx));
    PetscCallCUDA(cudaMemGetInfo(freemem, &total));
    PetscCallCUDA(cudaGetDevice(&dev));
    PetscCallCUDA(cudaDeviceGetDefaultMemPool(&pool, dev));
    PetscCallCUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
    PetscCallCUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    if (reserved > used) *freemem += (size_t)(reserved - used);
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchDeviceName(BenchCtx *ctx, char name[], size_t len)
{
  PetscFunctionBegin;
  PetscCall(PetscStrncpy(name, "none", len));
#if defined(PETSC_HAVE_CUDA)
  if (ctx->gpu) {
    struct cudaDeviceProp prop;
    int                   dev;
    PetscCallCUDA(cudaGetDevice(&dev));
    PetscCallCUDA(cudaGetDeviceProperties(&prop, dev));
    PetscCall(PetscStrncpy(name, prop.name, len));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Device-to-device cudaMemcpyAsync of 1 GiB on PETSc's stream, CUDA events, median of ctx->reps: bytes read + written / time */
PetscErrorCode BenchDeviceCopyBandwidth(BenchCtx *ctx, double *gbs, double *median_s)
{
  PetscFunctionBegin;
  *gbs = *median_s = NAN;
#if defined(PETSC_HAVE_CUDA)
  if (ctx->gpu) {
    const size_t bytes = (size_t)1 << 30;
    void        *a, *b;
    cudaEvent_t  e0, e1;
    double      *t;
    PetscInt     reps = PetscMax(ctx->reps, 20);

    PetscCallCUDA(cudaMalloc(&a, bytes));
    PetscCallCUDA(cudaMalloc(&b, bytes));
    PetscCallCUDA(cudaMemsetAsync(a, 1, bytes, PetscDefaultCudaStream));
    PetscCallCUDA(cudaEventCreate(&e0));
    PetscCallCUDA(cudaEventCreate(&e1));
    PetscCall(PetscMalloc1(reps, &t));
    for (PetscInt i = 0; i < 3; i++) PetscCallCUDA(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, PetscDefaultCudaStream));
    for (PetscInt i = 0; i < reps; i++) {
      float ms;
      PetscCallCUDA(cudaEventRecord(e0, PetscDefaultCudaStream));
      PetscCallCUDA(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, PetscDefaultCudaStream));
      PetscCallCUDA(cudaEventRecord(e1, PetscDefaultCudaStream));
      PetscCallCUDA(cudaEventSynchronize(e1));
      PetscCallCUDA(cudaEventElapsedTime(&ms, e0, e1));
      t[i] = 1e-3 * ms;
    }
    *median_s = BenchMedian(t, reps);
    *gbs      = 2.0 * (double)bytes / *median_s / 1e9;
    PetscCall(PetscFree(t));
    PetscCallCUDA(cudaEventDestroy(e0));
    PetscCallCUDA(cudaEventDestroy(e1));
    PetscCallCUDA(cudaFree(a));
    PetscCallCUDA(cudaFree(b));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One-thread host memcpy of 256 MiB (the drivers run on one core): bytes read + written / median time */
PetscErrorCode BenchHostCopyBandwidth(double *gbs, double *median_s)
{
  const size_t bytes = (size_t)1 << 28;
  char        *a, *b;
  double       t[7];

  PetscFunctionBegin;
  PetscCall(PetscMalloc2(bytes, &a, bytes, &b));
  memset(a, 1, bytes);
  memset(b, 2, bytes);
  for (int i = 0; i < 7; i++) {
    PetscLogDouble t0, t1;
    PetscCall(PetscTime(&t0));
    memcpy(b, a, bytes);
    PetscCall(PetscTime(&t1));
    t[i] = t1 - t0;
    a[i] = b[bytes - 1 - i]; /* keep the copies alive */
  }
  *median_s = BenchMedian(t, 7);
  *gbs      = 2.0 * (double)bytes / *median_s / 1e9;
  PetscCall(PetscFree2(a, b));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------------------------------ vectors, patterns */
/* "what: PETSc's message" with commas and newlines removed (CSV field) */
PetscErrorCode BenchErrorNote(PetscErrorCode ierr, const char what[], char note[], size_t len)
{
  const char *text = NULL;
  char       *specific = NULL;

  PetscFunctionBegin;
  PetscCall(PetscErrorMessage(ierr, &text, &specific));
  PetscCall(PetscSNPrintf(note, len, "%s: %s", what, specific && specific[0] ? specific : (text ? text : "error")));
  for (char *p = note; *p; p++)
    if (*p == ',' || *p == '\n' || *p == '\r') *p = ' ';
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A MatType is usable when it (or its sequential variant, for root names such as aij) is registered */
PetscErrorCode BenchMatTypeRegistered(const char type[], PetscBool *found)
{
  PetscErrorCode (*f)(void) = NULL;
  char seq[256];

  PetscFunctionBegin;
  PetscCall(PetscFunctionListFind(MatList, type, &f));
  if (!f) {
    PetscCall(PetscSNPrintf(seq, sizeof(seq), "seq%s", type));
    PetscCall(PetscFunctionListFind(MatList, seq, &f));
  }
  *found = f ? PETSC_TRUE : PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode BenchVecIsDevice(Vec v, PetscBool *dev)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)v, dev, VECSEQCUDA, VECMPICUDA, VECCUDA, VECSEQHIP, VECMPIHIP, VECSEQKOKKOS, VECMPIKOKKOS, ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Copies values between vectors of any (possibly different) types through host arrays */
PetscErrorCode BenchVecCopyAny(Vec src, Vec dst)
{
  const PetscScalar *s;
  PetscScalar       *d;
  PetscInt           n, n2;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(src, &n));
  PetscCall(VecGetLocalSize(dst, &n2));
  PetscCheck(n == n2, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Vector sizes differ");
  PetscCall(VecGetArrayRead(src, &s));
  PetscCall(VecGetArrayWrite(dst, &d));
  PetscCall(PetscArraycpy(d, s, n));
  PetscCall(VecRestoreArrayWrite(dst, &d));
  PetscCall(VecRestoreArrayRead(src, &s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* max_i |y_i - r_i| / max_i |r_i| through host arrays; NaN/Inf in y give Inf */
PetscErrorCode BenchVecRelDiff(Vec y, Vec r, PetscReal *rel)
{
  const PetscScalar *a, *b;
  PetscInt           n;
  PetscReal          dm = 0, rm = 0;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(y, &n));
  PetscCall(VecGetArrayRead(y, &a));
  PetscCall(VecGetArrayRead(r, &b));
  for (PetscInt i = 0; i < n; i++) {
    PetscReal d = PetscAbsScalar(a[i] - b[i]);
    if (PetscIsInfOrNanReal(d)) d = PETSC_INFINITY;
    dm = PetscMax(dm, d);
    rm = PetscMax(rm, PetscAbsScalar(b[i]));
  }
  PetscCall(VecRestoreArrayRead(r, &b));
  PetscCall(VecRestoreArrayRead(y, &a));
  *rel = rm > 0 ? dm / rm : dm;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Deterministic values in [0.5, 1.5) */
PetscErrorCode BenchFillRandom(Vec v, PetscInt seed)
{
  PetscScalar       *a;
  PetscInt           n;
  unsigned long long s = (unsigned long long)seed * 7919ULL + 17ULL;

  PetscFunctionBegin;
  PetscCall(VecGetLocalSize(v, &n));
  PetscCall(VecGetArrayWrite(v, &a));
  for (PetscInt i = 0; i < n; i++) a[i] = 0.5 + (double)(SplitMix(&s) % 1000000) / 1.0e6;
  PetscCall(VecRestoreArrayWrite(v, &a));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Bandwidth max |p^-1(i) - p^-1(j)| over stored entries (i,j) after the symmetric permutation perm (new -> old); NULL: none */
PetscErrorCode BenchPermBandwidth(Mat A, const PetscInt perm[], PetscInt *bw)
{
  const PetscInt *ia, *ja;
  PetscInt        m, *inv = NULL, b = 0;
  PetscBool       done;

  PetscFunctionBegin;
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ia, &ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_SUP, "MatGetRowIJ failed");
  if (perm) {
    PetscCall(PetscMalloc1(m, &inv));
    for (PetscInt i = 0; i < m; i++) inv[perm[i]] = i;
  }
  for (PetscInt i = 0; i < m; i++)
    for (PetscInt p = ia[i]; p < ia[i + 1]; p++) {
      PetscInt r = perm ? inv[i] : i, c = ja[p] < m ? (perm ? inv[ja[p]] : ja[p]) : ja[p];
      b          = PetscMax(b, PetscAbsInt(r - c));
    }
  PetscCall(PetscFree(inv));
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ia, &ja, &done));
  *bw = b;
  PetscFunctionReturn(PETSC_SUCCESS);
}
