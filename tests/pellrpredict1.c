static char help[] = "Features of the PELLR storage-format predictor (pellrpredict.c): hand-computed values on small row-length\n\
patterns, the seed's formulas (MatPELLRWarpIterations(), MatPELLRPerturbation()) and the PELLR layout actually built\n\
(MatPELLRGetInfo()) on generated patterns and on the shared matrices.\n\
  -dir <path>    : directory of the Matrix Market files (*.mtx.gz, listed in MANIFEST.tsv)\n\
  -matrices <a,b>: only these matrices (default: all of MANIFEST.tsv; none: skip them)\n\
  -check_device  : (CUDA) also compute the features from row pointers in GPU memory and compare them with the host's\n\n";

/* The predictor's functions are PETSC_INTERN (hidden in the library): the test compiles its source in. */
#define PELLR_PREDICT_HOST_ONLY
#include "../src/mat/impls/pellr/pellrpredict.c"
#include "../src/sys/utils/sparsegputhreads.c" /* the threads it uses (hidden in the library as well) */
#include "mmio.h"

static PetscInt nfail = 0;

static PetscErrorCode ExpectI(const char *what, PetscInt64 got, PetscInt64 want)
{
  PetscFunctionBeginUser;
  if (got != want) {
    nfail++;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  WRONG %s: %" PetscInt64_FMT ", expected %" PetscInt64_FMT "\n", what, got, want));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ExpectR(const char *what, PetscReal got, PetscReal want)
{
  PetscFunctionBeginUser;
  if (!(PetscAbsReal(got - want) <= 1e-12 * PetscMax(1, PetscAbsReal(want)))) {
    nfail++;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  WRONG %s: %.15g, expected %.15g\n", what, (double)got, (double)want));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode RowPtr(PetscInt m, const PetscInt len[], PetscInt **rp)
{
  PetscFunctionBeginUser;
  PetscCall(PetscMalloc1(m + 1, rp));
  (*rp)[0] = 7; /* row pointers need not start at 0 */
  for (PetscInt i = 0; i < m; i++) (*rp)[i + 1] = (*rp)[i] + len[i];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the features agree with the seed's formulas of pellr.c, exactly */
static PetscErrorCode CheckFormulas(const char *name, PetscInt m, const PetscInt len[], const PellrFeatures *f)
{
  PetscInt64 e, er, p;
  PetscReal  dp;

  PetscFunctionBeginUser;
  PetscCall(MatPELLRWarpIterations(m, len, PELLR_SLICE, &e, &er, &p));
  PetscCall(MatPELLRPerturbation(m, len, &dp));
  PetscCall(ExpectI("formula it_ell", f->it_ell, e));
  PetscCall(ExpectI("formula it_ellr", f->it_ellr, er));
  PetscCall(ExpectI("formula it_sell", f->it_sell, er));
  PetscCall(ExpectI("formula it_pellr", f->it_pellr, p));
  if (f->perturbation != dp) { /* bit for bit */
    nfail++;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  WRONG %s perturbation %.17g, MatPELLRPerturbation() %.17g\n", name, (double)f->perturbation, (double)dp));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the features agree with the PELLR layout built by MATPELLR (long rows, slices, slots, iterations) */
static PetscErrorCode CheckLayout(Mat A, PetscInt longlen, const PellrFeatures *f)
{
  Mat          P;
  MatPELLRInfo info;
  char         opt[64];

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(opt, sizeof(opt), "%" PetscInt_FMT, longlen));
  PetscCall(PetscOptionsSetValue(NULL, "-mat_pellr_long_row_length", opt));
  PetscCall(MatConvert(A, MATPELLR, MAT_INITIAL_MATRIX, &P));
  PetscCall(MatSetFromOptions(P));
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatPELLRGetInfo(P, PETSC_FALSE, &info));
  PetscCall(PetscOptionsClearValue(NULL, "-mat_pellr_long_row_length"));
  PetscCall(ExpectI("layout rows", f->m, info.rows));
  PetscCall(ExpectI("layout nonempty rows", f->m - f->empty, info.nonempty_rows));
  PetscCall(ExpectI("layout long rows", f->nlong, info.long_rows));
  PetscCall(ExpectI("layout slices", f->nslices, info.slices));
  PetscCall(ExpectI("layout max row length", f->maxlen, info.max_row_length));
  PetscCall(ExpectI("layout nonzeros", f->nnz, info.nonzeros));
  PetscCall(ExpectI("layout slots", f->slots[PELLR_CAND_PELLR], info.slots));
  PetscCall(ExpectI("layout it_ell", f->it_ell, info.iterations_ell));
  PetscCall(ExpectI("layout it_ellr", f->it_ellr, info.iterations_ellr));
  PetscCall(ExpectI("layout it_pellr", f->it_pellr, info.iterations_pellr));
  PetscCall(ExpectR("layout perturbation", f->perturbation, info.perturbation));
  PetscCall(MatDestroy(&P));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* an m x n SeqAIJ with the given row lengths (columns 0, 1, ...; n >= the longest row) */
static PetscErrorCode PatternMat(PetscInt m, PetscInt n, const PetscInt len[], Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, m, n, 0, len, A));
  for (PetscInt i = 0; i < m; i++)
    for (PetscInt j = 0; j < len[i]; j++) PetscCall(MatSetValue(*A, i, (j * 7 + i) % n, 1.0 + j, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool check_device = PETSC_FALSE;

static PetscErrorCode CheckDevice(const char *name, PetscInt m, PetscInt n, const PetscInt rp[], PetscInt longlen)
{
  PetscBool same;

  PetscFunctionBeginUser;
  if (!check_device) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatPELLRPredictCheckDevice(m, n, rp, longlen, &same));
  if (!same) {
    nfail++;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  WRONG %s: the GPU features differ from the host's\n", name));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the column access as well (PellrFeaturesAddLocalityDevice()): every feature equal to the host's */
static PetscInt ndevloc = 0;

static PetscErrorCode CheckDeviceLocality(const char *name, PetscInt m, PetscInt n, const PetscInt rp[], const PetscInt ci[], PetscInt longlen)
{
  PetscBool same;

  PetscFunctionBeginUser;
  if (!check_device) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatPELLRPredictCheckDeviceLocality(m, n, rp, ci, longlen, &same));
  ndevloc++;
  if (!same) {
    nfail++;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "  WRONG %s (long rows from %" PetscInt_FMT "): the GPU column access differs from the host's\n", name, longlen));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* hand-computed features of small patterns */
static PetscErrorCode TestHand(void)
{
  PellrFeatures f;
  PetscInt     *rp;

  PetscFunctionBeginUser;
  { /* A: 40 rows of 3: one ELL width, no padding but the last slice's */
    PetscInt len[40];
    for (PetscInt i = 0; i < 40; i++) len[i] = 3;
    PetscCall(RowPtr(40, len, &rp));
    PetscCall(PellrFeaturesCompute(40, 50, rp, PETSC_MEMTYPE_HOST, 256, &f));
    PetscCall(ExpectI("A nnz", f.nnz, 120));
    PetscCall(ExpectI("A empty", f.empty, 0));
    PetscCall(ExpectI("A maxlen", f.maxlen, 3));
    PetscCall(ExpectR("A mean", f.mean, 3));
    PetscCall(ExpectR("A stddev", f.stddev, 0));
    PetscCall(ExpectI("A hist[2]", f.hist[2], 40)); /* [2,4) */
    PetscCall(ExpectI("A it_ell", f.it_ell, 6));
    PetscCall(ExpectI("A it_ellr", f.it_ellr, 6));
    PetscCall(ExpectI("A it_pellr", f.it_pellr, 6));
    PetscCall(ExpectI("A it_pslice", f.it_pslice, 6));
    PetscCall(ExpectR("A perturbation", f.perturbation, 0));
    PetscCall(ExpectI("A nlong", f.nlong, 0));
    PetscCall(ExpectI("A nslices", f.nslices, 2));
    PetscCall(ExpectI("A slots csr", f.slots[PELLR_CAND_CSR], 120));
    PetscCall(ExpectI("A slots ellr", f.slots[PELLR_CAND_ELLR], 120));
    PetscCall(ExpectI("A slots sell", f.slots[PELLR_CAND_SELL], 192));
    PetscCall(ExpectI("A slots pellr", f.slots[PELLR_CAND_PELLR], 192));
    /* value and index sectors: 10 groups of 4 rows and 5 of 8 rows, each as long as its longest row (3); x without
       column indices: nnz/4 sectors of 32 bytes for every format */
    PetscCall(ExpectI("A q4_nat", f.q4_nat, 30));
    PetscCall(ExpectI("A q8_nat", f.q8_nat, 15));
    PetscCall(ExpectI("A q4_srt", f.q4_srt, 30));
    PetscCall(ExpectI("A q8_srt", f.q8_srt, 15));
    PetscCall(ExpectR("A bytes csr", f.bytes[PELLR_CAND_CSR], 12 * 120 + 4 * 41 + 8 * 50 + 8 * 40 + 8 * 120));
    PetscCall(ExpectR("A bytes ellr", f.bytes[PELLR_CAND_ELLR], 32 * 45 + 4 * 40 + 8 * 50 + 8 * 40 + 8 * 120));
    PetscCall(ExpectR("A bytes sell", f.bytes[PELLR_CAND_SELL], 32 * 45 + 4 * 3 + 8 * 50 + 8 * 40 + 8 * 120));
    PetscCall(ExpectR("A bytes pellr", f.bytes[PELLR_CAND_PELLR], 32 * 45 + 4 * 40 + 4 * 64 + 4 * 3 + 4 * 1 + 8 * 50 + 8 * 40 + 8 * 120));
    PetscCall(ExpectR("A xsec csr (not sampled)", f.xsec[PELLR_CAND_CSR], -1));
    for (PetscInt c = 0; c < PELLR_NCAND; c++) PetscCall(ExpectI("A launches", f.launches[c], c == PELLR_CAND_CSR ? 2 : 1)); /* width 3: one thread per row; csr: 3 < 16 entries a row, cuSPARSE (2) */
    PetscCall(ExpectI("A work csr", f.work[PELLR_CAND_CSR], 4));
    PetscCall(ExpectI("A crit ellr", f.crit[PELLR_CAND_ELLR], 3));
    PetscCall(CheckFormulas("A", 40, len, &f));
    PetscCall(CheckDevice("A", 40, 50, rp, 256));
    PetscCall(PetscFree(rp));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "A (40 rows of 3): checked\n"));
  }
  { /* B: lengths 0 5 1 300 2, long-row length 256: one long row (a warp per row), one slice */
    PetscInt len[5] = {0, 5, 1, 300, 2};
    PetscCall(RowPtr(5, len, &rp));
    PetscCall(PellrFeaturesCompute(5, 400, rp, PETSC_MEMTYPE_HOST, 256, &f));
    PetscCall(ExpectI("B nnz", f.nnz, 308));
    PetscCall(ExpectI("B empty", f.empty, 1));
    PetscCall(ExpectI("B maxlen", f.maxlen, 300));
    PetscCall(ExpectR("B mean", f.mean, 61.6));
    PetscCall(ExpectR("B stddev", f.stddev, PetscSqrtReal(90030.0 / 5 - 61.6 * 61.6))); /* sum of squares 0+25+1+90000+4 */
    PetscCall(ExpectI("B hist[0]", f.hist[0], 1));
    PetscCall(ExpectI("B hist[1]", f.hist[1], 1)); /* [1,2): 1 */
    PetscCall(ExpectI("B hist[2]", f.hist[2], 1)); /* [2,4): 2 */
    PetscCall(ExpectI("B hist[3]", f.hist[3], 1)); /* [4,8): 5 */
    PetscCall(ExpectI("B hist[9]", f.hist[9], 1)); /* [256,512): 300 */
    PetscCall(ExpectI("B it_ell", f.it_ell, 300));
    PetscCall(ExpectI("B it_ellr", f.it_ellr, 300));
    PetscCall(ExpectI("B it_pellr", f.it_pellr, 300));
    PetscCall(ExpectR("B perturbation", f.perturbation, 606.0 / (4 * 61.6))); /* 5 + 4 + 299 + 298 */
    PetscCall(ExpectI("B nlong", f.nlong, 1));
    PetscCall(ExpectI("B nblock", f.nblock, 0));
    PetscCall(ExpectI("B nnz_long", f.nnz_long, 300));
    PetscCall(ExpectR("B long_fraction", f.long_fraction, 300.0 / 308));
    PetscCall(ExpectI("B nslices", f.nslices, 1));
    PetscCall(ExpectI("B it_pslice", f.it_pslice, 5));
    PetscCall(ExpectI("B slots ellr", f.slots[PELLR_CAND_ELLR], 1500));
    PetscCall(ExpectI("B slots sell", f.slots[PELLR_CAND_SELL], 9600));
    PetscCall(ExpectI("B slots pellr", f.slots[PELLR_CAND_PELLR], 300 + 32 * 5));
    PetscCall(ExpectI("B work csr", f.work[PELLR_CAND_CSR], 10));
    PetscCall(ExpectI("B work pellr", f.work[PELLR_CAND_PELLR], 5 + 10));
    PetscCall(ExpectI("B crit csr", f.crit[PELLR_CAND_CSR], 10));
    PetscCall(ExpectI("B crit sell", f.crit[PELLR_CAND_SELL], 19));   /* one slice of width 300, 16 threads per row */
    PetscCall(ExpectI("B crit pellr", f.crit[PELLR_CAND_PELLR], 15)); /* the warp-row kernel ceil(300/32), then the slice (width 5, a thread per row) */
    PetscCall(ExpectI("B long_min", f.long_min, 300));
    PetscCall(ExpectI("B q4_nat", f.q4_nat, 300 + 2));
    PetscCall(ExpectI("B q8_nat", f.q8_nat, 300));
    PetscCall(ExpectI("B q4_srt", f.q4_srt, 5)); /* the slice: sorted rows 5 2 1 */
    PetscCall(ExpectI("B launches sell", f.launches[PELLR_CAND_SELL], 1));   /* one slice of width 300: 16 threads per row */
    PetscCall(ExpectI("B launches pellr", f.launches[PELLR_CAND_PELLR], 3)); /* warp rows, one slice class, empty rows */
    PetscCall(ExpectI("B launches csr", f.launches[PELLR_CAND_CSR], 2)); /* mean 61.6 >= 16 but the row of 300 > 4 x 61.6: cuSPARSE */
    PetscCall(ExpectR("B bytes pellr", f.bytes[PELLR_CAND_PELLR], 12 * 300 + 32 * (5 + 5) + 4 * 5 + 4 * 32 + 4 * 2 + 4 * 2 + 8 * 400 + 8 * 5 + 8 * 308));
    PetscCall(CheckFormulas("B", 5, len, &f));
    PetscCall(CheckDevice("B", 5, 400, rp, 256));
    PetscCall(PetscFree(rp));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "B (lengths 0 5 1 300 2): checked\n"));
  }
  { /* C: one row of 100 among 39 rows of 2: its slice would be 1 - 162/3200 padding, so it is long (the 1/3 rule) */
    PetscInt len[40];
    for (PetscInt i = 0; i < 40; i++) len[i] = i == 5 ? 100 : 2;
    PetscCall(RowPtr(40, len, &rp));
    PetscCall(PellrFeaturesCompute(40, 200, rp, PETSC_MEMTYPE_HOST, 256, &f));
    PetscCall(ExpectI("C nlong", f.nlong, 1));
    PetscCall(ExpectI("C nslices", f.nslices, 2));
    PetscCall(ExpectI("C it_pslice", f.it_pslice, 4));
    PetscCall(ExpectI("C it_pellr", f.it_pellr, 102));
    PetscCall(ExpectI("C it_ellr", f.it_ellr, 102));
    PetscCall(ExpectI("C it_ell", f.it_ell, 200));
    PetscCall(ExpectI("C crit pellr", f.crit[PELLR_CAND_PELLR], 4 + 2)); /* warp row ceil(100/32), slices of width 2 */
    PetscCall(CheckFormulas("C", 40, len, &f));
    PetscCall(CheckDevice("C", 40, 200, rp, 256));
    PetscCall(PetscFree(rp));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "C (one row of 100 among rows of 2): checked\n"));
  }
  { /* D: 64 rows of 40: full slices, not long; E: the same with long-row length 40: all long */
    PetscInt len[64];
    for (PetscInt i = 0; i < 64; i++) len[i] = 40;
    PetscCall(RowPtr(64, len, &rp));
    PetscCall(PellrFeaturesCompute(64, 64, rp, PETSC_MEMTYPE_HOST, 256, &f));
    PetscCall(ExpectI("D nlong", f.nlong, 0));
    PetscCall(ExpectI("D it_pslice", f.it_pslice, 80));
    PetscCall(ExpectI("D crit pellr", f.crit[PELLR_CAND_PELLR], 20)); /* width 40: 2 threads per row */
    PetscCall(PellrFeaturesCompute(64, 64, rp, PETSC_MEMTYPE_HOST, 40, &f));
    PetscCall(ExpectI("E nlong", f.nlong, 64));
    PetscCall(ExpectI("E nslices", f.nslices, 0));
    PetscCall(ExpectI("E it_pslice", f.it_pslice, 0));
    PetscCall(ExpectI("E work pellr", f.work[PELLR_CAND_PELLR], 128));
    PetscCall(ExpectI("E slots pellr", f.slots[PELLR_CAND_PELLR], 2560));
    PetscCall(CheckDevice("E", 64, 64, rp, 40));
    PetscCall(PetscFree(rp));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "D, E (64 rows of 40, long-row length 256 and 40): checked\n"));
  }
  { /* F: rows of 2000, 1500, 1500 (>= PELLR_PRED_HCAP: the list of long lengths) and 100 rows of 1 */
    PetscInt len[103];
    for (PetscInt i = 0; i < 103; i++) len[i] = 1;
    len[10] = 1500;
    len[50] = 2000;
    len[90] = 1500;
    PetscCall(RowPtr(103, len, &rp));
    PetscCall(PellrFeaturesCompute(103, 3000, rp, PETSC_MEMTYPE_HOST, 256, &f));
    PetscCall(ExpectI("F nnz", f.nnz, 5100));
    PetscCall(ExpectI("F maxlen", f.maxlen, 2000));
    PetscCall(ExpectI("F hist[11]", f.hist[11], 3)); /* [1024,2048) */
    PetscCall(ExpectI("F nlong", f.nlong, 3));
    PetscCall(ExpectI("F nblock", f.nblock, 3));
    PetscCall(ExpectI("F nnz_long", f.nnz_long, 5000));
    PetscCall(ExpectI("F crit pellr", f.crit[PELLR_CAND_PELLR], 8 + 1)); /* block rows ceil(2000/256), slices of width 1 */
    PetscCall(ExpectI("F crit sell", f.crit[PELLR_CAND_SELL], 63 + 1));  /* widest 32-thread slice ceil(2000/32), the 1-thread slice 1 */
    PetscCall(ExpectI("F crit ellr", f.crit[PELLR_CAND_ELLR], 63));      /* ceil(2000/32) */
    PetscCall(ExpectI("F it_ellr", f.it_ellr, 1500 + 2000 + 1500 + 1));
    PetscCall(ExpectI("F it_pellr", f.it_pellr, 2000 + 1 + 1 + 1));
    PetscCall(ExpectI("F launches pellr", f.launches[PELLR_CAND_PELLR], 2)); /* block rows, one slice class */
    PetscCall(ExpectI("F launches sell", f.launches[PELLR_CAND_SELL], 2));   /* slice widths 1500, 2000, 1500 (32 threads per row) and 1 (one) */
    PetscCall(CheckFormulas("F", 103, len, &f));
    PetscCall(CheckDevice("F", 103, 3000, rp, 256));
    PetscCall(PetscFree(rp));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "F (rows of 2000, 1500, 1500 among rows of 1): checked\n"));
  }
  { /* H: a row of 10000 among rows of 1: the block rows are cut into chunks of 4096 entries (the kernel's chain is a chunk) */
    PetscInt len[200];
    for (PetscInt i = 0; i < 200; i++) len[i] = 1;
    len[7] = 10000;
    PetscCall(RowPtr(200, len, &rp));
    PetscCall(PellrFeaturesCompute(200, 20000, rp, PETSC_MEMTYPE_HOST, 256, &f));
    PetscCall(ExpectI("H nblock", f.nblock, 1));
    PetscCall(ExpectI("H crit pellr", f.crit[PELLR_CAND_PELLR], 16 + 1)); /* ceil(4096/256) for the chunk, slices of width 1 */
    PetscCall(ExpectI("H crit csr", f.crit[PELLR_CAND_CSR], 313));        /* ceil(10000/32): cuSPARSE's warp per row */
    PetscCall(CheckFormulas("H", 200, len, &f));
    PetscCall(CheckDevice("H", 200, 20000, rp, 256));
    PetscCall(PetscFree(rp));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "H (a row of 10000 among rows of 1): checked\n"));
  }
  { /* G: m = 0 and a matrix of empty rows */
    PetscInt len[3] = {0, 0, 0};
    PetscCall(RowPtr(3, len, &rp));
    PetscCall(PellrFeaturesCompute(0, 0, rp, PETSC_MEMTYPE_HOST, 256, &f));
    PetscCall(ExpectI("G0 nnz", f.nnz, 0));
    PetscCall(ExpectI("G0 slices", f.nslices, 0));
    PetscCall(PellrFeaturesCompute(3, 3, rp, PETSC_MEMTYPE_HOST, 256, &f));
    PetscCall(ExpectI("G empty", f.empty, 3));
    PetscCall(ExpectI("G nslices", f.nslices, 0));
    PetscCall(ExpectI("G it_ellr", f.it_ellr, 0));
    PetscCall(ExpectR("G perturbation", f.perturbation, 0));
    PetscCall(CheckDevice("G", 3, 3, rp, 256));
    PetscCall(PetscFree(rp));
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "G (no rows, empty rows): checked\n"));
  }
  { /* decreasing row pointers: a clear error */
    PetscInt       rpbad[3] = {0, 5, 3};
    PetscErrorCode ierr;
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = PellrFeaturesCompute(2, 5, rpbad, PETSC_MEMTYPE_HOST, 256, &f);
    PetscCall(PetscPopErrorHandler());
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "decreasing row pointers: error %d (PETSC_ERR_ARG_CORRUPT: %s)\n", (int)ierr, ierr == PETSC_ERR_ARG_CORRUPT ? "yes" : "no"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* random patterns (powers-law-like lengths, runs, rows >= 1024) against the formulas and the built layout */
static PetscErrorCode TestRandom(void)
{
  unsigned long long seed = 12345;
  PetscInt           ncase = 60;

  PetscFunctionBeginUser;
  for (PetscInt c = 0; c < ncase; c++) {
    PetscInt      m, n = 3000, *len, *rp, longlen = (c % 3 == 0) ? 256 : (c % 3 == 1) ? 40 : 100000;
    PellrFeatures f;
    Mat           A;
    char          name[32];

    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    m    = 1 + (PetscInt)((seed >> 33) % 700);
    PetscCall(PetscMalloc1(m, &len));
    for (PetscInt i = 0; i < m; i++) {
      unsigned long long r;
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      r    = seed >> 33;
      if (r % 97 == 0) len[i] = (PetscInt)(1024 + r % 1500);    /* block rows */
      else if (r % 13 == 0) len[i] = (PetscInt)(32 + r % 300); /* medium rows */
      else if (r % 7 == 0) len[i] = 0;                         /* empty rows */
      else len[i] = (PetscInt)(1 + (r >> 5) % (1 + c % 40));
    }
    PetscCall(RowPtr(m, len, &rp));
    PetscCall(PetscSNPrintf(name, sizeof(name), "random %" PetscInt_FMT, c));
    PetscCall(PellrFeaturesCompute(m, n, rp, PETSC_MEMTYPE_HOST, longlen, &f));
    PetscCall(CheckFormulas(name, m, len, &f));
    PetscCall(PatternMat(m, n, len, &A));
    PetscCall(CheckLayout(A, longlen, &f));
    PetscCall(CheckDevice(name, m, n, rp, longlen));
    PetscCall(MatDestroy(&A));
    PetscCall(PetscFree(rp));
    PetscCall(PetscFree(len));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%" PetscInt_FMT " random patterns: checked against the formulas and the PELLR layout\n", ncase));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestShared(const char dir[], const char name[], void *ctx)
{
  char            path[PETSC_MAX_PATH_LEN + 300];
  MMTriplets      t;
  Mat             A;
  const PetscInt *ia, *ja;
  PetscInt        m, n, *len, before = nfail;
  PetscBool       done;
  PetscInt        longlens[2] = {256, 3};

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s.mtx.gz", dir, name));
  PetscCall(MMRead(path, PETSC_TRUE, &t));
  PetscCall(MMTripletsAssemble(PETSC_COMM_SELF, &t, MATSEQAIJ, PETSC_TRUE, &A));
  PetscCall(MMTripletsDestroy(&t));
  PetscCall(MatGetSize(A, &m, &n));
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ia, &ja, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_PLIB, "MatGetRowIJ failed");
  PetscCall(PetscMalloc1(m, &len));
  for (PetscInt i = 0; i < m; i++) len[i] = ia[i + 1] - ia[i];
  for (PetscInt k = 0; k < 2; k++) {
    PellrFeatures f;
    PetscCall(PellrFeaturesCompute(m, n, ia, PETSC_MEMTYPE_HOST, longlens[k], &f));
    PetscCall(CheckFormulas(name, m, len, &f));
    PetscCall(CheckDevice(name, m, n, ia, longlens[k]));
    PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ia, &ja, &done));
    PetscCall(CheckLayout(A, longlens[k], &f));
    PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ia, &ja, &done));
    if (k == 0) {
      PetscCall(PellrFeaturesAddLocality(&f, ia, ja, MAT_PELLR_DIAGONAL_AUTO)); /* the column access of the formats, as the prediction sees it */
      PetscCall(CheckDeviceLocality(name, m, n, ia, ja, longlens[k]));
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: ", name));
      PetscCall(PellrFeaturesView(PETSC_VIEWER_STDOUT_SELF, &f));
    }
  }
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ia, &ja, &done));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: features match the formulas and the PELLR layout (long-row lengths 256 and 3): %s\n", name, nfail == before ? "yes" : "NO"));
  PetscCall(PetscFree(len));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the host pass split among threads (from PELLR_PRED_THREAD_ROWS rows on) gives the summary and features of one thread,
   whatever the number of threads; corrupt row pointers in any thread's range give the error of one thread */
