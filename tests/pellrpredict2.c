static char help[] = "The model of the PELLR storage-format predictor (pellrpredict.c): choices of the analytic fallback on\n\
constructed cases, the strict model-file parser (malformed files give clear errors), write/load round trip, the\n\
default-model selection, NNLS on known problems, the fit recovering a known model, cross-validation by groups and\n\
determinism of the choice.\n\n";

/* The predictor's functions are PETSC_INTERN (hidden in the library): the test compiles its source in. */
#define PELLR_PREDICT_HOST_ONLY
#include "../src/mat/impls/pellr/pellrpredict.c"
#include "../src/sys/utils/sparsegputhreads.c" /* the threads it uses (hidden in the library as well) */
#include <unistd.h>

static PetscInt nfail = 0;

static PetscErrorCode Report(const char *what, PetscBool ok)
{
  PetscFunctionBeginUser;
  if (!ok) nfail++;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: %s\n", what, ok ? "yes" : "NO"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode FeaturesFromLengths(PetscInt m, PetscInt n, PetscInt (*len)(PetscInt, void *), void *ctx, PellrFeatures *f)
{
  PetscInt *rp;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(m + 1, &rp));
  rp[0] = 0;
  for (PetscInt i = 0; i < m; i++) rp[i + 1] = rp[i] + len(i, ctx);
  PetscCall(PellrFeaturesCompute(m, n, rp, PETSC_MEMTYPE_HOST, 256, f));
  PetscCall(PetscFree(rp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscInt LenUniform(PetscInt i, void *ctx)
{
  return *(PetscInt *)ctx;
}

/* rows of 4, row m/2 huge (ctx: its length) */
static PetscInt LenHuge(PetscInt i, void *ctx)
{
  return i == 1000 ? *(PetscInt *)ctx : 4;
}

/* irregular: mostly 2..9, every 50th row 40..200, every 997th row 3000 */
static PetscInt LenIrregular(PetscInt i, void *ctx)
{
  unsigned long long h = (unsigned long long)i * 2654435761ULL;
  if (i % 997 == 0) return 3000;
  if (i % 50 == 0) return (PetscInt)(40 + (h >> 7) % 161);
  return (PetscInt)(2 + (h >> 5) % 8);
}

/* rows of lengths 1..31 in random order (mean 16): on both calibrated GPUs cuSPARSE's CSR is the fastest format on
   such rows from 2^16 rows on (the training set's uniform_rand matrices of 16 per row: 1.1-1.45x PELLR) */
static PetscInt LenUniformRandom(PetscInt i, void *ctx)
{
  return (PetscInt)(1 + (((unsigned long long)i * 2654435761ULL) >> 7) % 31);
}

/* ------------------------------------------------------------------------------------------------ analytic choices */

static PetscErrorCode TestAnalytic(void)
{
  PellrModel      M;
  PellrFeatures   f;
  PellrPrediction p, q;
  PetscReal       products[2] = {100, PETSC_INFINITY};

  PetscFunctionBeginUser;
  PetscCall(PellrModelCreateAnalytic(NULL, &M));
  /* uniform rows: every format moves the same matrix bytes; the ELL-type layouts are coalesced (efficiency 0.8 vs
     CSR's 0.6), so once the product is not launch bound an ELL-type format must win */
  for (PetscInt k = 0; k < 2; k++) {
    PetscInt m = k ? 1 << 20 : 1 << 16;
    for (PetscInt l = 5; l <= 27; l += 22) {
      for (PetscInt e = 0; e < 2; e++) {
        char what[128];
        PetscCall(FeaturesFromLengths(m, m, LenUniform, &l, &f));
        PetscCall(PellrModelPredict(M, &f, products[e], NULL, &p));
        PetscCall(PetscSNPrintf(what, sizeof(what), "uniform rows (%" PetscInt_FMT " rows of %" PetscInt_FMT ", %s products): ELL-type choice (%s)", m, l, e ? "infinitely many" : "100", PellrCandidateNames[p.choice]));
        PetscCall(Report(what, (PetscBool)(p.choice != PELLR_CAND_CSR)));
        if (k == 0 && l == 5 && e == 0) PetscCall(PellrPredictionView(PETSC_VIEWER_STDOUT_SELF, &f, &p));
      }
    }
  }
  /* one huge row among short rows: flat ELLR pads every row to the huge one (infeasible: m * maxlen slots), and
     even when allowed the huge row's 32 threads are the critical path */
  for (PetscInt k = 0; k < 2; k++) {
    PetscInt m = 1 << 18, huge = k ? 200000 : 3000;
    char     what[160];
    PetscCall(FeaturesFromLengths(m, m, LenHuge, &huge, &f));
    PetscCall(PellrModelPredict(M, &f, 100, NULL, &p));
    PetscCall(PetscSNPrintf(what, sizeof(what), "one row of %" PetscInt_FMT " among %" PetscInt_FMT " rows of 4: not ELLR (%s), ELLR infeasible", huge, m, PellrCandidateNames[p.choice]));
    PetscCall(Report(what, (PetscBool)(p.choice != PELLR_CAND_ELLR && !p.feasible[PELLR_CAND_ELLR])));
    /* ELLR splits the huge row over 32 threads (its chain is CSR's warp's), PELLR gives it a block of 256 but pays a
       second launch: only the row of 200000 makes ELLR's chain longer than that launch */
    if (k) PetscCall(Report("  its predicted ELLR product is slower than PELLR's (a block for the huge row)", (PetscBool)(p.ts[PELLR_CAND_ELLR] > p.ts[PELLR_CAND_PELLR])));
    if (k == 1) PetscCall(PellrPredictionView(PETSC_VIEWER_STDOUT_SELF, &f, &p));
  }
  { /* irregular rows: sorting (PELLR) removes the padding ELLR and SELL pay for */
    PetscInt m = 1 << 18;
    char     what[128];
    PetscCall(FeaturesFromLengths(m, m, LenIrregular, NULL, &f));
    PetscCall(PellrModelPredict(M, &f, 1000, NULL, &p));
    PetscCall(PetscSNPrintf(what, sizeof(what), "irregular rows: PELLR or CSR (%s)", PellrCandidateNames[p.choice]));
    PetscCall(Report(what, (PetscBool)(p.choice == PELLR_CAND_PELLR || p.choice == PELLR_CAND_CSR)));
    /* rows of 1..31 in random order: neighbouring rows of different lengths, where the analytic model gives CSR 0.9
       of the copy bandwidth instead of 0.6 (PellrAnalyticCSREfficiency()): CSR */
    {
      PellrFeatures   g;
      PellrPrediction r;
      PetscCall(FeaturesFromLengths(1 << 20, 1 << 20, LenUniformRandom, NULL, &g));
      PetscCall(PellrModelPredict(M, &g, 100, NULL, &r));
      PetscCall(PetscSNPrintf(what, sizeof(what), "rows of 1 to 31 in random order (mean %.1f, max %" PetscInt_FMT "): CSR (%s)", (double)g.mean, g.maxlen, PellrCandidateNames[r.choice]));
      PetscCall(Report(what, (PetscBool)(r.choice == PELLR_CAND_CSR)));
    }
    /* determinism and the feasibility mask */
    PetscCall(PellrModelPredict(M, &f, 1000, NULL, &q));
    PetscCall(Report("same features, same model: the same prediction bit for bit", (PetscBool)!memcmp(&p, &q, sizeof(p))));
    {
      PetscBool only[PELLR_NCAND] = {PETSC_FALSE, PETSC_FALSE, PETSC_TRUE, PETSC_FALSE};
      PetscCall(PellrModelPredict(M, &f, 1000, only, &q));
      PetscCall(Report("only SELL feasible: SELL chosen", (PetscBool)(q.choice == PELLR_CAND_SELL)));
    }
    {
      PetscBool      none[PELLR_NCAND] = {PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE};
      PetscErrorCode ierr;
      char          *msg;
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      ierr = PellrModelPredict(M, &f, 1000, none, &q);
      PetscCall(PetscPopErrorHandler());
      PetscCall(PetscErrorMessage(ierr, NULL, &msg));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "no feasible candidate: error %d: %s\n", (int)ierr, msg));
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      ierr = PellrModelPredict(M, &f, 0, NULL, &q);
      PetscCall(PetscPopErrorHandler());
      PetscCall(PetscErrorMessage(ierr, NULL, &msg));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "0 expected products: error %d: %s\n", (int)ierr, msg));
    }
  }
  PetscCall(PellrModelDestroy(&M));
  { /* ties: identical coefficients for every candidate and equal features: the first candidate (csr) wins */
    PetscCall(PellrModelCreateAnalytic(NULL, &M));
    for (PetscInt c = 1; c < PELLR_NCAND; c++)
      for (PetscInt i = 0; i < PELLR_PRED_NINT; i++) M->coef[c][i] = M->coef[0][i];
    PetscCall(PetscMemzero(&f, sizeof(f)));
    f.m = f.n = 100;
    f.nnz     = 100;
    for (PetscInt c = 0; c < PELLR_NCAND; c++) {
      f.work[c]  = 4;
      f.bytes[c] = 3000;
      f.crit[c]  = 1;
      f.slots[c] = 100;
    }
    PetscCall(PellrModelPredict(M, &f, 10, NULL, &p));
    PetscCall(Report("equal totals: the tie goes to the first candidate, csr", (PetscBool)(p.choice == PELLR_CAND_CSR)));
    PetscCall(PellrModelDestroy(&M));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------------------------------ files */

static PetscErrorCode ReadText(const char *path, char **text)
{
  FILE  *fp = fopen(path, "r");
  size_t n;

  PetscFunctionBeginUser;
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open %s", path);
  PetscCall(PetscMalloc1(1 << 20, text));
  n          = fread(*text, 1, (1 << 20) - 1, fp);
  (*text)[n] = 0;
  fclose(fp);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode WriteText(const char *path, const char *text)
{
  FILE *fp = fopen(path, "w");

  PetscFunctionBeginUser;
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write %s", path);
  fputs(text, fp);
  fclose(fp);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* replaces the first occurrence of a by b in s (into out); error when a is missing */
static PetscErrorCode Replace(const char *s, const char *a, const char *b, char *out, size_t len)
{
  const char *p = strstr(s, a);

  PetscFunctionBeginUser;
  PetscCheck(p, PETSC_COMM_SELF, PETSC_ERR_PLIB, "'%s' not in the model text", a);
  PetscCall(PetscSNPrintf(out, len, "%.*s%s%s", (int)(p - s), s, b, p + strlen(a)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the version-v form (2, 3 or 4) of a version-5 model text: version=v, no d4 fields; for version 2 also no l2_mb on
   the hardware line, no c5 and c6 fields */
static PetscErrorCode ToVersion(const char *s, int v, char *out, size_t len)
{
  size_t o = 0;

  PetscFunctionBeginUser;
  while (*s) {
    const char *skip[] = {" d4=", " l2_mb=", " c5=", " c6="};
    PetscBool   skipped = PETSC_FALSE;

    if (!strncmp(s, "version=5", 9)) {
      PetscCheck(o + 9 < len, PETSC_COMM_SELF, PETSC_ERR_PLIB, "buffer too small");
      PetscCall(PetscSNPrintf(out + o, 10, "version=%d", v));
      o += 9, s += 9;
      continue;
    }
    for (int k = 0; k < (v == 2 ? 4 : 1) && !skipped; k++)
      if (!strncmp(s, skip[k], strlen(skip[k]))) {
        s += strlen(skip[k]);
        s += strcspn(s, " \n");
        skipped = PETSC_TRUE;
      }
    if (skipped) continue;
    PetscCheck(o + 1 < len, PETSC_COMM_SELF, PETSC_ERR_PLIB, "buffer too small");
    out[o++] = *s++;
  }
  out[o] = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the version-v form of the version-5 model text good (ToVersion()), written to dir/version<v>.model and loaded;
   *t (free it) holds the text */
static PetscErrorCode LoadAsVersion(const char *good, int v, const char *dir, size_t blen, char **t, PellrModel *L)
{
  char path[PETSC_MAX_PATH_LEN];

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(blen, t));
  PetscCall(ToVersion(good, v, *t, blen));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/version%d.model", dir, v));
  PetscCall(WriteText(path, *t));
  PetscCall(PellrModelLoad(path, L));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* loads path expecting an error; prints the code and the message with the directory replaced by <dir> */
static PetscErrorCode ExpectLoadError(const char *what, const char *dir, const char *path, PetscErrorCode want)
{
  PellrModel     M = NULL;
  PetscErrorCode ierr;
  char          *msg, clean[1024] = "";
  size_t         dl = strlen(dir);

  PetscFunctionBeginUser;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = PellrModelLoad(path, &M);
  PetscCall(PetscPopErrorHandler());
  if (!ierr) {
    PetscCall(PellrModelDestroy(&M));
    PetscCall(Report(what, PETSC_FALSE));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscErrorMessage(ierr, NULL, &msg));
  for (const char *s = msg; *s;) {
    if (!strncmp(s, dir, dl)) {
      PetscCall(PetscStrlcat(clean, "<dir>", sizeof(clean)));
      s += dl;
    } else {
      char c[2] = {*s++, 0};
      PetscCall(PetscStrlcat(clean, c, sizeof(clean)));
    }
  }
  if (ierr != want || M) nfail++;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: error %d%s: %s\n", what, (int)ierr, ierr == want ? "" : " (WRONG CODE)", clean));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* features of the tridiagonal m x m block with its columns (diagonal slices found, kept under auto) */
static PetscErrorCode TridiagonalFeatures(PetscInt m, PellrFeatures *f)
{
  PetscInt *rp, *ci, q = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscMalloc2(m + 1, &rp, 3 * m, &ci));
  rp[0] = 0;
  for (PetscInt i = 0; i < m; i++) {
    for (PetscInt c = i - 1; c <= i + 1; c++)
      if (c >= 0 && c < m) ci[q++] = c;
    rp[i + 1] = q;
  }
  PetscCall(PellrFeaturesCompute(m, m, rp, PETSC_MEMTYPE_HOST, 256, f));
  PetscCall(PellrFeaturesAddLocality(f, rp, ci, MAT_PELLR_DIAGONAL_AUTO));
  PetscCall(PetscFree2(rp, ci));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the same predictions on uniform rows (no column indices) and, with diagonal, on a tridiagonal block (diagonal slices) */
static PetscErrorCode SamePredictions(PellrModel A, PellrModel B, PetscBool diagonal, PetscBool *same)
{
  PetscInt sizes[5] = {100, 5000, 70000, 1 << 20, 1 << 25};

  PetscFunctionBeginUser;
  *same = PETSC_TRUE;
  if (diagonal) {
    PellrFeatures   f;
    PellrPrediction p, q;
    PetscCall(TridiagonalFeatures(1 << 16, &f));
    PetscCall(PellrModelPredict(A, &f, 50, NULL, &p));
    PetscCall(PellrModelPredict(B, &f, 50, NULL, &q));
    for (PetscInt c = 0; c < PELLR_NCAND; c++)
      if (p.ts[c] != q.ts[c] || p.tc[c] != q.tc[c] || p.total[c] != q.total[c] || p.choice != q.choice) *same = PETSC_FALSE;
  }
  for (PetscInt k = 0; k < 5; k++) {
    PellrFeatures   f;
    PellrPrediction p, q;
    PetscInt        l = 3 + k;
    PetscCall(FeaturesFromLengths(PetscMin(sizes[k], 1 << 20), 100, LenUniform, &l, &f));
    f.m = sizes[k]; /* the interval of the larger sizes without building them */
    PetscCall(PellrModelPredict(A, &f, 50, NULL, &p));
    PetscCall(PellrModelPredict(B, &f, 50, NULL, &q));
    for (PetscInt c = 0; c < PELLR_NCAND; c++)
      if (p.ts[c] != q.ts[c] || p.tc[c] != q.tc[c] || p.total[c] != q.total[c] || p.choice != q.choice) *same = PETSC_FALSE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestFiles(void)
{
  char          tmpl[] = "/tmp/pellrpredictXXXXXX", *dir, path[PETSC_MAX_PATH_LEN], *good, *bad;
  PellrModel    M, L;
  PellrHardware hw;
  PetscBool     same;
  size_t        blen = 1 << 20;
  struct {
    const char *what, *from, *to;
  } cases[] = {
    {"version 1 (before the launch term c4)", "pellr-model version=5", "pellr-model version=1"},
    {"version 6", "pellr-model version=5", "pellr-model version=6"},
    {"version 2 with version-3 fields", "pellr-model version=5", "pellr-model version=2"},
    {"version 4 with the version-5 field d4", "pellr-model version=5", "pellr-model version=4"},
    {"no version field", "pellr-model version=5", "pellr-model"},
    {"wrong first line", "pellr-model version=5", "pellr_model version=5"},
    {"hardware: missing l2_mb", " l2_mb=20", ""},
    {"hardware: zero l2_mb", " l2_mb=20", " l2_mb=0"},
    {"candidate: no DRAM coefficient c5", " c5=", " d9="},
    {"hardware: missing launch_us", " launch_us=3", ""},
    {"hardware: extra field", " launch_us=3", " launch_us=3 clock=2"},
    {"hardware: unterminated quote", "gpu=\"NVIDIA H200\"", "gpu=\"NVIDIA H200"},
    {"hardware: bad number", "copy_gbs=4000", "copy_gbs=4000x"},
    {"hardware: zero bandwidth", "h2d_gbs=50", "h2d_gbs=0"},
    {"hardware: negative sm", "sm=132", "sm=-1"},
    {"candidate: wrong order", "cand=csr interval=0", "cand=ellr interval=0"},
    {"candidate: wrong interval", "cand=csr interval=1", "cand=csr interval=2"},
    {"candidate: wrong rows_lo", "rows_lo=4096 ", "rows_lo=4000 "},
    {"candidate: field renamed", " c2=", " c9="},
    {"candidate: field without value", " d1=", " d1= "},
    {"candidate: nan", " c3=", "nan"},
    {"candidate: no launch coefficient c4", " c4=", " d9="},
    {"candidate: no conversion coefficient d4 (version 5)", " d4=0\n", "\n"},
    {"candidate: infinite", " d0=", "inf"},
    {"candidate: negative coefficient", " c3=", "-4e-09"},
    {"candidate: token without =", " samples=0 c0", " samples c0"},
    {"candidate: fractional samples", " samples=0 c0", " samples=0.5 c0"},
    {"missing end", "\nend\n", "\n"},
    {"content after end", "\nend\n", "\nend\ncand=csr\n"},
  };

  PetscFunctionBeginUser;
  dir = mkdtemp(tmpl);
  PetscCheck(dir, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "mkdtemp failed");
  PetscCall(PellrHardwareDefault(&hw));
  PetscCall(PetscStrncpy(hw.gpu, "NVIDIA H200", sizeof(hw.gpu)));
  PetscCall(PellrModelCreateAnalytic(&hw, &M));
  M->analytic = PETSC_FALSE; /* as if calibrated on this GPU */
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/good.model", dir));
  PetscCall(PellrModelWrite(M, path));
  PetscCall(PellrModelLoad(path, &L));
  PetscCall(SamePredictions(M, L, PETSC_TRUE, &same));
  PetscCall(Report("write -> load: identical coefficients and predictions", (PetscBool)(same && !memcmp(M->coef, L->coef, sizeof(M->coef)) && !memcmp(&M->hw, &L->hw, sizeof(M->hw)))));
  PetscCall(PellrModelDestroy(&L));
  PetscCall(ReadText(path, &good));
  { /* comments, blank lines and CRLF line ends are accepted */
    char *t;
    PetscCall(PetscMalloc1(blen, &t));
    PetscCall(Replace(good, "pellr-model version=5\n", "\n   # a comment\npellr-model version=5\r\n\n", t, blen));
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/comments.model", dir));
    PetscCall(WriteText(path, t));
    PetscCall(PellrModelLoad(path, &L));
    PetscCall(SamePredictions(M, L, PETSC_TRUE, &same));
    PetscCall(Report("comments, blank lines and CRLF accepted", same));
    PetscCall(PellrModelDestroy(&L));
    PetscCall(PetscFree(t));
  }
  { /* a version-3 file is read and used as fitted: without the diagonal slices (a version-4 model takes their column
       indices out of the stream), so the same predictions without column indices, a slower sell on a tridiagonal block */
    char           *t;
    PellrFeatures   f;
    PellrPrediction p, q;
    PetscInt        l = 5;

    PetscCall(LoadAsVersion(good, 3, dir, blen, &t, &L));
    PetscCall(FeaturesFromLengths(70000, 100, LenUniform, &l, &f));
    PetscCall(PellrModelPredict(M, &f, 50, NULL, &p));
    PetscCall(PellrModelPredict(L, &f, 50, NULL, &q));
    same = (PetscBool)(!memcmp(p.ts, q.ts, sizeof(p.ts)) && !memcmp(p.total, q.total, sizeof(p.total)));
    PetscCall(TridiagonalFeatures(1 << 16, &f));
    PetscCall(PellrModelPredict(M, &f, 50, NULL, &p));
    PetscCall(PellrModelPredict(L, &f, 50, NULL, &q));
    PetscCall(Report("version 3 file: the same predictions without column indices; with diagonal slices sell and pellr predicted slower, csr the same", (PetscBool)(same && L->version == 3 && M->version == 5 && f.dkept[PELLR_CAND_SELL] > 0 && q.ts[PELLR_CAND_SELL] > p.ts[PELLR_CAND_SELL] && q.ts[PELLR_CAND_PELLR] > p.ts[PELLR_CAND_PELLR] && q.ts[PELLR_CAND_CSR] == p.ts[PELLR_CAND_CSR])));
    PetscCall(PellrModelDestroy(&L));
    PetscCall(PetscFree(t));
  }
  { /* a version-4 file (no d4) is read with d4 = 0: for the analytic coefficients (d4 = 0) the same model */
    char *t;
    PetscCall(LoadAsVersion(good, 4, dir, blen, &t, &L));
    PetscCall(SamePredictions(M, L, PETSC_TRUE, &same));
    PetscCall(Report("version 4 file: read with d4 = 0, the same predictions", (PetscBool)(same && L->version == 4 && strstr(t, "version=4") && !strstr(t, " d4="))));
    PetscCall(PellrModelDestroy(&L));
    PetscCall(PetscFree(t));
  }
  { /* a version-2 file (no c5, c6, l2_mb) is read as c5 = c6 = c2: for the analytic coefficients (c5 = c6 = c2) the same model */
    char *t;
    PetscCall(LoadAsVersion(good, 2, dir, blen, &t, &L));
    PetscCall(SamePredictions(M, L, PETSC_FALSE, &same));
    PetscCall(Report("version 2 file: read with c5 = c6 = c2, the same predictions", (PetscBool)(same && strstr(t, "version=2") && !strstr(t, " c5=") && !strstr(t, "l2_mb"))));
    PetscCall(PellrModelDestroy(&L));
    PetscCall(PetscFree(t));
  }
  /* default selection: a matching calibration is used; another GPU or SM count falls back to the analytic model */
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/good.model", dir));
  PetscCall(PellrModelLoadDefault(path, "NVIDIA H200", 132, &L));
  PetscCall(Report("calibration for this GPU used", (PetscBool)!L->analytic));
  PetscCall(PellrModelDestroy(&L));
  PetscCall(PellrModelLoadDefault(path, "NVIDIA H100", 132, &L));
  PetscCall(Report("calibration for another GPU: analytic fallback", L->analytic));
  PetscCall(PellrModelDestroy(&L));
  PetscCall(PellrModelLoadDefault(path, "NVIDIA H200", 114, &L));
  PetscCall(Report("calibration for another SM count: analytic fallback", L->analytic));
  PetscCall(PellrModelDestroy(&L));
  { /* every embedded calibration must parse, and serves (the first of them, in order) exactly on its own GPU and SM
       count; any other device gets the analytic model, whose source names the GPU and the calibrations built in */
    PetscBool ok = PETSC_TRUE;
    for (PetscInt i = 0; i < PellrModelEmbeddedCount(); i++) {
      PellrModel E, D;
      PetscBool  first = PETSC_TRUE;
      PetscCall(PellrModelLoadEmbedded(i, &E));
      for (PetscInt j = 0; j < i; j++) { /* an earlier calibration for the same device would shadow this one */
        PellrModel P;
        PetscBool  m;
        PetscCall(PellrModelLoadEmbedded(j, &P));
        PetscCall(PellrModelMatchesDevice(P, E->hw.gpu, E->hw.sm, &m));
        if (m) first = PETSC_FALSE;
        PetscCall(PellrModelDestroy(&P));
      }
      PetscCall(PellrModelLoadDefault(NULL, E->hw.gpu, E->hw.sm, &D));
      ok = (PetscBool)(ok && first && !E->analytic && !D->analytic && !strcmp(D->source, E->source) && !strcmp(D->hw.gpu, E->hw.gpu));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "  embedded calibration %" PetscInt_FMT ": %s for %s (%" PetscInt_FMT " SMs)\n", i, E->source, E->hw.gpu, E->hw.sm));
      PetscCall(PellrModelDestroy(&D));
      PetscCall(PellrModelDestroy(&E));
    }
    PetscCall(PellrModelLoadDefault(NULL, "NVIDIA A100-SXM4-80GB", 108, &L));
    ok = (PetscBool)(ok && L->analytic && strstr(L->source, "no calibration built in for this NVIDIA A100-SXM4-80GB with 108 SMs"));
    PetscCall(Report("no file: an embedded calibration exactly on its own device, else the analytic model (and why)", ok));
  }
  PetscCall(PellrModelDestroy(&L));
  { /* the process-wide model: loaded once per file; here no device is identified (host-only build of the test), so a
       calibration never matches and the analytic model serves */
    PellrModel G1, G2, G3;
    PetscBool  cached;
    PetscCall(PellrPredictGetModel(NULL, &G1));
    PetscCall(PellrPredictGetModel("", &G2));
    cached = (PetscBool)(G1 == G2 && G1->analytic); /* read before the next file replaces (frees) the cached model */
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/good.model", dir));
    PetscCall(PellrPredictGetModel(path, &G3));
    PetscCall(Report("process-wide model: cached per file, analytic without a matching device", (PetscBool)(cached && G3->analytic && !strcmp(PellrModelCachedFile, path))));
  }
  PetscCall(PellrModelDestroy(&M));
  /* malformed files */
  PetscCall(PetscMalloc1(blen, &bad));
  for (size_t k = 0; k < PETSC_STATIC_ARRAY_LENGTH(cases); k++) {
    size_t fl = strlen(cases[k].from);
    if (cases[k].from[fl - 1] == '=' && cases[k].to[0] != ' ') { /* replace the value of the first such field */
      const char *v = strstr(good, cases[k].from), *e;
      PetscCheck(v, PETSC_COMM_SELF, PETSC_ERR_PLIB, "'%s' not in the model text", cases[k].from);
      v += fl;
      e = v + strcspn(v, " \n");
      PetscCall(PetscSNPrintf(bad, blen, "%.*s%s%s", (int)(v - good), good, cases[k].to, e));
    } else PetscCall(Replace(good, cases[k].from, cases[k].to, bad, blen));
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/bad%d.model", dir, (int)k));
    PetscCall(WriteText(path, bad));
    PetscCall(ExpectLoadError(cases[k].what, dir, path, PETSC_ERR_FILE_UNEXPECTED));
    (void)unlink(path);
  }
  { /* a candidate line missing, an empty file, a truncated file, no file */
    const char *l = strstr(good, "cand=sell interval=3"), *e = strchr(l, '\n');
    PetscCall(PetscSNPrintf(bad, blen, "%.*s%s", (int)(l - good), good, e + 1));
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/missing_line.model", dir));
    PetscCall(WriteText(path, bad));
    PetscCall(ExpectLoadError("a candidate line missing", dir, path, PETSC_ERR_FILE_UNEXPECTED));
    (void)unlink(path);
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/empty.model", dir));
    PetscCall(WriteText(path, ""));
    PetscCall(ExpectLoadError("empty file", dir, path, PETSC_ERR_FILE_UNEXPECTED));
    (void)unlink(path);
    PetscCall(PetscSNPrintf(bad, blen, "%.*s", (int)(strstr(good, "cand=ellr interval=5") - good), good));
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/truncated.model", dir));
    PetscCall(WriteText(path, bad));
    PetscCall(ExpectLoadError("truncated file", dir, path, PETSC_ERR_FILE_UNEXPECTED));
    (void)unlink(path);
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/no_such.model", dir));
    PetscCall(ExpectLoadError("no such file", dir, path, PETSC_ERR_FILE_OPEN));
  }
  PetscCall(PetscFree(bad));
  PetscCall(PetscFree(good));
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/good.model", dir));
  (void)unlink(path);
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/comments.model", dir));
  (void)unlink(path);
  (void)rmdir(dir);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------------------------------ NNLS, fit, CV */

/* brute force: least squares (normal equations, Gauss-Jordan) on every subset of columns, the smallest residual
   among the nonnegative solutions; independent of PellrNNLS()'s QR */
static PetscReal BruteNNLS(PetscInt m, PetscInt n, const PetscReal A[], const PetscReal b[])
{
  PetscReal best = PETSC_MAX_REAL;

  for (PetscInt mask = 0; mask < (1 << n); mask++) {
    PetscInt  idx[8], k = 0;
    PetscReal G[8][9], x[8], r = 0;
    PetscBool ok = PETSC_TRUE;

    for (PetscInt j = 0; j < n; j++)
      if (mask & (1 << j)) idx[k++] = j;
    for (PetscInt a = 0; a < k; a++) {
      for (PetscInt c = 0; c < k; c++) {
        G[a][c] = 0;
        for (PetscInt i = 0; i < m; i++) G[a][c] += A[i + idx[a] * m] * A[i + idx[c] * m];
      }
      G[a][k] = 0;
      for (PetscInt i = 0; i < m; i++) G[a][k] += A[i + idx[a] * m] * b[i];
    }
    for (PetscInt a = 0; a < k && ok; a++) {
      PetscInt piv = a;
      for (PetscInt c = a + 1; c < k; c++)
        if (PetscAbsReal(G[c][a]) > PetscAbsReal(G[piv][a])) piv = c;
      if (PetscAbsReal(G[piv][a]) < 1e-14) ok = PETSC_FALSE;
      else {
        for (PetscInt c = 0; c <= k; c++) {
          PetscReal t = G[a][c];
          G[a][c]     = G[piv][c];
          G[piv][c]   = t;
        }
        for (PetscInt c = 0; c < k; c++) {
          if (c == a) continue;
          PetscReal f = G[c][a] / G[a][a];
          for (PetscInt d = a; d <= k; d++) G[c][d] -= f * G[a][d];
        }
      }
    }
    if (!ok) continue;
    for (PetscInt a = 0; a < k; a++) {
      x[a] = G[a][k] / G[a][a];
      if (x[a] < 0) ok = PETSC_FALSE;
    }
    if (!ok) continue;
    for (PetscInt i = 0; i < m; i++) {
      PetscReal t = b[i];
      for (PetscInt a = 0; a < k; a++) t -= A[i + idx[a] * m] * x[a];
      r += t * t;
    }
    best = PetscMin(best, PetscSqrtReal(r));
  }
  return best;
}

static PetscReal Uniform(void);

static PetscErrorCode TestNNLS(void)
{
  PetscFunctionBeginUser;
  { /* random problems against the brute force: the same residual, x >= 0 */
    PetscInt  bad = 0;
    PetscReal A[60], b[12], x[5], r;
    for (PetscInt t = 0; t < 300; t++) {
      PetscInt m = 6 + t % 7, n = 1 + t % 5;
      for (PetscInt i = 0; i < m * n; i++) A[i] = 2 * Uniform() - 1 + (t % 3 == 0 ? 1 : 0);
      for (PetscInt i = 0; i < m; i++) b[i] = 2 * Uniform() - 1;
      PetscCall(PellrNNLS(m, n, A, b, x, &r));
      for (PetscInt j = 0; j < n; j++)
        if (x[j] < 0) bad++;
      if (PetscAbsReal(r - BruteNNLS(m, n, A, b)) > 1e-10 * PetscMax(1, r)) bad++;
    }
    PetscCall(Report("NNLS, 300 random problems: x >= 0 and the brute-force optimal residual", (PetscBool)(bad == 0)));
  }
  { /* consistent, full rank: the exact nonnegative solution */
    PetscReal A[12] = {1, 2, 0, 1, /* column 0 */ 0, 1, 3, 1, /* column 1 */ 2, 0, 1, 4}, x0[3] = {1, 2, 0.5}, b[4] = {0, 0, 0, 0}, x[3], r;
    for (PetscInt i = 0; i < 4; i++)
      for (PetscInt j = 0; j < 3; j++) b[i] += A[i + 4 * j] * x0[j];
    PetscCall(PellrNNLS(4, 3, A, b, x, &r));
    PetscCall(Report("NNLS, consistent system: exact solution (1, 2, 0.5) recovered", (PetscBool)(PetscAbsReal(x[0] - 1) < 1e-12 && PetscAbsReal(x[1] - 2) < 1e-12 && PetscAbsReal(x[2] - 0.5) < 1e-12 && r < 1e-12)));
  }
  { /* fit of b = 3, 2, 1 at t = 1, 2, 3 by x0 + x1 t: least squares has slope -1; NNLS gives slope 0, x0 = mean = 2 */
    PetscReal A[6] = {1, 1, 1, 1, 2, 3}, b[3] = {3, 2, 1}, x[2], r;
    PetscCall(PellrNNLS(3, 2, A, b, x, &r));
    PetscCall(Report("NNLS, negative least-squares slope: x = (2, 0)", (PetscBool)(PetscAbsReal(x[0] - 2) < 1e-12 && x[1] == 0 && PetscAbsReal(r - PetscSqrtReal(2)) < 1e-12)));
  }
  { /* everything pulls negative: x = 0 */
    PetscReal A[4] = {1, 1, 1, 2}, b[2] = {-1, -2}, x[2];
    PetscCall(PellrNNLS(2, 2, A, b, x, NULL));
    PetscCall(Report("NNLS, negative right-hand side: x = 0", (PetscBool)(x[0] == 0 && x[1] == 0)));
  }
  { /* dependent columns (the second twice the first) and a zero column: a nonnegative solution with zero residual */
    PetscReal A[12] = {1, 2, 3, 4, 2, 4, 6, 8, 0, 0, 0, 0}, b[4] = {3, 6, 9, 12}, x[3], r;
    PetscCall(PellrNNLS(4, 3, A, b, x, &r));
    PetscCall(Report("NNLS, dependent and zero columns: x >= 0, zero residual", (PetscBool)(x[0] >= 0 && x[1] >= 0 && x[2] == 0 && r < 1e-12 && PetscAbsReal(x[0] + 2 * x[1] - 3) < 1e-12)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static unsigned long long rng = 2024;

/* the longest row's draws: a generator of their own, so that adding them left Uniform()'s sequence as it was */
static unsigned long long rngmaxlen = 4242;

static PetscReal UniformMaxlen(void)
{
  rngmaxlen = rngmaxlen * 6364136223846793005ULL + 1442695040888963407ULL;
  return (PetscReal)((rngmaxlen >> 11) & ((1ULL << 53) - 1)) / (PetscReal)(1ULL << 53);
}

static PetscReal Uniform(void)
{
  rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
  return (PetscReal)((rng >> 11) & ((1ULL << 53) - 1)) / (PetscReal)(1ULL << 53);
}

/* random features of a block with m rows (independent regressors) */
static void RandomFeatures(PetscInt m, PellrFeatures *f)
{
  PetscMemzero(f, sizeof(*f));
  f->m   = m;
  f->n   = m;
  f->nnz = (PetscInt64)(m * (2 + 30 * Uniform()));
  for (PetscInt c = 0; c < PELLR_NCAND; c++) {
    f->work[c]  = (PetscInt64)(f->nnz / 32 * (0.5 + 2 * Uniform())) + 1;
    f->bytes[c] = 12.0 * f->nnz * (1 + 3 * Uniform());
    f->crit[c]  = (PetscInt64)(1 + 5000 * Uniform());
    f->slots[c] = (PetscInt64)(f->nnz * (1 + 2 * Uniform()));
    f->launches[c] = 1 + (PetscInt64)(6 * Uniform());
  }
  f->slots[PELLR_CAND_CSR] = f->nnz; /* CSR stores exactly the nonzeros; the other formats pad */
  f->maxlen                = 1 + (PetscInt)((m - 1) * UniformMaxlen() * UniformMaxlen()); /* TC's d4 (version 5), from a stream of its own: the other features as drawn before d4 existed */
}

/* a random m in interval i */
static PetscInt RandomRows(PetscInt i)
{
  PetscInt64 lo = PellrIntervalLo(i), hi = PellrIntervalHi(i);
  if (lo < 32) lo = 32;
  if (hi < 0) hi = 4 * lo;
  return (PetscInt)(lo + (hi - lo) * Uniform());
}

static PetscErrorCode Evaluate(PellrModel K, PellrSample *s, PetscReal noise)
{
  PellrPrediction p;

  PetscFunctionBeginUser;
  PetscCall(PellrModelPredict(K, &s->f, PETSC_INFINITY, NULL, &p));
  for (PetscInt c = 0; c < PELLR_NCAND; c++) {
    s->ts[c] = p.ts[c] * (1 + noise * (2 * Uniform() - 1));
    s->tc[c] = p.tc[c] * (1 + noise * (2 * Uniform() - 1));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestFit(void)
{
  PellrHardware hw;
  PellrModel    K, F, A;
  PellrSample  *s;
  PetscInt      ns = 0, per = 15, cap = PELLR_PRED_NINT * per, *fold; /* per: enough for 4/5 of an interval to reach the default min_samples (10) in the cross-validation */
  PetscReal     worst = 0;
  PetscBool     keep = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(PellrHardwareDefault(&hw));
  /* the known model: positive random coefficients, different per candidate and interval, but equal in the last two
     intervals (the last gets only 3 samples and is merged with its neighbour); the conversion coefficients of the
     other formats are the CSR's plus more (they are built from the CSR: the prediction counts their conversion as at
     least the CSR's, which the known model then satisfies) */
  PetscCall(PellrModelCreateAnalytic(&hw, &K));
  K->analytic = PETSC_FALSE; /* a linear model of its coefficients alone (no analytic CSR efficiency rule) */
  for (PetscInt c = 0; c < PELLR_NCAND; c++)
    for (PetscInt i = 0; i < PELLR_PRED_NINT; i++) {
      PellrModelCoef *k = &K->coef[c][i];
      if (i == PELLR_PRED_NINT - 1) {
        *k = K->coef[c][i - 1];
        continue;
      }
      k->c[0] = 2e-6 * (1 + Uniform());
      k->c[1] = 1e-11 * (1 + Uniform());
      k->c[2] = 3e-13 * (1 + Uniform());
      k->c[3] = 4e-9 * (1 + Uniform());
      k->c[4] = 3e-6 * (1 + Uniform());
      k->d[0] = 1e-5 * (1 + Uniform());
      k->d[1] = 2e-10 * (1 + Uniform());
      k->d[2] = 1e-10 * (1 + Uniform());
      k->d[3] = 3e-12 * (1 + Uniform());
      k->d[4] = 2e-9 * (1 + UniformMaxlen());
      if (c != PELLR_CAND_CSR)
        for (PetscInt j = 0; j < PELLR_PRED_NTC; j++) k->d[j] += K->coef[PELLR_CAND_CSR][i].d[j];
    }
  PetscCall(PetscMalloc2(cap, &s, cap, &fold));
  for (PetscInt i = 0; i < PELLR_PRED_NINT; i++)
    for (PetscInt j = 0; j < (i == PELLR_PRED_NINT - 1 ? 3 : per); j++) {
      s[ns].group = ns % 10;
      RandomFeatures(RandomRows(i), &s[ns].f);
      PetscCall(Evaluate(K, &s[ns], 0));
      s[ns].ts[PELLR_CAND_ELLR] = NAN; /* ELLR never measured: keeps the analytic coefficients */
      s[ns].tc[PELLR_CAND_ELLR] = NAN;
      ns++;
    }
  PetscCall(PellrModelFit(&hw, ns, s, 0, &F));
  for (PetscInt t = 0; t < 400; t++) {
    PellrFeatures   f;
    PellrPrediction p, q;
    RandomFeatures(RandomRows(t % PELLR_PRED_NINT), &f);
    PetscCall(PellrModelPredict(K, &f, PETSC_INFINITY, NULL, &p));
    PetscCall(PellrModelPredict(F, &f, PETSC_INFINITY, NULL, &q));
    for (PetscInt c = 0; c < PELLR_NCAND; c++) {
      if (c == PELLR_CAND_ELLR) continue;
      worst = PetscMax(worst, PetscAbsReal(q.ts[c] - p.ts[c]) / p.ts[c]);
      worst = PetscMax(worst, PetscAbsReal(q.tc[c] - p.tc[c]) / p.tc[c]);
    }
  }
  PetscCall(Report("fit on exact samples of a known model: predictions within 1e-6 relative", (PetscBool)(worst < 1e-6)));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "  samples per interval of csr:"));
  for (PetscInt i = 0; i < PELLR_PRED_NINT; i++) PetscCall(PetscPrintf(PETSC_COMM_SELF, " %" PetscInt_FMT, F->coef[PELLR_CAND_CSR][i].samples));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, " (the last interval, 3 samples, merged with its neighbour)\n"));
  PetscCall(PellrModelCreateAnalytic(&hw, &A));
  for (PetscInt i = 0; i < PELLR_PRED_NINT; i++) keep = (PetscBool)(keep && F->coef[PELLR_CAND_ELLR][i].samples == 0 && !memcmp(F->coef[PELLR_CAND_ELLR][i].c, A->coef[PELLR_CAND_ELLR][i].c, sizeof(A->coef[0][0].c)) && !memcmp(F->coef[PELLR_CAND_ELLR][i].d, A->coef[PELLR_CAND_ELLR][i].d, sizeof(A->coef[0][0].d)));
  PetscCall(Report("a candidate never measured keeps the analytic coefficients", keep));
  PetscCall(PellrModelDestroy(&A));
  { /* the fitted model written and read back predicts the same */
    char      tmpl[] = "/tmp/pellrpredictXXXXXX", *dir = mkdtemp(tmpl), path[PETSC_MAX_PATH_LEN];
    PellrModel L;
    PetscBool same;
    PetscCheck(dir, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "mkdtemp failed");
    PetscCall(PetscSNPrintf(path, sizeof(path), "%s/fit.model", dir));
    PetscCall(PellrModelWrite(F, path));
    PetscCall(PellrModelLoad(path, &L));
    PetscCall(SamePredictions(F, L, PETSC_TRUE, &same));
    PetscCall(Report("fitted model: write -> load gives identical predictions", (PetscBool)(same && !memcmp(F->coef, L->coef, sizeof(F->coef)))));
    PetscCall(PellrModelDestroy(&L));
    (void)unlink(path);
    (void)rmdir(dir);
  }
  PetscCall(PellrModelDestroy(&F));
  /* cross-validation by groups: exact samples (everything predicted within 5%), then 3% noise */
  for (PetscInt k = 0; k < 2; k++) {
    PellrCVReport rep;
    PetscBool     split = PETSC_FALSE;
    if (k) {
      rng = 77;
      for (PetscInt q = 0; q < ns; q++) PetscCall(Evaluate(K, &s[q], 0.03));
    }
    PetscCall(PellrModelCrossValidate(&hw, ns, s, 5, 0, 100, fold, &rep));
    for (PetscInt a = 0; a < ns; a++)
      for (PetscInt b = 0; b < ns; b++)
        if (s[a].group == s[b].group && fold[a] != fold[b]) split = PETSC_TRUE;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s samples, 5 folds of 10 groups:\n", k ? "3% noise" : "exact"));
    if (!k) PetscCall(PellrCVReportView(PETSC_VIEWER_STDOUT_SELF, &rep)); /* with noise the fractions are not printed: round-off could move one sample */
    PetscCall(Report("  no group split between training and test", (PetscBool)!split));
    if (!k) PetscCall(Report("  exact samples: every prediction within 5%, every choice the best", (PetscBool)(rep.rel5[PELLR_CAND_CSR] == 1 && rep.rel5[PELLR_CAND_SELL] == 1 && rep.rel5[PELLR_CAND_PELLR] == 1 && rep.top1 == 1 && rep.worst == 1)));
    else {
      PetscBool ok = (PetscBool)(rep.top1 >= 0.9 && rep.geomean >= 0.98 && rep.worst >= 0.8);
      for (PetscInt c = 0; c < PELLR_NCAND; c++) ok = (PetscBool)(ok && rep.ntest[c] == ns && rep.rel5[c] >= 0.8 && rep.tc_rel5[c] >= 0.8);
      PetscCall(Report("  3% noise: >= 80% of the predictions within 5%, top-1 >= 90%, geometric mean best/chosen >= 0.98", ok));
    }
  }
  {
    PetscErrorCode ierr;
    PellrCVReport  rep;
    char          *msg;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = PellrModelCrossValidate(&hw, ns, s, 11, 0, 100, NULL, &rep);
    PetscCall(PetscPopErrorHandler());
    PetscCall(PetscErrorMessage(ierr, NULL, &msg));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "11 folds of 10 groups: error %d: %s\n", (int)ierr, msg));
  }
  PetscCall(PetscFree2(s, fold));
  PetscCall(PellrModelDestroy(&K));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The totals count every format's conversion as at least the CSR's: a format whose fitted conversion is below the
   CSR's (fit noise: it is built from the CSR) but that is slower per product must not be chosen for its conversion;
   one that is faster per product still is; the reported TC stays the model's */
static PetscErrorCode TestConversionFloor(void)
{
  PellrHardware   hw;
  PellrModel      K;
  PellrFeatures   f;
  PellrPrediction p, q, r;
  PetscInt        i;
  const PetscBool only[PELLR_NCAND] = {PETSC_TRUE, PETSC_FALSE, PETSC_FALSE, PETSC_TRUE}; /* csr and pellr */

  PetscFunctionBeginUser;
  PetscCall(PellrHardwareDefault(&hw));
  PetscCall(PellrModelCreateAnalytic(&hw, &K));
  K->analytic = PETSC_FALSE; /* a linear model of its coefficients alone */
  RandomFeatures(100000, &f);
  for (PetscInt c = 0; c < PELLR_NCAND; c++) { /* the same features for every candidate: only the coefficients differ */
    f.work[c]     = f.work[PELLR_CAND_CSR];
    f.bytes[c]    = f.bytes[PELLR_CAND_CSR];
    f.crit[c]     = f.crit[PELLR_CAND_CSR];
    f.launches[c] = f.launches[PELLR_CAND_CSR];
    f.slots[c]    = f.slots[PELLR_CAND_CSR];
  }
  PetscCall(PellrModelInterval(f.m, &i));
  K->coef[PELLR_CAND_PELLR][i] = K->coef[PELLR_CAND_CSR][i];
  for (PetscInt j = 0; j < PELLR_PRED_NTC; j++) K->coef[PELLR_CAND_PELLR][i].d[j] = 0.5 * K->coef[PELLR_CAND_CSR][i].d[j];
  K->coef[PELLR_CAND_PELLR][i].c[0] += 1e-7; /* 0.1 us slower per product, conversion half the CSR's */
  PetscCall(PellrModelPredict(K, &f, 100, only, &p));
  K->coef[PELLR_CAND_PELLR][i].c[0] -= 2e-7; /* 0.1 us faster per product */
  PetscCall(PellrModelPredict(K, &f, 100, only, &q));
  PetscCall(PellrModelPredict(K, &f, PETSC_INFINITY, only, &r));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "conversion floor: TC csr %.4e s, pellr %.4e s (reported as fitted); per product pellr -0.1 us slower / faster\n", (double)p.tc[PELLR_CAND_CSR], (double)p.tc[PELLR_CAND_PELLR]));
  PetscCall(Report("conversion floor: cheaper to convert than CSR but slower per product -> csr", (PetscBool)(p.choice == PELLR_CAND_CSR && p.tc[PELLR_CAND_PELLR] < p.tc[PELLR_CAND_CSR])));
  PetscCall(Report("conversion floor: faster per product -> pellr (100 and infinitely many products)", (PetscBool)(q.choice == PELLR_CAND_PELLR && r.choice == PELLR_CAND_PELLR)));
  PetscCall(PellrModelDestroy(&K));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscSparseGPUInitializePackage());
  PetscCall(PellrPredictRegister_Private()); /* this copy's log event */
  PetscCall(TestAnalytic());
  PetscCall(TestFiles());
  PetscCall(TestNNLS());
  PetscCall(TestFit());
  PetscCall(TestConversionFloor());
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "all model checks passed: %s\n", nfail ? "NO" : "yes"));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: model

TEST*/

