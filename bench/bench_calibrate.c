static char help[] = "Calibration of the pellrcuda storage-format predictor (bench/README.md, 'Format predictor').\n\
Times every candidate format of pellrcuda (pellr, sell, ellr, csr) on a training set, fits the predictor's model\n\
(non-negative least squares per format and row-count interval), cross-validates it by matrix and writes the\n\
calibration file. Runs on the host (pellr) without a GPU, for testing the pipeline.\n\
  -matrices <specs>  : training matrices (benchutil.h specs), default: the built-in training set (-set)\n\
  -set <default|small>: the built-in training set (synthetic sizes 2^10..2^24, scaled-up real matrices, grid stencils, the real ones; small: up to 2^14)\n\
  -model <file>      : calibration file to write (default pellr.model)\n\
  -folds <k>         : cross-validation folds (default 5)\n\
  -report <file>     : cross-validation report (markdown, default stdout)\n\
  -times <csv>       : refit offline: take the times from the CSV of an earlier run (same matrices), measure nothing\n\
  -feature_times <csv>: also write the time of each matrix's feature extraction (MatPELLRCalibrationAddSample(): the\n\
                       row-length pass and the sampled column access, what auto computes before it predicts); with a\n\
                       GPU also the features alone on the host and on the GPU (median of 5) and the conversions measured\n\
  -evaluate <file|default>: no fit: report the choices of this model (default: the one compiled in) on the matrices\n\
                       against their measured times (MatPELLRCalibrationEvaluate(); e.g. with -times and -matrices of a\n\
                       set the model was not fitted on)\n\
  -cv_groups <matrix|family>: cross-validation groups: each matrix (default), or its family (all sizes of a synthetic\n\
                       distribution/column pattern/mean; a real matrix with its block-diagonal and Kronecker scale-ups)\n\
  -hw_gpu <name> -hw_sms <n> -hw_copy_gbs <x> -hw_h2d_gbs <x> -hw_launch_s <x> -hw_l2_mb <x> : the hardware line (with -times;\n\
                       l2_mb: the effective L2 capacity, default 0.4 of the device's L2, 20 without a GPU)\n\
  -gpu_warmup_s <s>  : seconds of back-to-back products before anything is timed on the GPU (default 2; the first\n\
                       matrices of the H200 calibration of 2026-11-29 were measured 15-60% slow: a warm-up effect)\n\
  -mat_pellr_cv_samples <csv>: (developer) also write each sample's measured and cross-validated predicted Ts and TC\n\
  -gate <bool>       : GPU products timed as device time (default true): the stream is held until all timed products\n\
                       are enqueued (bench/README.md); false: as bench_spmv times them, host enqueueing included\n\
  -convert_reps <n>  : conversions timed per format, the median taken (default 3; each is the first product after the\n\
                       format is set again, minus the product's median time)\n\
  plus -matdir, -csv, -reps, -warmup, -batch, -time_limit, -case_time, -no_gpu\n";

#include "benchutil.h"
#include <petscsparsegpu.h>

typedef struct {
  Mat B;
  Vec x, y;
} MultCtx;