static PetscErrorCode TestThreads(void)
{
  unsigned long long seed   = 4242;
  PetscInt           before = nfail, ncase = 6;
  const PetscInt     tcount[3] = {2, 3, 8};

  PetscFunctionBeginUser;
  for (PetscInt c = 0; c < ncase; c++) {
    PetscInt           m = PELLR_PRED_THREAD_ROWS + 1 + (PetscInt)(c * 98765 % 300000), *len, *rp;
    PellrLengthSummary s1, st;
    PellrFeatures      f1, ft;

    PetscCall(PetscMalloc1(m, &len));
    for (PetscInt i = 0; i < m; i++) {
      unsigned long long r;
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      r    = seed >> 33;
      if (c % 2 == 0) len[i] = (i / 1000) % 2 ? 5 : 4;                                                         /* runs across the ranges */
      else len[i] = r % 4001 == 0 ? (PetscInt)(1024 + r % 5000) : r % 7 == 0 ? 0 : (PetscInt)(1 + (r >> 7) % 40); /* long, empty, random rows */
    }
    PetscCall(RowPtr(m, len, &rp));
    PetscCall(PellrLengthSummaryHost(m, rp, 1, &s1));
    PetscCall(PellrFeaturesFinish(m, m, 256, &s1, &f1));
    for (PetscInt k = 0; k < 3; k++) {
      PetscBool same;
      PetscCall(PellrLengthSummaryHost(m, rp, tcount[k], &st));
      PetscCall(PetscSortInt(st.nbig, st.big)); /* the long rows come in any order */
      PetscCall(PetscSortInt(s1.nbig, s1.big));
      same = (PetscBool)(st.nbig == s1.nbig && st.nnz == s1.nnz && st.ellr == s1.ellr && st.q4 == s1.q4 && st.q8 == s1.q8 && st.pert == s1.pert);
      for (PetscInt l = 0; l < PELLR_PRED_HCAP; l++) same = (PetscBool)(same && st.cnt[l] == s1.cnt[l]);
      for (PetscInt l = 0; l < 6; l++) same = (PetscBool)(same && st.gcls[l] == s1.gcls[l] && st.gmax[l] == s1.gmax[l]);
      for (PetscInt l = 0; same && l < st.nbig; l++) same = (PetscBool)(st.big[l] == s1.big[l]);
      PetscCall(PellrFeaturesFinish(m, m, 256, &st, &ft));
      same = (PetscBool)(same && !memcmp(&ft, &f1, sizeof(ft)));
      if (!same) {
        nfail++;
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "  WRONG summary of %" PetscInt_FMT " rows with %" PetscInt_FMT " threads\n", m, tcount[k]));
      }
      PetscCall(PetscFree(st.big));
    }
    { /* corrupt row pointers in the last range: the error of one thread */
      PetscErrorCode e1, et;
      const PetscInt bad = m - 7, keep = rp[bad];
      rp[bad] = rp[bad + 1] + 1;
      PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
      e1 = PellrLengthSummaryHost(m, rp, 1, &st);
      et = PellrLengthSummaryHost(m, rp, 3, &st);
      PetscCall(PetscPopErrorHandler());
      rp[bad] = keep;
      if (e1 != PETSC_ERR_ARG_CORRUPT || et != PETSC_ERR_ARG_CORRUPT) {
        nfail++;
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "  WRONG corrupt row pointers: errors %d (1 thread), %d (3 threads)\n", (int)e1, (int)et));
      }
    }
    PetscCall(PetscFree(s1.big));
    PetscCall(PetscFree(rp));
    PetscCall(PetscFree(len));
  }
  { /* the blocks whose column access the prediction and the calibration sample */
    PellrFeatures g;
    PetscBool     ok;
    PetscCall(PetscMemzero(&g, sizeof(g)));
    g.m   = PELLR_PRED_LOCALITY_ROWS - 1;
    g.nnz = PELLR_PRED_LOCALITY_NNZ - 1;
    ok    = (PetscBool)!PellrFeaturesWantLocality(&g);
    g.m   = PELLR_PRED_LOCALITY_ROWS;
    ok    = (PetscBool)(ok && PellrFeaturesWantLocality(&g));
    g.m   = 1;
    g.nnz = PELLR_PRED_LOCALITY_NNZ;
    ok    = (PetscBool)(ok && PellrFeaturesWantLocality(&g));
    if (!ok) nfail++;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "column access sampled from 2^16 rows or 2^21 entries on, not below: %s\n", ok ? "yes" : "NO"));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "host pass on 2, 3 and 8 threads equals one thread (%" PetscInt_FMT " blocks of more than 2^20 rows, corrupt row pointers too): %s\n", ncase, nfail == before ? "yes" : "NO"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Reference column-access counts (PellrFeaturesAddLocality()) of a block small enough to be sampled whole (one window,
  rows shorter than the per-row cap), computed independently: marker arrays instead of sorting, the full stable sort of
  the rows by decreasing length. xs[c]: x sectors read anew per warp step (CSR: the mean of its rows' 32-entry chunks
  and the ELLR count), ys: y sectors of PELLR's slices.
