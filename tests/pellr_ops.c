static char help[] = "Compares every operation of MATPELLR (or -type pellrcuda) with MATAIJ on the shared matrices and generated ones.\n\
  -dir <path>    : directory of the Matrix Market files (*.mtx.gz, listed in MANIFEST.tsv)\n\
  -matrices <a,b>: only these matrices (default: all of MANIFEST.tsv)\n\
  -gen           : also the generated matrices (empty rows, dense row, n = 0/1, rectangular, wide rows)\n\
  -gen_kinds <a,b>: only these generated kinds (also empty_run: 5998 empty rows between two short ones)\n\
  -type <pellr>  : the PELLR type to test\n\
  -vec_type <t>  : vector type of the products (cuda for pellrcuda)\n\
  -compare_builds: (pellrcuda) check that the GPU build of the layout is identical to the host build (MatPELLRCompareBuilds())\n\
  -mat_pellr_format <f>: the storage format of every PELLR matrix made\n\
  -switch_formats <true>: also switch every matrix through all formats (MatPELLRSetFormat()) and compare the products\n\n";

#include <petscsparsegpu.h>
#include "mmio.h"

/* relative difference of two vectors in the max norm */
static PetscErrorCode Diff(Vec a, Vec b, PetscReal *d)
{
  Vec       t;
  PetscReal na, nt;

  PetscFunctionBeginUser;
  PetscCall(VecDuplicate(a, &t));
  PetscCall(VecWAXPY(t, -1.0, a, b));
  PetscCall(VecNorm(t, NORM_INFINITY, &nt));
  PetscCall(VecNorm(a, NORM_INFINITY, &na));
  *d = nt / PetscMax(na, 1e-300);
  if (na == 0 && nt == 0) *d = 0;
  PetscCall(VecDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscBool      compare_builds = PETSC_FALSE;
static PetscBool      fmt_set        = PETSC_FALSE; /* -mat_pellr_format given */
static MatPELLRFormat req_fmt        = MAT_PELLR_FORMAT_AUTO;
static PetscBool      switch_formats = PETSC_TRUE; /* -switch_formats: switch every matrix through all formats */

/*
  Whether ELLR is accepted for every block of A (an AIJ matrix) on every process: the documented rule (MatPELLRSetFormat()),
  ceil(m/32) 32 maxlen slots at most 8 nnz + 32 m and 2^31 - 1, checked here independently of the library
*/
static PetscErrorCode EllrFeasible(Mat A, PetscBool *ok)
{
  Mat       blk[2];
  PetscInt  nb = 1;
  PetscBool loc = PETSC_TRUE, mpi;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATMPIAIJ, &mpi));
  if (mpi) {
    PetscCall(MatMPIAIJGetSeqAIJ(A, &blk[0], &blk[1], NULL));
    nb = 2;
  } else blk[0] = A;
  for (PetscInt k = 0; k < nb; k++) {
    const PetscInt *ai, *aj;
    PetscInt        m, maxlen = 0;
    PetscInt64      slots, nnz;
    PetscCall(MatGetLocalSize(blk[k], &m, NULL));
    PetscCall(MatSeqAIJGetCSRAndMemType(blk[k], &ai, &aj, NULL, NULL));
    for (PetscInt i = 0; i < m; i++) maxlen = PetscMax(maxlen, ai[i + 1] - ai[i]);
    nnz   = m ? ai[m] - ai[0] : 0;
    slots = (PetscInt64)((m + 31) / 32) * 32 * maxlen;
    if (slots > 8 * nnz + 32 * (PetscInt64)m || slots > PETSC_INT32_MAX) loc = PETSC_FALSE;
  }
  PetscCallMPI(MPIU_Allreduce(&loc, ok, 1, MPIU_BOOL, MPI_LAND, PetscObjectComm((PetscObject)A)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one process: ELLR requested on P must be refused with PETSC_ERR_SUP when its block is built (P stays usable) */
static PetscErrorCode EllrRefused(Mat P, PetscBool *refused)
{
  MatPELLRInfo   info;
  PetscErrorCode ierr;

  PetscFunctionBeginUser;
  PetscCall(MatPELLRSetFormat(P, MAT_PELLR_FORMAT_ELLR));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = MatPELLRGetInfo(P, PETSC_FALSE, &info); /* builds the block */
  PetscCall(PetscPopErrorHandler());
  *refused = (PetscBool)(ierr == PETSC_ERR_SUP);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MatGetInfo() of the local diagonal block (the matrix itself when sequential) */
static PetscErrorCode DiagonalBlockInfo(Mat A, MatInfo *info)
{
  PetscBool mpi;
  Mat       Ad = A;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATMPIAIJ, &mpi));
  if (mpi) PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, NULL, NULL));
  PetscCall(MatGetInfo(Ad, MAT_LOCAL, info));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Same entries (global columns and values, row by row, exactly). Not MatEqual(): MatEqual_MPIAIJ() compares the
  compacted off-diagonal blocks directly and errors out when two equal matrices have different ghost-column lists
  (e.g. one built through MatConvert_Basic() from aijcusparse).
*/
static PetscErrorCode SameEntries(Mat A, Mat B, PetscBool *same)
{
  PetscInt  rs, re, ma, na, mb, nb;
  PetscBool loc = PETSC_TRUE;

  PetscFunctionBeginUser;
  PetscCall(MatGetSize(A, &ma, &na));
  PetscCall(MatGetSize(B, &mb, &nb));
  if (ma != mb || na != nb) loc = PETSC_FALSE;
  PetscCall(MatGetOwnershipRange(A, &rs, &re));
  for (PetscInt r = rs; r < re && loc; r++) {
    const PetscInt    *ca, *cb;
    const PetscScalar *va, *vb;
    PetscInt           la, lb;

    PetscCall(MatGetRow(A, r, &la, &ca, &va));
    PetscCall(MatGetRow(B, r, &lb, &cb, &vb));
    if (la != lb) loc = PETSC_FALSE;
    for (PetscInt k = 0; k < la && loc; k++)
      if (ca[k] != cb[k] || va[k] != vb[k]) loc = PETSC_FALSE;
    PetscCall(MatRestoreRow(B, r, &lb, &cb, &vb));
    PetscCall(MatRestoreRow(A, r, &la, &ca, &va));
  }
  PetscCallMPI(MPIU_Allreduce(&loc, same, 1, MPIU_BOOL, MPI_LAND, PetscObjectComm((PetscObject)A)));
  PetscFunctionReturn(PETSC_SUCCESS);
}


typedef struct {
  const char *vectype;
  PetscReal   worst;
  char        failed[1024];
} Ctx;

static PetscErrorCode Check(Ctx *c, const char *what, PetscReal d)
{
  PetscFunctionBeginUser;
  c->worst = PetscMax(c->worst, d);
  if (!(d < 1e-12)) {
    PetscCall(PetscStrlcat(c->failed, " ", sizeof(c->failed)));
    PetscCall(PetscStrlcat(c->failed, what, sizeof(c->failed)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the GPU build of P's layout (and transpose) must equal the host build entry by entry */
static PetscErrorCode CompareBuilds(Ctx *c, const char *tag, Mat P)
{
  PetscBool same;

  PetscFunctionBeginUser;
  if (!compare_builds) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatPELLRCompareBuilds(P, &same));
  if (!same) {
    PetscCall(PetscStrlcat(c->failed, " ", sizeof(c->failed)));
    PetscCall(PetscStrlcat(c->failed, tag, sizeof(c->failed)));
    PetscCall(PetscStrlcat(c->failed, "gpu-build-differs-from-host-build", sizeof(c->failed)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* all products of P against A, x and z random */
static PetscErrorCode CompareProducts(Ctx *c, const char *tag, Mat A, Mat P)
{
  Vec       x, y, ya, z, xt, yt, yta, zt, d, da;
  PetscReal e;
  char      what[64];
  PetscRandom rnd;

  PetscFunctionBeginUser;
  PetscCall(PetscRandomCreate(PETSC_COMM_WORLD, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 7));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(MatCreateVecs(P, &x, &y));
  PetscCall(VecSetType(x, c->vectype));
  PetscCall(VecSetType(y, c->vectype));
  PetscCall(VecDuplicate(y, &ya));
  PetscCall(VecDuplicate(y, &z));
  PetscCall(VecDuplicate(y, &xt));
  PetscCall(VecDuplicate(x, &yt));
  PetscCall(VecDuplicate(x, &yta));
  PetscCall(VecDuplicate(x, &zt));
  PetscCall(VecDuplicate(y, &d));
  PetscCall(VecDuplicate(y, &da));
  PetscCall(VecSetRandom(x, rnd));
  PetscCall(VecSetRandom(z, rnd));
  PetscCall(VecSetRandom(xt, rnd));
  PetscCall(VecSetRandom(zt, rnd));
#define CMP(name, expr_p, expr_a, u, v) \
  do { \
    PetscCall(expr_p); \
    PetscCall(expr_a); \
    PetscCall(Diff(v, u, &e)); \
    PetscCall(PetscSNPrintf(what, sizeof(what), "%s%s", tag, name)); \
    PetscCall(Check(c, what, e)); \
  } while (0)
  CMP("mult", MatMult(P, x, y), MatMult(A, x, ya), y, ya);
  CMP("multadd", MatMultAdd(P, x, z, y), MatMultAdd(A, x, z, ya), y, ya);
  PetscCall(VecCopy(z, y));
  PetscCall(VecCopy(z, ya));
  CMP("multadd(y=z)", MatMultAdd(P, x, y, y), MatMultAdd(A, x, ya, ya), y, ya);
  CMP("multtranspose", MatMultTranspose(P, xt, yt), MatMultTranspose(A, xt, yta), yt, yta);
  CMP("multtransposeadd", MatMultTransposeAdd(P, xt, zt, yt), MatMultTransposeAdd(A, xt, zt, yta), yt, yta);
  PetscCall(VecCopy(zt, yt));
  PetscCall(VecCopy(zt, yta));
  CMP("multtransposeadd(y=z)", MatMultTransposeAdd(P, xt, yt, yt), MatMultTransposeAdd(A, xt, yta, yta), yt, yta);
  {
    PetscInt m, n;
    PetscCall(MatGetLocalSize(A, &m, &n));
    PetscCall(MatGetSize(A, &m, &n));
    if (m == n) CMP("diagonal", MatGetDiagonal(P, d), MatGetDiagonal(A, da), d, da);
  }
#undef CMP
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&y));
  PetscCall(VecDestroy(&ya));
  PetscCall(VecDestroy(&z));
  PetscCall(VecDestroy(&xt));
  PetscCall(VecDestroy(&yt));
  PetscCall(VecDestroy(&yta));
  PetscCall(VecDestroy(&zt));
  PetscCall(VecDestroy(&d));
  PetscCall(VecDestroy(&da));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SetTranspose(Mat P, const char *mode)
{
  PetscFunctionBeginUser;
  PetscCall(PetscOptionsSetValue(NULL, "-mat_pellr_transpose", mode));
  PetscCall(MatSetFromOptions(P));
  PetscCall(PetscOptionsClearValue(NULL, "-mat_pellr_transpose"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the diagonal slices of the SELL (w = -1: each slice as wide as its longest row), ELLR (w = the longest row) or, with
   sorted, PELLR without long rows (w = -1: the non-empty rows stably sorted by length, longest first) layout of the
   sequential AIJ A, and their slots: the 32 rows of the slice are rows of the layout, each as long as the slice is wide,
   and entry j has the same column - row in all of them */
static int CmpLenDesc(const void *a, const void *b)
{
  const PetscInt *x = (const PetscInt *)a, *y = (const PetscInt *)b; /* (length, row) pairs */
  return x[0] != y[0] ? (x[0] < y[0] ? 1 : -1) : (x[1] < y[1] ? -1 : (x[1] > y[1] ? 1 : 0));
}

static PetscErrorCode CountDiagonalSlices(Mat A, PetscInt w, PetscBool sorted, PetscInt *ndiag, PetscInt64 *nslots)
{
  PetscInt m, nrows = 0, *order;

  PetscFunctionBeginUser;
  *ndiag  = 0;
  *nslots = 0;
  PetscCall(MatGetLocalSize(A, &m, NULL));
  PetscCall(PetscMalloc1(2 * m + 1, &order));
  for (PetscInt i = 0; i < m; i++) {
    PetscInt ncols;
    PetscCall(MatGetRow(A, i, &ncols, NULL, NULL));
    order[2 * i]     = ncols;
    order[2 * i + 1] = i;
    nrows += sorted ? (ncols > 0) : 1;
    PetscCall(MatRestoreRow(A, i, &ncols, NULL, NULL));
  }
  if (sorted) qsort(order, (size_t)m, 2 * sizeof(PetscInt), CmpLenDesc); /* ties by row: the stable order */
  for (PetscInt s = 0; (s + 1) * 32 <= nrows; s++) {
    PetscInt        ncols0, len0, width, row0 = order[2 * 32 * s + 1];
    const PetscInt *cols0;
    PetscInt       *off;
    PetscBool       diag = PETSC_TRUE;

    PetscCall(MatGetRow(A, row0, &ncols0, &cols0, NULL));
    len0  = ncols0; /* (MatRestoreRow() zeroes ncols0) */
    width = w >= 0 ? w : len0;
    PetscCall(PetscMalloc1(len0 + 1, &off));
    for (PetscInt j = 0; j < len0; j++) off[j] = cols0[j] - row0;
    PetscCall(MatRestoreRow(A, row0, &ncols0, &cols0, NULL));
    if (!len0 || len0 != width) diag = PETSC_FALSE;
    for (PetscInt r = 1; r < 32 && diag; r++) {
      PetscInt        ncols, row = order[2 * (32 * s + r) + 1];
      const PetscInt *cols;

      PetscCall(MatGetRow(A, row, &ncols, &cols, NULL));
      if (ncols != len0) diag = PETSC_FALSE;
      for (PetscInt j = 0; j < ncols && diag; j++)
        if (cols[j] - row != off[j]) diag = PETSC_FALSE;
      PetscCall(MatRestoreRow(A, row, &ncols, &cols, NULL));
    }
    PetscCall(PetscFree(off));
    if (diag) {
      (*ndiag)++;
      *nslots += 32 * (PetscInt64)len0;
    }
  }
  PetscCall(PetscFree(order));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode TestMatrix(const char *name, const MMTriplets *t, MatType type, const char *vectype)
{
  Mat          A, P, Q;
  Ctx          c;
  MatPELLRInfo i0, i1, i2, i3;
  PetscBool    same;
  PetscInt     rstart, rend, M, N;
  MatType      qt;
  PetscBool    ellr_refused = PETSC_FALSE, ellr_skipped = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscMemzero(&c, sizeof(c)));
  c.vectype = vectype;
  PetscCall(MMTripletsAssemble(PETSC_COMM_WORLD, t, MATAIJ, PETSC_TRUE, &A));
  PetscCall(MatGetSize(A, &M, &N));
  PetscCall(MatGetOwnershipRange(A, &rstart, &rend));
  if (fmt_set && req_fmt == MAT_PELLR_FORMAT_ELLR) {
    PetscBool   ok, refused = PETSC_FALSE;
    PetscMPIInt size;
    PetscCall(EllrFeasible(A, &ok));
    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    if (!ok) {
      /* the refusal is raised by the processes whose block is refused: check it on one process only */
      if (size == 1) {
        PetscCall(PetscOptionsClearValue(NULL, "-mat_pellr_format"));
        PetscCall(MatConvert(A, type, MAT_INITIAL_MATRIX, &P));
        PetscCall(PetscOptionsSetValue(NULL, "-mat_pellr_format", "ellr"));
        PetscCall(PetscOptionsGetEnum(NULL, NULL, "-mat_pellr_format", MatPELLRFormats, (PetscEnum *)&req_fmt, NULL)); /* (used) */
        PetscCall(EllrRefused(P, &refused));
        PetscCall(MatDestroy(&P));
      }
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-14s %6" PetscInt_FMT " x %-6" PetscInt_FMT " ellr needs too much padding: %s\n", name, M, N, size > 1 ? "not tested in parallel" : (refused ? "refused with PETSC_ERR_SUP" : "NOT REFUSED")));
      PetscCall(MatDestroy(&A));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }

  /* 1. assembled directly as PELLR (MatXAIJSetPreallocation + MatSetValues) */
  PetscCall(MMTripletsAssemble(PETSC_COMM_WORLD, t, type, PETSC_TRUE, &P));
  PetscCall(CompareBuilds(&c, "assembled:", P));
  PetscCall(CompareProducts(&c, "assembled:", A, P));
  PetscCall(SetTranspose(P, "atomic"));
  PetscCall(CompareProducts(&c, "atomic:", A, P));
  PetscCall(SetTranspose(P, "explicit"));
  PetscCall(CompareProducts(&c, "explicit:", A, P));
  PetscCall(MatPELLRGetInfo(P, PETSC_FALSE, &i0));
  { /* the GPU copy's compact columns (-mat_pellr_cuda_compact_columns auto|on|off): with on every slice when the block
       has at most 65536 columns (any slice then spans less) and some but not all of wide_columns' slices; with auto none
       (too small); none on the host, for a CSR block or with off */
    char        mode[16] = "auto";
    PetscBool   cuda     = (PetscBool)(strstr(type, "cuda") && strstr(vectype, "cuda")), on, off;
    PetscInt    ln;
    PetscMPIInt size;

    PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_pellr_cuda_compact_columns", mode, sizeof(mode), NULL));
    PetscCall(PetscStrcmp(mode, "on", &on));
    PetscCall(PetscStrcmp(mode, "off", &off));
    PetscCall(MatGetLocalSize(A, NULL, &ln));
    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    if (!cuda || off || i0.format == MAT_PELLR_FORMAT_CSR || !i0.slices) {
      if (i0.compact_slices != -1) PetscCall(PetscStrlcat(c.failed, " compact-columns-unexpected", sizeof(c.failed)));
    } else if (!on) { /* auto: these blocks are below its 2^24 entries */
      if (i0.compact_slices != -1) PetscCall(PetscStrlcat(c.failed, " compact-columns-auto-small", sizeof(c.failed)));
    } else if (i0.compact_slices < 0 || i0.compact_slices > i0.slices || (ln <= 65536 && i0.compact_slices != i0.slices)) PetscCall(PetscStrlcat(c.failed, " compact-columns-wrong", sizeof(c.failed)));
    else if (size == 1 && i0.format == MAT_PELLR_FORMAT_PELLR && !strcmp(name, "wide_columns") && (i0.compact_slices == 0 || i0.compact_slices == i0.slices)) PetscCall(PetscStrlcat(c.failed, " compact-columns-not-mixed", sizeof(c.failed)));
  }
  { /* the diagonal slices, of the GPU copy (pellrcuda, -mat_pellr_cuda_diagonal_slices auto|on|off) or of the host
       type's layout (pellr, -mat_pellr_diagonal_slices), against a count made here: exactly for SELL, ELLR and PELLR
       without long rows on one process, else within the slices and at least one on the stencils; none for pellrcuda
       with host vectors, for a CSR block or with off */
    PetscBool   host = (PetscBool)!strstr(type, "cuda"), cuda = (PetscBool)(strstr(type, "cuda") && strstr(vectype, "cuda")), on, off, stencil = (PetscBool)(!strncmp(name, "stencil", 7));
    PetscMPIInt size;
    char        mode[16];

    PetscCall(PetscStrncpy(mode, host ? "off" : "auto", sizeof(mode))); /* the defaults: the host type's off, the GPU's auto */
    PetscCall(PetscOptionsGetString(NULL, NULL, host ? "-mat_pellr_diagonal_slices" : "-mat_pellr_cuda_diagonal_slices", mode, sizeof(mode), NULL));
    PetscCall(PetscStrcmp(mode, "on", &on));
    PetscCall(PetscStrcmp(mode, "off", &off));
    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    if (!(cuda || host) || off || i0.format == MAT_PELLR_FORMAT_CSR || !i0.slices) {
      if (i0.diagonal_slices != -1) PetscCall(PetscStrlcat(c.failed, " diagonal-slices-unexpected", sizeof(c.failed)));
    } else if (size == 1 && (i0.format == MAT_PELLR_FORMAT_SELL || i0.format == MAT_PELLR_FORMAT_ELLR || (i0.format == MAT_PELLR_FORMAT_PELLR && !i0.long_rows))) {
      PetscInt   ndiag = 0, expect;
      PetscInt64 dslots = 0;

      PetscCall(CountDiagonalSlices(A, i0.format == MAT_PELLR_FORMAT_ELLR ? i0.max_row_length : -1, (PetscBool)(i0.format == MAT_PELLR_FORMAT_PELLR), &ndiag, &dslots));
      expect = ndiag && (on || (PetscReal)dslots >= 0.125 * (PetscReal)i0.slots) ? ndiag : -1;
      if (i0.diagonal_slices != expect) {
        char msg[96];
        PetscCall(PetscSNPrintf(msg, sizeof(msg), " diagonal-slices-wrong(%" PetscInt_FMT ",expected %" PetscInt_FMT ")", i0.diagonal_slices, expect));
        PetscCall(PetscStrlcat(c.failed, msg, sizeof(c.failed)));
      }
    } else if (i0.diagonal_slices != -1 && (i0.diagonal_slices < 1 || i0.diagonal_slices > i0.slices)) PetscCall(PetscStrlcat(c.failed, " diagonal-slices-out-of-range", sizeof(c.failed)));
    else if (stencil && i0.diagonal_slices < 1) PetscCall(PetscStrlcat(c.failed, " diagonal-slices-none-on-stencil", sizeof(c.failed)));
  }
  /* nothing changed: nothing rebuilt or refreshed */
  PetscCall(CompareProducts(&c, "again:", A, P));
  PetscCall(MatPELLRGetInfo(P, PETSC_FALSE, &i1));
  if (i1.builds != i0.builds || i1.refreshes != i0.refreshes || i1.transpose_builds != i0.transpose_builds || i1.transpose_refreshes != i0.transpose_refreshes) PetscCall(PetscStrlcat(c.failed, " rebuilt-without-change", sizeof(c.failed)));
  if (i1.uploads != i0.uploads || i1.device_refreshes != i0.device_refreshes) PetscCall(PetscStrlcat(c.failed, " device-copy-redone-without-change", sizeof(c.failed)));

  /* 1b. COO assembly, as DMPlex/libCEED-style applications assemble (MatSetPreallocationCOO + MatSetValuesCOO): every
     process gives the triplets k = rank (mod size), so entries of other processes' rows travel too, duplicates summed;
     then ADD_VALUES once more (2 A): a values-only change, refreshed, not rebuilt */
  {
    Mat          C, A2;
    PetscMPIInt  rank, size;
    PetscInt     nc = 0, *ci, *cj;
    PetscScalar *cv;
    MatPELLRInfo j0, j1;

    PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    PetscCall(PetscMalloc3(t->nz / size + 1, &ci, t->nz / size + 1, &cj, t->nz / size + 1, &cv));
    for (PetscInt k = rank; k < t->nz; k += size) {
      ci[nc]   = t->i[k];
      cj[nc]   = t->j[k];
      cv[nc++] = t->v[k];
    }
    PetscCall(MatCreate(PETSC_COMM_WORLD, &C));
    PetscCall(MatSetSizes(C, PETSC_DECIDE, PETSC_DECIDE, M, N));
    PetscCall(MatSetType(C, type));
    PetscCall(MatSetPreallocationCOO(C, nc, ci, cj)); /* (may change ci, cj) */
    PetscCall(MatSetValuesCOO(C, cv, INSERT_VALUES));
    PetscCall(CompareProducts(&c, "coo:", A, C));
    PetscCall(MatPELLRGetInfo(C, PETSC_FALSE, &j0));
    PetscCall(MatSetValuesCOO(C, cv, ADD_VALUES));
    PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &A2));
    PetscCall(MatScale(A2, 2.0));
    PetscCall(CompareProducts(&c, "coo-add:", A2, C));
    PetscCall(MatPELLRGetInfo(C, PETSC_FALSE, &j1));
    if (j1.builds != j0.builds || j1.uploads != j0.uploads) PetscCall(PetscStrlcat(c.failed, " coo-rebuilt-on-values-change", sizeof(c.failed)));
    if (rend > rstart && j1.refreshes <= j0.refreshes && (!strstr(type, "cuda") || j1.device_refreshes <= j0.device_refreshes)) PetscCall(PetscStrlcat(c.failed, " coo-no-refresh", sizeof(c.failed)));
    PetscCall(MatDestroy(&A2));
    PetscCall(MatDestroy(&C));
    PetscCall(PetscFree3(ci, cj, cv));
  }

  { /* PETSc's own factorizations stay available (the default PC of one process is ILU only if so) */
    PetscMPIInt   size;
    MatFactorType ft[4] = {MAT_FACTOR_LU, MAT_FACTOR_ILU, MAT_FACTOR_CHOLESKY, MAT_FACTOR_ICC};
    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    for (PetscInt i = 0; i < 4 && size == 1; i++) {
      PetscBool avail;
      PetscCall(MatGetFactorAvailable(P, MATSOLVERPETSC, ft[i], &avail));
      if (!avail) PetscCall(PetscStrlcat(c.failed, " factor-unavailable", sizeof(c.failed)));
    }
  }

  /* sparse products (AIJ's kernels, result AIJ) */
  if (M == N) {
    Mat C1, C2;
    PetscCall(MatMatMult(P, P, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &C1));
    PetscCall(MatMatMult(A, A, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &C2));
    PetscCall(CompareProducts(&c, "matmatmult:", C2, C1));
    PetscCall(MatDestroy(&C1));
    PetscCall(MatMatMult(P, A, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &C1));
    PetscCall(CompareProducts(&c, "matmatmult-mixed:", C2, C1));
    PetscCall(MatMatMult(P, A, MAT_REUSE_MATRIX, PETSC_DETERMINE, &C1));
    PetscCall(CompareProducts(&c, "matmatmult-reuse:", C2, C1));
    PetscCall(MatDestroy(&C1));
    PetscCall(MatDestroy(&C2));
    PetscCall(MatPtAP(P, P, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &C1));
    PetscCall(MatPtAP(A, A, MAT_INITIAL_MATRIX, PETSC_DETERMINE, &C2));
    PetscCall(CompareProducts(&c, "ptap:", C2, C1));
    PetscCall(MatDestroy(&C1));
    PetscCall(MatDestroy(&C2));
  }

  /* 2. values-only changes: MatScale, MatShift (when the diagonal is stored), MatSetValues on existing entries */
  PetscCall(MatScale(P, 2.0));
  PetscCall(MatScale(A, 2.0));
  PetscCall(CompareProducts(&c, "scale:", A, P));
  for (PetscInt k = 0; k < t->nz; k++)
    if (t->i[k] >= rstart && t->i[k] < rend && k % 5 == 0) {
      PetscCall(MatSetValue(P, t->i[k], t->j[k], (PetscScalar)(k % 7) - 3.0, INSERT_VALUES));
      PetscCall(MatSetValue(A, t->i[k], t->j[k], (PetscScalar)(k % 7) - 3.0, INSERT_VALUES));
    }
  PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(CompareProducts(&c, "setvalues:", A, P));
  PetscCall(MatPELLRGetInfo(P, PETSC_FALSE, &i2));
  if (i2.builds != i0.builds) PetscCall(PetscStrlcat(c.failed, " rebuilt-on-values-change", sizeof(c.failed)));
  if (i2.refreshes <= i1.refreshes) PetscCall(PetscStrlcat(c.failed, " no-refresh", sizeof(c.failed)));
  if (strstr(type, "cuda") && rend > rstart && (i2.uploads != i1.uploads || i2.device_refreshes <= i1.device_refreshes)) PetscCall(PetscStrlcat(c.failed, " device-not-refreshed-by-values-only", sizeof(c.failed)));

  /* 3. pattern change: a new nonzero in every owned row i at column (i * 7 + 3) mod N */
  if (N > 0) {
    MatInfo before, after;
    PetscCall(DiagonalBlockInfo(A, &before)); /* i3 is the diagonal block's: a new entry in the off-diagonal block alone need not rebuild it */
    for (PetscInt r = rstart; r < rend; r++) {
      PetscCall(MatSetValue(P, r, (r * 7 + 3) % N, 0.5, ADD_VALUES));
      PetscCall(MatSetValue(A, r, (r * 7 + 3) % N, 0.5, ADD_VALUES));
    }
    PetscCall(MatAssemblyBegin(P, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(P, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
    PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
    PetscCall(CompareBuilds(&c, "pattern:", P));
    PetscCall(CompareProducts(&c, "pattern:", A, P));
    PetscCall(MatPELLRGetInfo(P, PETSC_FALSE, &i3));
    PetscCall(DiagonalBlockInfo(A, &after));
    if (after.nz_used > before.nz_used && i3.builds == i2.builds) PetscCall(PetscStrlcat(c.failed, " not-rebuilt-on-pattern-change", sizeof(c.failed)));
  }

  /* 4. AIJ operations on the PELLR matrix */
  if (M == N) {
    PetscCall(MatShift(P, 1.5));
    PetscCall(MatShift(A, 1.5));
    PetscCall(CompareProducts(&c, "shift:", A, P));
  }
  PetscCall(MatDuplicate(P, MAT_COPY_VALUES, &Q));
  PetscCall(MatGetType(Q, &qt));
  PetscCall(PetscObjectTypeCompare((PetscObject)P, qt, &same));
  if (!same) PetscCall(PetscStrlcat(c.failed, " duplicate-type", sizeof(c.failed)));
  PetscCall(CompareProducts(&c, "duplicate:", A, Q));
  PetscCall(MatAXPY(Q, -0.5, A, SUBSET_NONZERO_PATTERN)); /* Q = P - A/2 = A/2 */
  PetscCall(MatCopy(Q, P, SAME_NONZERO_PATTERN));          /* P = A/2 */
  PetscCall(MatScale(A, 0.5));
  PetscCall(CompareProducts(&c, "axpy+copy:", A, P));
  PetscCall(MatDestroy(&Q));
  {
    PetscInt rows[3], nr = 0;
    if (rend > rstart) rows[nr++] = rstart;
    if (rend - rstart > 2) rows[nr++] = rstart + (rend - rstart) / 2;
    if (rend - rstart > 1) rows[nr++] = rend - 1;
    PetscCall(MatZeroRows(P, nr, rows, M == N ? 3.0 : 0.0, NULL, NULL));
    PetscCall(MatZeroRows(A, nr, rows, M == N ? 3.0 : 0.0, NULL, NULL));
    PetscCall(CompareBuilds(&c, "zerorows:", P));
    PetscCall(CompareProducts(&c, "zerorows:", A, P));
    if (M == N) {
      PetscCall(MatZeroRowsColumns(P, nr, rows, 2.0, NULL, NULL));
      PetscCall(MatZeroRowsColumns(A, nr, rows, 2.0, NULL, NULL));
      PetscCall(CompareProducts(&c, "zerorowscolumns:", A, P));
    }
  }
  for (PetscInt r = rstart; r < rend; r++) { /* MatGetRow */
    PetscInt           np, na;
    const PetscInt    *cp, *ca;
    const PetscScalar *vp, *va;
    PetscBool          eq = PETSC_TRUE;
    PetscCall(MatGetRow(P, r, &np, &cp, &vp));
    PetscCall(MatGetRow(A, r, &na, &ca, &va));
    if (np != na) eq = PETSC_FALSE;
    for (PetscInt j = 0; eq && j < np; j++)
      if (cp[j] != ca[j] || vp[j] != va[j]) eq = PETSC_FALSE;
    PetscCall(MatRestoreRow(P, r, &np, &cp, &vp));
    PetscCall(MatRestoreRow(A, r, &na, &ca, &va));
    if (!eq) {
      PetscCall(PetscStrlcat(c.failed, " getrow", sizeof(c.failed)));
      break;
    }
  }
  /* conversions: PELLR -> AIJ must equal A exactly; AIJ -> PELLR must give the same products */
  PetscCall(MatConvert(P, MATAIJ, MAT_INITIAL_MATRIX, &Q));
  PetscCall(SameEntries(A, Q, &same));
  if (!same) PetscCall(PetscStrlcat(c.failed, " convert-to-aij", sizeof(c.failed)));
  PetscCall(MatDestroy(&Q));
  PetscCall(MatConvert(A, type, MAT_INITIAL_MATRIX, &Q));
  PetscCall(MatGetType(Q, &qt));
  PetscCall(PetscObjectTypeCompare((PetscObject)P, qt, &same));
  if (!same) PetscCall(PetscStrlcat(c.failed, " convert-type", sizeof(c.failed)));
  PetscCall(CompareProducts(&c, "converted:", A, Q));
  PetscCall(MatConvert(Q, MATAIJ, MAT_INPLACE_MATRIX, &Q));
  PetscCall(SameEntries(A, Q, &same));
  if (!same) PetscCall(PetscStrlcat(c.failed, " convert-inplace", sizeof(c.failed)));
  PetscCall(MatDestroy(&Q));
  if (strstr(type, "cuda")) {
    Mat C, D;
    /* aijcusparse -> pellrcuda -> aijcusparse, and pellr -> pellrcuda in place by MatSetType() */
    PetscCall(MatConvert(A, MATAIJCUSPARSE, MAT_INITIAL_MATRIX, &C));
    PetscCall(MatConvert(C, type, MAT_INITIAL_MATRIX, &D));
    PetscCall(CompareProducts(&c, "from-aijcusparse:", A, D));
    PetscCall(MatConvert(D, MATAIJCUSPARSE, MAT_INPLACE_MATRIX, &D));
    PetscCall(SameEntries(A, D, &same));
    if (!same) PetscCall(PetscStrlcat(c.failed, " to-aijcusparse-values", sizeof(c.failed)));
    /*
      The reference is PETSc's own aijcusparse C, not A: in PETSc 3.22.5 MatMultTransposeAdd_SeqAIJCUSPARSE(A, x, y, z)
      with y != z computes z = A^T x + y + (the old contents of z) (cusparseSpMV with beta = 1 into the write-only array
      of z, then z += y; MPIAIJCUSPARSE uses the same kernel on its diagonal block). Against A the result of any
      aijcusparse matrix differs by exactly the previous output; against C (same vectors, same history) it must agree.
    */
    PetscCall(CompareProducts(&c, "to-aijcusparse:", C, D));
    PetscCall(MatDestroy(&D));
    PetscCall(MatDestroy(&C));
    PetscCall(MatConvert(A, MATPELLR, MAT_INITIAL_MATRIX, &D));
    PetscCall(MatSetType(D, type));
    PetscCall(MatGetType(D, &qt));
    PetscCall(PetscObjectTypeCompare((PetscObject)P, qt, &same));
    if (!same) PetscCall(PetscStrlcat(c.failed, " settype-pellr-to-cuda", sizeof(c.failed)));
    PetscCall(CompareProducts(&c, "pellr-to-cuda:", A, D));
    PetscCall(MatDestroy(&D));
  }
  if (switch_formats) { /* every storage format on the same matrix: MatPELLRSetFormat() drops the copies, they are rebuilt in the new format */
    MatPELLRFormat fmts[] = {MAT_PELLR_FORMAT_PELLR, MAT_PELLR_FORMAT_SELL, MAT_PELLR_FORMAT_ELLR, MAT_PELLR_FORMAT_CSR, MAT_PELLR_FORMAT_AUTO};
    PetscMPIInt    size;
    PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
    for (size_t k = 0; k < PETSC_STATIC_ARRAY_LENGTH(fmts); k++) {
      MatPELLRFormat r, u, expect = fmts[k] == MAT_PELLR_FORMAT_AUTO ? MAT_PELLR_FORMAT_PELLR : fmts[k];
      /* auto: pellr keeps PELLR; pellrcuda stores what the format predictor chose for each block (any concrete format),
         and a duplicate predicts the same */
      PetscBool      predicted = (PetscBool)(fmts[k] == MAT_PELLR_FORMAT_AUTO && strstr(type, "cuda"));
      char           tag[64];
      PetscCall(PetscSNPrintf(tag, sizeof(tag), "switch-%s:", MatPELLRFormats[fmts[k]]));
      if (fmts[k] == MAT_PELLR_FORMAT_ELLR) {
        PetscBool ok;
        PetscCall(EllrFeasible(A, &ok));
        if (!ok) {
          if (size == 1) {
            PetscBool refused;
            PetscCall(EllrRefused(P, &refused));
            if (!refused) PetscCall(PetscStrlcat(c.failed, " ellr-not-refused", sizeof(c.failed)));
            ellr_refused = PETSC_TRUE;
          } else ellr_skipped = PETSC_TRUE;
          continue;
        }
      }
      PetscCall(MatPELLRSetFormat(P, fmts[k]));
      PetscCall(CompareBuilds(&c, tag, P));
      PetscCall(CompareProducts(&c, tag, A, P));
      PetscCall(MatPELLRGetFormat(P, &r, &u));
      if (predicted) { /* (a predicted ELLR the block cannot take would have failed the build with PETSC_ERR_SUP above) */
        if (u == MAT_PELLR_FORMAT_AUTO) PetscCall(PetscStrlcat(c.failed, " predicted-format-invalid", sizeof(c.failed)));
        expect = u;
      }
      if (r != fmts[k] || u != expect) PetscCall(PetscStrlcat(c.failed, " format-not-used", sizeof(c.failed)));
      { /* a duplicate keeps the format */
        Mat D;
        PetscCall(MatDuplicate(P, MAT_COPY_VALUES, &D));
        PetscCall(MatPELLRGetFormat(D, &r, &u));
        if (r != fmts[k] || u != expect) PetscCall(PetscStrlcat(c.failed, " duplicate-format", sizeof(c.failed)));
        PetscCall(MatDestroy(&D));
      }
      { /* the slots of SELL, ELLR and CSR counted here from the row lengths of the (diagonal) block */
        MatPELLRInfo io;
        Mat          Ad = A;
        PetscInt64   slots = 0;
        PetscInt     m, maxlen = 0;
        const PetscInt *ai;
        if (size > 1) PetscCall(MatMPIAIJGetSeqAIJ(A, &Ad, NULL, NULL));
        PetscCall(MatGetLocalSize(Ad, &m, NULL));
        PetscCall(MatSeqAIJGetCSRAndMemType(Ad, &ai, NULL, NULL, NULL));
        for (PetscInt i0 = 0; i0 < m; i0 += 32) {
          PetscInt w = 0;
          for (PetscInt i = i0; i < PetscMin(m, i0 + 32); i++) w = PetscMax(w, ai[i + 1] - ai[i]);
          maxlen = PetscMax(maxlen, w);
          slots += 32 * (PetscInt64)w;
        }
        if (expect == MAT_PELLR_FORMAT_ELLR) slots = (PetscInt64)((m + 31) / 32) * 32 * maxlen;
        if (expect == MAT_PELLR_FORMAT_CSR) slots = m ? ai[m] - ai[0] : 0;
        PetscCall(MatPELLRGetInfo(P, PETSC_FALSE, &io));
        if (expect != MAT_PELLR_FORMAT_PELLR && io.slots != slots) PetscCall(PetscStrlcat(c.failed, " slots", sizeof(c.failed)));
      }
      if (size > 1) {
        MatPELLRInfo io;
        PetscCall(MatPELLRGetInfo(P, PETSC_TRUE, &io));
        /* auto: each block is predicted on its own (the off-diagonal block has another structure) */
        if (predicted ? io.format == MAT_PELLR_FORMAT_AUTO : io.format != expect) PetscCall(PetscStrlcat(c.failed, " offdiag-format-not-used", sizeof(c.failed)));
      }
    }
    if (strstr(type, "cuda") && size == 1) {
      /* the format auto chose, requested explicitly and then by auto again: each drops the layout and builds one of the
         same size, which takes the dropped layout's device memory (-mat_pellr_cuda_reuse_block, on by default) */
      MatPELLRFormat r, u;
      PetscCall(MatPELLRGetFormat(P, &r, &u));
      PetscCall(MatPELLRSetFormat(P, u));
      PetscCall(CompareBuilds(&c, "same-format:", P));
      PetscCall(CompareProducts(&c, "same-format:", A, P));
      PetscCall(MatPELLRSetFormat(P, MAT_PELLR_FORMAT_AUTO));
      PetscCall(CompareBuilds(&c, "same-format-auto:", P));
      PetscCall(CompareProducts(&c, "same-format-auto:", A, P));
      PetscCall(MatPELLRGetFormat(P, &r, &u));
      if (r != MAT_PELLR_FORMAT_AUTO || u == MAT_PELLR_FORMAT_AUTO) PetscCall(PetscStrlcat(c.failed, " same-format-not-auto", sizeof(c.failed)));
    }
    PetscCall(MatPELLRSetFormat(P, fmt_set ? req_fmt : MAT_PELLR_FORMAT_AUTO));
  }
  { /* more values-only changes: MatDiagonalScale, MatZeroEntries */
    Vec l, r;
    PetscCall(MatCreateVecs(A, &r, &l));
    PetscCall(VecSet(l, 0.5));
    PetscCall(VecSet(r, 3.0));
    PetscCall(MatDiagonalScale(P, l, r));
    PetscCall(MatDiagonalScale(A, l, r));
    PetscCall(CompareProducts(&c, "diagonalscale:", A, P));
    PetscCall(MatZeroEntries(P));
    PetscCall(MatZeroEntries(A));
    PetscCall(CompareProducts(&c, "zeroentries:", A, P));
    PetscCall(VecDestroy(&l));
    PetscCall(VecDestroy(&r));
  }
  {
    PetscMPIInt fails = c.failed[0] ? 1 : 0, all;
    PetscReal   worst;
    PetscCallMPI(MPIU_Allreduce(&fails, &all, 1, MPI_INT, MPI_MAX, PETSC_COMM_WORLD));
    PetscCallMPI(MPIU_Allreduce(&c.worst, &worst, 1, MPIU_REAL, MPI_MAX, PETSC_COMM_WORLD));
    if (c.failed[0]) PetscCall(PetscPrintf(PETSC_COMM_SELF, "  %s FAILED:%s (max rel. difference %g)\n", name, c.failed, (double)c.worst));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-14s %6" PetscInt_FMT " x %-6" PetscInt_FMT " %s; long rows %" PetscInt_FMT ", slices %" PetscInt_FMT ", PELLR/ELLR warp iterations %s\n", name, M, N, all ? "DIFFERS from aij" : "all operations match aij (max rel. difference < 1e-12)", i0.long_rows, i0.slices, i0.iterations_pellr <= i0.iterations_ellr ? "<= 1" : "> 1 (impossible)"));
    if (switch_formats) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%-14s stored as %s; switched to pellr sell%s csr auto: products checked%s\n", "", MatPELLRFormats[i0.format], ellr_refused || ellr_skipped ? "" : " ellr", ellr_refused ? "; ellr refused with PETSC_ERR_SUP (too much padding)" : (ellr_skipped ? "; ellr not tried (too much padding on a process)" : "")));
  }
  PetscCall(MatDestroy(&P));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Generate(const char *kind, MMTriplets *t)
{
  PetscInt m = 0, n = 0, cap = 0, k = 0;

  PetscFunctionBeginUser;
  if (!strcmp(kind, "empty_rows")) m = n = 200, cap = 200 * 5;
  else if (!strcmp(kind, "dense_row")) m = n = 400, cap = 400 * 3 + 400;
  else if (!strcmp(kind, "n0")) m = n = 0, cap = 1;
  else if (!strcmp(kind, "n1")) m = n = 1, cap = 1;
  else if (!strcmp(kind, "rect_wide")) m = 60, n = 130, cap = 60 * 6;
  else if (!strcmp(kind, "rect_tall")) m = 130, n = 60, cap = 130 * 6;
  else if (!strcmp(kind, "powerlaw")) m = n = 3000, cap = 3000 * 40;
  else if (!strcmp(kind, "wide_rows")) m = n = 1500, cap = 40 * 1200 + 40 * 700 + 1500 * 3;
  else if (!strcmp(kind, "block_rows")) m = n = 10000, cap = 9001 + 2 * 4100 + 12 * 1500 + 10000 * 3;
  else if (!strcmp(kind, "wide_columns")) m = 3000, n = 70000, cap = 3000 * 6;
  else if (!strcmp(kind, "empty_run")) m = n = 6000, cap = 16;
  else if (!strcmp(kind, "stencil5")) m = n = 150 * 40, cap = 150 * 40 * 5;
  else if (!strcmp(kind, "stencil_box7")) m = n = 200 * 24, cap = 200 * 24 * 49;
  PetscCall(MMTripletsCreate(m, n, cap, t));
  if (!strcmp(kind, "empty_rows")) {
    for (PetscInt i = 0; i < t->m; i++) {
      if (i % 3 == 0) continue; /* every third row empty */
      for (PetscInt j = 0; j < 1 + i % 5; j++) t->i[k] = i, t->j[k] = (i * 13 + j * 31) % t->n, t->v[k++] = 1.0 + i + 0.1 * j;
    }
  } else if (!strcmp(kind, "dense_row")) {
    for (PetscInt i = 0; i < t->m; i++) {
      if (i == 7) {
        for (PetscInt j = 0; j < t->n; j++) t->i[k] = i, t->j[k] = j, t->v[k++] = 1.0 / (1 + j);
        continue;
      }
      for (PetscInt j = PetscMax(0, i - 1); j <= PetscMin(t->n - 1, i + 1); j++) t->i[k] = i, t->j[k] = j, t->v[k++] = i == j ? 4.0 : -1.0;
    }
  } else if (!strcmp(kind, "n1")) {
    t->i[k] = 0, t->j[k] = 0, t->v[k++] = 2.0;
  } else if (!strncmp(kind, "rect", 4)) {
    for (PetscInt i = 0; i < t->m; i++)
      for (PetscInt j = 0; j < 1 + (i * 7) % 6; j++) t->i[k] = i, t->j[k] = (i * 17 + j * 11) % t->n, t->v[k++] = 1.0 - 0.01 * i + j;
  } else if (!strcmp(kind, "wide_rows")) {
    /* 40 rows of ~1100 entries, 40 of ~600, the rest tridiagonal: 32 and 16 threads per row with a large -mat_pellr_long_row_length */
    for (PetscInt i = 0; i < t->m; i++) {
      PetscInt len = i < 40 ? 1100 + i : (i < 80 ? 560 + i : 0);
      if (len)
        for (PetscInt j = 0; j < len; j++) t->i[k] = i, t->j[k] = j, t->v[k++] = 1.0 / (1 + i + j);
      else
        for (PetscInt j = PetscMax(0, i - 1); j <= PetscMin(t->n - 1, i + 1); j++) t->i[k] = i, t->j[k] = j, t->v[k++] = i == j ? 4.0 : -1.0;
    }
  } else if (!strcmp(kind, "block_rows")) {
    /* rows of 9001, 4097, 4098 entries and 12 of 1024 .. 1431 among tridiagonal rows: the GPU's block rows in chunks of
       4096 entries, with rows cut into several pieces and chunks holding several rows */
    for (PetscInt i = 0; i < t->m; i++) {
      PetscInt len = i == 5000 ? 9001 : (i == 17 || i == 9000 ? 4097 + i % 2 : (i % 700 == 3 && i < 8400 ? 1024 + 37 * (i / 700) : 0));
      if (len)
        for (PetscInt j = 0; j < len; j++) t->i[k] = i, t->j[k] = (i + j) % t->n, t->v[k++] = 1.0 / (1 + (i + 3 * j) % 101);
      else
        for (PetscInt j = PetscMax(0, i - 1); j <= PetscMin(t->n - 1, i + 1); j++) t->i[k] = i, t->j[k] = j, t->v[k++] = i == j ? 4.0 : -1.0;
    }
  } else if (!strcmp(kind, "wide_columns")) {
    /* more than 65536 columns: rows of 4 banded entries (slices whose entry positions span a few hundred columns) and
       rows of 5 or 6 spread over all columns (positions spanning more than 65536): the GPU's compact columns mix
       16-bit and 32-bit slices */
    for (PetscInt i = 0; i < t->m; i++) {
      if (i % 3) {
        for (PetscInt j = 0; j < 4; j++) t->i[k] = i, t->j[k] = 23 * i + 5 * j, t->v[k++] = 1.0 + (i % 7) - 0.5 * j;
      } else {
        for (PetscInt j = 0; j < 5 + (i / 3) % 2; j++) t->i[k] = i, t->j[k] = (i + 39113 * j * (1 + i % 5)) % t->n, t->v[k++] = 2.0 - 0.25 * j + (i % 3);
      }
    }
  } else if (!strcmp(kind, "empty_run")) {
    /* entries in the first and the last row only: the 5998 empty rows between start at the same entry (one window of
       the GPU's row-block CSR kernel, which cuts them into blocks of a bounded number of rows) */
    for (PetscInt j = 0; j < 8; j++) t->i[k] = 0, t->j[k] = 5 * j, t->v[k++] = 1.0 + j;
    for (PetscInt j = 0; j < 8; j++) t->i[k] = t->m - 1, t->j[k] = t->n - 1 - 7 * j, t->v[k++] = 2.0 - 0.1 * j;
  } else if (!strncmp(kind, "stencil", 7)) {
    /* a 2D grid in natural order: the 5-point stencil on 150 x 40 or the 7 x 7 box on 200 x 24 (49 entries, the GPU's
       slices of 2 threads a row); slices of interior rows are diagonal (the GPU reads no columns there), slices with a
       boundary row are not */
    const PetscInt nx = !strcmp(kind, "stencil5") ? 150 : 200, ny = t->m / nx, h = !strcmp(kind, "stencil5") ? 1 : 3;

    for (PetscInt i = 0; i < t->m; i++) {
      const PetscInt x = i % nx, y = i / nx;
      for (PetscInt dy = -h; dy <= h; dy++)
        for (PetscInt dx = -h; dx <= h; dx++) {
          if (h == 1 && dx && dy) continue;
          if (x + dx < 0 || x + dx >= nx || y + dy < 0 || y + dy >= ny) continue;
          t->i[k] = i, t->j[k] = i + dy * nx + dx, t->v[k++] = dx || dy ? -1.0 / (1 + (i + 3 * dx + 7 * dy + 21) % 5) : 4.0 * h * h + (i % 7);
        }
    }
  } else if (!strcmp(kind, "powerlaw")) {
    /* row lengths ~ 1/rank: a few rows of hundreds of entries, most of one or two, to exercise every slice class */
    for (PetscInt i = 0; i < t->m; i++) {
      PetscInt len = PetscMin(t->n, PetscMax(1, 1200 / (1 + (i * 37) % t->m)));
      if (k + len > cap) len = cap - k;
      for (PetscInt j = 0; j < len; j++) t->i[k] = i, t->j[k] = (i + j * 97) % t->n, t->v[k++] = 1.0 + ((i + j) % 9);
    }
  }
  t->nz = k;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the seed's formulas against a direct count: sort the lengths (descending), take warp maxima */
static int CmpDesc(const void *a, const void *b)
{
  PetscInt x = *(const PetscInt *)a, y = *(const PetscInt *)b;
  return x < y ? 1 : (x > y ? -1 : 0);
}

static PetscErrorCode TestFormulas(void)
{
  PetscInt  ms[] = {0, 1, 31, 32, 33, 100, 1000}, warps[] = {1, 4, 32};
  PetscBool ok   = PETSC_TRUE;

  PetscFunctionBeginUser;
  for (size_t a = 0; a < PETSC_STATIC_ARRAY_LENGTH(ms); a++) {
    for (size_t b = 0; b < PETSC_STATIC_ARRAY_LENGTH(warps); b++) {
      PetscInt   m = ms[a], w = warps[b], *len, *sorted, maxlen = 0;
      PetscInt64 e, er, p, e2 = 0, er2 = 0, p2 = 0;
      PetscReal  dp, dp2 = 0, mean = 0;
      PetscCall(PetscMalloc2(m, &len, m, &sorted));
      for (PetscInt i = 0; i < m; i++) len[i] = (i * 7919) % 13 + (i % 17 == 0 ? 40 : 0), sorted[i] = len[i], maxlen = PetscMax(maxlen, len[i]), mean += len[i];
      qsort(sorted, (size_t)m, sizeof(PetscInt), CmpDesc);
      for (PetscInt s = 0; s < m; s += w) {
        PetscInt wm = 0;
        for (PetscInt i = s; i < PetscMin(m, s + w); i++) wm = PetscMax(wm, len[i]);
        e2 += maxlen, er2 += wm, p2 += sorted[s];
      }
      if (m > 1 && mean > 0) {
        mean /= m;
        for (PetscInt i = 1; i < m; i++) dp2 += PetscAbsReal((PetscReal)(len[i] - len[i - 1]));
        dp2 /= (m - 1) * mean;
      }
      PetscCall(MatPELLRWarpIterations(m, len, w, &e, &er, &p));
      PetscCall(MatPELLRPerturbation(m, len, &dp));
      if (e != e2 || er != er2 || p != p2 || PetscAbsReal(dp - dp2) > 1e-12 * PetscMax(1, dp2) || p > er || er > e) ok = PETSC_FALSE;
      PetscCall(PetscFree2(len, sorted));
    }
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "warp iterations (ELL, ELLR, PELLR) and degree of perturbation equal a direct count: %s\n", ok ? "yes" : "NO"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one shared matrix (MMForEachManifestMatrix): its file through TestMatrix() with the tested types */
typedef struct {
  const char *type, *vectype;
} TypeCtx;

static PetscErrorCode TestShared(const char dir[], const char name[], void *ctx)
{
  const TypeCtx *tc = (const TypeCtx *)ctx;
  char           path[PETSC_MAX_PATH_LEN + 300];
  MMTriplets     t;

  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(path, sizeof(path), "%s/%s.mtx.gz", dir, name));
  PetscCall(MMRead(path, PETSC_TRUE, &t));
  PetscCall(TestMatrix(name, &t, tc->type, tc->vectype));
  PetscCall(MMTripletsDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  char      dir[PETSC_MAX_PATH_LEN] = "../../shared/matrices", type[64] = MATPELLR, vectype[64] = VECSTANDARD;
  char     *names[64];
  PetscInt  nnames = 64;
  PetscBool gen = PETSC_FALSE, sel = PETSC_FALSE;
  TypeCtx   tc  = {type, vectype};

  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscSparseGPUInitializePackage());
  if (getenv("SPARSEGPU_MATRICES")) PetscCall(PetscStrncpy(dir, getenv("SPARSEGPU_MATRICES"), sizeof(dir))); /* set by the test runner */
  PetscCall(PetscOptionsGetString(NULL, NULL, "-dir", dir, sizeof(dir), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-type", type, sizeof(type), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-vec_type", vectype, sizeof(vectype), NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-gen", &gen, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-compare_builds", &compare_builds, NULL));
  PetscCall(PetscOptionsGetEnum(NULL, NULL, "-mat_pellr_format", MatPELLRFormats, (PetscEnum *)&req_fmt, &fmt_set));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-switch_formats", &switch_formats, NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-matrices", names, &nnames, &sel));
  if (gen) PetscCall(TestFormulas());
  if (gen) {
    const char *kinds[] = {"empty_rows", "dense_row", "n0", "n1", "rect_wide", "rect_tall", "powerlaw", "wide_rows", "block_rows", "wide_columns"};
    char       *only[16];
    PetscInt    nonly = 16;
    PetscBool   set;

    PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-gen_kinds", only, &nonly, &set)); /* these instead (also empty_run) */
    for (size_t i = 0; i < (set ? (size_t)nonly : PETSC_STATIC_ARRAY_LENGTH(kinds)); i++) {
      const char *kind = set ? only[i] : kinds[i];
      MMTriplets  t;
      PetscCall(Generate(kind, &t));
      PetscCall(TestMatrix(kind, &t, type, vectype));
      PetscCall(MMTripletsDestroy(&t));
    }
    for (PetscInt i = 0; set && i < nonly; i++) PetscCall(PetscFree(only[i]));
  }
  if (!sel) nnames = 0;
  if (sel && nnames == 1 && !strcmp(names[0], "none")) { /* generated matrices only: the shared ones are not needed */
    PetscCall(PetscFree(names[0]));
    PetscCall(PetscFinalize());
    return 0;
  }
  PetscCall(MMForEachManifestMatrix(dir, sel, nnames, names, TestShared, &tc));
  for (PetscInt i = 0; i < nnames; i++) PetscCall(PetscFree(names[i]));
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:
      suffix: gen
      args: -gen -matrices none

   test:
      suffix: shared
      args: -dir ${SPARSEGPU_MATRICES}

   test:
      suffix: gen_mpi
      nsize: 2
      args: -gen -matrices none

   test:
      suffix: shared_mpi
      nsize: 2
      args: -dir ${SPARSEGPU_MATRICES} -matrices bcsstk01,494_bus,west0479,hangGlider_2,mbeacxc,e30r4000,bayer10,Pd,rajat19

   test:
      suffix: long_rows
      args: -gen -matrices mbeacxc,adder_dcop_05 -mat_pellr_long_row_length 3

   test:
      suffix: wide_slices
      args: -gen -matrices mbeacxc,adder_dcop_05,hangGlider_2 -mat_pellr_long_row_length 100000

   # every matrix is made in the format (the default tests above switch every matrix through all formats too)
   test:
      suffix: formats_gen
      args: -gen -matrices none -mat_pellr_format {{sell ellr csr}separate output}

   # a run of 5998 empty rows that all start at the same entry, in every format and stored as csr
   test:
      suffix: gen_empty_run
      args: -gen -gen_kinds empty_run -matrices none

   test:
      suffix: formats_gen_empty_run_csr
      args: -gen -gen_kinds empty_run -matrices none -mat_pellr_format csr

   test:
      suffix: formats_gen_mpi
      nsize: 2
      args: -gen -matrices none -mat_pellr_format {{sell ellr csr}separate output}

   test:
      suffix: formats_shared
      args: -dir ${SPARSEGPU_MATRICES} -matrices bcsstk01,west0479,hangGlider_2,mbeacxc,rajat19,e30r4000,Pd -switch_formats 0 -mat_pellr_format {{sell ellr csr}separate output}

   test:
      suffix: formats_shared_mpi
      nsize: 2
      args: -dir ${SPARSEGPU_MATRICES} -matrices bcsstk01,494_bus,west0479,mbeacxc,e30r4000,bayer10,Pd -switch_formats 0 -mat_pellr_format {{sell ellr csr}separate output}

   test:
      suffix: gen_stencils
      args: -gen -gen_kinds stencil5,stencil_box7 -matrices none -mat_pellr_format {{pellr sell ellr}separate output} -mat_pellr_diagonal_slices {{auto on off}shared output}

   test:
      suffix: gen_stencils_mpi
      nsize: 2
      args: -gen -gen_kinds stencil5,stencil_box7 -matrices none -mat_pellr_format pellr -mat_pellr_diagonal_slices {{auto on}shared output}

   # pellrcuda builds its layout on the GPU (default -mat_pellr_build device): each GPU build is also compared with the host build
   testset:
      requires: cuda
      args: -type pellrcuda -vec_type cuda -compare_builds -mat_pellr_format pellr
      test:
         suffix: cuda_gen
         args: -gen -matrices none
         output_file: output/pellr_ops_gen.out
      test:
         suffix: cuda_gen_reuse_block_off
         args: -gen -matrices none -mat_pellr_cuda_reuse_block 0
         output_file: output/pellr_ops_gen.out
      test:
         suffix: cuda_gen_overlap
         args: -gen -matrices none -mat_pellr_cuda_overlap_min_nnz 0
         output_file: output/pellr_ops_gen.out
      test:
         suffix: cuda_gen_compact_off
         args: -gen -matrices none -mat_pellr_cuda_compact_columns off
         output_file: output/pellr_ops_gen.out
      test:
         suffix: cuda_gen_compact_on
         args: -gen -matrices none -mat_pellr_cuda_compact_columns on
         output_file: output/pellr_ops_gen.out
      test:
         suffix: cuda_gen_mpi_compact_on
         nsize: 2
         args: -gen -matrices none -mat_pellr_cuda_compact_columns on
         output_file: output/pellr_ops_gen_mpi.out
      test:
         suffix: cuda_shared_compact_on
         args: -dir ${SPARSEGPU_MATRICES} -mat_pellr_cuda_compact_columns on
         output_file: output/pellr_ops_shared.out
      test:
         suffix: cuda_gen_mpi_overlap
         nsize: 2
         args: -gen -matrices none -mat_pellr_cuda_overlap_min_nnz 0
         output_file: output/pellr_ops_gen_mpi.out
      test:
         suffix: cuda_shared
         args: -dir ${SPARSEGPU_MATRICES}
         output_file: output/pellr_ops_shared.out
      # auto's features on the host (-mat_pellr_predict_device false; the default computes them on the GPU from the
      # staged copy of the CSR the build then takes)
      test:
         suffix: cuda_shared_predict_host
         args: -dir ${SPARSEGPU_MATRICES} -mat_pellr_predict_device false
         output_file: output/pellr_ops_shared.out
      test:
         suffix: cuda_gen_predict_host
         args: -gen -matrices none -mat_pellr_predict_device false
         output_file: output/pellr_ops_gen.out
      test:
         suffix: cuda_gen_mpi
         nsize: 2
         args: -gen -matrices none
         output_file: output/pellr_ops_gen_mpi.out
      test:
         suffix: cuda_gen_empty_run
         args: -gen -gen_kinds empty_run -matrices none
         output_file: output/pellr_ops_gen_empty_run.out
      test:
         suffix: cuda_long_rows
         args: -gen -matrices mbeacxc,adder_dcop_05 -mat_pellr_long_row_length 3
         output_file: output/pellr_ops_long_rows.out
      test:
         suffix: cuda_wide_slices
         args: -gen -matrices mbeacxc,adder_dcop_05,hangGlider_2 -mat_pellr_long_row_length 100000
         output_file: output/pellr_ops_wide_slices.out
      test:
         suffix: cuda_shared_mpi
         nsize: 2
         args: -dir ${SPARSEGPU_MATRICES} -matrices bcsstk01,494_bus,west0479,hangGlider_2,mbeacxc,e30r4000,bayer10,Pd,rajat19
         output_file: output/pellr_ops_shared_mpi.out

   # diagonal slices (-mat_pellr_cuda_diagonal_slices) on stencils, each format, with and without compact columns
   testset:
      requires: cuda
      args: -type pellrcuda -vec_type cuda -compare_builds -gen -gen_kinds stencil5,stencil_box7 -matrices none
      test:
         suffix: cuda_stencils_pellr
         args: -mat_pellr_format pellr -mat_pellr_cuda_diagonal_slices {{auto on off}shared output} -mat_pellr_cuda_compact_columns {{auto on}shared output}
         output_file: output/pellr_ops_gen_stencils_pellr.out
      test:
         suffix: cuda_stencils_sell
         args: -mat_pellr_format sell -mat_pellr_cuda_diagonal_slices {{auto on off}shared output} -mat_pellr_cuda_compact_columns {{auto on}shared output}
         output_file: output/pellr_ops_gen_stencils_sell.out
      test:
         suffix: cuda_stencils_ellr
         args: -mat_pellr_format ellr -mat_pellr_cuda_diagonal_slices {{auto on}shared output}
         output_file: output/pellr_ops_gen_stencils_ellr.out
      test:
         suffix: cuda_stencils_hostbuild_pellr
         args: -mat_pellr_format pellr -mat_pellr_build host -mat_pellr_cuda_diagonal_slices on
         output_file: output/pellr_ops_gen_stencils_pellr.out
      test:
         suffix: cuda_stencils_hostbuild_sell
         args: -mat_pellr_format sell -mat_pellr_build host -mat_pellr_cuda_diagonal_slices on
         output_file: output/pellr_ops_gen_stencils_sell.out
      test:
         suffix: cuda_stencils_mpi
         nsize: 2
         args: -mat_pellr_format pellr -mat_pellr_cuda_diagonal_slices {{auto on}shared output}
         output_file: output/pellr_ops_gen_stencils_mpi.out

   # the fallback: layout built on the host and copied
   testset:
      requires: cuda
      args: -type pellrcuda -vec_type cuda -mat_pellr_build host -mat_pellr_format pellr
      test:
         suffix: cuda_hostbuild_gen
         args: -gen -matrices none
         output_file: output/pellr_ops_gen.out
      test:
         suffix: cuda_hostbuild_shared
         args: -dir ${SPARSEGPU_MATRICES}
         output_file: output/pellr_ops_shared.out
      test:
         suffix: cuda_hostbuild_gen_mpi
         nsize: 2
         args: -gen -matrices none
         output_file: output/pellr_ops_gen_mpi.out

   # the formats on the GPU (same outputs as on the host); -compare_builds checks the GPU build of each format against the host build
   testset:
      requires: cuda
      args: -type pellrcuda -vec_type cuda -compare_builds
      test:
         suffix: cuda_formats_gen_sell
         args: -gen -matrices none -mat_pellr_format sell
         output_file: output/pellr_ops_formats_gen_sell.out
      test:
         suffix: cuda_formats_gen_sell_compact_on
         args: -gen -matrices none -mat_pellr_format sell -mat_pellr_cuda_compact_columns on
         output_file: output/pellr_ops_formats_gen_sell.out
      test:
         suffix: cuda_formats_gen_ellr_compact_on
         args: -gen -matrices none -mat_pellr_format ellr -mat_pellr_cuda_compact_columns on
         output_file: output/pellr_ops_formats_gen_ellr.out
      test:
         suffix: cuda_formats_gen_ellr
         args: -gen -matrices none -mat_pellr_format ellr
         output_file: output/pellr_ops_formats_gen_ellr.out
      test:
         suffix: cuda_formats_gen_csr
         args: -gen -matrices none -mat_pellr_format csr
         output_file: output/pellr_ops_formats_gen_csr.out
      test:
         suffix: cuda_formats_gen_csr_vector
         args: -gen -matrices none -mat_pellr_format csr -mat_pellr_cuda_csr_kernel vector -mat_pellr_cuda_csr_threads {{0 2 8 32}shared output}
         output_file: output/pellr_ops_formats_gen_csr.out
      test:
         suffix: cuda_formats_gen_csr_stream
         args: -gen -matrices none -mat_pellr_format csr -mat_pellr_cuda_csr_kernel stream -mat_pellr_cuda_csr_stream_entries {{256 1024 4096}shared output}
         output_file: output/pellr_ops_formats_gen_csr.out
      test:
         suffix: cuda_formats_gen_empty_run_csr_stream
         args: -gen -gen_kinds empty_run -matrices none -mat_pellr_format csr -mat_pellr_cuda_csr_kernel stream -mat_pellr_cuda_csr_stream_entries {{256 1024}shared output}
         output_file: output/pellr_ops_formats_gen_empty_run_csr.out
      test:
         suffix: cuda_formats_shared_csr_stream
         args: -dir ${SPARSEGPU_MATRICES} -matrices bcsstk01,west0479,hangGlider_2,mbeacxc,rajat19,e30r4000,Pd -switch_formats 0 -mat_pellr_format csr -mat_pellr_cuda_csr_kernel stream
         output_file: output/pellr_ops_formats_shared_csr.out
      test:
         suffix: cuda_formats_gen_mpi_csr_stream
         nsize: 2
         args: -gen -matrices none -mat_pellr_format csr -mat_pellr_cuda_csr_kernel stream
         output_file: output/pellr_ops_formats_gen_mpi_csr.out
      test:
         suffix: cuda_formats_gen_mpi_csr_vector
         nsize: 2
         args: -gen -matrices none -mat_pellr_format csr -mat_pellr_cuda_csr_kernel vector
         output_file: output/pellr_ops_formats_gen_mpi_csr.out
      test:
         suffix: cuda_formats_shared_csr_vector
         args: -dir ${SPARSEGPU_MATRICES} -matrices bcsstk01,west0479,hangGlider_2,mbeacxc,rajat19,e30r4000,Pd -switch_formats 0 -mat_pellr_format csr -mat_pellr_cuda_csr_kernel vector
         output_file: output/pellr_ops_formats_shared_csr.out
      test:
         suffix: cuda_formats_gen_mpi_sell
         nsize: 2
         args: -gen -matrices none -mat_pellr_format sell
         output_file: output/pellr_ops_formats_gen_mpi_sell.out
      test:
         suffix: cuda_formats_gen_mpi_ellr
         nsize: 2
         args: -gen -matrices none -mat_pellr_format ellr
         output_file: output/pellr_ops_formats_gen_mpi_ellr.out
      test:
         suffix: cuda_formats_gen_mpi_csr
         nsize: 2
         args: -gen -matrices none -mat_pellr_format csr
         output_file: output/pellr_ops_formats_gen_mpi_csr.out
      test:
         suffix: cuda_formats_shared_sell
         args: -dir ${SPARSEGPU_MATRICES} -matrices bcsstk01,west0479,hangGlider_2,mbeacxc,rajat19,e30r4000,Pd -switch_formats 0 -mat_pellr_format sell
         output_file: output/pellr_ops_formats_shared_sell.out
      test:
         suffix: cuda_formats_shared_ellr
         args: -dir ${SPARSEGPU_MATRICES} -matrices bcsstk01,west0479,hangGlider_2,mbeacxc,rajat19,e30r4000,Pd -switch_formats 0 -mat_pellr_format ellr
         output_file: output/pellr_ops_formats_shared_ellr.out
      test:
         suffix: cuda_formats_shared_csr
         args: -dir ${SPARSEGPU_MATRICES} -matrices bcsstk01,west0479,hangGlider_2,mbeacxc,rajat19,e30r4000,Pd -switch_formats 0 -mat_pellr_format csr
         output_file: output/pellr_ops_formats_shared_csr.out

   testset:
      requires: cuda
      args: -type pellrcuda -vec_type cuda -mat_pellr_build host
      test:
         suffix: cuda_hostbuild_formats_gen_sell
         args: -gen -matrices none -mat_pellr_format sell
         output_file: output/pellr_ops_formats_gen_sell.out
      test:
         suffix: cuda_hostbuild_formats_gen_ellr
         args: -gen -matrices none -mat_pellr_format ellr
         output_file: output/pellr_ops_formats_gen_ellr.out
      test:
         suffix: cuda_hostbuild_formats_gen_csr
         args: -gen -matrices none -mat_pellr_format csr
         output_file: output/pellr_ops_formats_gen_csr.out
      test:
         suffix: cuda_hostbuild_formats_gen_mpi_sell
         nsize: 2
         args: -gen -matrices none -mat_pellr_format sell
         output_file: output/pellr_ops_formats_gen_mpi_sell.out

TEST*/
