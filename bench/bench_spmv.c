static char help[] = "SpMV benchmark of PETSc matrix types (bench/README.md).\n\
  -matrices <specs>  : comma-separated matrix specs (benchutil.h), default: real\n\
  -formats <types>   : comma-separated MatTypes converted from AIJ (any registered type, e.g. aij,aijcusparse,sellcuda,pellrcuda)\n\
  -ops <ops>         : mult,multadd,multtranspose (default mult,multadd)\n\
  -rebuilds <n>      : a PELLR type's GPU layout rebuilt n times (0..32, default 3), the median reported as rebuild_s\n\
  plus -matdir, -csv, -reps, -warmup, -batch, -time_limit, -case_time, -no_gpu; load our types with -dll_append <lib>\n";

#include "benchutil.h"
#include <petscsparsegpu.h> /* types only: the library is loaded with -dll_append, its functions found with PetscDLLibrarySym() */

typedef struct {
  Mat B;
  Vec x, y, z;
  int op; /* 0 mult, 1 multadd, 2 multtranspose */
} SpMVCtx;

static PetscErrorCode SpMVOp(void *p)
{
  SpMVCtx *c = (SpMVCtx *)p;

  PetscFunctionBegin;
  if (c->op == 0) PetscCall(MatMult(c->B, c->x, c->y));
  else if (c->op == 1) PetscCall(MatMultAdd(c->B, c->x, c->z, c->y));
  else PetscCall(MatMultTranspose(c->B, c->y, c->x));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Time and count of the library's PELLRBuild event (the layout build from a CSR on the GPU for pellrcuda); 0 when absent */
static PetscErrorCode BuildEvent(double *t, int *count)
{
  PetscLogEvent      ev;
  PetscEventPerfInfo pi;

  PetscFunctionBegin;
  *t     = 0;
  *count = 0;
  PetscCall(PetscLogEventGetId("PELLRBuild", &ev));
  if (ev >= 0) {
    PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, ev, &pi));
    *t     = pi.time;
    *count = pi.count;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool NeedsGPU(const char t[])
{
  return (PetscBool)(strstr(t, "cuda") || strstr(t, "cusparse") || strstr(t, "hip") || strstr(t, "kokkos"));
}

/* B = A in type fmt (aij: A itself, referenced); *ierr is the conversion's error code (errors are returned, not raised) */
static PetscErrorCode ConvertTo(Mat A, const char fmt[], Mat *B, PetscErrorCode *ierr)
{
  PetscFunctionBegin;
  *B    = NULL;
  *ierr = PETSC_SUCCESS;
  if (!strcmp(fmt, MATAIJ) || !strcmp(fmt, MATSEQAIJ)) { /* the host reference: the matrix itself */
    PetscCall(PetscObjectReference((PetscObject)A));
    *B = A;
  } else if (!strcmp(fmt, MATSELLCUDA)) { /* PETSc has no direct seqaij -> seqsellcuda converter (it would use
                                            MatConvert_Basic): go through its seqaij -> seqsell one, then in place */
    BenchTry(*ierr, MatConvert(A, MATSELL, MAT_INITIAL_MATRIX, B));
    if (!*ierr) BenchTry(*ierr, MatConvert(*B, MATSELLCUDA, MAT_INPLACE_MATRIX, B));
  } else BenchTry(*ierr, MatConvert(A, fmt, MAT_INITIAL_MATRIX, B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static const char *opname[3] = {"mult", "multadd", "multtranspose"};

#define ROWFMT "%s,%s,%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt64_FMT ",%" PetscInt_FMT ",%.4f,%s,%s,%s,%.6e,%.6e,%.6e,%.6e,%" PetscInt_FMT ",%.4f,%.3f,%.4f,%.0f,%.0f,%.4f,%.3e,%.4f,%s\n"

static void Row(BenchCtx *ctx, BenchMatrix *bm, const char fmt[], const char op[], const char status[], double conv, double first, double t, double tmin, PetscInt reps, double gflops, double gbs, double ratio, double mem, double csr, double relerr, const char note[])
{
  fprintf(ctx->csv, ROWFMT, bm->name, bm->kind, bm->m, bm->n, bm->nnz, bm->rowmax, (double)bm->rowcv, fmt, op, status, conv, first, t, tmin, reps, gflops, gbs, ratio, mem, csr, mem / csr, relerr, bm->gen_s, note);
  fflush(ctx->csv);
}

int main(int argc, char **argv)
{
  BenchCtx ctx;
  char    *specs[BENCH_MAX_LIST], *mats[BENCH_MAX_LIST], *formats[BENCH_MAX_LIST], *ops[8], dev[256];
  PetscInt nspecs, nmats, nformats, nops, nrebuild = 3; /* -rebuilds: GPU layout rebuilds of a PELLR type, timed (median) */
  double   copybw = NAN, copyt, hostbw, hostt;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscLogDefaultBegin()); /* event times: the GPU layout build of pellrcuda */
  PetscCall(BenchInitialize(&ctx, "spmv.csv",
                            "matrix,kind,rows,cols,nnz,rowmax,rowcv,format,op,status,convert_s,first_s,time_s,time_min_s,reps,gflops,eff_GBs,copy_ratio,mem_bytes,csr_bytes,mem_ratio,relerr,gen_s,note"));
  PetscCall(BenchGetList("-matrices", "real", specs, &nspecs));
  PetscCall(BenchExpandMatrixSpecs(&ctx, specs, nspecs, mats, &nmats));
  PetscCall(BenchGetList("-formats", ctx.gpu ? "aij,aijcusparse,sellcuda" : "aij,sell", formats, &nformats));
  PetscCall(BenchGetList("-ops", "mult,multadd", ops, &nops));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-rebuilds", &nrebuild, NULL));
  PetscCheck(nrebuild >= 0 && nrebuild <= 32, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "-rebuilds %" PetscInt_FMT ": 0 to 32", nrebuild);

  /* references: device copy bandwidth (what a bandwidth-bound SpMV can reach) and one-core host copy bandwidth */
  PetscCall(BenchDeviceName(&ctx, dev, sizeof(dev)));
  {
    BenchMatrix d = {.name = "_device", .kind = "reference"}, h = {.name = "_host", .kind = "reference"};
    if (ctx.gpu) {
      PetscCall(BenchDeviceCopyBandwidth(&ctx, &copybw, &copyt));
      Row(&ctx, &d, "cudaMemcpyD2D_1GiB", "copy", "ok", NAN, NAN, copyt, NAN, PetscMax(ctx.reps, 20), NAN, copybw, 1.0, NAN, NAN, NAN, dev);
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# device %s: cudaMemcpy D2D bandwidth %.1f GB/s (read+write)\n", dev, copybw));
    }
    PetscCall(BenchHostCopyBandwidth(&hostbw, &hostt));
    Row(&ctx, &h, "memcpy_256MiB", "copy", "ok", NAN, NAN, hostt, NAN, 7, NAN, hostbw, NAN, NAN, NAN, NAN, "one core");
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# host: one-core memcpy bandwidth %.1f GB/s (read+write)\n", hostbw));
  }

  if (ctx.gpu) {
    /* untimed warm-up of every GPU format on a small matrix: module loading, cuSPARSE handles and the first growth of
       the memory pool land here, not in the first measured matrix's conversion time and memory */
    BenchMatrix wm;
    PetscBool   ok;
    PetscCall(BenchMatrixCreate(&ctx, "lap2d:64", &wm, &ok));
    for (PetscInt f = 0; ok && f < nformats; f++) {
      PetscBool      reg;
      PetscErrorCode ierr;
      Mat            B = NULL;
      Vec            x, y;
      PetscCall(BenchMatTypeRegistered(formats[f], &reg));
      if (!reg || !NeedsGPU(formats[f])) continue;
      PetscCall(ConvertTo(wm.A, formats[f], &B, &ierr));
      if (!ierr) {
        PetscBool pellr;
        PetscCall(MatCreateVecs(B, &x, &y));
        PetscCall(VecSet(x, 1.0));
        BenchTry(ierr, MatMult(B, x, y));
        /* a PELLR type builds and multiplies in each of its storage formats too (MatPELLRSetFormat(): the layout is
           rebuilt at the next product), so that the first measured matrix stored in another format than the warm-up's
           choice does not load those kernels in its conversion time */
        PetscCall(PetscStrbeginswith(formats[f], "pellr", &pellr));
        if (!ierr && pellr) {
          PetscErrorCode (*setformat)(Mat, MatPELLRFormat) = NULL;
          PetscCall(PetscDLLibrarySym(PETSC_COMM_SELF, &PetscDLLibrariesLoaded, NULL, "MatPELLRSetFormat", (void **)&setformat));
          for (int sf = MAT_PELLR_FORMAT_PELLR; setformat && !ierr && sf <= MAT_PELLR_FORMAT_CSR; sf++) {
            PetscCall((*setformat)(B, (MatPELLRFormat)sf));
            BenchTry(ierr, MatMult(B, x, y));
          }
        }
        PetscCall(VecDestroy(&x));
        PetscCall(VecDestroy(&y));
      }
      PetscCall(MatDestroy(&B));
    }
    if (ok) PetscCall(BenchMatrixDestroy(&wm));
    PetscCall(BenchSync(&ctx));
  }

  for (PetscInt im = 0; im < nmats; im++) {
    BenchMatrix bm;
    PetscBool   ok;
    Vec         xh, yh, zh, yref, aref, tref;
    double      csr;

    if (!BenchTimeLeft(&ctx)) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# time limit reached: skipping %s\n", mats[im]));
      fprintf(ctx.csv, "%s,,,,,,,,,skipped_time_limit,,,,,,,,,,,,,,\n", mats[im]);
      continue;
    }
    PetscCall(BenchMatrixCreate(&ctx, mats[im], &bm, &ok));
    if (!ok) continue;
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %" PetscInt_FMT " x %" PetscInt_FMT ", nnz %" PetscInt64_FMT ", longest row %" PetscInt_FMT ", made in %.2f s\n", bm.name, bm.m, bm.n, bm.nnz, bm.rowmax, bm.gen_s));
    PetscCall(MatCreateVecs(bm.A, &xh, &yh));
    PetscCall(VecDuplicate(yh, &zh));
    PetscCall(VecDuplicate(yh, &yref));
    PetscCall(VecDuplicate(yh, &aref));
    PetscCall(VecDuplicate(xh, &tref));
    PetscCall(BenchFillRandom(xh, 1));
    PetscCall(BenchFillRandom(zh, 2));
    PetscCall(BenchFillRandom(yh, 3));
    PetscCall(MatMult(bm.A, xh, yref));
    PetscCall(MatMultAdd(bm.A, xh, zh, aref));
    PetscCall(MatMultTranspose(bm.A, yh, tref));
    csr = 12.0 * (double)bm.nnz + 4.0 * (bm.m + 1);

    for (PetscInt f = 0; f < nformats; f++) {
      PetscBool      reg;
      SpMVCtx        c = {NULL, NULL, NULL, NULL, 0};
      PetscErrorCode ierr;
      PetscLogDouble t0, t1, t2;
      size_t         free0, free1;
      PetscBool      isdev = PETSC_FALSE;
      double         conv, first, mem = NAN, bt0, bt1;
      MatPELLRFormat req0 = MAT_PELLR_FORMAT_AUTO, used0 = MAT_PELLR_FORMAT_AUTO; /* a PELLR type's requested and used formats */
      PetscBool      rebuildable = PETSC_FALSE;
      int            bc0, bc1;
      char           note[256], okn[128];

      PetscCall(BenchMatTypeRegistered(formats[f], &reg));
      if (!reg) {
        Row(&ctx, &bm, formats[f], "-", "unavailable", NAN, NAN, NAN, NAN, 0, NAN, NAN, NAN, NAN, csr, NAN, "type not registered (PETSc without it or library not loaded)");
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-12s not registered: skipped\n", formats[f]));
        continue;
      }
      if (NeedsGPU(formats[f]) && !ctx.gpu) {
        Row(&ctx, &bm, formats[f], "-", "skipped_no_gpu", NAN, NAN, NAN, NAN, 0, NAN, NAN, NAN, NAN, csr, NAN, "no GPU");
        continue;
      }
      PetscCall(BenchDeviceFreeMemory(&ctx, &free0));
      PetscCall(BuildEvent(&bt0, &bc0));
      PetscCall(PetscTime(&t0));
      PetscCall(ConvertTo(bm.A, formats[f], &c.B, &ierr));
      if (!ierr) ierr = BenchSync(&ctx);
      PetscCall(PetscTime(&t1));
      if (ierr) {
        PetscCall(BenchErrorNote(ierr, "MatConvert from aij", note, sizeof(note)));
        Row(&ctx, &bm, formats[f], "-", "failed_convert", NAN, NAN, NAN, NAN, 0, NAN, NAN, NAN, NAN, csr, NAN, note);
        PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-12s MatConvert failed\n", formats[f]));
        continue;
      }
      PetscCall(MatCreateVecs(c.B, &c.x, &c.y));
      PetscCall(VecDuplicate(c.y, &c.z));
      PetscCall(BenchVecIsDevice(c.x, &isdev));
      PetscCall(BenchVecCopyAny(xh, c.x));
      PetscCall(BenchVecCopyAny(zh, c.z));
      /* first product: copies the matrix (and x) to the device for device types, builds SpMV buffers */
      BenchTry(ierr, MatMult(c.B, c.x, c.y));
      if (!ierr) ierr = BenchSync(&ctx);
      PetscCall(PetscTime(&t2));
      conv  = t1 - t0;
      first = t2 - t1;
      PetscCall(BuildEvent(&bt1, &bc1));
      /* the note of ok rows: where the product ran, and the layout build (PELLRBuild: from the CSR on the GPU for pellrcuda) when one ran */
      if (bc1 > bc0) PetscCall(PetscSNPrintf(okn, sizeof(okn), "%s build_s=%.6e", isdev ? "device" : "host", (bt1 - bt0) / (bc1 - bc0)));
      else PetscCall(PetscStrncpy(okn, isdev ? "device" : "host", sizeof(okn)));
      if (!ierr) {
        /* the storage format a PELLR matrix uses (auto chooses per block): MatPELLRGetFormat() of the loaded library */
        PetscErrorCode (*getformat)(Mat, MatPELLRFormat *, MatPELLRFormat *) = NULL;
        const char *const *names                               = NULL;
        PetscBool          pellr;
        PetscCall(PetscStrbeginswith(formats[f], "pellr", &pellr));
        if (pellr) {
          PetscCall(PetscDLLibrarySym(PETSC_COMM_SELF, &PetscDLLibrariesLoaded, NULL, "MatPELLRGetFormat", (void **)&getformat));
          PetscCall(PetscDLLibrarySym(PETSC_COMM_SELF, &PetscDLLibrariesLoaded, NULL, "MatPELLRFormats", (void **)&names));
        }
        if (getformat && names) {
          MatPELLRFormat req, used;
          size_t         len;
          PetscCall((*getformat)(c.B, &req, &used));
          PetscCall(PetscStrlen(okn, &len));
          PetscCall(PetscSNPrintf(okn + len, sizeof(okn) - len, " format=%s", names[used]));
          req0 = req, used0 = used, rebuildable = PETSC_TRUE;
        }
      }
      if (isdev) {
        PetscReal nrm;
        PetscCall(VecNorm(c.z, NORM_1, &nrm)); /* puts z on the device too, so the three vectors are subtracted below */
        PetscCall(BenchDeviceFreeMemory(&ctx, &free1));
        mem = (double)free0 - (double)free1 - 8.0 * (bm.n + 2.0 * bm.m); /* minus the vectors x, y, z */
      }
      /* rebuilds (after the memory count: they return the first build's memory to the pool): the layout built again
         nrebuild times in the format used (MatPELLRSetFormat() alternating between it and the request drops the layout;
         the next product builds it), the median of their PELLRBuild times. The first build above may include one-time
         costs of the process (the memory pool growing to the matrix's size) */
      if (!ierr && rebuildable && bc1 > bc0 && nrebuild > 0) {
        PetscErrorCode (*setformat)(Mat, MatPELLRFormat) = NULL;
        double   tb[32];
        PetscInt nb = 0;
        size_t   len;
        PetscCall(PetscDLLibrarySym(PETSC_COMM_SELF, &PetscDLLibrariesLoaded, NULL, "MatPELLRSetFormat", (void **)&setformat));
        for (PetscInt k = 0; setformat && !ierr && k < nrebuild; k++) {
          double ta, tz;
          int    ca, cz;
          PetscCall((*setformat)(c.B, k % 2 == 0 && req0 != used0 ? used0 : req0));
          PetscCall(BuildEvent(&ta, &ca));
          BenchTry(ierr, MatMult(c.B, c.x, c.y));
          if (!ierr) ierr = BenchSync(&ctx);
          PetscCall(BuildEvent(&tz, &cz));
          if (cz > ca) tb[nb++] = (tz - ta) / (cz - ca);
        }
        if (setformat && !ierr) PetscCall((*setformat)(c.B, req0));
        if (nb) {
          PetscCall(PetscStrlen(okn, &len));
          PetscCall(PetscSNPrintf(okn + len, sizeof(okn) - len, " rebuild_s=%.6e", BenchMedian(tb, nb)));
        }
      }
      if (ierr) {
        PetscCall(BenchErrorNote(ierr, "MatMult", note, sizeof(note)));
        Row(&ctx, &bm, formats[f], "mult", "failed", conv, NAN, NAN, NAN, 0, NAN, NAN, NAN, mem, csr, NAN, note);
      } else {
        for (PetscInt o = 0; o < nops; o++) {
          PetscReal rel;
          double    t, tmin, bytes, gbs;
          PetscInt  reps, which = -1;
          for (int k = 0; k < 3; k++)
            if (!strcmp(ops[o], opname[k])) which = k;
          if (which < 0) {
            PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# unknown op %s (mult, multadd, multtranspose)\n", ops[o]));
            continue;
          }
          c.op = which;
          if (which == 2) PetscCall(BenchVecCopyAny(yh, c.y));
          BenchTry(ierr, BenchTimeOp(&ctx, isdev, SpMVOp, &c, 0, &t, &tmin, &reps));
          if (ierr) {
            PetscCall(BenchErrorNote(ierr, ops[o], note, sizeof(note)));
            Row(&ctx, &bm, formats[f], ops[o], "failed", conv, first, NAN, NAN, 0, NAN, NAN, NAN, mem, csr, NAN, note);
            continue;
          }
          /* the result of the last call, compared with AIJ on the host */
          if (which == 0) PetscCall(BenchVecRelDiff(c.y, yref, &rel));
          else if (which == 1) PetscCall(BenchVecRelDiff(c.y, aref, &rel));
          else {
            PetscCall(BenchVecRelDiff(c.x, tref, &rel));
            PetscCall(BenchVecCopyAny(xh, c.x)); /* restore x for later ops */
          }
          bytes = csr + 8.0 * bm.n + 8.0 * bm.m + (which == 1 ? 8.0 * bm.m : 0);
          gbs   = bytes / t / 1e9;
          Row(&ctx, &bm, formats[f], ops[o], "ok", conv, first, t, tmin, reps, 2.0 * (double)bm.nnz / t / 1e9, gbs, isdev ? gbs / copybw : gbs / hostbw, mem, csr, (double)rel, okn);
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-12s %-13s %10.4f ms (min %.4f, %3" PetscInt_FMT " reps) %8.1f GB/s = %5.1f%% of %s copy  setup %.3f+%.3f s  rel.diff %.1e%s\n", formats[f], ops[o], 1e3 * t, 1e3 * tmin, reps, gbs,
                                100.0 * (isdev ? gbs / copybw : gbs / hostbw), isdev ? "device" : "1-core host", conv, first, (double)rel, rel > 1e-10 ? "  (LARGE)" : ""));
        }
      }
      PetscCall(VecDestroy(&c.x));
      PetscCall(VecDestroy(&c.y));
      PetscCall(VecDestroy(&c.z));
      PetscCall(MatDestroy(&c.B));
    }
    PetscCall(VecDestroy(&xh));
    PetscCall(VecDestroy(&yh));
    PetscCall(VecDestroy(&zh));
    PetscCall(VecDestroy(&yref));
    PetscCall(VecDestroy(&aref));
    PetscCall(VecDestroy(&tref));
    PetscCall(BenchMatrixDestroy(&bm));
  }
  PetscCall(BenchFreeList(specs, nspecs));
  PetscCall(BenchFreeList(mats, nmats));
  PetscCall(BenchFreeList(formats, nformats));
  PetscCall(BenchFreeList(ops, nops));
  PetscCall(BenchFinalize(&ctx));
  PetscCall(PetscFinalize());
  return 0;
}