*/
static PetscErrorCode ReferenceSectors(PetscInt m, PetscInt n, const PetscInt rp[], const PetscInt ci[], PetscInt long_min, PetscReal xs[], PetscReal *ys)
{
  PetscInt  *cur, *prv, *order, *len, nord = 0, nsec = n / 4 + 1, stamp = 0, maxlen = 0;
  PetscInt64 x[PELLR_NCAND] = {0, 0, 0, 0}, y = 0;

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc4(nsec, &cur, nsec, &prv, m, &order, m, &len));
  for (PetscInt i = 0; i < m; i++) maxlen = PetscMax(maxlen, len[i] = rp[i + 1] - rp[i]);
  /* cur[s] == stamp: sector s already counted in this chunk or step; prv[s] == stamp - 1: read at the previous step */
  for (PetscInt i = 0; i < m; i++) /* CSR and PELLR long rows: 32 consecutive entries of a row */
    for (PetscInt q = 0; q < len[i]; q += 32) {
      stamp++;
      for (PetscInt t = q; t < PetscMin(len[i], q + 32); t++) {
        PetscInt sct = ci[rp[i] - rp[0] + t] / 4;
        if (cur[sct] != stamp) {
          cur[sct] = stamp;
          x[PELLR_CAND_CSR]++;
          if (long_min && len[i] >= long_min) x[PELLR_CAND_PELLR]++;
        }
      }
    }
  /* the stable sort of the slice rows by decreasing length (selection by length) */
  for (PetscInt l = maxlen; l >= 1; l--)
    for (PetscInt i = 0; i < m; i++)
      if (len[i] == l && !(long_min && l >= long_min)) order[nord++] = i;
  for (PetscInt pass = 0; pass < 2; pass++) { /* 0: ELLR/SELL groups of 32 consecutive rows, 1: PELLR slices */
    PetscInt ng = pass ? nord : m;
    for (PetscInt g = 0; g < ng; g += 32) {
      PetscInt rows[32], k = 0, w = 0;
      for (PetscInt r = g; r < PetscMin(ng, g + 32); r++) rows[k++] = pass ? order[r] : r;
      for (PetscInt r = 0; r < k; r++) w = PetscMax(w, len[rows[r]]);
      for (PetscInt j = 0; j < w; j++) {
        stamp++;
        for (PetscInt r = 0; r < k; r++)
          if (len[rows[r]] > j) {
            PetscInt sct = ci[rp[rows[r]] - rp[0] + j] / 4;
            if (cur[sct] != stamp) {
              cur[sct] = stamp;
              if (!(j > 0 && prv[sct] == stamp - 1)) x[pass ? PELLR_CAND_PELLR : PELLR_CAND_ELLR]++;
            }
          }
        for (PetscInt r = 0; r < k; r++) /* this step's sectors, as the previous step's for the next */
          if (len[rows[r]] > j) prv[ci[rp[rows[r]] - rp[0] + j] / 4] = stamp;
      }
      if (pass) {
        stamp++;
        for (PetscInt r = 0; r < k; r++)
          if (cur[rows[r] / 4] != stamp) {
            cur[rows[r] / 4] = stamp;
            y++;
          }
      }
    }
  }
  x[PELLR_CAND_SELL] = x[PELLR_CAND_ELLR];
  for (PetscInt c = 0; c < PELLR_NCAND; c++) xs[c] = (PetscReal)x[c];
  xs[PELLR_CAND_CSR] = 0.5 * (xs[PELLR_CAND_CSR] + xs[PELLR_CAND_ELLR]); /* CSR: the mean of its rows' chunks and the ELLR steps */
  *ys = (PetscReal)y;
  PetscCall(PetscFree4(cur, prv, order, len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* column access (PellrFeaturesAddLocality()): random blocks against the reference, hand-counted sampled patterns */
static PetscErrorCode TestLocality(void)
{
  unsigned long long seed = 99;
  PetscInt           before = nfail;

  PetscFunctionBeginUser;
  PetscInt           nwhole = 0;

  for (PetscInt t = 0; t < 60; t++) { /* small random blocks: sampled whole (one window) when nnz <= PELLR_PRED_SAMPLE_NNZ / 2: equal to the reference */
    PetscInt      m, n, *len, *rp, *ci, band;
    PellrFeatures f;
    PetscReal     xs[PELLR_NCAND], ys = 0, b0[PELLR_NCAND];

    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    m    = 1 + (PetscInt)((seed >> 33) % (PELLR_PRED_SAMPLE_NNZ / 16)); /* mostly small enough to be sampled whole */
    n    = m + (PetscInt)((seed >> 20) % 3000);
    band = t % 3 == 0 ? n : 1 + (PetscInt)((seed >> 40) % 64); /* random columns, or a band */
    PetscCall(PetscMalloc1(m, &len));
    for (PetscInt i = 0; i < m; i++) {
      seed   = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      len[i] = (seed >> 33) % 97 == 0 ? 256 + (PetscInt)((seed >> 20) % 300) : (seed >> 33) % 7 == 0 ? 0 : 1 + (PetscInt)((seed >> 45) % (1 + t % 24));
      len[i] = PetscMin(len[i], n);
    }
    PetscCall(RowPtr(m, len, &rp));
    PetscCall(PetscMalloc1(rp[m] - rp[0] + 1, &ci));
    for (PetscInt i = 0; i < m; i++)
      for (PetscInt j = 0; j < len[i]; j++) {
        PetscInt c0 = t % 5 == 4 ? 0 : (PetscInt)((PetscInt64)i * n / m); /* t % 5 == 4: every row in the same columns, out of order (repeated sectors in a step) */
        seed        = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        ci[rp[i] - rp[0] + j] = len[i] > 200 ? (c0 + j) % n : (c0 + (PetscInt)((seed >> 33) % band)) % n;
      }
    PetscCall(PellrFeaturesCompute(m, n, rp, PETSC_MEMTYPE_HOST, t % 2 ? 256 : 40, &f));
    for (PetscInt c = 0; c < PELLR_NCAND; c++) b0[c] = f.bytes[c] - 8.0 * f.nnz;
    PetscCall(PellrFeaturesAddLocality(&f, rp, ci, MAT_PELLR_DIAGONAL_AUTO));
    PetscCall(CheckDeviceLocality("random block", m, n, rp, ci, t % 2 ? 256 : 40));
    if (2 * f.nnz > PELLR_PRED_SAMPLE_NNZ) { /* sampled, not whole: not comparable */
      PetscCall(PetscFree(ci));
      PetscCall(PetscFree(rp));
      PetscCall(PetscFree(len));
      continue;
    }
    nwhole++;
    PetscCall(ReferenceSectors(m, n, rp, ci, f.long_min, xs, &ys));
    for (PetscInt c = 0; c < PELLR_NCAND; c++) {
      PetscCall(ExpectR("x sectors against the reference", f.xsec[c], xs[c]));
      PetscCall(ExpectR("bytes with the x sectors", f.bytes[c], b0[c] + 32 * xs[c] + (c == PELLR_CAND_PELLR ? 32 * ys - 8.0 * (m - f.empty - f.nlong) : 0)));
    }
    PetscCall(ExpectR("y sectors of PELLR against the reference", f.ysec_pellr, ys));
    PetscCall(PellrFeaturesAddLocality(&f, rp, ci, MAT_PELLR_DIAGONAL_AUTO)); /* again: the same */
    PetscCall(ExpectR("bytes after a second call", f.bytes[PELLR_CAND_PELLR], b0[PELLR_CAND_PELLR] + 32 * xs[PELLR_CAND_PELLR] + 32 * ys - 8.0 * (m - f.empty - f.nlong)));
    PetscCall(PetscFree(ci));
    PetscCall(PetscFree(rp));
    PetscCall(PetscFree(len));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "x and y sectors of %" PetscInt_FMT " random blocks (sampled whole) equal the reference: %s\n", nwhole, nfail == before && nwhole >= 20 ? "yes" : "NO"));
  if (nwhole < 20) nfail++;
  before = nfail;
  for (PetscInt pass = 0; pass < 2; pass++) { /* 2^18 rows of 4 (sampled): every row reads x[0..3], or every entry its own sector */
    const PetscInt m = 1 << 18, k = 4, n = pass ? 16 * m : m;
    PetscInt      *rp, *ci, *len;
    PellrFeatures  f;

    PetscCall(PetscMalloc1(m, &len));
    for (PetscInt i = 0; i < m; i++) len[i] = k;
    PetscCall(RowPtr(m, len, &rp));
    PetscCall(PetscMalloc1(m * k, &ci));
    for (PetscInt i = 0; i < m; i++)
      for (PetscInt j = 0; j < k; j++) ci[i * k + j] = pass ? 4 * (i + m * j) : j;
    PetscCall(PellrFeaturesCompute(m, n, rp, PETSC_MEMTYPE_HOST, 256, &f));
    PetscCall(PellrFeaturesAddLocality(&f, rp, ci, MAT_PELLR_DIAGONAL_AUTO));
    PetscCall(CheckDeviceLocality("2^18 rows of 4", m, n, rp, ci, 256));
    /* one sector: a row (CSR) reads it once, a warp of 32 rows once at its first step; own sectors: every entry one */
    PetscCall(ExpectR("sampled x sectors csr", f.xsec[PELLR_CAND_CSR], pass ? m * k : 0.5 * (m + m / 32)));
    PetscCall(ExpectR("sampled x sectors ellr", f.xsec[PELLR_CAND_ELLR], pass ? m * k : m / 32));
    PetscCall(ExpectR("sampled x sectors sell", f.xsec[PELLR_CAND_SELL], pass ? m * k : m / 32));
    PetscCall(ExpectR("sampled x sectors pellr", f.xsec[PELLR_CAND_PELLR], pass ? m * k : m / 32));
    PetscCall(ExpectR("sampled y sectors pellr", f.ysec_pellr, m / 4));
    if (f.sampled > 4 * PELLR_PRED_SAMPLE_NNZ) nfail++;
    PetscCall(PetscFree(ci));
    PetscCall(PetscFree(rp));
    PetscCall(PetscFree(len));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "x and y sectors of 2^18 rows of 4 sampled from at most 4 x %d entries (one shared sector, a sector per entry): %s\n", PELLR_PRED_SAMPLE_NNZ, nfail == before ? "yes" : "NO"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Reference slots of the diagonal slices (the GPU's rule: 32 rows as long as the slice is wide, entry j at the same
  column - row in each) of a block sampled whole, computed independently of PellrFeaturesAddLocality(): ELLR/SELL
  slices of 32 consecutive rows (ELLR's as wide as the longest row), PELLR's of the stable sort by decreasing length
  of the rows shorter than long_min (0: none long). d[c] is indexed by PellrCandidate.
*/
static void ReferenceDiagonal(PetscInt m, const PetscInt rp[], const PetscInt ci[], PetscInt long_min, PetscInt64 d[])
{
  PetscInt maxlen = 0, nord = 0, *order = (PetscInt *)malloc(sizeof(PetscInt) * (m + 1));

  for (PetscInt c = 0; c < PELLR_NCAND; c++) d[c] = 0;
  for (PetscInt i = 0; i < m; i++) maxlen = PetscMax(maxlen, rp[i + 1] - rp[i]);
  for (PetscInt l = maxlen; l >= 1; l--)
    for (PetscInt i = 0; i < m; i++)
      if (rp[i + 1] - rp[i] == l && !(long_min && l >= long_min)) order[nord++] = i;
  for (PetscInt pass = 0; pass < 2; pass++) {
    const PetscInt ng = pass ? nord : m;
    for (PetscInt g = 0; g + 32 <= ng; g += 32) {
      const PetscInt r0 = pass ? order[g] : g, w = rp[r0 + 1] - rp[r0];
      PetscBool      diag = (PetscBool)(w > 0);
      for (PetscInt r = 0; r < 32 && diag; r++) {
        const PetscInt i = pass ? order[g + r] : g + r;
        diag = (PetscBool)(rp[i + 1] - rp[i] == w);
        for (PetscInt j = 0; j < w && diag; j++) diag = (PetscBool)(ci[rp[i] - rp[0] + j] - i == ci[rp[r0] - rp[0] + j] - r0);
      }
      if (!pass) { /* SELL: the slice's width is its longest row; a slice whose first row is shorter is not diagonal anyway */
        PetscInt wmax = 0;
        for (PetscInt r = 0; r < 32; r++) wmax = PetscMax(wmax, rp[g + r + 1] - rp[g + r]);
        if (diag && w == wmax) {
          d[PELLR_CAND_SELL] += 32 * w;
          if (w == maxlen) d[PELLR_CAND_ELLR] += 32 * w;
        }
      } else if (diag) d[PELLR_CAND_PELLR] += 32 * w;
    }
  }
  free(order);
}

/* estimated diagonal slices (PellrFeaturesAddLocality()): hand-computed tridiagonal blocks, stencil-like random blocks
   against the reference and, for the PELLR format, the host layout's own count (MATPELLR with diagonal slices on) */
static PetscErrorCode TestDiagonal(void)
{
  unsigned long long seed = 4242;
  PetscInt           before = nfail, nstencil = 0, ndiag = 0;

  PetscFunctionBeginUser;
  for (PetscInt pass = 0; pass < 4; pass++) { /* tridiagonal, 1024 rows: rows 0 and 1023 have 2 entries */
    const PetscInt   m = 1024;
    const PetscBool  broken = (PetscBool)(pass >= 2); /* passes 2, 3: the diagonals of every slice but the second broken */
    PetscInt         len[1024], *rp, *ci, q = 0;
    PellrFeatures    f;
    MatPELLRDiagonal mode = pass == 1 ? MAT_PELLR_DIAGONAL_OFF : pass == 2 ? MAT_PELLR_DIAGONAL_ON : MAT_PELLR_DIAGONAL_AUTO;

    for (PetscInt i = 0; i < m; i++) len[i] = (i == 0 || i == m - 1) ? 2 : 3;
    PetscCall(RowPtr(m, len, &rp));
    PetscCall(PetscMalloc1(3 * m, &ci));
    for (PetscInt i = 0; i < m; i++)
      for (PetscInt c = i - 1; c <= i + 1; c++)
        if (c >= 0 && c < m) ci[q++] = c;
    if (broken) /* one diagonal slice of 32 left */
      for (PetscInt i = 0; i < m; i += 32)
        if (i != 32) ci[rp[i + 5] - rp[0] + 2] = (ci[rp[i + 5] - rp[0] + 2] + 7) % m;
    PetscCall(PellrFeaturesCompute(m, m, rp, PETSC_MEMTYPE_HOST, 256, &f));
    PetscCall(PellrFeaturesAddLocality(&f, rp, ci, mode));
    /* SELL/ELLR: slices 1..30 of 32 (slices 0 and 31 hold a row of 2); PELLR: the 1022 rows of 3 first, 31 full slices */
    PetscCall(ExpectR("tridiagonal: ellr diagonal slots", f.dfound[PELLR_CAND_ELLR], broken ? 96 : 30 * 96));
    PetscCall(ExpectR("tridiagonal: sell diagonal slots", f.dfound[PELLR_CAND_SELL], broken ? 96 : 30 * 96));
    PetscCall(ExpectR("tridiagonal: pellr diagonal slots", f.dfound[PELLR_CAND_PELLR], broken ? 96 : 31 * 96)); /* broken: PELLR's slice 1 (rows 33..64) */
    PetscCall(ExpectR("tridiagonal: csr diagonal slots", f.dfound[PELLR_CAND_CSR], 0));
    /* kept: auto needs 1/8 of the slice slots (3072: 96 is below it), off none, on any */
    PetscCall(ExpectR("tridiagonal: sell diagonal slots kept", f.dkept[PELLR_CAND_SELL], pass == 1 || pass == 3 ? 0 : pass == 2 ? 96 : 30 * 96));
    PetscCall(ExpectR("tridiagonal: pellr diagonal slots kept", f.dkept[PELLR_CAND_PELLR], pass == 1 || pass == 3 ? 0 : pass == 2 ? 96 : 31 * 96));
    PetscCall(PetscFree(ci));
    PetscCall(PetscFree(rp));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "diagonal slices of tridiagonal blocks (hand-computed; modes auto, off, on): %s\n", nfail == before ? "yes" : "NO"));
  before = nfail;
  for (PetscInt t = 0; t < 30; t++) { /* stencil-like blocks: k offsets, rows keep those inside [0, n); a few rows disturbed */
    PetscInt      m, n, k, off[9], *len, *rp, *ci, q = 0;
    PetscInt64    d[PELLR_NCAND];
    PellrFeatures f;
    Mat           A, P;

    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    m    = 32 + (PetscInt)((seed >> 33) % (PELLR_PRED_SAMPLE_NNZ / 6));
    n    = m;
    k    = 1 + (PetscInt)((seed >> 20) % 9);
    for (PetscInt j = 0; j < k; j++) { /* distinct increasing offsets in [-40, 40] */
      seed   = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      off[j] = (j ? off[j - 1] + 1 : -40) + (PetscInt)((seed >> 33) % 9);
    }
    PetscCall(PetscMalloc1(m, &len));
    for (PetscInt i = 0; i < m; i++) {
      len[i] = 0;
      for (PetscInt j = 0; j < k; j++) len[i] += (i + off[j] >= 0 && i + off[j] < n);
    }
    PetscCall(RowPtr(m, len, &rp));
    PetscCall(PetscMalloc1(rp[m] - rp[0] + 1, &ci));
    for (PetscInt i = 0; i < m; i++)
      for (PetscInt j = 0; j < k; j++)
        if (i + off[j] >= 0 && i + off[j] < n) ci[q++] = i + off[j];
    for (PetscInt r = 0; r < t % 4; r++) { /* disturb a row: its entries keep their order if the column stays between its neighbours */
      PetscInt i;
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      i    = (PetscInt)((seed >> 33) % m);
      if (len[i] == 1) ci[rp[i] - rp[0]] = (ci[rp[i] - rp[0]] + 1) % n;
      else if (len[i] >= 2 && ci[rp[i] - rp[0] + 1] - ci[rp[i] - rp[0]] > 1) ci[rp[i] - rp[0]]++;
    }
    PetscCall(PellrFeaturesCompute(m, n, rp, PETSC_MEMTYPE_HOST, 256, &f));
    PetscCall(PellrFeaturesAddLocality(&f, rp, ci, MAT_PELLR_DIAGONAL_ON));
    if (2 * f.nnz > PELLR_PRED_SAMPLE_NNZ) { /* sampled, not whole: an estimate */
      PetscCall(PetscFree(ci));
      PetscCall(PetscFree(rp));
      PetscCall(PetscFree(len));
      continue;
    }
    nstencil++;
    ReferenceDiagonal(m, rp, ci, f.long_min, d);
    for (PetscInt c = 0; c < PELLR_NCAND; c++) {
      char what[64];
      PetscCall(PetscSNPrintf(what, sizeof(what), "%s diagonal slots against the reference", PellrCandidateNames[c]));
      PetscCall(ExpectR(what, f.dfound[c], (PetscReal)d[c]));
    }
    if (d[PELLR_CAND_PELLR] > 0) ndiag++;
    /* the host layout's own diagonal slices (-mat_pellr_diagonal_slices on, set in main) */
    {
      PetscScalar *v;
      PetscInt    *i0, *j0;
      PetscCall(PetscMalloc3(m + 1, &i0, rp[m] - rp[0] + 1, &j0, rp[m] - rp[0] + 1, &v));
      for (PetscInt i = 0; i <= m; i++) i0[i] = rp[i] - rp[0];
      for (PetscInt e = 0; e < rp[m] - rp[0]; e++) {
        j0[e] = ci[e];
        v[e]  = 1.0 + e % 5;
      }
      PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, m, n, i0, j0, v, &A));
      PetscCall(MatConvert(A, MATPELLR, MAT_INITIAL_MATRIX, &P));
      {
        Vec x, y;
        PetscCall(MatCreateVecs(P, &x, &y));
        PetscCall(VecSet(x, 1.0));
        PetscCall(MatMult(P, x, y)); /* builds the layout */
        PetscCall(VecDestroy(&x));
        PetscCall(VecDestroy(&y));
      }
      PetscCall(ExpectI("pellr diagonal slots against the host layout", (PetscInt64)f.dfound[PELLR_CAND_PELLR], ((Mat_PELLR *)P->spptr)->d.L.ndiagslots));
      PetscCall(MatDestroy(&P));
      PetscCall(MatDestroy(&A));
      PetscCall(PetscFree3(i0, j0, v));
    }
    PetscCall(PetscFree(ci));
    PetscCall(PetscFree(rp));
    PetscCall(PetscFree(len));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "diagonal slices of %" PetscInt_FMT " stencil-like blocks (sampled whole, %" PetscInt_FMT " with PELLR diagonal slices) equal the reference and the host layout: %s\n", nstencil, ndiag, nfail == before && nstencil >= 15 && ndiag >= 10 ? "yes" : "NO"));
  if (nstencil < 15 || ndiag < 10) nfail++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  (CUDA) the column access of large generated blocks on the GPU against the host's, every feature: sampled windows and
  several sorted windows; a 2D 5-point mesh (runs of equal lengths), random lengths and columns, long rows beyond
  PELLR_PRED_HCAP (the sort's keys from the window), diagonal slices with empty rows, wide diagonal slices (rows of 160:
  several warps a group, which must agree that the group is diagonal)
*/
static PetscErrorCode TestDeviceLocality(void)
{
  unsigned long long seed   = 7;
  PetscInt           before = nfail, n0 = ndevloc;

  PetscFunctionBeginUser;
  if (!check_device) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt kind = 0; kind < 5; kind++) {
    const PetscInt m = kind == 0 ? 400 * 400 : kind == 1 ? 300000 : kind == 2 ? 100000 : kind == 3 ? 70000 : 40000, n = m;
    PetscInt      *len, *rp, *ci;

    PetscCall(PetscMalloc1(m, &len));
    for (PetscInt i = 0; i < m; i++) {
      seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
      if (kind == 0) len[i] = 1 + (i % 400 > 0) + (i % 400 < 399) + (i >= 400) + (i < m - 400);
      else if (kind == 1) len[i] = (PetscInt)((seed >> 33) % 41);
      else if (kind == 2) len[i] = (seed >> 33) % 100 == 0 ? 1500 + (PetscInt)((seed >> 20) % 1500) : 1 + (PetscInt)((seed >> 40) % 9);
      else if (kind == 3) len[i] = (seed >> 33) % 5 == 0 ? 0 : 3;
      else len[i] = 160;
    }
    PetscCall(RowPtr(m, len, &rp));
    PetscCall(PetscMalloc1(rp[m] - rp[0] + 1, &ci));
    for (PetscInt i = 0; i < m; i++) {
      PetscInt *c = ci + rp[i] - rp[0], q = 0;
      if (kind == 0) {
        if (i >= 400) c[q++] = i - 400;
        if (i % 400 > 0) c[q++] = i - 1;
        c[q++] = i;
        if (i % 400 < 399) c[q++] = i + 1;
        if (i < m - 400) c[q++] = i + 400;
      } else
        for (PetscInt j = 0; j < len[i]; j++) {
          seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
          c[j] = kind == 1 ? (PetscInt)((seed >> 33) % n) : kind == 2 ? (PetscInt)(((PetscInt64)i + j * 37) % n) : kind == 3 ? (i + j) % n : (i + j + n - 80) % n;
        }
    }
    for (PetscInt k = 0; k < 2; k++) {
      const PetscInt longlen = kind == 2 ? (k ? 2048 : 256) : (k ? 4 : 256);
      char           name[64];
      PetscCall(PetscSNPrintf(name, sizeof(name), "generated block %" PetscInt_FMT, kind));
      PetscCall(CheckDeviceLocality(name, m, n, rp, ci, longlen));
    }
    PetscCall(PetscFree(ci));
    PetscCall(PetscFree(rp));
    PetscCall(PetscFree(len));
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "GPU column access of %" PetscInt_FMT " generated blocks equals the host's: %s\n", ndevloc - n0, nfail == before ? "yes" : "NO"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char      dir[PETSC_MAX_PATH_LEN] = "../../shared/matrices";
  char     *names[64];
  PetscInt  nnames = 64;
  PetscBool sel    = PETSC_FALSE;

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscSparseGPUInitializePackage());
  PetscCall(PellrPredictRegister_Private()); /* this copy's log event */
  PetscCall(PetscOptionsSetValue(NULL, "-mat_pellr_diagonal_slices", "on")); /* host layouts count their diagonal slices (TestDiagonal()); read once */
  if (getenv("SPARSEGPU_MATRICES")) PetscCall(PetscStrncpy(dir, getenv("SPARSEGPU_MATRICES"), sizeof(dir)));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-dir", dir, sizeof(dir), NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-check_device", &check_device, NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-matrices", names, &nnames, &sel));
  PetscCall(TestHand());
  PetscCall(TestRandom());
  PetscCall(TestThreads());
  PetscCall(TestLocality());
  PetscCall(TestDiagonal());
  PetscCall(TestDeviceLocality());
  if (!(sel && nnames == 1 && !strcmp(names[0], "none"))) {
    PetscCall(MMForEachManifestMatrix(dir, sel, nnames, names, TestShared, NULL));
  }
  if (!sel) nnames = 0;
  for (PetscInt i = 0; i < nnames; i++) PetscCall(PetscFree(names[i]));
  if (check_device) { /* the hardware line a calibration driver writes */
    PellrHardware hw;
    PetscCall(MatPELLRPredictMeasureHardware(&hw));
    PetscCall(PetscInfo(NULL, "%s, %" PetscInt_FMT " SMs, copy %g GB/s, host-to-device %g GB/s, launch %g us\n", hw.gpu, hw.sm, (double)hw.copy_gbs, (double)hw.h2d_gbs, (double)hw.launch_us));
    if (!(hw.sm > 0 && hw.gpu[0] && hw.copy_gbs > 10 && hw.h2d_gbs > 0.1 && hw.launch_us > 0 && hw.launch_us < 1000)) nfail++;
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "hardware measured (SMs, bandwidths, launch latency plausible): %s\n", hw.sm > 0 && hw.copy_gbs > 10 && hw.h2d_gbs > 0.1 && hw.launch_us > 0 && hw.launch_us < 1000 ? "yes" : "NO"));
  }
  /* 60 random blocks, 2 sampled ones, 8 generated ones and the shared matrices */
  if (check_device) PetscCall(PetscPrintf(PETSC_COMM_SELF, "column access compared on the GPU and the host: %s\n", ndevloc >= 70 ? "yes" : "NO"));
  if (check_device && ndevloc < 70) nfail++;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "all feature checks passed: %s\n", nfail ? "NO" : "yes"));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: features
      args: -dir ${SPARSEGPU_MATRICES}

   # the same features from row pointers in GPU memory (one pass on the GPU, the host finishes), field by field
   test:
      suffix: cuda_features
      requires: cuda
      args: -dir ${SPARSEGPU_MATRICES} -check_device

   # the same with a GPU thread per sampled group and slice (the warp kernels are the default)
   test:
      suffix: cuda_features_thread
      requires: cuda
      args: -dir ${SPARSEGPU_MATRICES} -check_device -mat_pellr_predict_warp false
      output_file: output/pellrpredict1_cuda_features.out

   # the same with teams of 1, 2 and 32 warps per sampled group and slice (the automatic choice: about 4 dependent reads a warp)
   test:
      suffix: cuda_features_team
      requires: cuda
      args: -dir ${SPARSEGPU_MATRICES} -check_device -mat_pellr_predict_team_warps {{1 2 32}separate output}
      output_file: output/pellrpredict1_cuda_features.out

TEST*/