/* c: the n x n identity converted to type, x = 1 */
static PetscErrorCode MultCtxDiagonal(PetscInt n, const char *type, MultCtx *c)
{
  Mat A;

  PetscFunctionBegin;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, n, n, 1, NULL, &A));
  for (PetscInt i = 0; i < n; i++) PetscCall(MatSetValue(A, i, i, 1.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatConvert(A, type, MAT_INITIAL_MATRIX, &c->B));
  PetscCall(MatDestroy(&A));
  PetscCall(MatCreateVecs(c->B, &c->x, &c->y));
  PetscCall(VecSet(c->x, 1.0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MultCtxDestroy(MultCtx *c)
{
  PetscFunctionBegin;
  PetscCall(VecDestroy(&c->x));
  PetscCall(VecDestroy(&c->y));
  PetscCall(MatDestroy(&c->B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MultOp(void *p)
{
  MultCtx *c = (MultCtx *)p;

  PetscFunctionBegin;
  PetscCall(MatMult(c->B, c->x, c->y));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const MatPELLRFormat cand[]     = {MAT_PELLR_FORMAT_PELLR, MAT_PELLR_FORMAT_SELL, MAT_PELLR_FORMAT_ELLR, MAT_PELLR_FORMAT_CSR};
static const char          *candname[] = {"pellr", "sell", "ellr", "csr"};
#define NCAND 4

/* The built-in training set: synthetic matrices of 2^10 .. 2^24 rows (row-length distributions x column patterns x
   mean lengths, the largest sizes with fewer combinations so that the whole run fits one 10-minute GPU command), then
   the real matrices of -matdir */
static PetscErrorCode TrainingSet(const char set[], char *specs[], PetscInt *n)
{
  const char *dists[] = {"const", "uniform", "zipf", "bimodal", "denserow"}, *cols[] = {"band", "rand"};
  const int   avgs[]  = {4, 16, 64};
  PetscBool   small;
  char        buf[128];

  PetscFunctionBeginUser;
  PetscCall(PetscStrcmp(set, "small", &small));
  *n = 0;
  for (int e = 10; e <= (small ? 14 : 24); e += 2) {
    PetscInt64 m = (PetscInt64)1 << e;
    for (int d = 0; d < 5; d++)
      for (int c = 0; c < 2; c++)
        for (int a = 0; a < 3; a++) {
          PetscInt64 nnz = m * avgs[a];
          if (nnz > ((PetscInt64)1 << 27)) continue;                   /* at most ~134M nonzeros (1.6 GB) */
          if (e >= 22 && (a == 2 || d == 4 || (e == 24 && d >= 3))) continue; /* the largest sizes: fewer combinations */
          if (small && a == 2 && e > 12) continue;
          PetscCheck(*n < BENCH_MAX_LIST - 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "training set too large");
          PetscCall(PetscSNPrintf(buf, sizeof(buf), "synth:%s:%s:%" PetscInt64_FMT ":%d", dists[d], cols[c], m, avgs[a]));
          PetscCall(PetscStrallocpy(buf, &specs[(*n)++]));
        }
  }
  /* block structures of real matrices scaled up (the H200 calibration of 2026-11-29 had none, and auto chose ELLR on
     such matrices where CSR was faster): block-diagonal and Kronecker scale-ups, as in the SpMV benchmark */
  if (!small) {
    const char *scaled[] = {"blkdiag:bcsstk17:4M", "blkdiag:e30r4000:4M", "blkdiag:bayer10:4M", "blkdiag:gemat11:4M", "blkdiag:mbeacxc:4M", "blkdiag:zenios:4M", "kron:pde900:jpwh_991", "kron:bcsstk01:bcsstk13", "kron:bcsstk01:e30r4000", "kron:pde900:sherman1"};
    for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(scaled); i++) PetscCall(PetscStrallocpy(scaled[i], &specs[(*n)++]));
  }
  PetscCall(PetscStrallocpy("real", &specs[(*n)++]));
  /* stencils of structured grids (2D 5-point, 3D 7- and 27-point; 2^10 to 2^22 rows), after the real matrices (should
     -time_limit cut the run short, the largest stencils go): the layouts store them in diagonal slices
     (-mat_pellr_cuda_diagonal_slices), which read no column index. Sizes other than the large SpMV benchmark's
     (1000^2, 2000^2, 4000^2, 100^3, 160^3, 252^3), which validates the model */
  if (!small) {
    const char *stencils[] = {"lap2d:32", "lap2d:90", "lap2d:256", "lap2d:724", "lap2d:2048", "lap3d:10", "lap3d:20", "lap3d:40", "lap3d:64", "lap3d:128", "lap3d27:10", "lap3d27:20", "lap3d27:40", "lap3d27:64", "lap3d27:128"};
    for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(stencils); i++) PetscCall(PetscStrallocpy(stencils[i], &specs[(*n)++]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the cross-validation family of a matrix (-cv_groups family): synth_<dist>_<cols>_<m>_<avg> -> synth_<dist>_<cols>_<avg>;
   blkdiag_<name>_x<k> -> <name>; kron_<a>_<b> -> <b> (the blocks are copies of B); a stencil -> its kind (lap2d5,
   lap3d7, lap3d27); a real matrix -> its name */
static PetscErrorCode FamilyName(const BenchMatrix *bm, char fam[], size_t len)
{
  char buf[256], *tok[8];
  int  nt = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(buf, bm->name, sizeof(buf)));
  for (char *p = buf; p && nt < 8;) {
    tok[nt++] = p;
    p         = strchr(p, '_');
    if (p) *p++ = 0;
  }
  if (!strcmp(bm->kind, "synth") && nt == 5) PetscCall(PetscSNPrintf(fam, len, "synth_%s_%s_%s", tok[1], tok[2], tok[4]));
  else if (!strcmp(bm->kind, "blkdiag") && strrchr(bm->name, '_') - bm->name > 8) { /* blkdiag_<name>_x<k> */
    const char *u = strrchr(bm->name, '_');
    PetscCall(PetscSNPrintf(fam, len, "%.*s", (int)(u - bm->name) - 8, bm->name + 8));
  } else if (!strcmp(bm->kind, "kron") && nt >= 3) PetscCall(PetscStrncpy(fam, tok[nt - 1], len));
  else if (!strncmp(bm->kind, "lap", 3)) PetscCall(PetscStrncpy(fam, bm->kind, len)); /* lap2d5_<k> -> lap2d5 */
  else PetscCall(PetscStrncpy(fam, bm->name, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -times: the ts/tc of every matrix and format from the CSV an earlier run wrote (columns as in the header below) */
typedef struct {
  char   name[256];
  int    f;
  double tc, ts;
} TimeRow;

static PetscErrorCode ReadTimes(const char file[], TimeRow **rows, PetscInt *n)
{
  FILE    *fp;
  char     line[4096];
  PetscInt cap = 1024;

  PetscFunctionBeginUser;
  *n = 0;
  PetscCall(PetscMalloc1(cap, rows));
  fp = fopen(file, "r");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open %s", file);
  while (fgets(line, sizeof(line), fp)) {
    char *tok[16];
    int   nt = 0;
    if (!strncmp(line, "matrix,", 7)) continue;
    for (char *p = line; p && nt < 16;) {
      tok[nt++] = p;
      p         = strchr(p, ',');
      if (p) *p++ = 0;
    }
    if (nt < 12) continue;
    if (*n == cap) {
      TimeRow *t;
      cap *= 2;
      PetscCall(PetscMalloc1(cap, &t));
      PetscCall(PetscArraycpy(t, *rows, *n));
      PetscCall(PetscFree(*rows));
      *rows = t;
    }
    PetscCall(PetscStrncpy((*rows)[*n].name, tok[0], sizeof((*rows)[*n].name)));
    (*rows)[*n].f = -1;
    for (int c = 0; c < NCAND; c++)
      if (!strcmp(tok[7], candname[c])) (*rows)[*n].f = c;
    (*rows)[*n].tc = strcmp(tok[8], "ok") ? NAN : atof(tok[9]);
    (*rows)[*n].ts = strcmp(tok[8], "ok") ? NAN : atof(tok[10]);
    (*n)++;
  }
  fclose(fp);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_EXTERN PetscErrorCode MatPELLRPredictTimeFeatures(PetscInt, PetscInt, const PetscInt[], const PetscInt[], PetscInt, PetscInt, PetscLogDouble *, PetscLogDouble *); /* pellrpredict.h (not installed) */

/* MatPELLRCalibrationAddSample(), timed into fp (-feature_times) when given: the features auto computes at assembly;
   with a GPU also the features alone on the host and on the GPU (MatPELLRPredictTimeFeatures(), median of 5), beside
   the measured conversions (tc: PELLR's and the CSR's) */
static PetscErrorCode AddSampleTimed(MatPELLRCalibration cal, BenchMatrix *bm, PetscInt group, const PetscReal ts[], const PetscReal tc[], FILE *fp, PetscBool gpu)
{
  PetscLogDouble t0, t1, th = -1, td = -1;

  PetscFunctionBeginUser;
  PetscCall(PetscTime(&t0));
  PetscCall(MatPELLRCalibrationAddSample(cal, bm->A, group, ts, tc));
  PetscCall(PetscTime(&t1));
  if (fp && gpu) {
    const PetscInt *ai, *aj;
    PetscCall(MatSeqAIJGetCSRAndMemType(bm->A, &ai, &aj, NULL, NULL));
    PetscCall(MatPELLRPredictTimeFeatures(bm->m, bm->n, ai, aj, 256, 5, &th, &td));
  }
  if (fp) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "%s,%" PetscInt_FMT ",%" PetscInt64_FMT ",%.6e,%.6e,%.6e,%.6e,%.6e\n", bm->name, bm->m, (PetscInt64)bm->nnz, t1 - t0, th, td, (double)tc[MAT_PELLR_FORMAT_PELLR], (double)tc[MAT_PELLR_FORMAT_CSR]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  BenchCtx            ctx;
  char               *specs[BENCH_MAX_LIST], *mats[BENCH_MAX_LIST], set[32] = "default", model[PETSC_MAX_PATH_LEN] = "pellr.model", report[PETSC_MAX_PATH_LEN] = "", dev[256];
  PetscInt            nspecs = 0, nmats, folds = 5, nsamples = 0, ntimes = 0;
  char                timesfile[PETSC_MAX_PATH_LEN] = "", cvgroups[16] = "matrix", *fams[BENCH_MAX_LIST], evalmodel[PETSC_MAX_PATH_LEN] = "", *sname[BENCH_MAX_LIST];
  PetscBool           evaluate = PETSC_FALSE;
  char                ftimes[PETSC_MAX_PATH_LEN] = "";
  FILE               *ftfp = NULL;
  PetscInt            nfams = 0;
  PetscBool           byfamily;
  TimeRow            *times = NULL;
  PetscBool           flg;
  double              copybw = NAN, copyt, h2d = NAN, launch = NAN, gpuwarm = 2.0;
  PetscInt            convreps = 3;
  double              tconv[100];
  int                 sms = 0;
  MatPELLRCalibration cal;
  PetscViewer         rv;
  const char         *type;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscSparseGPUInitializePackage()); /* linked, not loaded with -dll_append */
  PetscCall(BenchInitialize(&ctx, "calibration.csv", "matrix,kind,rows,cols,nnz,rowmax,rowcv,format,status,convert_s,time_s,reps,relerr,note"));
  {
    PetscBool gset;
    PetscCall(PetscOptionsHasName(NULL, NULL, "-gate", &gset));
    if (!gset) ctx.gate = PETSC_TRUE; /* the model predicts the device's time: the host's enqueueing varies run to run */
  }
  PetscCall(PetscOptionsGetString(NULL, NULL, "-set", set, sizeof(set), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-model", model, sizeof(model), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-report", report, sizeof(report), NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-folds", &folds, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-times", timesfile, sizeof(timesfile), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-evaluate", evalmodel, sizeof(evalmodel), &evaluate));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-feature_times", ftimes, sizeof(ftimes), NULL));
  if (ftimes[0]) {
    PetscCall(PetscFOpen(PETSC_COMM_SELF, ftimes, "w", &ftfp));
    PetscCall(PetscFPrintf(PETSC_COMM_SELF, ftfp, "matrix,rows,nnz,features_s,host_features_s,gpu_features_s,conv_pellr_s,conv_csr_s\n"));
  }
  if (evaluate) {
    PetscBool def;
    PetscCall(PetscStrcmp(evalmodel, "default", &def));
    if (def) evalmodel[0] = 0;
  }
  PetscCall(PetscOptionsGetString(NULL, NULL, "-cv_groups", cvgroups, sizeof(cvgroups), NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-gpu_warmup_s", &gpuwarm, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-convert_reps", &convreps, NULL));
  PetscCheck(convreps >= 1 && convreps <= 100, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-convert_reps must be in [1, 100], not %" PetscInt_FMT, convreps);
  PetscCheck(gpuwarm >= 0 && gpuwarm <= 600, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-gpu_warmup_s must be in [0, 600], not %g", gpuwarm);
  PetscCall(PetscStrcmp(cvgroups, "family", &byfamily));
  {
    PetscBool bymatrix;
    PetscCall(PetscStrcmp(cvgroups, "matrix", &bymatrix));
    PetscCheck(byfamily || bymatrix, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "-cv_groups %s: use matrix or family", cvgroups);
  }
  if (timesfile[0]) PetscCall(ReadTimes(timesfile, &times, &ntimes));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-matrices", &flg));
  if (flg) PetscCall(BenchGetList("-matrices", "real", specs, &nspecs));
  else PetscCall(TrainingSet(set, specs, &nspecs));
  PetscCall(BenchExpandMatrixSpecs(&ctx, specs, nspecs, mats, &nmats));
  type = ctx.gpu ? MATPELLRCUDA : MATPELLR;

  /* hardware parameters of the model: SM count, device copy bandwidth, host-to-device bandwidth (pageable memory, as
     a host AIJ is), launch latency (median MatMult of a 32 x 32 matrix) */
  PetscCall(BenchDeviceName(&ctx, dev, sizeof(dev)));
  PetscCall(BenchDeviceCopyBandwidth(&ctx, &copybw, &copyt));
#if defined(PETSC_HAVE_CUDA)
  if (ctx.gpu) {
    struct cudaDeviceProp prop;
    int                   d;
    const size_t          bytes = (size_t)1 << 28;
    char                 *h;
    void                 *g;
    double                t[10];
    PetscLogDouble        t0, t1;

    PetscCallCUDA(cudaGetDevice(&d));
    PetscCallCUDA(cudaGetDeviceProperties(&prop, d));
    sms = prop.multiProcessorCount;
    PetscCall(PetscMalloc1(bytes, &h));
    PetscCall(PetscMemzero(h, bytes));
    PetscCallCUDA(cudaMalloc(&g, bytes));
    for (int i = 0; i < 10; i++) {
      PetscCall(PetscTime(&t0));
      PetscCallCUDA(cudaMemcpy(g, h, bytes, cudaMemcpyHostToDevice));
      PetscCall(PetscTime(&t1));
      t[i] = t1 - t0;
    }
    h2d = (double)bytes / BenchMedian(t + 2, 8) / 1e9;
    PetscCallCUDA(cudaFree(g));
    PetscCall(PetscFree(h));
  }
#endif
  {
    MultCtx c;
    double  med;

    if (ctx.gpu && gpuwarm > 0 && !times) { /* keep the GPU busy (products of a 2^20-row diagonal) before timing anything */
      PetscLogDouble t0, t1;
      MultCtx        w;

      PetscCall(MultCtxDiagonal(1 << 20, type, &w));
      PetscCall(PetscTime(&t0));
      do {
        for (PetscInt i = 0; i < 200; i++) PetscCall(MultOp(&w));
        PetscCall(BenchSync(&ctx));
        PetscCall(PetscTime(&t1));
      } while (t1 - t0 < gpuwarm);
      PetscCall(MultCtxDestroy(&w));
    }
    PetscCall(MultCtxDiagonal(32, type, &c));
    PetscCall(BenchTimeOp(&ctx, ctx.gpu, MultOp, &c, 0, &med, NULL, NULL));
    launch = med;
    PetscCall(MultCtxDestroy(&c));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "# calibration on %s (%d SMs): copy %.0f GB/s, host-to-device %.1f GB/s, launch %.2e s, %s products%s\n", dev, sms, copybw, h2d, launch, ctx.gpu ? "GPU" : "host", ctx.gpu && ctx.gate ? " (gated: device time)" : ""));
  {
    PetscInt  hs = sms;
    PetscReal hc = copybw, hh = h2d, hl = launch;
    PetscCall(PetscOptionsGetString(NULL, NULL, "-hw_gpu", dev, sizeof(dev), NULL));
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-hw_sms", &hs, NULL));
    PetscCall(PetscOptionsGetReal(NULL, NULL, "-hw_copy_gbs", &hc, NULL));
    PetscCall(PetscOptionsGetReal(NULL, NULL, "-hw_h2d_gbs", &hh, NULL));
    PetscCall(PetscOptionsGetReal(NULL, NULL, "-hw_launch_s", &hl, NULL));
    sms = (int)hs, copybw = hc, h2d = hh, launch = hl;
  }
  PetscCall(MatPELLRCalibrationCreate(PETSC_COMM_SELF, &cal));
  PetscCall(MatPELLRCalibrationSetHardware(cal, dev, sms, copybw, h2d, launch));
  { /* the effective L2: the library's default for this device unless given */
    PetscReal l2;
    PetscBool set;
    PetscCall(PetscOptionsGetReal(NULL, NULL, "-hw_l2_mb", &l2, &set));
    if (set) PetscCall(MatPELLRCalibrationSetL2Cache(cal, l2));
  }

  for (PetscInt k = 0; k < nmats; k++) {
    BenchMatrix bm;
    PetscBool   ok;
    Mat         B = NULL;
    Vec         x, yref;
    PetscReal   ts[MAT_PELLR_FORMAT_CSR + 1], tc[MAT_PELLR_FORMAT_CSR + 1]; /* indexed by MatPELLRFormat */
    PetscInt    good = 0, group;

    if (!BenchTimeLeft(&ctx)) {
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "# time limit: %s and later matrices skipped\n", mats[k]));
      break;
    }
    PetscCall(BenchMatrixCreate(&ctx, mats[k], &bm, &ok));
    if (!ok) continue;
    if (bm.m != bm.n || bm.m == 0) {
      PetscCall(BenchMatrixDestroy(&bm));
      continue;
    }
    for (PetscInt f = 0; f <= MAT_PELLR_FORMAT_CSR; f++) ts[f] = tc[f] = NAN; /* not measured (auto never is) */
    group = k;
    if (byfamily) { /* the family's index, in order of first appearance */
      char fam[256];
      PetscCall(FamilyName(&bm, fam, sizeof(fam)));
      for (group = 0; group < nfams; group++)
        if (!strcmp(fams[group], fam)) break;
      if (group == nfams) PetscCall(PetscStrallocpy(fam, &fams[nfams++]));
    }
    if (times) { /* offline refit: the measured times of an earlier run */
      for (PetscInt r = 0; r < ntimes; r++)
        if (times[r].f >= 0 && !strcmp(times[r].name, bm.name)) {
          ts[cand[times[r].f]] = times[r].ts;
          tc[cand[times[r].f]] = times[r].tc;
          if (times[r].ts > 0) good++;
        }
      if (good) {
        PetscCall(AddSampleTimed(cal, &bm, group, ts, tc, ftfp, ctx.gpu));
        PetscCall(PetscStrallocpy(bm.name, &sname[nsamples++]));
      }
      PetscCall(BenchMatrixDestroy(&bm));
      continue;
    }
    PetscCall(MatCreateVecs(bm.A, &x, &yref));
    PetscCall(BenchFillRandom(x, 7));
    PetscCall(MatMult(bm.A, x, yref));
    PetscCall(MatConvert(bm.A, type, MAT_INITIAL_MATRIX, &B));
    for (PetscInt f = 0; f < NCAND; f++) {
      MultCtx        c = {B, NULL, NULL};
      PetscErrorCode ierr;
      PetscLogDouble t0, t1;
      double         med = NAN;
      PetscInt       reps = 0;
      PetscReal      rel  = NAN;
      char           note[256] = "";
      Vec            yh;

      PetscCall(MatCreateVecs(B, &c.x, &c.y));
      PetscCall(BenchVecCopyAny(x, c.x));
      PetscCall(MatPELLRSetFormat(B, cand[f]));
      /* conversion: the first product after the format change rebuilds (copy of the CSR to the device + build) */
      PetscCall(BenchSync(&ctx));
      PetscCall(PetscTime(&t0));
      BenchTry(ierr, MatMult(B, c.x, c.y));
      if (!ierr) PetscCall(BenchSync(&ctx));
      PetscCall(PetscTime(&t1));
      if (ierr) { /* e.g. ellr too large: infeasible, not measured */
        PetscCall(BenchErrorNote(ierr, "MatMult", note, sizeof(note)));
        fprintf(ctx.csv, "%s,%s,%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt64_FMT ",%" PetscInt_FMT ",%.4f,%s,infeasible,nan,nan,0,nan,%s\n", bm.name, bm.kind, bm.m, bm.n, bm.nnz, bm.rowmax, (double)bm.rowcv, candname[f], note);
      } else {
        PetscCall(BenchTimeOp(&ctx, ctx.gpu, MultOp, &c, 0, &med, NULL, &reps));
        PetscCall(VecDuplicate(yref, &yh));
        PetscCall(BenchVecCopyAny(c.y, yh));
        PetscCall(BenchVecRelDiff(yref, yh, &rel));
        PetscCall(VecDestroy(&yh));
        /* further conversions: setting another format and this one again drops the device copy, the next product rebuilds it */
        tconv[0] = t1 - t0;
        for (PetscInt k = 1; k < convreps; k++) {
          PetscCall(MatPELLRSetFormat(B, cand[(f + 1) % NCAND]));
          PetscCall(MatPELLRSetFormat(B, cand[f]));
          PetscCall(BenchSync(&ctx));
          PetscCall(PetscTime(&t0));
          PetscCall(MatMult(B, c.x, c.y));
          PetscCall(BenchSync(&ctx));
          PetscCall(PetscTime(&t1));
          tconv[k] = t1 - t0;
        }
        ts[cand[f]] = med;
        tc[cand[f]] = PetscMax(BenchMedian(tconv, convreps) - med, 0.0);
        if (rel < 1e-10) good++;
        else ts[cand[f]] = tc[cand[f]] = NAN; /* a wrong product is no sample (and is reported) */
        fprintf(ctx.csv, "%s,%s,%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt64_FMT ",%" PetscInt_FMT ",%.4f,%s,%s,%.6e,%.6e,%" PetscInt_FMT ",%.3e,\n", bm.name, bm.kind, bm.m, bm.n, bm.nnz, bm.rowmax, (double)bm.rowcv, candname[f], rel < 1e-10 ? "ok" : "WRONG", (double)tc[cand[f]], med, reps, (double)rel);
      }
      fflush(ctx.csv);
      PetscCall(VecDestroy(&c.x));
      PetscCall(VecDestroy(&c.y));
    }
    if (good) {
      PetscCall(AddSampleTimed(cal, &bm, group, ts, tc, ftfp, ctx.gpu));
      PetscCall(PetscStrallocpy(bm.name, &sname[nsamples++]));
    }
    PetscCall(MatDestroy(&B));
    PetscCall(VecDestroy(&x));
    PetscCall(VecDestroy(&yref));
    PetscCall(BenchMatrixDestroy(&bm));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "# %" PetscInt_FMT " %s matrices measured\n", nsamples, evaluate ? "evaluation" : "training"));
  if (!evaluate) PetscCall(MatPELLRCalibrationFit(cal, model));
  if (report[0]) PetscCall(PetscViewerASCIIOpen(PETSC_COMM_SELF, report, &rv));
  else PetscCall(PetscViewerASCIIGetStdout(PETSC_COMM_SELF, &rv));
  if (evaluate) {
    PetscCall(MatPELLRCalibrationEvaluate(cal, evalmodel[0] ? evalmodel : NULL, rv));
    PetscCall(PetscViewerASCIIPrintf(rv, "\nsamples:"));
    for (PetscInt i = 0; i < nsamples; i++) PetscCall(PetscViewerASCIIPrintf(rv, " %" PetscInt_FMT " %s%s", i, sname[i], i + 1 < nsamples ? "," : "\n"));
  } else PetscCall(MatPELLRCalibrationCrossValidate(cal, folds, rv));
  if (report[0]) PetscCall(PetscViewerDestroy(&rv));
  for (PetscInt i = 0; i < nsamples; i++) PetscCall(PetscFree(sname[i]));
  if (ftfp) PetscCall(PetscFClose(PETSC_COMM_SELF, ftfp));
  PetscCall(MatPELLRCalibrationDestroy(&cal));
  PetscCall(PetscFree(times));
  if (byfamily) PetscCall(PetscPrintf(PETSC_COMM_SELF, "# cross-validation groups: %" PetscInt_FMT " families\n", nfams));
  for (PetscInt i = 0; i < nfams; i++) PetscCall(PetscFree(fams[i]));
  for (PetscInt i = 0; i < nspecs; i++) PetscCall(PetscFree(specs[i]));
  PetscCall(BenchFreeList(mats, nmats));
  if (ctx.gate_timeouts) PetscCall(PetscPrintf(PETSC_COMM_SELF, "# WARNING: %" PetscInt_FMT " gated timings opened on the gate's time limit (a call waited for the device while enqueued)\n", ctx.gate_timeouts));
  PetscCall(BenchFinalize(&ctx));
  PetscCall(PetscFinalize());
  return 0;
}
