static char help[] = "Ordering benchmark: end-to-end MatGetOrdering time (bench/README.md).\n\
  -matrices <specs>   : comma-separated matrix specs (benchutil.h), default: real\n\
  -orderings <list>   : MatOrderingTypes (rcm, gpurcm, nd, ...), TYPE@BACKEND[:THREADS] sets -mat_TYPE_backend BACKEND\n\
                        (and -mat_TYPE_threads THREADS) for that run, e.g. gpurcm@cuda,gpurcm@threads:16,gpurcm@serial;\n\
                        cusolver_rcm = cusolverSpXcsrsymrcmHost on the symmetrized pattern (GPU builds)\n\
  -cusolver_max_nnz <n> : skip cusolver_rcm above this many nonzeros (default 40M: it is a slow host routine)\n\
  -flag_symmetric     : flag each symmetric matrix (MatIsSymmetric) MAT_STRUCTURALLY_SYMMETRIC, as applications that set\n\
                        MAT_SYMMETRIC or MAT_SPD do: PETSc's rcm then orders the raw CSR\n\
  plus -matdir, -csv, -reps (default 5 here), -warmup, -batch, -time_limit, -case_time, -no_gpu; load gpurcm with -dll_append <lib>\n";

#include "benchutil.h"

typedef struct {
  Mat         A;
  const char *type;
  IS          r, c;
} OrdCtx;

static PetscErrorCode OrderOp(void *p)
{
  OrdCtx *o = (OrdCtx *)p;

  PetscFunctionBegin;
  PetscCall(ISDestroy(&o->r));
  PetscCall(ISDestroy(&o->c));
  PetscCall(MatGetOrdering(o->A, o->type, &o->r, &o->c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(PETSC_HAVE_CUDA)
/* cuSOLVER's sparse API (cusolverSp*) is deprecated in CUDA 13 in favour of cuDSS, which has no RCM: it is the peer we measure */
  #pragma GCC diagnostic ignored "-Wdeprecated-declarations"
typedef struct {
  cusolverSpHandle_t h;
  cusparseMatDescr_t d;
  PetscInt           n, nnz;
  const int         *ia, *ja;
  int               *p;
} CusolverCtx;

static PetscErrorCode CusolverOp(void *p)
{
  CusolverCtx *c = (CusolverCtx *)p;

  PetscFunctionBegin;
  PetscCallCUSOLVER(cusolverSpXcsrsymrcmHost(c->h, (int)c->n, (int)c->nnz, c->d, c->ia, c->ja, c->p));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* gpurcm's phases (its log events): times summed over all calls so far, to report each phase's share of a timed loop */
static const char *GpurcmPhases[] = {"GPURCMOrder", "GPURCMGraph", "GPURCMRootFind", "GPURCMNumber", "GPURCMSetup"};
#define GPURCM_NPHASES ((int)PETSC_STATIC_ARRAY_LENGTH(GpurcmPhases))
static PetscErrorCode PhaseTimes(PetscLogDouble t[GPURCM_NPHASES])
{
  PetscFunctionBeginUser;
  for (int i = 0; i < GPURCM_NPHASES; i++) {
    PetscLogEvent      id = -1;
    PetscEventPerfInfo info;
    t[i] = 0;
    PetscCall(PetscLogEventGetId(GpurcmPhases[i], &id));
    if (id < 0) continue;
    PetscCall(PetscLogEventGetPerfInfo(PETSC_DETERMINE, id, &info));
    t[i] = info.time;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* tfirst: the process's first call of this ordering on this matrix (one-time setup included), NAN when not measured */
static void Row(BenchCtx *ctx, BenchMatrix *bm, const char ord[], const char status[], double t, double tmin, PetscInt reps, PetscInt bw0, PetscInt bw1, const char ident[], double tfirst, const char note[])
{
  fprintf(ctx->csv, "%s,%s,%" PetscInt_FMT ",%" PetscInt64_FMT ",%s,%s,%.6e,%.6e,%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ",%s,%.4f,%.6e,%s\n", bm->name, bm->kind, bm->m, bm->nnz, ord, status, t, tmin, reps, bw0, bw1, ident, bm->gen_s, tfirst, note);
  fflush(ctx->csv);
}

int main(int argc, char **argv)
{
  BenchCtx   ctx;
  char      *specs[BENCH_MAX_LIST], *mats[BENCH_MAX_LIST], *ords[BENCH_MAX_LIST];
  PetscInt   nspecs, nmats, nords;
  PetscInt64 cusolvermax = 40000000;
  PetscReal  cmax        = 4e7;
  PetscBool  flagsym     = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  { /* fewer reps by default: orderings take up to seconds */
    PetscBool has;
    PetscCall(PetscOptionsHasName(NULL, NULL, "-reps", &has));
    if (!has) PetscCall(PetscOptionsSetValue(NULL, "-reps", "5"));
    PetscCall(PetscOptionsHasName(NULL, NULL, "-warmup", &has));
    if (!has) PetscCall(PetscOptionsSetValue(NULL, "-warmup", "1"));
  }
  PetscCall(PetscLogDefaultBegin()); /* event times give gpurcm's phase shares */
  PetscCall(BenchInitialize(&ctx, "order.csv", "matrix,kind,rows,nnz,ordering,status,time_s,time_min_s,reps,bandwidth_before,bandwidth_after,identical_to_rcm,gen_s,first_s,note"));
  PetscCall(BenchGetList("-matrices", "real", specs, &nspecs));
  PetscCall(BenchExpandMatrixSpecs(&ctx, specs, nspecs, mats, &nmats));
  PetscCall(BenchGetList("-orderings", ctx.gpu ? "rcm,cusolver_rcm" : "rcm", ords, &nords));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-cusolver_max_nnz", &cmax, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-flag_symmetric", &flagsym, NULL));
  cusolvermax = (PetscInt64)cmax;

  for (PetscInt im = 0; im < nmats; im++) {
    BenchMatrix bm;
    PetscBool   ok;
    PetscInt    bw0;
    IS          rref = NULL;

    if (!BenchTimeLeft(&ctx)) {
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# time limit reached: skipping %s\n", mats[im]));
      fprintf(ctx.csv, "%s,,,,,skipped_time_limit,,,,,,,,,\n", mats[im]);
      continue;
    }
    PetscCall(BenchMatrixCreate(&ctx, mats[im], &bm, &ok));
    if (!ok) continue;
    if (bm.m != bm.n) {
      PetscCall(BenchMatrixDestroy(&bm));
      continue;
    }
    if (flagsym) {
      PetscBool sym;
      PetscCall(MatIsSymmetric(bm.A, 0.0, &sym)); /* (computed: SeqAIJ has no pattern-only test) */
      if (sym) PetscCall(MatSetOption(bm.A, MAT_STRUCTURALLY_SYMMETRIC, PETSC_TRUE));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "# %s: %s\n", bm.name, sym ? "flagged structurally symmetric" : "not symmetric: not flagged"));
    }
    PetscCall(BenchPermBandwidth(bm.A, NULL, &bw0));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s: %" PetscInt_FMT " rows, nnz %" PetscInt64_FMT ", bandwidth %" PetscInt_FMT ", made in %.2f s\n", bm.name, bm.m, bm.nnz, bw0, bm.gen_s));
    for (PetscInt io = 0; io < nords; io++) {
      char           type[256], *at, backend[64] = "", threads[32] = "", o1[300] = "", o2[300] = "", note[256] = "";
      PetscErrorCode ierr;
      double         t = NAN, tmin = NAN;
      PetscInt       reps = 0, bw1 = -1;
      const char    *ident = "-";

      if (!BenchTimeLeft(&ctx)) break;
      if (!rref && strcmp(ords[io], MATORDERINGRCM)) { /* PETSc's rcm permutation, the reference of the comparisons */
        IS c;
        BenchTry(ierr, MatGetOrdering(bm.A, MATORDERINGRCM, &rref, &c));
        if (ierr) rref = NULL;
        else PetscCall(ISDestroy(&c));
      }
      PetscCall(PetscStrncpy(type, ords[io], sizeof(type)));
      if ((at = strchr(type, '@'))) {
        char *colon;
        *at++ = 0;
        if ((colon = strchr(at, ':'))) {
          *colon++ = 0;
          PetscCall(PetscStrncpy(threads, colon, sizeof(threads)));
        }
        PetscCall(PetscStrncpy(backend, at, sizeof(backend)));
      }
      if (!strcmp(type, "cusolver_rcm")) {
#if defined(PETSC_HAVE_CUDA)
        if (!ctx.gpu) {
          Row(&ctx, &bm, ords[io], "skipped_no_gpu", NAN, NAN, 0, bw0, -1, "-", NAN, "no GPU");
          continue;
        }
        if (bm.nnz > cusolvermax) {
          Row(&ctx, &bm, ords[io], "skipped_size", NAN, NAN, 0, bw0, -1, "-", NAN, "above -cusolver_max_nnz");
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-20s skipped: nnz above -cusolver_max_nnz\n", ords[io]));
          continue;
        }
        {
          CusolverCtx     cc;
          const PetscInt *ia, *ja;
          PetscInt        n;
          PetscBool       done;
          IS              perm;

          /* the symmetrized pattern A + A^T (what the routine expects), built outside the timing */
          PetscCall(MatGetRowIJ(bm.A, 0, PETSC_TRUE, PETSC_FALSE, &n, &ia, &ja, &done));
          PetscCheck(sizeof(PetscInt) == sizeof(int), PETSC_COMM_SELF, PETSC_ERR_SUP, "cusolver_rcm needs 32-bit PetscInt");
          PetscCallCUSOLVER(cusolverSpCreate(&cc.h));
          PetscCallCUSPARSE(cusparseCreateMatDescr(&cc.d));
          PetscCallCUSPARSE(cusparseSetMatType(cc.d, CUSPARSE_MATRIX_TYPE_GENERAL));
          PetscCallCUSPARSE(cusparseSetMatIndexBase(cc.d, CUSPARSE_INDEX_BASE_ZERO));
          cc.n = n, cc.nnz = ia[n], cc.ia = (const int *)ia, cc.ja = (const int *)ja;
          PetscCall(PetscMalloc1(n, &cc.p));
          BenchTry(ierr, BenchTimeOp(&ctx, PETSC_FALSE, CusolverOp, &cc, 0, &t, &tmin, &reps));
          if (!ierr) {
            PetscCall(BenchPermBandwidth(bm.A, (const PetscInt *)cc.p, &bw1));
            if (rref) {
              PetscBool eq;
              PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, (const PetscInt *)cc.p, PETSC_USE_POINTER, &perm));
              PetscCall(ISEqualUnsorted(perm, rref, &eq));
              PetscCall(ISDestroy(&perm));
              ident = eq ? "yes" : "no";
            }
            Row(&ctx, &bm, ords[io], "ok", t, tmin, reps, bw0, bw1, ident, NAN, "cusolverSpXcsrsymrcmHost call only (A+A^T pattern built outside the timing)");
            PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-20s %10.4f ms (min %.4f, %" PetscInt_FMT " reps)  bandwidth %" PetscInt_FMT "  identical to rcm: %s\n", ords[io], 1e3 * t, 1e3 * tmin, reps, bw1, ident));
          } else {
            PetscCall(BenchErrorNote(ierr, "cusolver", note, sizeof(note)));
            Row(&ctx, &bm, ords[io], "failed", NAN, NAN, 0, bw0, -1, "-", NAN, note);
          }
          PetscCall(PetscFree(cc.p));
          PetscCallCUSPARSE(cusparseDestroyMatDescr(cc.d));
          PetscCallCUSOLVER(cusolverSpDestroy(cc.h));
          PetscCall(MatRestoreRowIJ(bm.A, 0, PETSC_TRUE, PETSC_FALSE, &n, &ia, &ja, &done));
        }
#else
        (void)cusolvermax;
        Row(&ctx, &bm, ords[io], "skipped_no_gpu", NAN, NAN, 0, bw0, -1, "-", NAN, "PETSc without CUDA");
#endif
        continue;
      }
      {
        PetscErrorCode (*fn)(void) = NULL;
        PetscCall(PetscFunctionListFind(MatOrderingList, type, &fn));
        if (!fn) {
          Row(&ctx, &bm, ords[io], "unavailable", NAN, NAN, 0, bw0, -1, "-", NAN, "ordering not registered (library not loaded or not built)");
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-20s not registered: skipped\n", ords[io]));
          continue;
        }
      }
      if (backend[0]) {
        PetscCall(PetscSNPrintf(o1, sizeof(o1), "-mat_%s_backend", type));
        PetscCall(PetscOptionsSetValue(NULL, o1, backend));
        if ((!strcmp(backend, "cuda") || !strcmp(backend, "gpu")) && !ctx.gpu) {
          Row(&ctx, &bm, ords[io], "skipped_no_gpu", NAN, NAN, 0, bw0, -1, "-", NAN, "no GPU");
          PetscCall(PetscOptionsClearValue(NULL, o1));
          continue;
        }
      }
      if (threads[0]) {
        PetscCall(PetscSNPrintf(o2, sizeof(o2), "-mat_%s_threads", type));
        PetscCall(PetscOptionsSetValue(NULL, o2, threads));
      }
      {
        OrdCtx         oc = {bm.A, type, NULL, NULL};
        PetscLogDouble ph0[GPURCM_NPHASES], ph1[GPURCM_NPHASES], f0, f1;
        double         tfirst = NAN;
        /* the first call, timed apart (one-time setup: gpurcm's pinned staging buffers on the GPU, the memory pool's
           growth, first touches of fresh memory); gpurcm's phase shares are of the steady calls that follow */
        ierr = PETSC_SUCCESS;
        PetscCall(PetscTime(&f0));
        BenchTry(ierr, OrderOp(&oc));
        PetscCall(PetscTime(&f1));
        if (!ierr) tfirst = f1 - f0;
        PetscCall(PhaseTimes(ph0));
        if (!ierr) BenchTry(ierr, BenchTimeOp(&ctx, PETSC_FALSE, OrderOp, &oc, 0, &t, &tmin, &reps));
        PetscCall(PhaseTimes(ph1));
        if (!ierr && ph1[0] > ph0[0]) { /* gpurcm ran: shares of its phases in its own time (the timed loop's warm-up calls included) */
          const PetscLogDouble tot = ph1[0] - ph0[0];
          PetscCall(PetscSNPrintf(note, sizeof(note), "MatGetOrdering end to end; gpurcm phases: graph %.0f%% root finding %.0f%% numbering %.0f%% threads' setup %.0f%% of gpurcm's time", 100 * (ph1[1] - ph0[1]) / tot, 100 * (ph1[2] - ph0[2]) / tot, 100 * (ph1[3] - ph0[3]) / tot, 100 * (ph1[4] - ph0[4]) / tot));
        } else PetscCall(PetscStrncpy(note, "MatGetOrdering end to end", sizeof(note)));
        if (!ierr && oc.r) {
          const PetscInt *p;
          PetscCall(ISGetIndices(oc.r, &p));
          PetscCall(BenchPermBandwidth(bm.A, p, &bw1));
          PetscCall(ISRestoreIndices(oc.r, &p));
          if (!rref && !strcmp(ords[io], MATORDERINGRCM)) { /* keep PETSc's rcm result as the reference */
            rref = oc.r;
            oc.r = NULL;
            ident = "yes";
          } else if (rref) {
            PetscBool eq;
            PetscCall(ISEqualUnsorted(oc.r, rref, &eq));
            ident = eq ? "yes" : "no";
          }
          Row(&ctx, &bm, ords[io], "ok", t, tmin, reps, bw0, bw1, ident, tfirst, note);
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-20s %10.4f ms (min %.4f, %" PetscInt_FMT " reps; first call %.4f)  bandwidth %" PetscInt_FMT "  identical to rcm: %s\n", ords[io], 1e3 * t, 1e3 * tmin, reps, 1e3 * tfirst, bw1, ident));
          if (strcmp(note, "MatGetOrdering end to end")) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-20s %s\n", "", note + strlen("MatGetOrdering end to end; ")));
        } else {
          PetscCall(BenchErrorNote(ierr, "MatGetOrdering", note, sizeof(note)));
          Row(&ctx, &bm, ords[io], "failed", NAN, NAN, 0, bw0, -1, "-", NAN, note);
          PetscCall(PetscPrintf(PETSC_COMM_WORLD, "  %-20s failed: %s\n", ords[io], note));
        }
        PetscCall(ISDestroy(&oc.r));
        PetscCall(ISDestroy(&oc.c));
      }
      if (o1[0]) PetscCall(PetscOptionsClearValue(NULL, o1));
      if (o2[0]) PetscCall(PetscOptionsClearValue(NULL, o2));
    }
    PetscCall(ISDestroy(&rref));
    PetscCall(BenchMatrixDestroy(&bm));
  }
  PetscCall(BenchFreeList(specs, nspecs));
  PetscCall(BenchFreeList(mats, nmats));
  PetscCall(BenchFreeList(ords, nords));
  PetscCall(BenchFinalize(&ctx));
  PetscCall(PetscFinalize());
  return 0;
}
