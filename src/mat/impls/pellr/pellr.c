/*
  MATPELLR / MATPELLRCUDA: an AIJ matrix (SeqAIJ or MPIAIJ, subclassed in place) with a PELLR copy of its
  sequential block(s) used for the products. PELLR (Wang & Gu 2020) is ELLPACK-R with the rows stably sorted
  by length (JAD order); here it is sliced per 32 sorted rows, long rows are kept apart, empty rows skipped,
  and the result is written straight to y[perm[k]]. The copy is built at final assembly and kept up to date
  lazily: a values-only change is one gather through a stored map, a pattern change a rebuild.
*/
#include "pellrimpl.h"
#include "pellrpredict.h" /*I "petscsparsegpu.h" I*/
#include <sparsegpuimpl.h>
#include <petscdevice.h>
#include <petsc/private/vecimpl.h>

PetscLogEvent MAT_PELLR_Build, MAT_PELLR_Refresh, MAT_PELLR_TransposeBuild, MAT_PELLR_CopyToGPU, MAT_PELLR_Mult;

static const char *const MatPELLRTransposeModes[] = {"explicit", "atomic", "MatPELLRTransposeMode", "MAT_PELLR_TRANSPOSE_", NULL};
static const char *const MatPELLRBuilds[]         = {"device", "host", "MatPELLRBuild", "MAT_PELLR_BUILD_", NULL};
const char *const        MatPELLRCompacts[]       = {"auto", "on", "off", "MatPELLRCompact", "MAT_PELLR_COMPACT_", NULL};
const char *const        MatPELLRDiagonals[]      = {"auto", "on", "off", "MatPELLRDiagonal", "MAT_PELLR_DIAGONAL_", NULL};
const char *const        MatPELLRCSRKernels[]     = {"auto", "cusparse", "vector", "stream", "MatPELLRCSRKernel", "MAT_PELLR_CSR_KERNEL_", NULL};
const char *const        MatPELLRFormats[]        = {"auto", "pellr", "sell", "ellr", "csr", "MatPELLRFormat", "MAT_PELLR_FORMAT_", NULL};

/* ------------------------------------------------------------------------------------------------ formulas */

/*@
  MatPELLRWarpIterations - Number of warp iterations of an SpMV in ELL, ELLR and PELLR storage (Wang & Gu 2020)

  Not Collective

  Input Parameters:
+ m      - number of rows
. rowlen - the row lengths, in row order
- warp   - threads per warp (32 on NVIDIA GPUs)

  Output Parameters:
+ ell   - ELL: every warp iterates over the longest row of the matrix, ceil(m/warp) * max_i rowlen[i]
. ellr  - ELLR: every warp iterates over its own longest row, sum_w max_{i in warp w} rowlen[i]
- pellr - PELLR: the same after a stable sort by decreasing length, sum_w sorted[warp * w]

  Level: developer

  Note:
  These are the quantities the storage-format predictor compares; `-mat_view ::ascii_info` reports them.

.seealso: `MATPELLR`, `MatPELLRPerturbation()`, `MatPELLRGetInfo()`
@*/
PetscErrorCode MatPELLRWarpIterations(PetscInt m, const PetscInt rowlen[], PetscInt warp, PetscInt64 *ell, PetscInt64 *ellr, PetscInt64 *pellr)
{
  PetscInt   maxlen = 0, *cnt;
  PetscInt64 e = 0, er = 0, p = 0;

  PetscFunctionBegin;
  PetscCheck(m >= 0 && warp > 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Need m >= 0 and warp > 0, not m %" PetscInt_FMT " warp %" PetscInt_FMT, m, warp);
  if (m) PetscAssertPointer(rowlen, 2);
  for (PetscInt i = 0; i < m; i++) {
    PetscCheck(rowlen[i] >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Negative row length %" PetscInt_FMT " of row %" PetscInt_FMT, rowlen[i], i);
    maxlen = PetscMax(maxlen, rowlen[i]);
  }
  for (PetscInt w = 0; w < m; w += warp) {
    PetscInt wmax = 0;
    for (PetscInt i = w; i < PetscMin(m, w + warp); i++) wmax = PetscMax(wmax, rowlen[i]);
    er += wmax;
    e += maxlen;
  }
  /* PELLR: the first row of each warp of the sorted order is its longest; counting sort of the lengths */
  PetscCall(PetscCalloc1(maxlen + 1, &cnt));
  for (PetscInt i = 0; i < m; i++) cnt[rowlen[i]]++;
  for (PetscInt l = maxlen, k = 0; l >= 0; l--) {
    /* sorted positions k .. k+cnt[l]-1 have length l; count the warp starts among them */
    PetscInt first = k, last = k + cnt[l];
    if (last > first) {
      PetscInt w0 = (first + warp - 1) / warp, w1 = (last - 1) / warp;
      if (w1 >= w0) p += (PetscInt64)(w1 - w0 + 1) * l;
    }
    k = last;
  }
  PetscCall(PetscFree(cnt));
  if (ell) *ell = e;
  if (ellr) *ellr = er;
  if (pellr) *pellr = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatPELLRPerturbation - The "degree of perturbation" of the row lengths: the mean absolute change of the row
  length from one row to the next, relative to the mean row length, sum_{i>0} |l_i - l_{i-1}| / ((m-1) mean(l))

  Not Collective

  Input Parameters:
+ m      - number of rows
- rowlen - the row lengths, in row order

  Output Parameter:
. dp - the degree of perturbation (0 for constant row lengths, m <= 1 or an empty matrix)

  Level: developer

  Note:
  Only the abstract of the seed paper (Wang & Gu 2020) is available; this definition is a reconstruction:
  large values mean neighbouring rows (one warp in ELLR) differ in length, which is what sorting (PELLR) removes.

.seealso: `MATPELLR`, `MatPELLRWarpIterations()`, `MatPELLRGetInfo()`
@*/
PetscErrorCode MatPELLRPerturbation(PetscInt m, const PetscInt rowlen[], PetscReal *dp)
{
  PetscReal sum = 0, nnz = 0;

  PetscFunctionBegin;
  PetscAssertPointer(dp, 3);
  PetscCheck(m >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Need m >= 0, not %" PetscInt_FMT, m);
  if (m) PetscAssertPointer(rowlen, 2);
  for (PetscInt i = 0; i < m; i++) PetscCheck(rowlen[i] >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Negative row length %" PetscInt_FMT " of row %" PetscInt_FMT, rowlen[i], i);
  *dp = 0;
  if (m <= 1) PetscFunctionReturn(PETSC_SUCCESS);
  for (PetscInt i = 0; i < m; i++) nnz += rowlen[i];
  for (PetscInt i = 1; i < m; i++) sum += PetscAbsReal((PetscReal)(rowlen[i] - rowlen[i - 1]));
  if (nnz > 0) *dp = sum / ((PetscReal)(m - 1) * (nnz / (PetscReal)m));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------------------------------ layout */

PetscErrorCode PellrLayoutDestroy(PellrLayout *L)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(L->perm));
  PetscCall(PetscFree(L->sorder));
  PetscCall(PetscFree(L->longptr));
  PetscCall(PetscFree(L->sliceptr));
  PetscCall(PetscFree(L->rlen));
  PetscCall(PetscFree(L->col));
  PetscCall(PetscFree(L->map));
  PetscCall(PetscFree(L->val));
  PetscCall(PetscFree(L->dptr));
  PetscCall(PetscFree(L->doff));
  PetscCall(PetscMemzero(L, sizeof(*L)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static inline PetscInt PellrLog2(PetscInt t)
{
  PetscInt l = 0;
  while ((1 << l) < t) l++;
  return l;
}

/* the long rows of the sorted lengths slen[0 .. nrows-1] (nonincreasing, all > 0): the longest rows while they reach
   longlen, or reach 32 and would head a slice more than 1/3 padding */
static PetscInt PellrLongRows(PetscInt nrows, const PetscInt *slen, PetscInt longlen)
{
  PetscInt nlong = 0;

  while (nlong < nrows) {
    PetscInt l = slen[nlong], sum = 0;
    if (l < longlen) {
      if (l < 32) break;
      for (PetscInt r = 0; r < PELLR_SLICE && nlong + r < nrows; r++) sum += slen[nlong + r];
      if (3 * sum >= 2 * PELLR_SLICE * l) break;
    }
    nlong++;
  }
  return nlong;
}

/* stable counting sort of the rows by decreasing length: perm (may be NULL) and the sorted lengths slen (may be NULL) */
static PetscErrorCode PellrSortRows(PetscInt m, const PetscInt *len, PetscInt maxlen, int *perm, PetscInt *slen)
{
  PetscInt *cnt;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(maxlen + 1, &cnt));
  for (PetscInt i = 0; i < m; i++) cnt[len[i]]++;
  for (PetscInt l = maxlen, start = 0; l >= 0; l--) {
    PetscInt c = cnt[l];
    cnt[l] = start;
    start += c;
  }
  for (PetscInt i = 0; i < m; i++) {
    PetscInt k = cnt[len[i]]++;
    if (perm) perm[k] = (int)i;
    if (slen) slen[k] = len[i];
  }
  PetscCall(PetscFree(cnt));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PellrFormatSlots - the number of value slots (stored entries including padding) a block with the row lengths rowlen[m]
  needs in the format fmt (PELLR with the long-row length longlen); CSR: the nonzeros. The predictor and the guard of
  ELLR (PellrChooseFormat()) use it; the layout builders make exactly this many.
*/
PetscErrorCode PellrFormatSlots(MatPELLRFormat fmt, PetscInt m, const PetscInt *rowlen, PetscInt longlen, PetscInt64 *slots)
{
  PetscInt   maxlen = 0, nrows = 0;
  PetscInt64 nnz = 0, s = 0;

  PetscFunctionBegin;
  PetscAssertPointer(slots, 5);
  for (PetscInt i = 0; i < m; i++) {
    PetscCheck(rowlen[i] >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Negative row length %" PetscInt_FMT " of row %" PetscInt_FMT, rowlen[i], i);
    maxlen = PetscMax(maxlen, rowlen[i]);
    nnz += rowlen[i];
    if (rowlen[i]) nrows++;
  }
  switch (fmt) {
  case MAT_PELLR_FORMAT_AUTO:
  case MAT_PELLR_FORMAT_PELLR: {
    PetscInt *slen, nlong;
    PetscCall(PetscMalloc1(m, &slen));
    PetscCall(PellrSortRows(m, rowlen, maxlen, NULL, slen));
    nlong = PellrLongRows(nrows, slen, longlen);
    for (PetscInt k = 0; k < nlong; k++) s += slen[k];
    for (PetscInt k = nlong; k < nrows; k += PELLR_SLICE) s += (PetscInt64)PELLR_SLICE * slen[k];
    PetscCall(PetscFree(slen));
  } break;
  case MAT_PELLR_FORMAT_SELL:
    for (PetscInt i0 = 0; i0 < m; i0 += PELLR_SLICE) {
      PetscInt w = 0;
      for (PetscInt i = i0; i < PetscMin(m, i0 + PELLR_SLICE); i++) w = PetscMax(w, rowlen[i]);
      s += (PetscInt64)PELLR_SLICE * w;
    }
    break;
  case MAT_PELLR_FORMAT_ELLR:
    s = (PetscInt64)((m + PELLR_SLICE - 1) / PELLR_SLICE) * PELLR_SLICE * maxlen;
    break;
  case MAT_PELLR_FORMAT_CSR:
    s = nnz;
    break;
  }
  *slots = s;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Build the layout in format fmt of an m x n CSR pattern (ai, aj); vmap[t] (or t itself when vmap is NULL) is the index
  in the value array that CSR position t refers to (the explicit transpose maps back into the untransposed values).
  PELLR: rows sorted, long rows apart, slices as wide as their first (longest) row; SELL: rows in order, slices as wide
  as their longest row, sorder groups them by thread class; ELLR: rows in order, all slices as wide as the longest row;
  CSR: the statistics only.
*/
static PetscErrorCode PellrLayoutBuild(PellrLayout *L, MatPELLRFormat fmt, PetscInt m, PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscInt *vmap, PetscInt longlen)
{
  PetscInt  *len, *slen = NULL, *width, maxlen = 0, nonempty = 0, nrows, nlong = 0, nslices;
  PetscInt64 slots = 0, nnz;

  PetscFunctionBegin;
  PetscCall(PellrLayoutDestroy(L));
  PetscCheck(fmt != MAT_PELLR_FORMAT_AUTO, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The format of a block must be chosen before it is built");
  nnz = m ? (PetscInt64)(ai[m] - ai[0]) : 0;
  PetscCheck(m <= PETSC_INT32_MAX && n <= PETSC_INT32_MAX && nnz <= PETSC_INT32_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "PELLR stores 32-bit indices: a block of %" PetscInt_FMT " x %" PetscInt_FMT " with %" PetscInt64_FMT " nonzeros is too large (limit %d); use more MPI processes or MATAIJ", m, n, nnz, PETSC_INT32_MAX);
  L->format = fmt;
  L->m      = m;
  L->n      = n;
  L->nnz    = (PetscInt)nnz;
  PetscCall(PetscMalloc1(m, &len));
  for (PetscInt i = 0; i < m; i++) {
    len[i] = ai[i + 1] - ai[i];
    maxlen = PetscMax(maxlen, len[i]);
    if (len[i]) nonempty++;
  }
  L->maxlen   = maxlen;
  L->nonempty = nonempty;
  PetscCall(MatPELLRWarpIterations(m, len, PELLR_SLICE, &L->it_ell, &L->it_ellr, &L->it_pellr));
  PetscCall(MatPELLRPerturbation(m, len, &L->perturbation));
  if (fmt == MAT_PELLR_FORMAT_CSR) {
    L->nrows  = nonempty;
    L->nslots = (PetscInt)nnz;
    PetscCall(PetscFree(len));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscMalloc1(m, &L->perm));
  if (fmt == MAT_PELLR_FORMAT_PELLR) {
    PetscCall(PetscMalloc1(m, &slen));
    PetscCall(PellrSortRows(m, len, maxlen, L->perm, slen));
    nrows = nonempty;
    nlong = PellrLongRows(nrows, slen, longlen);
    while (L->nblock < nlong && slen[L->nblock] >= PELLR_BLOCK_ROW) L->nblock++;
    PetscCall(PetscFree(slen));
  } else {
    for (PetscInt i = 0; i < m; i++) L->perm[i] = (int)i;
    nrows = m;
  }
  nslices    = (nrows - nlong + PELLR_SLICE - 1) / PELLR_SLICE;
  L->nlong   = nlong;
  L->nrows   = nrows;
  L->nslices = nslices;
  PetscCall(PetscMalloc1(nslices, &width));
  for (PetscInt s = 0; s < nslices; s++) {
    PetscInt k0 = nlong + PELLR_SLICE * s;
    if (fmt == MAT_PELLR_FORMAT_PELLR) width[s] = len[L->perm[k0]];
    else if (fmt == MAT_PELLR_FORMAT_ELLR) width[s] = maxlen;
    else {
      width[s] = 0;
      for (PetscInt k = k0; k < PetscMin(nrows, k0 + PELLR_SLICE); k++) width[s] = PetscMax(width[s], len[k]);
    }
  }
  for (PetscInt k = 0; k < nlong; k++) slots += len[L->perm[k]];
  for (PetscInt s = 0; s < nslices; s++) slots += (PetscInt64)PELLR_SLICE * width[s];
  PetscCheck(slots <= PETSC_INT32_MAX, PETSC_COMM_SELF, PETSC_ERR_SUP, "PELLR stores 32-bit indices: %" PetscInt64_FMT " value slots exceed %d; use more MPI processes or MATAIJ", slots, PETSC_INT32_MAX);
  L->nslots = (PetscInt)slots;
  if (PetscDefined(USE_DEBUG)) { /* the predictor's count (PellrFormatSlots()) is the layout's */
    PetscInt64 chk;
    PetscCall(PellrFormatSlots(fmt, m, len, longlen, &chk));
    PetscCheck(chk == slots, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PellrFormatSlots() gives %" PetscInt64_FMT " slots, the layout has %" PetscInt64_FMT, chk, slots);
  }
  PetscCall(PetscMalloc1(nlong + 1, &L->longptr));
  PetscCall(PetscMalloc1(nslices + 1, &L->sliceptr));
  PetscCall(PetscMalloc1(PELLR_SLICE * nslices, &L->rlen));
  PetscCall(PetscMalloc1(slots, &L->col));
  PetscCall(PetscMalloc1(slots, &L->map));
  PetscCall(PetscMalloc1(slots, &L->val));
  L->longptr[0] = 0;
  for (PetscInt k = 0; k < nlong; k++) {
    PetscInt r = L->perm[k], t0 = L->longptr[k];
    for (PetscInt j = 0; j < len[r]; j++) {
      PetscInt t = ai[r] + j;
      L->col[t0 + j] = (int)aj[t];
      L->map[t0 + j] = (int)(vmap ? vmap[t] : t - ai[0]);
    }
    L->longptr[k + 1] = (int)(t0 + len[r]);
  }
  L->sliceptr[0] = L->longptr[nlong];
  for (PetscInt s = 0; s < nslices; s++) {
    PetscInt k0 = nlong + PELLR_SLICE * s, w = width[s], base = L->sliceptr[s];
    for (PetscInt r = 0; r < PELLR_SLICE; r++) {
      PetscInt k = k0 + r, l = k < nrows ? len[L->perm[k]] : 0, row = k < nrows ? L->perm[k] : -1;
      L->rlen[PELLR_SLICE * s + r] = (int)l;
      for (PetscInt j = 0; j < w; j++) {
        PetscInt t = base + PELLR_SLICE * j + r;
        if (j < l) {
          L->col[t] = (int)aj[ai[row] + j];
          L->map[t] = (int)(vmap ? vmap[ai[row] + j] : ai[row] + j - ai[0]);
        } else {
          L->col[t] = 0;
          L->map[t] = -1;
        }
      }
    }
    L->sliceptr[s + 1] = (int)(base + PELLR_SLICE * w);
  }
  if (fmt != MAT_PELLR_FORMAT_SELL) {
    /* GPU thread classes: slices are in nonincreasing width (ELLR: all equal), so nondecreasing class c = 5 - log2(threads per row) */
    for (PetscInt c = 0, s = 0; c <= 6; c++) {
      while (s < nslices && 5 - PellrLog2(PellrThreadsPerRow(width[s])) < c) s++;
      L->tclass[c] = c == 6 ? nslices : s;
    }
  } else {
    /* SELL: the slices grouped by class, stably (a counting sort of the slice indices by class) */
    PetscInt cnt[7] = {0};
    PetscCall(PetscMalloc1(nslices, &L->sorder));
    for (PetscInt s = 0; s < nslices; s++) cnt[5 - PellrLog2(PellrThreadsPerRow(width[s])) + 1]++;
    for (PetscInt c = 0; c < 6; c++) cnt[c + 1] += cnt[c];
    for (PetscInt c = 0; c <= 6; c++) L->tclass[c] = cnt[c];
    for (PetscInt s = 0; s < nslices; s++) L->sorder[cnt[5 - PellrLog2(PellrThreadsPerRow(width[s]))]++] = (int)s;
  }
  PetscCall(PetscFree(width));
  PetscCall(PetscFree(len));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the values-only refresh: one gather through the stored map */
static PetscErrorCode PellrLayoutSetValues(PellrLayout *L, const PetscScalar *a)
{
  const int   *map = L->map;
  PetscScalar *val = L->val;

  PetscFunctionBegin;
  if (L->format == MAT_PELLR_FORMAT_CSR) PetscFunctionReturn(PETSC_SUCCESS); /* no copy: the products use the CSR */
  for (PetscInt t = 0; t < L->nslots; t++) val[t] = map[t] >= 0 ? a[map[t]] : 0.0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* explicit transpose: the CSR of the transpose with a map back into the values of the untransposed CSR */
static PetscErrorCode PellrLayoutBuildTranspose(PellrLayout *T, PetscInt m, PetscInt n, const PetscInt *ai, const PetscInt *aj, PetscInt longlen)
{
  PetscInt *ti, *tj, *tmap, *pos, nnz = m ? ai[m] - ai[0] : 0;

  PetscFunctionBegin;
  PetscCall(PetscCalloc1(n + 1, &ti));
  PetscCall(PetscMalloc1(nnz, &tj));
  PetscCall(PetscMalloc1(nnz, &tmap));
  PetscCall(PetscMalloc1(n, &pos));
  for (PetscInt t = 0; t < nnz; t++) ti[aj[ai[0] + t] + 1]++;
  for (PetscInt c = 0; c < n; c++) ti[c + 1] += ti[c];
  for (PetscInt c = 0; c < n; c++) pos[c] = ti[c];
  for (PetscInt i = 0; i < m; i++) {
    for (PetscInt t = ai[i]; t < ai[i + 1]; t++) {
      PetscInt c = aj[t];
      tj[pos[c]]     = i;
      tmap[pos[c]++] = t - ai[0];
    }
  }
  PetscCall(PellrLayoutBuild(T, MAT_PELLR_FORMAT_PELLR, n, m, ti, tj, tmap, longlen));
  PetscCall(PetscFree(ti));
  PetscCall(PetscFree(tj));
  PetscCall(PetscFree(tmap));
  PetscCall(PetscFree(pos));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* -mat_pellr_diagonal_slices (the host type pellr; process-wide and read once, as the GPU's -mat_pellr_cuda_diagonal_slices).
   Off by default: on this session's 2-core CPU their product was 10-25% slower than the vectorized sell/ellr loop on
   3D stencils (session 23, bench/results/2026-12-02-CPU-session23); the tests run it in every mode */
static MatPELLRDiagonal PellrHostDiagonal     = MAT_PELLR_DIAGONAL_OFF;
static PetscBool        PellrHostDiagonalRead = PETSC_FALSE;

PetscErrorCode PellrHostDiagonalSlicesMode(MatPELLRDiagonal *diagonal)
{
  PetscFunctionBegin;
  if (!PellrHostDiagonalRead) {
    PetscCall(PetscOptionsGetEnum(NULL, NULL, "-mat_pellr_diagonal_slices", MatPELLRDiagonals, (PetscEnum *)&PellrHostDiagonal, NULL));
    PellrHostDiagonalRead = PETSC_TRUE;
  }
  *diagonal = PellrHostDiagonal;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* whether the offsets (column - row) of the first rows of slices s and t, both w wide, agree */
static PetscBool PellrSameOffsets(const PellrLayout *L, PetscInt s, PetscInt t, PetscInt w)
{
  const PetscInt bs = L->sliceptr[s], bt = L->sliceptr[t], rs = L->perm[L->nlong + PELLR_SLICE * s], rt = L->perm[L->nlong + PELLR_SLICE * t];

  for (PetscInt j = 0; j < w; j++)
    if (L->col[bs + PELLR_SLICE * j] - rs != L->col[bt + PELLR_SLICE * j] - rt) return PETSC_FALSE;
  return PETSC_TRUE;
}

/*
  Diagonal slices of a host layout, by the GPU's rule (pellrcuda.cu): the slices whose 32 rows are rows of the block,
  all as long as the slice is wide (w), with column - row the same in the 32 rows for every entry j. A run of
  consecutive such slices with equal offsets shares one entry of doff. auto keeps them when at least
  PELLR_DIAGONAL_MIN_SHARE of the slice slots are diagonal, on whenever one slice is. The host product then reads
  x[row + offset] (consecutive for SELL and ELLR, whose rows are in order: vector loads) and no column index
*/
static PetscErrorCode PellrLayoutDiagonalSlices(PellrLayout *L, MatPELLRDiagonal mode)
{
  PetscInt  *dw, ntab = 0, pos = 0;
  PetscBool *start; /* a diagonal slice that starts a run (its offsets go into the table) */
  PetscInt64 sliceslots;

  PetscFunctionBegin;
  PetscCall(PetscFree(L->dptr));
  PetscCall(PetscFree(L->doff));
  L->ndiag      = 0;
  L->ndiagslots = 0;
  if (mode == MAT_PELLR_DIAGONAL_OFF || L->format == MAT_PELLR_FORMAT_CSR || !L->nslices) PetscFunctionReturn(PETSC_SUCCESS);
  sliceslots = (PetscInt64)L->nslots - (L->nlong ? (PetscInt64)L->longptr[L->nlong] : 0);
  PetscCall(PetscMalloc2(L->nslices, &dw, L->nslices, &start));
  for (PetscInt s = 0; s < L->nslices; s++) {
    const PetscInt base = L->sliceptr[s], w = (L->sliceptr[s + 1] - base) / PELLR_SLICE, k0 = L->nlong + PELLR_SLICE * s;
    const int     *rl = L->rlen + PELLR_SLICE * s, *row = L->perm + k0;
    PetscBool      diag = (PetscBool)(w > 0 && k0 + PELLR_SLICE <= L->nrows);

    for (PetscInt r = 0; r < PELLR_SLICE && diag; r++) diag = (PetscBool)(rl[r] == w && (L->format == MAT_PELLR_FORMAT_PELLR || row[r] == row[0] + r)); /* sell, ellr: the product takes the rows as consecutive */
    for (PetscInt j = 0; j < w && diag; j++) {
      const int *c = L->col + base + PELLR_SLICE * j, d0 = c[0] - row[0];
      for (PetscInt r = 1; r < PELLR_SLICE && diag; r++) diag = (PetscBool)(c[r] - row[r] == d0);
    }
    dw[s]    = diag ? w : 0;
    start[s] = (PetscBool)(diag && !(s > 0 && dw[s - 1] == w && PellrSameOffsets(L, s - 1, s, w)));
    if (diag) {
      L->ndiag++;
      L->ndiagslots += (PetscInt64)PELLR_SLICE * w;
      if (start[s]) ntab += w;
    }
  }
  if (PellrDiagonalSlicesKept(mode, L->ndiag, L->ndiagslots, sliceslots)) {
    PetscCall(PetscMalloc1(L->nslices, &L->dptr));
    PetscCall(PetscMalloc1(PetscMax(ntab, 1), &L->doff));
    for (PetscInt s = 0; s < L->nslices; s++) {
      const PetscInt w = dw[s];

      if (!w) L->dptr[s] = -1;
      else if (!start[s]) L->dptr[s] = L->dptr[s - 1];
      else {
        const PetscInt base = L->sliceptr[s], row0 = L->perm[L->nlong + PELLR_SLICE * s];
        L->dptr[s] = (int)pos;
        for (PetscInt j = 0; j < w; j++) L->doff[pos + j] = L->col[base + PELLR_SLICE * j] - (int)row0;
        pos += w;
      }
    }
    PetscCheck(pos == ntab, PETSC_COMM_SELF, PETSC_ERR_PLIB, "PELLR diagonal slices: table of %" PetscInt_FMT " offsets, %" PetscInt_FMT " written", ntab, pos);
  }
  PetscCall(PetscFree2(dw, start));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the host type's layouts find their diagonal slices (pellrcuda's GPU layouts find their own) */
static PetscErrorCode PellrBlockHostDiagonalSlices(Mat_PELLR *p, PellrLayout *L)
{
  MatPELLRDiagonal mode = MAT_PELLR_DIAGONAL_OFF;

  PetscFunctionBegin;
  if (p->cuda) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PellrHostDiagonalSlicesMode(&mode));
  PetscCall(PellrLayoutDiagonalSlices(L, mode));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------------------------------ host kernels */

/* y[perm[k]] = z[perm[k]] + (A x)[perm[k]]; z may be NULL (0) or y itself */
static void PellrHostMult(const PellrLayout *L, const PetscScalar *restrict x, const PetscScalar *z, PetscScalar *y)
{
  const int         *perm = L->perm, *col = L->col;
  const PetscScalar *val  = L->val;

  for (PetscInt k = 0; k < L->nlong; k++) {
    PetscScalar s = 0;
    for (int t = L->longptr[k]; t < L->longptr[k + 1]; t++) s += val[t] * x[col[t]];
    y[perm[k]] = z ? z[perm[k]] + s : s;
  }
  for (PetscInt sl = 0; sl < L->nslices; sl++) {
    const PetscInt base = L->sliceptr[sl], w = (L->sliceptr[sl + 1] - base) / PELLR_SLICE, k0 = L->nlong + PELLR_SLICE * sl;
    const PetscInt nr = PetscMin(PELLR_SLICE, L->nrows - k0);
    const int     *rl = L->rlen + PELLR_SLICE * sl;
    PetscScalar    sum[PELLR_SLICE] = {0};
    PetscInt       cnt = PELLR_SLICE;

    if (L->dptr && L->dptr[sl] >= 0) { /* a diagonal slice: 32 full rows, entry j at row + off[j] */
      const int *restrict off = L->doff + L->dptr[sl];
      if (L->format != MAT_PELLR_FORMAT_PELLR) { /* rows k0 .. k0 + 31 in order: x read consecutively */
        const PetscScalar *restrict xr = x + perm[k0];
        for (PetscInt j = 0; j < w; j++) {
          const PetscScalar *restrict v = val + base + PELLR_SLICE * j, *restrict xo = xr + off[j];
          PetscPragmaSIMD
          for (PetscInt r = 0; r < PELLR_SLICE; r++) sum[r] += v[r] * xo[r];
        }
      } else {
        const int *restrict row = perm + k0;
        for (PetscInt j = 0; j < w; j++) {
          const PetscScalar *restrict v = val + base + PELLR_SLICE * j;
          const int                   o = off[j];
          PetscPragmaSIMD
          for (PetscInt r = 0; r < PELLR_SLICE; r++) sum[r] += v[r] * x[row[r] + o];
        }
      }
    } else if (L->format == MAT_PELLR_FORMAT_PELLR) {
      for (PetscInt j = 0; j < w; j++) {
        const PetscScalar *restrict v = val + base + PELLR_SLICE * j;
        const int *restrict c         = col + base + PELLR_SLICE * j;
        while (cnt > 0 && rl[cnt - 1] <= j) cnt--; /* the rows of a slice are sorted: the active ones are a prefix */
        PetscPragmaSIMD
        for (PetscInt r = 0; r < cnt; r++) sum[r] += v[r] * x[c[r]];
      }
    } else { /* SELL, ELLR: rows in their order, each up to its own length (padding is never read: x may hold Inf/NaN):
                the entries every row has column by column (vector loops over the rows), the rest row by row */
      PetscInt lmin = w;
      for (PetscInt r = 0; r < nr; r++) lmin = PetscMin(lmin, (PetscInt)rl[r]);
      for (PetscInt j = 0; j < lmin; j++) {
        const PetscScalar *restrict v = val + base + PELLR_SLICE * j;
        const int *restrict c         = col + base + PELLR_SLICE * j;
        PetscPragmaSIMD
        for (PetscInt r = 0; r < nr; r++) sum[r] += v[r] * x[c[r]];
      }
      for (PetscInt r = 0; r < nr; r++)
        for (PetscInt j = lmin; j < rl[r]; j++) sum[r] += val[base + PELLR_SLICE * j + r] * x[col[base + PELLR_SLICE * j + r]];
    }
    for (PetscInt r = 0; r < nr; r++) y[perm[k0 + r]] = z ? z[perm[k0 + r]] + sum[r] : sum[r];
  }
  if (z != y)
    for (PetscInt k = L->nrows; k < L->m; k++) y[perm[k]] = z ? z[perm[k]] : 0.0;
}

/* y += A^T x by scattering the rows (the 'atomic' transpose on the host) */
static void PellrHostMultTransposeAdd(const PellrLayout *L, const PetscScalar *x, PetscScalar *y)
{
  const int         *perm = L->perm, *col = L->col;
  const PetscScalar *val  = L->val;

  for (PetscInt k = 0; k < L->nlong; k++) {
    const PetscScalar xr = x[perm[k]];
    for (int t = L->longptr[k]; t < L->longptr[k + 1]; t++) y[col[t]] += val[t] * xr;
  }
  for (PetscInt sl = 0; sl < L->nslices; sl++) {
    const PetscInt base = L->sliceptr[sl], w = (L->sliceptr[sl + 1] - base) / PELLR_SLICE, k0 = L->nlong + PELLR_SLICE * sl;
    const PetscInt nr = PetscMin(PELLR_SLICE, L->nrows - k0);
    const int     *rl = L->rlen + PELLR_SLICE * sl;
    PetscScalar    xs[PELLR_SLICE];
    PetscInt       cnt = PELLR_SLICE;

    for (PetscInt r = 0; r < nr; r++) xs[r] = x[perm[k0 + r]];
    if (L->format == MAT_PELLR_FORMAT_PELLR) {
      for (PetscInt j = 0; j < w; j++) {
        const PetscScalar *v = val + base + PELLR_SLICE * j;
        const int         *c = col + base + PELLR_SLICE * j;
        while (cnt > 0 && rl[cnt - 1] <= j) cnt--;
        for (PetscInt r = 0; r < cnt; r++) y[c[r]] += v[r] * xs[r];
      }
    } else {
      for (PetscInt r = 0; r < nr; r++)
        for (PetscInt j = 0; j < rl[r]; j++) y[col[base + PELLR_SLICE * j + r]] += val[base + PELLR_SLICE * j + r] * xs[r];
    }
  }
}

/* ------------------------------------------------------------------------------------------------ blocks */

/* drops the device copies; the memory block of a GPU-built dL is kept as the block's spare for its next GPU build
   (PellrBlockFree() gives it back) */
static PetscErrorCode PellrBlockDestroyDevice(PellrBlock *b)
{
  PetscFunctionBegin;
#if defined(PETSC_HAVE_CUDA)
  if (b->dbuilt) PetscCall(PellrDeviceDestroyKeepBlock(&b->dL, &b->dspare, &b->dsparesize));
  else PetscCall(PellrDeviceDestroy(&b->dL));
  PetscCall(PellrDeviceDestroy(&b->dT));
#endif
  b->dbuilt = PETSC_FALSE;
  PetscCall(PetscMemzero(&b->DI, sizeof(b->DI)));
  PetscCall(PetscMemzero(&b->DTI, sizeof(b->DTI)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PellrBlockDestroy(PellrBlock *b)
{
  PetscFunctionBegin;
  PetscCall(PellrLayoutDestroy(&b->L));
  PetscCall(PellrLayoutDestroy(&b->T));
  PetscCall(PellrBlockDestroyDevice(b));
  b->built  = PETSC_FALSE;
  b->tbuilt = PETSC_FALSE;
  b->fset   = PETSC_FALSE; /* the format is chosen again at the next build */
  PetscCall(PetscFree(b->pinfo));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PellrBlockDestroy() and the device memory it keeps for the next build */
static PetscErrorCode PellrBlockFree(PellrBlock *b)
{
  PetscFunctionBegin;
  PetscCall(PellrBlockDestroy(b));
#if defined(PETSC_HAVE_CUDA)
  PetscCall(PellrDeviceFreeBlock(&b->dspare, &b->dsparesize));
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------------------------------ settings */

/* a matrix's own PELLR settings: MatDuplicate() and MatTranspose() copy them, and PETSc's rebuilds keep them */
typedef struct {
  MatPELLRFormat        format;
  MatPELLRTransposeMode tmode;
  MatPELLRBuild         build;
  PetscInt              long_row_length;
  PetscReal             expected_products, max_memory_ratio;
  PetscBool             predict_device;
  char                  model[PETSC_MAX_PATH_LEN];
} PellrSettings;

static PetscErrorCode PellrSettingsGet(const Mat_PELLR *p, PellrSettings *s)
{
  PetscFunctionBegin;
  s->format            = p->format;
  s->tmode             = p->tmode;
  s->build             = p->build;
  s->long_row_length   = p->long_row_length;
  s->expected_products = p->expected_products;
  s->max_memory_ratio  = p->max_memory_ratio;
  s->predict_device    = p->predict_device;
  PetscCall(PetscStrncpy(s->model, p->model, sizeof(s->model)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the layouts are made anew at the next use when a setting they depend on changes */
static PetscErrorCode PellrSettingsSet(Mat_PELLR *p, const PellrSettings *s)
{
  PetscBool same;

  PetscFunctionBegin;
  PetscCall(PetscStrcmp(p->model, s->model, &same));
  if (p->format != s->format || p->build != s->build || p->long_row_length != s->long_row_length || p->expected_products != s->expected_products || p->max_memory_ratio != s->max_memory_ratio || !same) {
    PetscCall(PellrBlockDestroy(&p->d));
    PetscCall(PellrBlockDestroy(&p->o));
  }
  p->format            = s->format;
  p->tmode             = s->tmode;
  p->build             = s->build;
  p->long_row_length   = s->long_row_length;
  p->expected_products = s->expected_products;
  p->max_memory_ratio  = s->max_memory_ratio;
  p->predict_device    = s->predict_device;
  PetscCall(PetscStrncpy(p->model, s->model, sizeof(p->model)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PETSc rebuilds a matrix in some operations (MatAXPY() and MatCopy() with a new nonzero pattern, MatTranspose() in
  place in parallel, of a matrix with a new pattern): it makes a new matrix of the same type, whose settings come from
  the options database alone, and moves its data into the old one with MatHeaderMerge(), which first destroys the old
  data with references to the matrix left. MatDestroy_PELLR() keeps the old settings here, and the matrix's next PELLR
  operation finds data made for another matrix (p->owner) and takes its own settings back (found by fuzzing: a format
  set with MatPELLRSetFormat() or a prefixed option was lost).
*/
typedef struct {
  Mat           A;
  PellrSettings s;
} PellrKeptSettings;

static PellrKeptSettings *PellrKept;
static PetscInt           PellrKeptCount, PellrKeptSize;

static PetscErrorCode PellrKeptFinalize(void)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(PellrKept));
  PellrKeptCount = PellrKeptSize = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the position of A's kept settings, or -1 */
static PetscInt PellrKeptFind(Mat A)
{
  for (PetscInt i = 0; i < PellrKeptCount; i++)
    if (PellrKept[i].A == A) return i;
  return -1;
}

static PetscErrorCode PellrKeptForget(Mat A)
{
  const PetscInt i = PellrKeptFind(A);

  PetscFunctionBegin;
  if (i >= 0) PellrKept[i] = PellrKept[--PellrKeptCount];
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PellrKeptAdd(Mat A, const Mat_PELLR *p)
{
  PetscFunctionBegin;
  PetscCall(PellrKeptForget(A));
  if (PellrKeptCount == PellrKeptSize) {
    PellrKeptSettings *more;

    if (!PellrKeptSize) PetscCall(PetscRegisterFinalize(PellrKeptFinalize));
    PetscCall(PetscMalloc1(2 * PellrKeptSize + 4, &more));
    if (PellrKeptCount) PetscCall(PetscArraycpy(more, PellrKept, PellrKeptCount));
    PetscCall(PetscFree(PellrKept));
    PellrKept     = more;
    PellrKeptSize = 2 * PellrKeptSize + 4;
  }
  PellrKept[PellrKeptCount].A = A;
  PetscCall(PellrSettingsGet(p, &PellrKept[PellrKeptCount].s));
  PellrKeptCount++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the PELLR data of A, with A's own settings where PETSc has merged another matrix's data into A */
static PetscErrorCode PellrGetData(Mat A, Mat_PELLR **p)
{
  PetscFunctionBegin;
  *p = (Mat_PELLR *)A->spptr;
  PetscCheck(*p, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The %s matrix has no PELLR data", ((PetscObject)A)->type_name);
  if ((*p)->owner != A) {
    const PetscInt i = PellrKeptFind(A);

    if (i >= 0) {
      PetscCall(PetscInfo(A, "Matrix rebuilt by PETSc (MatHeaderMerge()): its own PELLR settings (format %s) restored\n", MatPELLRFormats[PellrKept[i].s.format]));
      PetscCall(PellrSettingsSet(*p, &PellrKept[i].s));
      PellrKept[i] = PellrKept[--PellrKeptCount];
    }
    (*p)->owner = A;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(PETSC_HAVE_CUDA)
/*
  pellrcuda with -mat_pellr_build device: the layout (and the explicit transpose) built on the GPU from the CSR, the
  values refreshed on the GPU by one gather through the stored map (the CSR values are copied to the GPU once per
  refresh). The host layout is not made (nor kept up to date) unless a host product asks for it.
*/
static PetscErrorCode PellrBlockEnsureDeviceBuild(Mat_PELLR *p, PellrBlock *b, Mat aij, PetscObjectState cur, PetscBool transpose)
{
  PetscObjectId      id;
  const PetscInt    *ai, *aj;
  const PetscScalar *aa, *dv = NULL;
  PetscMemType       mtype;
  PetscInt           m, n;
  PetscBool          pattern;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetId((PetscObject)aij, &id));
  pattern = (PetscBool)(b->dbuilt && b->dL && b->did == id && b->dnzstate == aij->nonzerostate);
  if (pattern && b->dstate == cur && (!transpose || (b->dT && b->dtstate == cur))) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(MatGetSize(aij, &m, &n));
  PetscCall(MatSeqAIJGetCSRAndMemType(aij, &ai, &aj, NULL, &mtype));
  PetscCall(MatSeqAIJGetArrayRead(aij, &aa)); /* a SeqAIJ: host values */
  if (!pattern) { /* PellrDeviceBuild() logs PELLRBuild (the GPU build) and PELLRCopyToGPU (copies of the CSR) */
    PetscCall(PellrBlockDestroyDevice(b));
    PetscCall(PellrDeviceBuild(m, n, ai, aj, mtype, p->long_row_length, b->fmt, PETSC_FALSE, &b->dspare, &b->dsparesize, &b->DI, &b->dL));
    PetscCall(PellrDeviceFreeBlock(&b->dspare, &b->dsparesize)); /* not taken by the build */
    PetscCall(PellrDeviceUploadValues(b->dL, aa, PETSC_MEMTYPE_HOST, &dv));
    PetscCall(PellrDeviceSetValues(b->dL, dv));
    b->dbuilt   = PETSC_TRUE;
    b->did      = id;
    b->dnzstate = aij->nonzerostate;
    b->dstate   = cur;
    b->nbuild++;
    b->nupload++;
    PetscCall(PetscInfo(aij, "PELLR (format %s) built on the GPU: %" PetscInt_FMT " rows, %" PetscInt_FMT " long, %" PetscInt_FMT " slices, %" PetscInt_FMT " nonzeros in %" PetscInt_FMT " slots\n", MatPELLRFormats[b->fmt], m, b->DI.nlong, b->DI.nslices, b->DI.nnz, b->DI.nslots));
  } else if (b->dstate != cur) {
    PetscCall(PetscLogEventBegin(MAT_PELLR_Refresh, aij, 0, 0, 0));
    PetscCall(PellrDeviceUploadValues(b->dL, aa, PETSC_MEMTYPE_HOST, &dv));
    PetscCall(PellrDeviceSetValues(b->dL, dv));
    PetscCall(PetscLogEventEnd(MAT_PELLR_Refresh, aij, 0, 0, 0));
    b->dstate = cur;
    b->nrefresh++;
    b->ndrefresh++;
  }
  if (transpose) {
    if (!b->dT) {
      PetscCall(PellrDeviceBuild(m, n, ai, aj, mtype, p->long_row_length, MAT_PELLR_FORMAT_PELLR, PETSC_TRUE, NULL, NULL, &b->DTI, &b->dT));
      if (!dv) PetscCall(PellrDeviceUploadValues(b->dL, aa, PETSC_MEMTYPE_HOST, &dv));
      PetscCall(PellrDeviceSetValues(b->dT, dv));
      b->dtstate = cur;
      b->ntbuild++;
    } else if (b->dtstate != cur) {
      PetscCall(PetscLogEventBegin(MAT_PELLR_Refresh, aij, 0, 0, 0));
      if (!dv) PetscCall(PellrDeviceUploadValues(b->dL, aa, PETSC_MEMTYPE_HOST, &dv));
      PetscCall(PellrDeviceSetValues(b->dT, dv));
      PetscCall(PetscLogEventEnd(MAT_PELLR_Refresh, aij, 0, 0, 0));
      b->dtstate = cur;
      b->ntrefresh++;
    }
  }
  PetscCall(PellrDeviceReleaseValues(b->dL));
  PetscCall(MatSeqAIJRestoreArrayRead(aij, &aa));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/*
  device bytes a block stores in candidate format c (pellrcuda.cu's PellrDeviceBuild(): 8-byte values and 4-byte column
  indices per slot; the row permutation, the per-row lengths of the slices, slice and long-row pointers, and the CSR row
  pointers kept for values-only refreshes; SELL and ELLR built on the GPU keep no permutation; with diagonal slices 4
  bytes a slice and at most 4 bytes per 32 slots of offsets); the CSR is 12 nnz + 4 (m + 1)
*/
static PetscReal PellrCandidateFootprint(const PellrFeatures *f, PetscInt c, PetscBool device_build, PetscBool diagonal)
{
  const PetscReal m = (PetscReal)f->m, csr = 12.0 * (PetscReal)f->nnz + 4.0 * (m + 1);
  PetscReal       ns;

  if (c == PELLR_CAND_CSR) return csr;
  ns = c == PELLR_CAND_PELLR ? (PetscReal)f->nslices : PetscCeilReal(m / PELLR_SLICE);
  return 12.0 * (PetscReal)f->slots[c] + (c == PELLR_CAND_PELLR || !device_build ? 4.0 * m : 0) + 4.0 * PELLR_SLICE * ns + 4.0 * (ns + 1) + 4.0 * (m + 1) + (c == PELLR_CAND_PELLR ? 4.0 * (f->nlong + 1) : 0) + (c == PELLR_CAND_SELL ? 4.0 * ns : 0) + (diagonal ? 4.0 * ns + 4.0 * PetscCeilReal((PetscReal)f->slots[c] / PELLR_SLICE) : 0);
}

/* the memory budget of auto: fits[c] when candidate c's device footprint is at most ratio times the CSR's (which
   always fits); device_build and diagonal as the GPU build will do it (-mat_pellr_build, diagonal slices not off) */
void PellrCandidatesWithinMemory(const PellrFeatures *f, PetscBool device_build, PetscBool diagonal, PetscReal ratio, PetscBool fits[])
{
  const PetscReal csr = PellrCandidateFootprint(f, PELLR_CAND_CSR, PETSC_TRUE, PETSC_FALSE);

  for (PetscInt c = 0; c < PELLR_NCAND; c++) fits[c] = (PetscBool)(c == PELLR_CAND_CSR || PellrCandidateFootprint(f, c, device_build, diagonal) <= ratio * csr);
}

/*
  PellrChooseFormat - the storage format of the block b (the SeqAIJ aij) of the PELLR matrix A, called when the block
  is (re)built for a new pattern. An explicitly requested format is used as is (ELLR refused when its padding would be
  excessive); MAT_PELLR_FORMAT_AUTO asks the storage-format predictor (pellrcuda; pellr keeps PELLR). device: the
  block is about to be built on the GPU (then the predictor's features are computed there, see below).
*/
PetscErrorCode PellrChooseFormat(Mat A, Mat_PELLR *p, PellrBlock *b, Mat aij, PetscBool device, MatPELLRFormat *fmt)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(b->pinfo));
  *fmt = p->format == MAT_PELLR_FORMAT_AUTO ? MAT_PELLR_FORMAT_PELLR : p->format;
  if (p->format == MAT_PELLR_FORMAT_AUTO && p->cuda) {
    /* the storage-format predictor (pellrpredict.h): features of the row lengths, the model's time of one product per
       candidate plus its conversion amortized over the expected products; the predicted-fastest feasible one. The host
       type pellr keeps PELLR (the model describes GPU kernels). */
    static const MatPELLRFormat map[PELLR_NCAND] = {MAT_PELLR_FORMAT_CSR, MAT_PELLR_FORMAT_ELLR, MAT_PELLR_FORMAT_SELL, MAT_PELLR_FORMAT_PELLR};
    PellrModel       model;
    const PetscInt  *ai, *aj;
    PetscMemType     mtype;
    PetscInt         m, n;
    MatPELLRDiagonal dmode = MAT_PELLR_DIAGONAL_OFF;
    PellrFeatures   *f;

#if defined(PETSC_HAVE_CUDA)
    PetscCall(PellrDeviceDiagonalSlicesMode(&dmode)); /* the mode the GPU build will use */
#endif
    PetscCall(PetscNew(&b->pinfo));
    PetscCall(PellrPredictGetModel(p->model[0] ? p->model : NULL, &model));
    PetscCall(MatGetSize(aij, &m, &n));
    PetscCall(MatSeqAIJGetCSRAndMemType(aij, &ai, &aj, NULL, &mtype));
    f = &b->pinfo->f;
#if defined(PETSC_HAVE_CUDA)
    /* The features on the GPU: a GPU build copies the host CSR there anyway, so it is copied first (the build takes that
       copy, PellrDeviceStageCSR()) and the features cost a few kernels instead of host passes over the CSR (issue 6's
       1% of a conversion). The GPU counts exactly what the host does on the same samples: the same features, bit for
       bit. Small blocks keep the host features (PELLR_PRED_DEVICE_ROWS). */
    if (device && p->predict_device && p->build == MAT_PELLR_BUILD_DEVICE && PetscMemTypeHost(mtype) && m > 0 && sizeof(PetscInt) == sizeof(int) && (m >= PELLR_PRED_DEVICE_ROWS || ai[m] - ai[0] >= PELLR_PRED_LOCALITY_NNZ)) {
      PetscCall(PellrDeviceStageCSR(m, ai, aj, &ai, &aj));
      mtype = PETSC_MEMTYPE_CUDA;
    }
#endif
    PetscCall(PellrFeaturesCompute(m, n, ai, mtype, p->long_row_length, f));
    if (PellrFeaturesWantLocality(f)) { /* as the calibration */
      if (PetscMemTypeHost(mtype)) PetscCall(PellrFeaturesAddLocality(f, ai, aj, dmode));
#if defined(PETSC_HAVE_CUDA)
      else if (p->predict_device && sizeof(PetscInt) == sizeof(int)) PetscCall(PellrFeaturesAddLocalityDevice(f, ai, aj, dmode)); /* a CSR on the GPU (aijcusparse) */
#endif
    }
    {
      /* a memory budget: only candidates whose device footprint is within max_memory_ratio of the CSR's (ELLR pads
         every row to the longest: 3.9x the CSR bytes on a block-diagonal bcsstk17 on the H200) */
      PetscBool fits[PELLR_NCAND];

      PellrCandidatesWithinMemory(&b->pinfo->f, (PetscBool)(p->build == MAT_PELLR_BUILD_DEVICE), (PetscBool)(dmode != MAT_PELLR_DIAGONAL_OFF), p->max_memory_ratio, fits);
      PetscCall(PellrModelPredict(model, &b->pinfo->f, p->expected_products, fits, &b->pinfo->pred));
    }
    *fmt = map[b->pinfo->pred.choice];
    PetscCall(PetscInfo(A, "storage format predicted fastest: %s (model %s, %g expected products; features computed on the %s)\n", MatPELLRFormats[*fmt], b->pinfo->pred.model, (double)p->expected_products, PetscMemTypeHost(mtype) ? "host" : "GPU"));
  }
  if (*fmt == MAT_PELLR_FORMAT_ELLR) {
    const PetscInt *ai;
    PetscInt       *len, m;
    PetscInt64      slots, nnz;

    PetscCall(MatGetLocalSize(aij, &m, NULL));
    PetscCall(MatSeqAIJGetCSRAndMemType(aij, &ai, NULL, NULL, NULL));
    PetscCall(PetscMalloc1(m, &len));
    for (PetscInt i = 0; i < m; i++) len[i] = ai[i + 1] - ai[i];
    PetscCall(PellrFormatSlots(MAT_PELLR_FORMAT_ELLR, m, len, p->long_row_length, &slots));
    PetscCall(PetscFree(len));
    nnz = m ? (PetscInt64)(ai[m] - ai[0]) : 0;
    /* a block of this process only (other ranks' blocks may pass): on PETSC_COMM_SELF, so that the message is printed
       (on the matrix's communicator an error raised by one rank printed nothing before MPI_Abort) */
    PetscCheck(slots <= PETSC_INT32_MAX && slots <= 8 * nnz + (PetscInt64)PELLR_SLICE * m, PETSC_COMM_SELF, PETSC_ERR_SUP,
               "-mat_pellr_format ellr: a block of %" PetscInt_FMT " rows with %" PetscInt64_FMT " nonzeros would need %" PetscInt64_FMT " ELLR slots (every row padded to the longest), more than %s; use sell, pellr or auto",
               m, nnz, slots, slots > PETSC_INT32_MAX ? "2^31-1 (32-bit indices)" : "8 nnz + 32 m");
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the format of block b for the current pattern of aij: chosen once per pattern */
static PetscErrorCode PellrBlockFormat(Mat A, Mat_PELLR *p, PellrBlock *b, Mat aij, PetscBool device)
{
  PetscObjectId id;

  PetscFunctionBegin;
  PetscCall(PetscObjectGetId((PetscObject)aij, &id));
  if (b->fset && b->fid == id && b->fnzstate == aij->nonzerostate) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PellrChooseFormat(A, p, b, aij, device, &b->fmt));
  b->fset     = PETSC_TRUE;
  b->fid      = id;
  b->fnzstate = aij->nonzerostate;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* transpose products by the explicit transpose: -mat_pellr_transpose explicit, or on the GPU a block in CSR (no atomic path) */
static inline PetscBool PellrExplicitTranspose(Mat_PELLR *p, PellrBlock *b, PetscBool dev)
{
  return (PetscBool)(p->tmode == MAT_PELLR_TRANSPOSE_EXPLICIT || (dev && b->fmt == MAT_PELLR_FORMAT_CSR));
}

/*
  Bring the PELLR copy of the SeqAIJ 'aij' (object state 'cur'), block b of A, up to date: rebuild on a pattern change
  (other object or nonzerostate), otherwise refresh the values if the state changed, otherwise do nothing.
  trans: also what transpose products need (the explicit transpose); device: also the device copies.
*/
static PetscErrorCode PellrBlockEnsure(Mat A, Mat_PELLR *p, PellrBlock *b, Mat aij, PetscObjectState cur, PetscBool trans, PetscBool device)
{
  PetscObjectId      id;
  const PetscInt    *ai, *aj;
  const PetscScalar *aa;
  PetscInt           m, n;
  PetscBool          transpose;

  PetscFunctionBegin;
  PetscCall(PellrBlockFormat(A, p, b, aij, device));
  transpose = (PetscBool)(trans && PellrExplicitTranspose(p, b, device));
#if defined(PETSC_HAVE_CUDA)
  /* a CSR block is copied to the GPU as it is, whatever -mat_pellr_build says */
  if (device && (p->build == MAT_PELLR_BUILD_DEVICE || b->fmt == MAT_PELLR_FORMAT_CSR)) {
    PetscCall(PellrBlockEnsureDeviceBuild(p, b, aij, cur, transpose));
    PetscCall(PellrDeviceStageDrop()); /* a copy made for the predictor that no build took */
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#endif
  PetscCall(PetscObjectGetId((PetscObject)aij, &id));
  PetscCall(MatGetSize(aij, &m, &n));
  if (b->built && b->id == id && b->nzstate == aij->nonzerostate && b->hstate == cur && (!transpose || (b->tbuilt && b->thstate == cur))) {
    if (!device) PetscFunctionReturn(PETSC_SUCCESS);
#if defined(PETSC_HAVE_CUDA)
    if (b->dL && !b->dbuilt && b->dstate == cur && (!transpose || (b->dT && b->dtstate == cur))) PetscFunctionReturn(PETSC_SUCCESS);
#endif
  }
  PetscCall(MatSeqAIJGetCSRAndMemType(aij, &ai, &aj, NULL, NULL));
  PetscCall(MatSeqAIJGetArrayRead(aij, &aa));
  if (!b->built || b->id != id || b->nzstate != aij->nonzerostate) {
    PetscCall(PetscLogEventBegin(MAT_PELLR_Build, aij, 0, 0, 0));
    PetscCall(PellrLayoutDestroy(&b->L));
    PetscCall(PellrLayoutDestroy(&b->T));
    b->tbuilt = PETSC_FALSE;
    if (!b->dbuilt) PetscCall(PellrBlockDestroyDevice(b)); /* copies of the old host layout; a GPU-built one checks its own pattern */
    PetscCall(PellrLayoutBuild(&b->L, b->fmt, m, n, ai, aj, NULL, p->long_row_length));
    PetscCall(PellrBlockHostDiagonalSlices(p, &b->L));
    PetscCall(PellrLayoutSetValues(&b->L, aa));
    PetscCall(PetscLogEventEnd(MAT_PELLR_Build, aij, 0, 0, 0));
    b->built   = PETSC_TRUE;
    b->id      = id;
    b->nzstate = aij->nonzerostate;
    b->hstate  = cur;
    b->nbuild++;
    PetscCall(PetscInfo(aij, "PELLR (format %s) built: %" PetscInt_FMT " rows, %" PetscInt_FMT " long, %" PetscInt_FMT " slices, %" PetscInt_FMT " nonzeros in %" PetscInt_FMT " slots\n", MatPELLRFormats[b->fmt], m, b->L.nlong, b->L.nslices, b->L.nnz, b->L.nslots));
  } else if (b->hstate != cur) {
    PetscCall(PetscLogEventBegin(MAT_PELLR_Refresh, aij, 0, 0, 0));
    PetscCall(PellrLayoutSetValues(&b->L, aa));
    PetscCall(PetscLogEventEnd(MAT_PELLR_Refresh, aij, 0, 0, 0));
    b->hstate = cur;
    b->nrefresh++;
  }
  if (transpose) {
    if (!b->tbuilt) {
      PetscCall(PetscLogEventBegin(MAT_PELLR_TransposeBuild, aij, 0, 0, 0));
      PetscCall(PellrLayoutBuildTranspose(&b->T, m, n, ai, aj, p->long_row_length));
      PetscCall(PellrBlockHostDiagonalSlices(p, &b->T));
      PetscCall(PellrLayoutSetValues(&b->T, aa));
      PetscCall(PetscLogEventEnd(MAT_PELLR_TransposeBuild, aij, 0, 0, 0));
      b->tbuilt  = PETSC_TRUE;
      b->thstate = cur;
      b->ntbuild++;
    } else if (b->thstate != cur) {
      PetscCall(PetscLogEventBegin(MAT_PELLR_Refresh, aij, 0, 0, 0));
      PetscCall(PellrLayoutSetValues(&b->T, aa));
      PetscCall(PetscLogEventEnd(MAT_PELLR_Refresh, aij, 0, 0, 0));
      b->thstate = cur;
      b->ntrefresh++;
    }
  }
  PetscCall(MatSeqAIJRestoreArrayRead(aij, &aa));
#if defined(PETSC_HAVE_CUDA)
  if (device) {
    PetscCall(PetscLogEventBegin(MAT_PELLR_CopyToGPU, aij, 0, 0, 0));
    if (b->dbuilt) PetscCall(PellrBlockDestroyDevice(b)); /* built on the GPU before -mat_pellr_build host */
    if (!b->dL) {
      PetscCall(PellrDeviceUpload(&b->L, &b->dL));
      b->nupload++;
    } else if (b->dstate != cur) {
      PetscCall(PellrDeviceRefresh(b->dL, b->L.val, b->L.nslots));
      b->ndrefresh++;
    }
    b->dstate = cur;
    if (transpose) {
      if (!b->dT) PetscCall(PellrDeviceUpload(&b->T, &b->dT));
      else if (b->dtstate != cur) PetscCall(PellrDeviceRefresh(b->dT, b->T.val, b->T.nslots));
      b->dtstate = cur;
    }
    PetscCall(PetscLogEventEnd(MAT_PELLR_CopyToGPU, aij, 0, 0, 0));
  }
#else
  (void)device;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = z + op(A) x with arrays in host or (dev) device memory; z may be NULL or y */
static PetscErrorCode PellrBlockApply(Mat_PELLR *p, PellrBlock *b, PetscBool dev, const PetscScalar *x, const PetscScalar *z, PetscScalar *y, PetscBool trans)
{
  const PetscBool    expl = PellrExplicitTranspose(p, b, dev);
  const PellrLayout *L    = trans && expl ? &b->T : &b->L;

  PetscFunctionBegin;
  if (dev) {
#if defined(PETSC_HAVE_CUDA)
    if (!trans || expl) PetscCall(PellrDeviceMult(trans ? b->dT : b->dL, x, z, y));
    else PetscCall(PellrDeviceMultTransposeAtomic(b->dL, x, z, y));
    PetscCall(PetscLogGpuFlops(2.0 * (b->dbuilt ? b->DI.nnz : L->nnz)));
#endif
  } else {
    PetscCheck(L->format != MAT_PELLR_FORMAT_CSR, PETSC_COMM_SELF, PETSC_ERR_PLIB, "A CSR block uses the SeqAIJ product on the host");
    if (!trans || expl) PellrHostMult(L, x, z, y);
    else {
      if (z != y)
        for (PetscInt i = 0; i < L->n; i++) y[i] = z ? z[i] : 0.0;
      PellrHostMultTransposeAdd(L, x, y);
    }
    PetscCall(PetscLogFlops(2.0 * L->nnz));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  y = z + op(aij) x (z may be NULL or y) for the block b (the SeqAIJ aij) of A. A CSR block on the host uses the SeqAIJ
  product itself (the parent's operation when aij is A; for the transpose only with -mat_pellr_transpose atomic).
*/
static PetscErrorCode PellrApplyVec(Mat A, Mat aij, Mat_PELLR *p, PellrBlock *b, PetscBool dev, Vec x, Vec z, Vec y, PetscBool trans)
{
  const PetscScalar *xa, *za = NULL;
  PetscScalar       *ya;

  PetscFunctionBegin;
  if (!dev && b->L.format == MAT_PELLR_FORMAT_CSR && (!trans || !PellrExplicitTranspose(p, b, dev))) {
    PetscErrorCode (*mult)(Mat, Vec, Vec)           = aij == A ? (trans ? p->multtranspose : p->mult) : (trans ? aij->ops->multtranspose : aij->ops->mult);
    PetscErrorCode (*multadd)(Mat, Vec, Vec, Vec)   = aij == A ? (trans ? p->multtransposeadd : p->multadd) : (trans ? aij->ops->multtransposeadd : aij->ops->multadd);

    PetscCall(PetscLogEventBegin(MAT_PELLR_Mult, 0, 0, 0, 0));
    if (z) PetscCall((*multadd)(aij, x, z, y));
    else PetscCall((*mult)(aij, x, y));
    PetscCall(PetscLogEventEnd(MAT_PELLR_Mult, 0, 0, 0, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(MAT_PELLR_Mult, 0, 0, 0, 0));
  if (dev) {
    /* device pointers whatever the vectors' binding or where their valid copy is (e.g. the ghost vector after a
       scatter through non-GPU-aware MPI is valid on the host only): the VecCUDA accessors copy when needed */
    PetscCall(VecCUDAGetArrayRead(x, &xa));
    if (z == y) {
      PetscCall(VecCUDAGetArray(y, &ya));
      za = ya;
    } else {
      if (z) PetscCall(VecCUDAGetArrayRead(z, &za));
      PetscCall(VecCUDAGetArrayWrite(y, &ya));
    }
  } else {
    PetscCall(VecGetArrayRead(x, &xa));
    if (z == y) {
      PetscCall(VecGetArray(y, &ya));
      za = ya;
    } else {
      if (z) PetscCall(VecGetArrayRead(z, &za));
      PetscCall(VecGetArrayWrite(y, &ya));
    }
  }
  PetscCall(PellrBlockApply(p, b, dev, xa, za, ya, trans));
  if (dev) {
    PetscCall(VecCUDARestoreArrayRead(x, &xa));
    if (z == y) PetscCall(VecCUDARestoreArray(y, &ya));
    else {
      if (z) PetscCall(VecCUDARestoreArrayRead(z, &za));
      PetscCall(VecCUDARestoreArrayWrite(y, &ya));
    }
  } else {
    PetscCall(VecRestoreArrayRead(x, &xa));
    if (z == y) PetscCall(VecRestoreArray(y, &ya));
    else {
      if (z) PetscCall(VecRestoreArrayRead(z, &za));
      PetscCall(VecRestoreArrayWrite(y, &ya));
    }
  }
  PetscCall(PetscLogEventEnd(MAT_PELLR_Mult, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* products run on the GPU when the matrix is pellrcuda and all vectors are cuda vectors, none bound to the CPU */
static PetscErrorCode PellrUseDevice(Mat A, Vec x, Vec y, Vec z, PetscBool *dev)
{
  PetscFunctionBegin;
  *dev = PETSC_FALSE;
#if defined(PETSC_HAVE_CUDA)
  if (((Mat_PELLR *)A->spptr)->cuda && !A->boundtocpu) {
    Vec       v[3] = {x, y, z};
    PetscBool flg  = PETSC_TRUE;
    for (PetscInt i = 0; i < 3 && flg; i++) {
      if (!v[i]) continue;
      PetscCall(PetscObjectTypeCompareAny((PetscObject)v[i], &flg, VECSEQCUDA, VECMPICUDA, ""));
      if (flg && v[i]->boundtocpu) flg = PETSC_FALSE;
    }
    *dev = flg;
  }
#else
  (void)A;
  (void)x;
  (void)y;
  (void)z;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* statistics (view, MatPELLRGetInfo()) come from the GPU-built layout when pellrcuda builds on the GPU and is not bound to the CPU */
static PetscErrorCode PellrReportDevice(Mat A, Mat_PELLR *p, PetscBool *dev)
{
  PetscFunctionBegin;
  *dev = PETSC_FALSE;
#if defined(PETSC_HAVE_CUDA)
  *dev = (PetscBool)(p->cuda && p->build == MAT_PELLR_BUILD_DEVICE && !A->boundtocpu);
#else
  (void)A;
  (void)p;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------------------------------ matrix ops */

/* the state the sequential matrix's values are at, accounting for the increment MatAssemblyEnd() makes after us */
static PetscErrorCode PellrSeqState(Mat A, Mat_PELLR *p, PetscObjectState *cur)
{
  PellrBlock *b = &p->d;

  PetscFunctionBegin;
  PetscCall(PetscObjectStateGet((PetscObject)A, cur));
  if (p->expect) {
    if (*cur == p->expect_state + 1) {
      if (b->hstate == p->expect_state) b->hstate = *cur;
      if (b->thstate == p->expect_state) b->thstate = *cur;
      if (b->dstate == p->expect_state) b->dstate = *cur;
      if (b->dtstate == p->expect_state) b->dtstate = *cur;
    }
    p->expect = PETSC_FALSE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatMPIAIJGetSeqAIJ() insists on a type name beginning with "mpiaij"; the matrix is an MPIAIJ (subclassed in
  place), so present it under that name for the call.
*/
static PetscErrorCode PellrMPIGetSeqAIJ(Mat A, Mat *Ad, Mat *Ao, const PetscInt **garray)
{
  char          *name = ((PetscObject)A)->type_name;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  ((PetscObject)A)->type_name = (char *)MATMPIAIJ;
  ierr                        = MatMPIAIJGetSeqAIJ(A, Ad, Ao, garray);
  ((PetscObject)A)->type_name = name;
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PellrMPIEnsure(Mat A, Mat_PELLR *p, PetscBool trans, PetscBool dev, Mat *Ad, Mat *Ao)
{
  const PetscInt  *garray;
  PetscObjectState sd, so;
  PetscObjectId    oid;

  PetscFunctionBegin;
  PetscCall(PellrMPIGetSeqAIJ(A, Ad, Ao, &garray));
  PetscCall(PetscObjectStateGet((PetscObject)*Ad, &sd));
  PetscCall(PetscObjectStateGet((PetscObject)*Ao, &so));
  PetscCall(PellrBlockEnsure(A, p, &p->d, *Ad, sd, trans, dev));
  PetscCall(PellrBlockEnsure(A, p, &p->o, *Ao, so, trans, dev));
  PetscCall(PetscObjectGetId((PetscObject)*Ao, &oid));
  /* VecScatterCreate() is collective: rebuild on a change every process sees alike. A's nonzero state is the sum over
     the processes of their blocks' (MPIAIJ's assembly reduces it); the off-diagonal block's own state changes only
     where that block gained entries, and testing it made the other processes skip the rebuild (a hang, found by
     fuzzing). Ao is made anew on every process together (MPIAIJ disassembles all when one must). */
  if (!p->sct || p->sct_id != oid || p->sct_nzstate != A->nonzerostate) {
    IS       is;
    Vec      xt;
    PetscInt nb = (*Ao)->cmap->n;

    PetscCall(VecScatterDestroy(&p->sct));
    PetscCall(VecDestroy(&p->lvec));
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, nb, garray, PETSC_USE_POINTER, &is));
    PetscCall(VecCreate(PETSC_COMM_SELF, &p->lvec));
    PetscCall(VecSetSizes(p->lvec, nb, nb));
    PetscCall(VecSetType(p->lvec, p->cuda ? VECSEQCUDA : VECSEQ));
    PetscCall(MatCreateVecs(A, &xt, NULL));
    PetscCall(VecScatterCreate(xt, is, p->lvec, NULL, &p->sct));
    PetscCall(VecDestroy(&xt));
    PetscCall(ISDestroy(&is));
    p->sct_id      = oid;
    p->sct_nzstate = A->nonzerostate;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultKernel_PELLR(Mat A, Vec x, Vec z, Vec y, PetscBool trans)
{
  Mat_PELLR *p;
  PetscBool  dev;

  PetscFunctionBegin;
  PetscCall(PellrGetData(A, &p));
  PetscCall(PellrUseDevice(A, x, y, z, &dev));
  if (!p->mpi) {
    PetscObjectState cur;
    PetscCall(PellrSeqState(A, p, &cur));
    PetscCall(PellrBlockEnsure(A, p, &p->d, A, cur, trans, dev));
    PetscCall(PellrApplyVec(A, A, p, &p->d, dev, x, z, y, trans));
  } else {
    Mat Ad, Ao;
    PetscCall(PellrMPIEnsure(A, p, trans, dev, &Ad, &Ao));
    if (!trans) {
      /* the ghost-value scatter overlaps the diagonal-block product */
      PetscCall(VecScatterBegin(p->sct, x, p->lvec, INSERT_VALUES, SCATTER_FORWARD));
      PetscCall(PellrApplyVec(A, Ad, p, &p->d, dev, x, z, y, PETSC_FALSE));
      PetscCall(VecScatterEnd(p->sct, x, p->lvec, INSERT_VALUES, SCATTER_FORWARD));
      PetscCall(PellrApplyVec(A, Ao, p, &p->o, dev, p->lvec, y, y, PETSC_FALSE));
    } else {
      PetscCall(PellrApplyVec(A, Ao, p, &p->o, dev, x, NULL, p->lvec, PETSC_TRUE));
      PetscCall(PellrApplyVec(A, Ad, p, &p->d, dev, x, z, y, PETSC_TRUE));
      PetscCall(VecScatterBegin(p->sct, p->lvec, y, ADD_VALUES, SCATTER_REVERSE));
      PetscCall(VecScatterEnd(p->sct, p->lvec, y, ADD_VALUES, SCATTER_REVERSE));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMult_PELLR(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMultKernel_PELLR(A, x, NULL, y, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultAdd_PELLR(Mat A, Vec x, Vec z, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMultKernel_PELLR(A, x, z, y, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultTranspose_PELLR(Mat A, Vec x, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMultKernel_PELLR(A, x, NULL, y, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatMultTransposeAdd_PELLR(Mat A, Vec x, Vec z, Vec y)
{
  PetscFunctionBegin;
  PetscCall(MatMultKernel_PELLR(A, x, z, y, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatGetDiagonal_PELLR(Mat A, Vec v)
{
  Mat_PELLR *p;
  PetscBool  dev;

  PetscFunctionBegin;
  PetscCall(PellrGetData(A, &p));
  PetscCall(PellrUseDevice(A, v, NULL, NULL, &dev));
  /* in parallel the diagonal is that of the diagonal block when the row and column ownerships agree */
  if (!dev || (p->mpi && (A->rmap->rstart != A->cmap->rstart || A->rmap->n != A->cmap->n))) {
    PetscCall((*p->getdiagonal)(A, v));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
#if defined(PETSC_HAVE_CUDA)
  {
    PetscScalar *d;
    if (p->mpi) {
      Mat Ad, Ao;
      PetscCall(PellrMPIEnsure(A, p, PETSC_FALSE, PETSC_TRUE, &Ad, &Ao));
    } else {
      PetscObjectState cur;
      PetscCall(PellrSeqState(A, p, &cur));
      PetscCall(PellrBlockEnsure(A, p, &p->d, A, cur, PETSC_FALSE, PETSC_TRUE));
    }
    PetscCall(VecGetArrayWriteAndMemType(v, &d, NULL));
    PetscCall(PellrDeviceGetDiagonal(p->d.dL, d));
    PetscCall(VecRestoreArrayWriteAndMemType(v, &d));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Build (or refresh) the PELLR copy of an assembled matrix now. For a sequential matrix the caller
  (MatAssemblyEnd(), MatZeroRows(), MatConvert()) increases the object state once right after us: that one
  increment is not a change of the values, so it is accepted at the next use (PellrSeqState()).
*/
static PetscErrorCode PellrBuildNow(Mat A)
{
  Mat_PELLR *p   = (Mat_PELLR *)A->spptr;
  PetscBool  dev = p->cuda;

  PetscFunctionBegin;
#if defined(PETSC_HAVE_DEVICE)
  if (A->boundtocpu) dev = PETSC_FALSE; /* a matrix bound to the CPU gets its device copy at its first GPU product */
#endif
  if (p->mpi) {
    Mat Ad, Ao;
    PetscCall(PellrMPIEnsure(A, p, PETSC_FALSE, dev, &Ad, &Ao));
  } else {
    PetscObjectState cur;
    PetscCall(PellrSeqState(A, p, &cur));
    PetscCall(PellrBlockEnsure(A, p, &p->d, A, cur, PETSC_FALSE, dev));
    p->expect       = PETSC_TRUE;
    p->expect_state = cur;
  }
#if defined(PETSC_HAVE_CUDA)
  if (p->cuda) A->offloadmask = PETSC_OFFLOAD_BOTH;
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatAssemblyEnd_PELLR(Mat A, MatAssemblyType mode)
{
  Mat_PELLR *p;

  PetscFunctionBegin;
  PetscCall(PellrGetData(A, &p));
  PetscCall((*p->assemblyend)(A, mode));
  if (mode == MAT_FLUSH_ASSEMBLY) PetscFunctionReturn(PETSC_SUCCESS);
  if (!p->mpi) {
    /* MatSetValues() and MatZeroRows() change the values without changing the object state: refresh them */
    p->expect    = PETSC_FALSE;
    p->d.hstate  = -1;
    p->d.thstate = -1;
    p->d.dstate  = -1;
    p->d.dtstate = -1;
  }
  PetscCall(PellrBuildNow(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PETSc's AIJ graph construction (used by PCGAMG) accepts only type names beginning with seqaij/mpiaij; the matrix is
  one, so present it under that name for the call (the graph is then a plain AIJ matrix).
*/
static PetscErrorCode MatCreateGraph_PELLR(Mat A, PetscBool sym, PetscBool scale, PetscReal filter, PetscInt index_size, PetscInt index[], Mat *G)
{
  Mat_PELLR     *p    = (Mat_PELLR *)A->spptr;
  char          *name = ((PetscObject)A)->type_name;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  ((PetscObject)A)->type_name = (char *)(p->mpi ? MATMPIAIJ : MATSEQAIJ);
  ierr                        = (*p->creategraph)(A, sym, scale, filter, index_size, index, G);
  ((PetscObject)A)->type_name = name;
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatShift(): AIJ's MatShift_Basic() lifts the blocks' no-new-nonzero flag (so that missing diagonal entries can be
  inserted) only for matrices whose type name begins with seqaij/mpiaij (PetscObjectBaseTypeCompareAny()); under our
  name it failed with "New nonzero caused a malloc" where AIJ succeeds (found by fuzzing). Present the base type name.
*/
static PetscErrorCode MatShift_PELLR(Mat A, PetscScalar a)
{
  Mat_PELLR     *p    = (Mat_PELLR *)A->spptr;
  char          *name = ((PetscObject)A)->type_name;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  ((PetscObject)A)->type_name = (char *)(p->mpi ? MATMPIAIJ : MATSEQAIJ);
  ierr                        = (*p->shift)(A, a);
  ((PetscObject)A)->type_name = name;
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Sparse products (MatMatMult(), MatPtAP(), ... e.g. in PCGAMG): PETSc's AIJ product kernels check that the type names
  of their operands begin with seqaij/mpiaij. The operands that are PELLR matrices are AIJ matrices, so the product
  is set up and computed by AIJ's own code with them presented under their base type name; the result is AIJ.
*/
typedef struct {
  PetscErrorCode (*symbolic)(Mat);
  PetscErrorCode (*numeric)(Mat);
} PellrProduct;

static PetscErrorCode PellrIsOurs(Mat A, PetscBool *ours)
{
  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, ours, MATSEQPELLR, MATMPIPELLR, MATSEQPELLRCUDA, MATMPIPELLRCUDA, ""));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* B, if it is a PELLR matrix, takes the settings s (a new matrix made from another: duplicate, transpose) */
static PetscErrorCode PellrSettingsGive(const PellrSettings *s, Mat B)
{
  Mat_PELLR *q;
  PetscBool  ours;

  PetscFunctionBegin;
  PetscCall(PellrIsOurs(B, &ours));
  if (!ours) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PellrGetData(B, &q));
  PetscCall(PellrSettingsSet(q, s));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* present (or restore) the PELLR operands of the product C under their AIJ base type name */
static PetscErrorCode PellrProductNames(Mat C, char *names[3], PetscBool restore)
{
  Mat_Product *product = C->product;
  Mat          m[3]    = {NULL, NULL, NULL};

  PetscFunctionBegin;
  if (product) m[0] = product->A, m[1] = product->B, m[2] = product->C;
  if (restore) {
    for (PetscInt i = 2; i >= 0; i--)
      if (m[i] && names[i]) ((PetscObject)m[i])->type_name = names[i];
  } else {
    for (PetscInt i = 0; i < 3; i++) {
      PetscBool ours = PETSC_FALSE;
      names[i]       = NULL;
      if (m[i]) PetscCall(PellrIsOurs(m[i], &ours));
      if (ours) {
        names[i]                       = ((PetscObject)m[i])->type_name;
        ((PetscObject)m[i])->type_name = (char *)(((Mat_PELLR *)m[i]->spptr)->mpi ? MATMPIAIJ : MATSEQAIJ);
      }
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatProductNumeric_PELLR(Mat C)
{
  PellrProduct  *pp;
  char          *names[3];
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscObjectContainerQuery((PetscObject)C, "MatProduct_PELLR", (void **)&pp));
  PetscCheck(pp && pp->numeric, PetscObjectComm((PetscObject)C), PETSC_ERR_PLIB, "PELLR product data missing");
  PetscCall(PellrProductNames(C, names, PETSC_FALSE));
  ierr = (*pp->numeric)(C);
  PetscCall(PellrProductNames(C, names, PETSC_TRUE));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatProductSymbolic_PELLR(Mat C)
{
  PellrProduct  *pp;
  char          *names[3];
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCall(PetscObjectContainerQuery((PetscObject)C, "MatProduct_PELLR", (void **)&pp));
  PetscCheck(pp && pp->symbolic, PetscObjectComm((PetscObject)C), PETSC_ERR_PLIB, "PELLR product data missing");
  PetscCall(PellrProductNames(C, names, PETSC_FALSE));
  ierr = (*pp->symbolic)(C);
  PetscCall(PellrProductNames(C, names, PETSC_TRUE));
  PetscCall(ierr);
  if (C->ops->productnumeric && C->ops->productnumeric != MatProductNumeric_PELLR) {
    pp->numeric                = C->ops->productnumeric;
    C->ops->productnumeric     = MatProductNumeric_PELLR;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatProductSetFromOptions_PELLR(Mat C)
{
  Mat_Product *product = C->product;
  Mat          op      = NULL;
  PetscBool    ours;
  char        *names[3];
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCheck(product, PetscObjectComm((PetscObject)C), PETSC_ERR_PLIB, "Not a product");
  PetscCall(PellrIsOurs(product->A, &ours));
  if (ours) op = product->A;
  else {
    PetscCall(PellrIsOurs(product->B, &ours));
    if (ours) op = product->B;
  }
  PetscCheck(op && ((Mat_PELLR *)op->spptr)->productsetfromoptions, PetscObjectComm((PetscObject)C), PETSC_ERR_PLIB, "No PELLR operand");
  PetscCall(PellrProductNames(C, names, PETSC_FALSE));
  ierr = (*((Mat_PELLR *)op->spptr)->productsetfromoptions)(C);
  PetscCall(PellrProductNames(C, names, PETSC_TRUE));
  PetscCall(ierr);
  if (C->ops->productsymbolic && C->ops->productsymbolic != MatProductSymbolic_PELLR) {
    PellrProduct *pp;
    PetscCall(PetscNew(&pp));
    pp->symbolic = C->ops->productsymbolic;
    PetscCall(PetscObjectContainerCompose((PetscObject)C, "MatProduct_PELLR", pp, PetscContainerUserDestroyDefault));
    C->ops->productsymbolic = MatProductSymbolic_PELLR;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PellrViewBlock(PetscViewer viewer, const char *name, Mat_PELLR *p, const PellrBlock *b, PetscBool dev, PetscBool sync)
{
  const PellrLayout *L        = dev ? &b->DI : &b->L;
  PetscInt           ncompact = -1, ndiag = -1;
  PetscInt64         itpellr  = L->it_pellr, ndiagslots = -1;
  PetscReal          pad = L->nnz ? 100.0 * (PetscReal)(L->nslots - L->nnz) / (PetscReal)L->nnz : 0.0;
  static const char *FMT[] = {"AUTO", "PELLR", "SELL", "ELLR", "CSR"};

  PetscFunctionBegin;
#if defined(PETSC_HAVE_CUDA)
  if (p->cuda && b->dL) PetscCall(PellrDeviceGetCompactSlices(b->dL, &ncompact));
  if (p->cuda && b->dL) PetscCall(PellrDeviceGetDiagonalSliceCount(b->dL, &ndiag, &ndiagslots));
  if (itpellr < 0 && dev && b->dL) PetscCall(PellrDeviceWarpIterationsPELLR(b->dL, &itpellr)); /* a GPU build in another format */
#endif
#define PELLR_PRINT(...) PetscCall(sync ? PetscViewerASCIISynchronizedPrintf(viewer, __VA_ARGS__) : PetscViewerASCIIPrintf(viewer, __VA_ARGS__))
  PELLR_PRINT("%sstorage format: %s (requested %s)\n", name, MatPELLRFormats[L->format], MatPELLRFormats[p->format]);
  if (L->format == MAT_PELLR_FORMAT_CSR) {
    PetscInt csrthreads = 0, csrentries = 0;
    char     gpu[160] = "cuSPARSE SpMV";
#if defined(PETSC_HAVE_CUDA)
    if (p->cuda && b->dL) PetscCall(PellrDeviceGetCSRThreads(b->dL, &csrthreads, &csrentries));
#endif
    if (csrentries) PetscCall(PetscSNPrintf(gpu, sizeof(gpu), "our row-block CSR SpMV, %" PetscInt_FMT " entries a thread block, %" PetscInt_FMT " threads a row: -mat_pellr_cuda_csr_kernel stream", csrentries, csrthreads));
    else if (csrthreads) PetscCall(PetscSNPrintf(gpu, sizeof(gpu), "our CSR SpMV, %" PetscInt_FMT " threads a row: -mat_pellr_cuda_csr_kernel", csrthreads));
    PELLR_PRINT("%sCSR storage: %" PetscInt_FMT " rows (%" PetscInt_FMT " non-empty), max row length %" PetscInt_FMT ", %" PetscInt_FMT " nonzeros, 32-bit indices on the GPU (%s; the SeqAIJ product on the host)\n", name, L->m, L->nonempty, L->maxlen, L->nnz, gpu);
  } else {
    PELLR_PRINT("%s%s storage: %" PetscInt_FMT " rows (%" PetscInt_FMT " non-empty, %" PetscInt_FMT " long), %" PetscInt_FMT " slices of %d rows, max row length %" PetscInt_FMT "\n", name, FMT[L->format], L->m, L->nonempty, L->nlong, L->nslices, PELLR_SLICE, L->maxlen);
    if (L->format == MAT_PELLR_FORMAT_PELLR) PELLR_PRINT("%s  long rows: %" PetscInt_FMT " with >= %d entries (a thread block per row on the GPU), %" PetscInt_FMT " shorter (a warp per row); long-row length %" PetscInt_FMT "\n", name, L->nblock, PELLR_BLOCK_ROW, L->nlong - L->nblock, p->long_row_length);
    if (ncompact >= 0) PELLR_PRINT("%s  %" PetscInt_FMT " nonzeros in %" PetscInt_FMT " slots (padding %.2f%%); columns on the GPU as 16-bit offsets in %" PetscInt_FMT " of %" PetscInt_FMT " slices (-mat_pellr_cuda_compact_columns), 32-bit in the others%s\n", name, L->nnz, L->nslots, (double)pad, ncompact, L->nslices, L->nlong ? " and the long rows" : "");
    else PELLR_PRINT("%s  %" PetscInt_FMT " nonzeros in %" PetscInt_FMT " slots (padding %.2f%%), 32-bit indices\n", name, L->nnz, L->nslots, (double)pad);
    if (ndiag >= 0) PELLR_PRINT("%s  diagonal slices on the GPU: %" PetscInt_FMT " of %" PetscInt_FMT " (%" PetscInt64_FMT " slots), their entries on one diagonal each: products read no column index there (-mat_pellr_cuda_diagonal_slices)\n", name, ndiag, L->nslices, ndiagslots);
    else if (!p->cuda && L->dptr) PELLR_PRINT("%s  diagonal slices on the host: %" PetscInt_FMT " of %" PetscInt_FMT " (%" PetscInt64_FMT " slots), their entries on one diagonal each: products read no column index there (-mat_pellr_diagonal_slices)\n", name, L->ndiag, L->nslices, L->ndiagslots);
  }
  PELLR_PRINT("%s  warp iterations: ELL %" PetscInt64_FMT ", ELLR %" PetscInt64_FMT ", PELLR %" PetscInt64_FMT "; degree of perturbation of row lengths %.4f\n", name, L->it_ell, L->it_ellr, itpellr, (double)L->perturbation);
  if (L->format != MAT_PELLR_FORMAT_CSR) PELLR_PRINT("%s  GPU slices by threads per row (32,16,8,4,2,1): %" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT " %" PetscInt_FMT "%s\n", name, L->tclass[1] - L->tclass[0], L->tclass[2] - L->tclass[1], L->tclass[3] - L->tclass[2], L->tclass[4] - L->tclass[3], L->tclass[5] - L->tclass[4], L->tclass[6] - L->tclass[5], L->format == MAT_PELLR_FORMAT_SELL ? " (slices grouped by class)" : "");
#undef PELLR_PRINT
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatView_PELLR(Mat A, PetscViewer viewer)
{
  Mat_PELLR        *p;
  PetscBool         isascii, dev;
  PetscViewerFormat format;
  PetscMPIInt       size = 1;

  PetscFunctionBegin;
  PetscCall(PellrGetData(A, &p));
  PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
  PetscCall(PetscViewerGetFormat(viewer, &format));
  if (p->mpi) PetscCallMPI(MPI_Comm_size(PetscObjectComm((PetscObject)A), &size));
  if (p->mpi && A->assembled && size > 1) {
    PetscBool isdraw, issocket;

    PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERDRAW, &isdraw));
    PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERSOCKET, &issocket));
    if (isdraw || issocket || (isascii && format != PETSC_VIEWER_ASCII_INFO && format != PETSC_VIEWER_ASCII_INFO_DETAIL && format != PETSC_VIEWER_ASCII_FACTOR_INFO && format != PETSC_VIEWER_LOAD_BALANCE)) {
      /* MPIAIJ gathers the entries on rank 0 through a submatrix of A's own type, which must be MPIAIJ
         (MatMPIAIJGetSeqAIJ()): view an MPIAIJ copy instead (its entries; MatView() has printed A's header) */
      Mat T;

      PetscCall(MatConvert(A, MATMPIAIJ, MAT_INITIAL_MATRIX, &T));
      PetscCall(PetscObjectSetName((PetscObject)T, ((PetscObject)A)->name));
      PetscUseTypeMethod(T, view, viewer);
      PetscCall(MatDestroy(&T));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  PetscCall((*p->view)(A, viewer));
  if (!isascii || !A->assembled) PetscFunctionReturn(PETSC_SUCCESS);
  if (format != PETSC_VIEWER_ASCII_INFO && format != PETSC_VIEWER_ASCII_INFO_DETAIL) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PellrReportDevice(A, p, &dev));
  PetscCall(PetscViewerASCIIPrintf(viewer, "PELLR matrix (%s products%s), -mat_pellr_format %s, transpose products: %s%s%s\n", p->cuda ? "GPU" : "host", p->cuda ? " with cuda vectors" : "", MatPELLRFormats[p->format], MatPELLRTransposeModes[p->tmode], p->cuda ? ", layout built on the " : "", p->cuda ? (p->build == MAT_PELLR_BUILD_DEVICE ? "GPU" : "host and copied") : ""));
  if (!p->mpi) {
    PetscObjectState cur;
    PetscCall(PellrSeqState(A, p, &cur));
    PetscCall(PellrBlockEnsure(A, p, &p->d, A, cur, PETSC_FALSE, dev));
    PetscCall(PellrViewBlock(viewer, "", p, &p->d, dev, PETSC_FALSE));
    if (p->d.pinfo) {
      PetscCall(PetscViewerASCIIPushTab(viewer));
      PetscCall(PellrPredictionView(viewer, &p->d.pinfo->f, &p->d.pinfo->pred));
      PetscCall(PetscViewerASCIIPrintf(viewer, "candidates limited to a device footprint of at most %g x the CSR's (-mat_pellr_max_memory_ratio)\n", (double)p->max_memory_ratio));
      PetscCall(PetscViewerASCIIPopTab(viewer));
    }
  } else {
    Mat         Ad, Ao;
    PetscMPIInt rank;
    char        name[64];
    PetscCall(PellrMPIEnsure(A, p, PETSC_FALSE, dev, &Ad, &Ao));
    PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)A), &rank));
    PetscCall(PetscViewerASCIIPushSynchronized(viewer));
    PetscCall(PetscSNPrintf(name, sizeof(name), "[%d] diagonal block: ", rank));
    PetscCall(PellrViewBlock(viewer, name, p, &p->d, dev, PETSC_TRUE));
    PetscCall(PetscSNPrintf(name, sizeof(name), "[%d] off-diagonal block: ", rank));
    PetscCall(PellrViewBlock(viewer, name, p, &p->o, dev, PETSC_TRUE));
    for (PetscInt k = 0; k < 2; k++) {
      PellrBlock *b = k ? &p->o : &p->d;
      if (b->pinfo) PetscCall(PetscViewerASCIISynchronizedPrintf(viewer, "[%d] %s block: format predictor chose %s (predicted %.3e s per product incl. amortized conversion; model %s)\n", rank, k ? "off-diagonal" : "diagonal", PellrCandidateNames[b->pinfo->pred.choice], (double)b->pinfo->pred.total[b->pinfo->pred.choice], b->pinfo->pred.model));
    }
    PetscCall(PetscViewerFlush(viewer));
    PetscCall(PetscViewerASCIIPopSynchronized(viewer));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatSetFromOptions_PELLR(Mat A, PetscOptionItems *PetscOptionsObject)
{
  Mat_PELLR *p;
  PetscInt   longlen;
  PetscBool  flg;

  PetscFunctionBegin;
  PetscCall(PellrGetData(A, &p));
  longlen = p->long_row_length;
  PetscOptionsHeadBegin(PetscOptionsObject, "PELLR matrix options");
  if (!p->cuda) {
    MatPELLRDiagonal diagonal, was = MAT_PELLR_DIAGONAL_AUTO;
    PetscBool        set;

    PetscCall(PellrHostDiagonalSlicesMode(&was));
    diagonal = was;
    PetscCall(PetscOptionsEnum("-mat_pellr_diagonal_slices", "Host layouts (pellr): a slice whose entries j all lie on one diagonal each (stencil rows) reads no column indices: auto (when at least 1/8 of the slice slots are in such slices), on (whenever one is) or off (the default; process-wide)", "MATPELLR", MatPELLRDiagonals, (PetscEnum)diagonal, (PetscEnum *)&diagonal, &set));
    if (set && diagonal != was) { /* the host layouts are made anew at the next use */
      PellrHostDiagonal = diagonal;
      PetscCall(PellrBlockDestroy(&p->d));
      PetscCall(PellrBlockDestroy(&p->o));
    }
  }
  if (p->cuda) {
    MatPELLRBuild build = p->build;
    PetscCall(PetscOptionsEnum("-mat_pellr_build", "Where pellrcuda builds its PELLR layout: device (on the GPU from the CSR) or host (and copied)", "MATPELLRCUDA", MatPELLRBuilds, (PetscEnum)build, (PetscEnum *)&build, NULL));
#if defined(PETSC_HAVE_CUDA)
    {
      PetscBool overlap, set, nset;
      PetscInt  min_nnz;

      PetscCall(PellrDeviceGetOverlap(&overlap, &min_nnz));
      PetscCall(PetscOptionsBool("-mat_pellr_cuda_overlap", "GPU products: kernels too small to fill the GPU run on side streams, overlapping the others (process-wide)", "MATPELLRCUDA", overlap, &overlap, &set));
      PetscCall(PetscOptionsInt("-mat_pellr_cuda_overlap_min_nnz", "GPU products: only products of at least this many entries overlap (process-wide)", "MATPELLRCUDA", min_nnz, &min_nnz, &nset));
      if (set || nset) PetscCall(PellrDeviceSetOverlap(overlap, min_nnz));
    }
    {
      PetscBool reuse, set;

      PetscCall(PellrDeviceGetReuseBlock(&reuse));
      PetscCall(PetscOptionsBool("-mat_pellr_cuda_reuse_block", "GPU rebuilds (new pattern, format or layout option): the memory of the layout replaced is reused when the new one fits in it with at most 1/32 unused (process-wide)", "MATPELLRCUDA", reuse, &reuse, &set));
      if (set) PetscCall(PellrDeviceSetReuseBlock(reuse));
    }
    {
      MatPELLRCompact compact, was;
      PetscBool       set;

      PetscCall(PellrDeviceGetCompactColumns(&was));
      compact = was;
      PetscCall(PetscOptionsEnum("-mat_pellr_cuda_compact_columns", "GPU layouts: a slice's columns as 16-bit offsets from its smallest column when it spans at most 65536 columns: auto (blocks of at least 2^24 entries, 16 a row on average, 98% of the slices fitting), on (every slice that fits) or off (process-wide)", "MATPELLRCUDA", MatPELLRCompacts, (PetscEnum)compact, (PetscEnum *)&compact, &set));
      if (set) PetscCall(PellrDeviceSetCompactColumns(compact));
      if (set && compact != was) { /* the device layouts are made anew at the next use */
        PetscCall(PellrBlockDestroy(&p->d));
        PetscCall(PellrBlockDestroy(&p->o));
      }
    }
    {
      MatPELLRDiagonal diagonal, was;
      PetscBool        set;

      PetscCall(PellrDeviceGetDiagonalSlices(&was));
      diagonal = was;
      PetscCall(PetscOptionsEnum("-mat_pellr_cuda_diagonal_slices", "GPU layouts: a slice whose entries j all lie on one diagonal each (stencil rows) reads no column indices: auto (when at least 1/8 of the slice slots are in such slices), on (whenever one is) or off (process-wide)", "MATPELLRCUDA", MatPELLRDiagonals, (PetscEnum)diagonal, (PetscEnum *)&diagonal, &set));
      if (set) PetscCall(PellrDeviceSetDiagonalSlices(diagonal));
      if (set && diagonal != was) {
        PetscCall(PellrBlockDestroy(&p->d));
        PetscCall(PellrBlockDestroy(&p->o));
      }
    }
    {
      MatPELLRCSRKernel kernel, was;
      PetscInt          threads, wast, entries, wase;
      PetscBool         set, tset, eset;

      PetscCall(PellrDeviceGetCSRKernel(&was, &wast, &wase));
      kernel  = was;
      threads = wast;
      entries = wase;
      PetscCall(PetscOptionsEnum("-mat_pellr_cuda_csr_kernel", "GPU products of the csr format: auto (ours on rows of regular length: 16 or more entries a row on average, none over 4 times that; else cuSPARSE), cusparse, vector (ours, a group of threads a row) or stream (ours, row blocks through shared memory) (process-wide)", "MATPELLRCUDA", MatPELLRCSRKernels, (PetscEnum)kernel, (PetscEnum *)&kernel, &set));
      PetscCall(PetscOptionsInt("-mat_pellr_cuda_csr_threads", "GPU products of the csr format by our kernel: threads a row, 2, 4, 8, 16 or 32 (0: a power of 2 near a quarter of the average row length, 4 to 32) (process-wide)", "MATPELLRCUDA", threads, &threads, &tset));
      PetscCall(PetscOptionsInt("-mat_pellr_cuda_csr_stream_entries", "GPU products of the csr format by the stream kernel: entries a thread block, 256 to 4096 (process-wide)", "MATPELLRCUDA", entries, &entries, &eset));
      if (set || tset || eset) PetscCall(PellrDeviceSetCSRKernel(kernel, threads, entries));
      if ((set || tset || eset) && (kernel != was || threads != wast || entries != wase)) { /* the device blocks are made anew at the next use */
        PetscCall(PellrBlockDestroy(&p->d));
        PetscCall(PellrBlockDestroy(&p->o));
      }
    }
#endif
    if (build != p->build) {
      p->build = build;
      PetscCall(PellrBlockDestroy(&p->d)); /* rebuilt at the next use */
      PetscCall(PellrBlockDestroy(&p->o));
    }
  }
  {
    MatPELLRFormat fmt = p->format;
    PetscCall(PetscOptionsEnum("-mat_pellr_format", "Storage of the blocks for the forward products: auto, pellr, sell (sliced ELLR), ellr (ELLPACK-R) or csr (cuSPARSE on the GPU)", "MatPELLRSetFormat", MatPELLRFormats, (PetscEnum)fmt, (PetscEnum *)&fmt, NULL));
    if (fmt != p->format) {
      p->format = fmt;
      PetscCall(PellrBlockDestroy(&p->d)); /* rebuilt at the next use */
      PetscCall(PellrBlockDestroy(&p->o));
    }
  }
  if (p->cuda) {
    PetscReal np = p->expected_products, mr = p->max_memory_ratio;
    char      model[PETSC_MAX_PATH_LEN];
    PetscBool mset;

    PetscCall(PetscStrncpy(model, p->model, sizeof(model)));
    PetscCall(PetscOptionsReal("-mat_pellr_expected_products", "Format predictor (auto): products the conversion cost is amortized over", "MATPELLRCUDA", np, &np, NULL));
    PetscCall(PetscOptionsString("-mat_pellr_model", "Format predictor (auto): calibration file (default: the one built into the library for this GPU, else the analytic model)", "MATPELLRCUDA", model, model, sizeof(model), &mset));
    PetscCall(PetscOptionsReal("-mat_pellr_max_memory_ratio", "Format predictor (auto): consider only formats whose device footprint is at most this times the CSR's", "MATPELLRCUDA", mr, &mr, NULL));
    PetscCall(PetscOptionsBool("-mat_pellr_predict_device", "Format predictor (auto): compute the features on the GPU, from the copy of the CSR the GPU build makes (false: on the host; the same features either way)", "MATPELLRCUDA", p->predict_device, &p->predict_device, NULL));
    {
      PetscInt  nt;
      PetscBool tset;

      PetscCall(PellrPredictGetThreads(&nt));
      PetscCall(PetscOptionsInt("-mat_pellr_predict_threads", "Format predictor (auto): host threads of its pass over the row pointers of blocks of 2^20 rows or more (the same features whatever the number; default: the process's cores, at most 8; process-wide)", "MATPELLRCUDA", nt, &nt, &tset));
      if (tset) PetscCall(PellrPredictSetThreads(nt));
    }
    PetscCheck(np > 0, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "-mat_pellr_expected_products must be positive, not %g", (double)np);
    PetscCheck(mr >= 1, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "-mat_pellr_max_memory_ratio must be >= 1, not %g", (double)mr);
    if (np != p->expected_products || mr != p->max_memory_ratio || strcmp(model, p->model)) {
      p->expected_products = np;
      p->max_memory_ratio  = mr;
      PetscCall(PetscStrncpy(p->model, model, sizeof(p->model)));
      if (p->format == MAT_PELLR_FORMAT_AUTO) {
        PetscCall(PellrBlockDestroy(&p->d)); /* predicted again at the next use */
        PetscCall(PellrBlockDestroy(&p->o));
      }
    }
  }
  PetscCall(PetscOptionsEnum("-mat_pellr_transpose", "Transpose products: explicit (cached PELLR transpose) or atomic (scatter of the rows)", "MATPELLR", MatPELLRTransposeModes, (PetscEnum)p->tmode, (PetscEnum *)&p->tmode, NULL));
  PetscCall(PetscOptionsInt("-mat_pellr_long_row_length", "Rows at least this long always go to the unpadded long-row segment (a warp or thread block per row on the GPU)", "MATPELLR", longlen, &longlen, &flg));
  PetscOptionsHeadEnd();
  if (flg) {
    PetscCheck(longlen >= 1, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "-mat_pellr_long_row_length must be >= 1, not %" PetscInt_FMT, longlen);
    if (longlen != p->long_row_length) {
      p->long_row_length = longlen;
      PetscCall(PellrBlockDestroy(&p->d)); /* rebuilt at the next use */
      PetscCall(PellrBlockDestroy(&p->o));
    }
  }
  if (p->setfromoptions) PetscCall((*p->setfromoptions)(A, PetscOptionsObject));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------------------------------ conversions */

static PetscErrorCode MatConvert_AIJ_PELLR(Mat, MatType, MatReuse, Mat *);
static PetscErrorCode MatConvert_PELLR_AIJ(Mat, MatType, MatReuse, Mat *);

static const char *PellrConvertNames[][3] = {
  /* {composed name with %s = seq or mpi, 1 = to PELLR / 0 = from PELLR, 1 = only with CUDA} */
  {"MatConvert_%spellr_%saij_C", "0", "0"},
  {"MatConvert_%spellrcuda_%saij_C", "0", "1"},
  {"MatConvert_%spellr_%saijcusparse_C", "0", "1"},
  {"MatConvert_%spellrcuda_%saijcusparse_C", "0", "1"},
  {"MatConvert_%saij_%spellr_C", "1", "0"},
  {"MatConvert_%saij_%spellrcuda_C", "1", "1"},
  {"MatConvert_%saijcusparse_%spellrcuda_C", "1", "1"},
  {"MatConvert_%spellr_%spellrcuda_C", "1", "1"},
  {"MatConvert_%spellrcuda_%spellr_C", "1", "1"},
};

static PetscErrorCode MatGetFactor_PELLR_Petsc(Mat A, MatFactorType ftype, Mat *F)
{
  PetscErrorCode (*f)(Mat, MatFactorType, Mat *) = NULL;

  PetscFunctionBegin;
  /* the matrix is a SeqAIJ: PETSc's own factorizations read it directly */
  PetscCall(MatSolverTypeGet(MATSOLVERPETSC, MATSEQAIJ, ftype, NULL, NULL, &f));
  PetscCheck(f, PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "No PETSc factorization of type %s for SeqAIJ", MatFactorTypes[ftype]);
  PetscCall((*f)(A, ftype, F));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The transpose of a sequential block, of the same type: MATSEQAIJ's MatTranspose() gives its result the input's type
  with MatSetType() on an assembled matrix, which for seqpellr discards the data (fuzzing found it); so the transpose
  of a SeqAIJ view on the block's arrays (no copy), converted in place, the format carried over
*/
static PetscErrorCode MatTranspose_SeqPELLR(Mat A, MatReuse reuse, Mat *B)
{
  Mat                view, T;
  Mat_PELLR         *p;
  PellrSettings      settings;
  const PetscInt    *ai, *aj;
  const PetscScalar *aa;
  PetscInt           m, n;
  PetscBool          done;

  PetscFunctionBegin;
  PetscCall(PellrGetData(A, &p));
  PetscCall(PellrSettingsGet(p, &settings));
  PetscCall(MatGetSize(A, &m, &n));
  PetscCall(MatGetRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCheck(done, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Cannot access the host structure of the %s matrix", ((PetscObject)A)->type_name);
  PetscCall(MatSeqAIJGetArrayRead(A, &aa));
  PetscCall(MatCreateSeqAIJWithArrays(PETSC_COMM_SELF, m, n, (PetscInt *)ai, (PetscInt *)aj, (PetscScalar *)aa, &view));
  PetscCall(MatTranspose(view, MAT_INITIAL_MATRIX, &T));
  PetscCall(MatDestroy(&view));
  PetscCall(MatSeqAIJRestoreArrayRead(A, &aa));
  PetscCall(MatRestoreRowIJ(A, 0, PETSC_FALSE, PETSC_FALSE, &m, &ai, &aj, &done));
  PetscCall(MatSetBlockSizes(T, PetscAbs(A->cmap->bs), PetscAbs(A->rmap->bs)));
  PetscCall(PetscObjectCompose((PetscObject)T, "MatTransposeParent", NULL)); /* the view's: MatTranspose() sets A's below */
  PetscCall(MatConvert(T, ((PetscObject)A)->type_name, MAT_INPLACE_MATRIX, &T));
  PetscCall(PellrSettingsGive(&settings, T)); /* with MAT_REUSE_MATRIX and a new pattern, *B keeps its own (PellrGetData()) */
  if (reuse == MAT_INITIAL_MATRIX) *B = T;
  else if (reuse == MAT_INPLACE_MATRIX) PetscCall(MatHeaderReplace(A, &T));
  else { /* MAT_REUSE_MATRIX: B keeps its identity; MatTranspose() then records A's state in its precursor */
    PetscContainer  rB;
    MatParentState *rb = NULL;

    PetscCall(PetscObjectQuery((PetscObject)*B, "MatTransposeParent", (PetscObject *)&rB));
    if (rB) PetscCall(PetscContainerGetPointer(rB, (void **)&rb));
    if (rb && rb->nonzerostate == A->nonzerostate) { /* the same pattern: new values only */
      PetscCall(MatCopy(T, *B, SAME_NONZERO_PATTERN));
      PetscCall(MatDestroy(&T));
    } else {
      PetscCall(MatHeaderMerge(*B, &T));
      PetscCall(MatTransposeSetPrecursor(A, *B));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MPIAIJ's transpose; a new transpose gets A's settings (in place, or reused with a new pattern, the matrix keeps its own) */
static PetscErrorCode MatTranspose_MPIPELLR(Mat A, MatReuse reuse, Mat *B)
{
  Mat_PELLR    *p;
  PellrSettings settings;

  PetscFunctionBegin;
  PetscCall(PellrGetData(A, &p));
  PetscCall(PellrSettingsGet(p, &settings));
  PetscCall((*p->transpose)(A, reuse, B));
  if (reuse == MAT_INITIAL_MATRIX) PetscCall(PellrSettingsGive(&settings, *B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* In-place LU (MatLUFactor()): SeqAIJ's moves a factor's data into the matrix (MatHeaderMerge()), which leaves a
   factored SeqAIJ: so it becomes one first (it crashed at destruction with the PELLR operations kept; fuzzing) */
static PetscErrorCode MatLUFactor_SeqPELLR(Mat A, IS row, IS col, const MatFactorInfo *info)
{
  PetscFunctionBegin;
  PetscCall(MatConvert(A, MATSEQAIJ, MAT_INPLACE_MATRIX, &A));
  PetscUseTypeMethod(A, lufactor, row, col, info);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's MatRetrieveValues() (MatRetrieveValues_C) changes the values without a new object state: mark them changed
   for the PELLR copies (fuzzing found products with the stored values) */
static PetscErrorCode MatRetrieveValues_PELLR(Mat A)
{
  Mat_PELLR *p = (Mat_PELLR *)A->spptr;

  PetscFunctionBegin;
  PetscCall((*p->retrievevalues)(A));
  if (p->mpi) {
    Mat             Ad, Ao;
    const PetscInt *garray;

    PetscCall(PellrMPIGetSeqAIJ(A, &Ad, &Ao, &garray));
    PetscCall(PetscObjectStateIncrease((PetscObject)Ad));
    PetscCall(PetscObjectStateIncrease((PetscObject)Ao));
  }
  PetscCall(PetscObjectStateIncrease((PetscObject)A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* MPI: COO preallocation makes the blocks of the matrix's root type (PETSc: MatConvert() to "pellr"), which would nest
   PELLR copies with formats of their own inside ours: they are made plain SeqAIJ again (found by fuzzing) */
static PetscErrorCode MatSetPreallocationCOO_MPIPELLR(Mat A, PetscCount n, PetscInt coo_i[], PetscInt coo_j[])
{
  Mat_PELLR      *p = (Mat_PELLR *)A->spptr;
  Mat             Ad, Ao;
  const PetscInt *garray;
  PetscBool       pellr;

  PetscFunctionBegin;
  PetscCall((*p->setpreallocationcoo)(A, n, coo_i, coo_j));
  PetscCall(PellrMPIGetSeqAIJ(A, &Ad, &Ao, &garray));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)Ad, &pellr, MATSEQPELLR, MATSEQPELLRCUDA, ""));
  if (pellr) PetscCall(MatConvert(Ad, MATSEQAIJ, MAT_INPLACE_MATRIX, &Ad));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)Ao, &pellr, MATSEQPELLR, MATSEQPELLRCUDA, ""));
  if (pellr) PetscCall(MatConvert(Ao, MATSEQAIJ, MAT_INPLACE_MATRIX, &Ao));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* set: compose ours; else remove them and, with restore, give back the parent's (not at destruction: MatHeaderMerge()
   destroys with the matrix's composed functions set aside, and a function composed then was leaked) */
static PetscErrorCode PellrCompose(Mat B, PetscBool set, PetscBool restore)
{
  Mat_PELLR  *p   = (Mat_PELLR *)B->spptr;
  const char *pre = p->mpi ? "mpi" : "seq";
  const char *our[2] = {"pellr", "pellrcuda"};
  char        name[128];

  PetscFunctionBegin;
  /* products with an AIJ operand (products of two matrices of the same type go through ops->productsetfromoptions) */
  for (PetscInt k = 0; k < 2; k++) {
    PetscCall(PetscSNPrintf(name, sizeof(name), "MatProductSetFromOptions_%s%s_%saij_C", pre, our[k], pre));
    PetscCall(PetscObjectComposeFunction((PetscObject)B, name, set ? MatProductSetFromOptions_PELLR : NULL));
    PetscCall(PetscSNPrintf(name, sizeof(name), "MatProductSetFromOptions_%saij_%s%s_C", pre, pre, our[k]));
    PetscCall(PetscObjectComposeFunction((PetscObject)B, name, set ? MatProductSetFromOptions_PELLR : NULL));
  }
  for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(PellrConvertNames); i++) {
#if !defined(PETSC_HAVE_CUDA)
    if (PellrConvertNames[i][2][0] == '1') continue;
#endif
    PetscCall(PetscSNPrintf(name, sizeof(name), PellrConvertNames[i][0], pre, pre));
    PetscCall(PetscObjectComposeFunction((PetscObject)B, name, set ? (PellrConvertNames[i][1][0] == '1' ? MatConvert_AIJ_PELLR : MatConvert_PELLR_AIJ) : NULL));
  }
  /* the parent's composed functions we chain to (PellrConvertInPlace() saved them) */
  if (p->retrievevalues) PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatRetrieveValues_C", set ? MatRetrieveValues_PELLR : restore ? p->retrievevalues : NULL));
  if (p->setpreallocationcoo) PetscCall(PetscObjectComposeFunction((PetscObject)B, "MatSetPreallocationCOO_C", set ? MatSetPreallocationCOO_MPIPELLR : restore ? p->setpreallocationcoo : NULL));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode MatDestroy_PELLR(Mat A)
{
  Mat_PELLR *p;
  PetscErrorCode (*destroy)(Mat);

  PetscFunctionBegin;
  PetscCall(PellrGetData(A, &p));
  destroy = p->destroy;
  /* references left: PETSc's MatHeaderMerge() (or MatSetType()) replaces the data of a matrix that lives on */
  if (((PetscObject)A)->refct > 0) PetscCall(PellrKeptAdd(A, p));
  else PetscCall(PellrKeptForget(A));
  PetscCall(PellrBlockFree(&p->d));
  PetscCall(PellrBlockFree(&p->o));
  PetscCall(VecScatterDestroy(&p->sct));
  PetscCall(VecDestroy(&p->lvec));
  PetscCall(PellrCompose(A, PETSC_FALSE, PETSC_FALSE));
  PetscCall(PetscFree(A->spptr));
  PetscCall((*destroy)(A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* AIJ's duplicate (a new matrix of the same type, not yet built); the copy keeps the PELLR settings (format, transpose mode, ...) */
static PetscErrorCode MatDuplicate_PELLR(Mat A, MatDuplicateOption op, Mat *B)
{
  Mat_PELLR    *p;
  PellrSettings s;

  PetscFunctionBegin;
  PetscCall(PellrGetData(A, &p));
  PetscCall(PellrSettingsGet(p, &s));
  PetscCall((*p->duplicate)(A, op, B));
  PetscCall(PellrSettingsGive(&s, *B));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* turn the SeqAIJ/MPIAIJ B into seqpellr[cuda]/mpipellr[cuda] in place; if it is one already, switch host/GPU */
static PetscErrorCode PellrConvertInPlace(Mat B, PetscBool cuda)
{
  Mat_PELLR *p;
  PetscBool  mpi, ours = PETSC_FALSE;
  char       name[64];

  PetscFunctionBegin;
  PetscCall(PetscObjectTypeCompareAny((PetscObject)B, &mpi, MATMPIAIJ, MATMPIPELLR, MATMPIPELLRCUDA, ""));
  PetscCall(PellrIsOurs(B, &ours));
#if !defined(PETSC_HAVE_CUDA)
  PetscCheck(!cuda, PetscObjectComm((PetscObject)B), PETSC_ERR_SUP, "PETSc was built without CUDA: use MATPELLR");
#endif
  if (!ours) {
    PetscBool isaij;
    PetscCall(PetscObjectTypeCompareAny((PetscObject)B, &isaij, MATSEQAIJ, MATMPIAIJ, ""));
    PetscCheck(isaij, PetscObjectComm((PetscObject)B), PETSC_ERR_SUP, "Cannot turn a %s matrix into PELLR in place", ((PetscObject)B)->type_name);
    PetscCall(PetscNew(&p));
    B->spptr              = p;
    p->owner              = B;
    PetscCall(PellrKeptForget(B)); /* a new matrix (MatSetType()): none of the settings of the data it had */
    p->format             = MAT_PELLR_FORMAT_AUTO; /* read here too: the conversion builds before MatSetFromOptions() */
    PetscCall(PetscOptionsGetEnum(((PetscObject)B)->options, ((PetscObject)B)->prefix, "-mat_pellr_format", MatPELLRFormats, (PetscEnum *)&p->format, NULL));
    p->tmode              = MAT_PELLR_TRANSPOSE_EXPLICIT;
    p->build              = MAT_PELLR_BUILD_DEVICE; /* read here too: the conversion builds before MatSetFromOptions() */
    PetscCall(PetscOptionsGetEnum(((PetscObject)B)->options, ((PetscObject)B)->prefix, "-mat_pellr_build", MatPELLRBuilds, (PetscEnum *)&p->build, NULL));
    p->long_row_length    = 256;
    p->expected_products  = PELLR_PRED_DEFAULT_PRODUCTS; /* read here too (the conversion predicts before MatSetFromOptions()) */
    PetscCall(PetscOptionsGetReal(((PetscObject)B)->options, ((PetscObject)B)->prefix, "-mat_pellr_expected_products", &p->expected_products, NULL));
    PetscCheck(p->expected_products > 0, PetscObjectComm((PetscObject)B), PETSC_ERR_ARG_OUTOFRANGE, "-mat_pellr_expected_products must be positive, not %g", (double)p->expected_products);
    PetscCall(PetscOptionsGetString(((PetscObject)B)->options, ((PetscObject)B)->prefix, "-mat_pellr_model", p->model, sizeof(p->model), NULL));
    /* on by default since session 38: the warp kernels gave the host's features field by field on every shared and
       generated test block, in 0.11-2.2% of a PELLR conversion (median 0.93%) on the 15 large benchmark matrices on
       the H200, 1.2-17 times less than the host's pass */
    p->predict_device = PETSC_TRUE; /* read here too (the conversion predicts before MatSetFromOptions()) */
    PetscCall(PetscOptionsGetBool(((PetscObject)B)->options, ((PetscObject)B)->prefix, "-mat_pellr_predict_device", &p->predict_device, NULL));
    p->max_memory_ratio = PELLR_DEFAULT_MAX_MEMORY_RATIO; /* read here too (the conversion predicts before MatSetFromOptions()) */
    PetscCall(PetscOptionsGetReal(((PetscObject)B)->options, ((PetscObject)B)->prefix, "-mat_pellr_max_memory_ratio", &p->max_memory_ratio, NULL));
    PetscCheck(p->max_memory_ratio >= 1, PetscObjectComm((PetscObject)B), PETSC_ERR_ARG_OUTOFRANGE, "-mat_pellr_max_memory_ratio must be >= 1, not %g", (double)p->max_memory_ratio);
    p->mpi                = mpi;
    p->assemblyend        = B->ops->assemblyend;
    p->destroy            = B->ops->destroy;
    p->duplicate          = B->ops->duplicate;
    p->mult               = B->ops->mult;
    p->multadd            = B->ops->multadd;
    p->multtranspose      = B->ops->multtranspose;
    p->multtransposeadd   = B->ops->multtransposeadd;
    p->getdiagonal        = B->ops->getdiagonal;
    p->view               = B->ops->view;
    p->setfromoptions     = B->ops->setfromoptions;
    p->creategraph        = B->ops->creategraph;
    p->productsetfromoptions = B->ops->productsetfromoptions;
    p->transpose             = B->ops->transpose;
    p->lufactor              = B->ops->lufactor;
    p->shift                 = B->ops->shift;
    B->ops->assemblyend      = MatAssemblyEnd_PELLR;
    B->ops->destroy          = MatDestroy_PELLR;
    B->ops->duplicate        = MatDuplicate_PELLR;
    B->ops->mult             = MatMult_PELLR;
    B->ops->multadd          = MatMultAdd_PELLR;
    B->ops->multtranspose    = MatMultTranspose_PELLR;
    B->ops->multtransposeadd = MatMultTransposeAdd_PELLR;
    B->ops->getdiagonal      = MatGetDiagonal_PELLR;
    B->ops->view             = MatView_PELLR;
    B->ops->setfromoptions   = MatSetFromOptions_PELLR;
    if (p->creategraph) B->ops->creategraph = MatCreateGraph_PELLR;
    if (p->productsetfromoptions) B->ops->productsetfromoptions = MatProductSetFromOptions_PELLR;
    if (p->transpose) B->ops->transpose = mpi ? MatTranspose_MPIPELLR : MatTranspose_SeqPELLR;
    if (!mpi && p->lufactor) B->ops->lufactor = MatLUFactor_SeqPELLR;
    if (p->shift) B->ops->shift = MatShift_PELLR;
    PetscCall(PetscObjectQueryFunction((PetscObject)B, "MatRetrieveValues_C", &p->retrievevalues));
    if (mpi) PetscCall(PetscObjectQueryFunction((PetscObject)B, "MatSetPreallocationCOO_C", &p->setpreallocationcoo));
    PetscCall(PellrCompose(B, PETSC_TRUE, PETSC_FALSE));
  }
  PetscCall(PellrGetData(B, &p));
  if (ours && p->cuda != cuda) {
    /* the ghost vector's type follows the matrix's (seqcuda for pellrcuda): recreate it with the scatter at the next product */
    PetscCall(VecScatterDestroy(&p->sct));
    PetscCall(VecDestroy(&p->lvec));
  }
  p->cuda = cuda;
#if defined(PETSC_HAVE_DEVICE)
  /* MatCreate() binds every matrix to the CPU when PETSc has a device; a GPU type unbinds itself (as aijcusparse does) */
  B->boundtocpu = cuda ? PETSC_FALSE : PETSC_TRUE;
#endif
  PetscCall(PetscSNPrintf(name, sizeof(name), "%s%s", mpi ? "mpipellr" : "seqpellr", cuda ? "cuda" : ""));
  PetscCall(PetscObjectChangeTypeName((PetscObject)B, name));
  PetscCall(PetscFree(B->defaultvectype));
  PetscCall(PetscStrallocpy(cuda ? VECCUDA : VECSTANDARD, &B->defaultvectype));
  if (!cuda) {
    PetscCall(PellrBlockFree(&p->d)); /* drop device copies; rebuilt on the host at the next use */
    PetscCall(PellrBlockFree(&p->o));
  }
  if (B->assembled) PetscCall(PellrBuildNow(B)); /* MatConvert() increases the state once after us */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* any AIJ-like matrix (aij, aijcusparse, pellr, pellrcuda) to pellr or pellrcuda */
static PetscErrorCode MatConvert_AIJ_PELLR(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  Mat       B;
  PetscBool cuda, mpi, plain, ours;

  PetscFunctionBegin;
  PetscCall(PetscStrendswith(type, "cuda", &cuda));
  if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(MatCopy(A, *newmat, DIFFERENT_NONZERO_PATTERN));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscStrbeginswith(((PetscObject)A)->type_name, "mpi", &mpi));
  PetscCall(PetscObjectTypeCompareAny((PetscObject)A, &plain, MATSEQAIJ, MATMPIAIJ, ""));
  PetscCall(PellrIsOurs(A, &ours));
  if (plain || ours) {
    if (reuse == MAT_INITIAL_MATRIX) PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &B));
    else B = A;
  } else {
    B = A; /* e.g. aijcusparse: to plain AIJ first */
    PetscCall(MatConvert(A, mpi ? MATMPIAIJ : MATSEQAIJ, reuse, &B));
  }
  PetscCall(PellrConvertInPlace(B, cuda));
  *newmat = B;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* pellr[cuda] to aij (in place: restore the parent's operations) or to another AIJ type through aij */
static PetscErrorCode MatConvert_PELLR_AIJ(Mat A, MatType type, MatReuse reuse, Mat *newmat)
{
  Mat        B;
  Mat_PELLR *p;
  PetscBool  mpi, plain;

  PetscFunctionBegin;
  if (reuse == MAT_REUSE_MATRIX) {
    PetscCall(MatCopy(A, *newmat, DIFFERENT_NONZERO_PATTERN));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (reuse == MAT_INITIAL_MATRIX) PetscCall(MatDuplicate(A, MAT_COPY_VALUES, &B));
  else B = A;
  PetscCall(PellrGetData(B, &p));
  PetscCall(PellrKeptForget(B));
  mpi = p->mpi;
  PetscCall(PellrBlockFree(&p->d));
  PetscCall(PellrBlockFree(&p->o));
  PetscCall(VecScatterDestroy(&p->sct));
  PetscCall(VecDestroy(&p->lvec));
  B->ops->assemblyend      = p->assemblyend;
  B->ops->destroy          = p->destroy;
  B->ops->duplicate        = p->duplicate;
  B->ops->mult             = p->mult;
  B->ops->multadd          = p->multadd;
  B->ops->multtranspose    = p->multtranspose;
  B->ops->multtransposeadd = p->multtransposeadd;
  B->ops->getdiagonal      = p->getdiagonal;
  B->ops->view             = p->view;
  B->ops->setfromoptions   = p->setfromoptions;
  B->ops->creategraph      = p->creategraph;
  B->ops->productsetfromoptions = p->productsetfromoptions;
  B->ops->transpose             = p->transpose;
  B->ops->lufactor              = p->lufactor;
  B->ops->shift                 = p->shift;
  PetscCall(PellrCompose(B, PETSC_FALSE, PETSC_TRUE));
  PetscCall(PetscFree(B->spptr));
  PetscCall(PetscObjectChangeTypeName((PetscObject)B, mpi ? MATMPIAIJ : MATSEQAIJ));
  PetscCall(PetscFree(B->defaultvectype));
  PetscCall(PetscStrallocpy(VECSTANDARD, &B->defaultvectype));
#if defined(PETSC_HAVE_DEVICE)
  /* a plain AIJ as MatCreate() makes it: bound to the CPU, values on the host (a pellrcuda matrix was unbound) */
  B->offloadmask = PETSC_OFFLOAD_CPU;
  B->boundtocpu  = PETSC_TRUE;
#endif
  PetscCall(PetscObjectTypeCompareAny((PetscObject)B, &plain, type, ""));
  if (!plain) {
    PetscBool isaij;
    PetscCall(PetscStrcmp(type, MATAIJ, &isaij));
    if (!isaij) PetscCall(MatConvert(B, type, MAT_INPLACE_MATRIX, &B));
  }
  if (reuse == MAT_INPLACE_MATRIX && B != A) PetscCall(MatHeaderReplace(A, &B));
  else *newmat = B;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------------------------------ constructors */

/*MC
   MATPELLR - MATPELLR = "pellr" - An AIJ matrix (`MATSEQAIJ` on one process, `MATMPIAIJ` otherwise) whose products
   use a PELLR copy of its sequential blocks (diagonal and off-diagonal blocks in parallel).

   PELLR (Wang & Gu 2020, a permuted ELLPACK-R): the rows are stably sorted by decreasing length, stored in slices of
   32 sorted rows whose width is the slice's longest row, values and 32-bit column indices column-major in the slice,
   with per-row lengths; rows of at least -mat_pellr_long_row_length entries are stored apart, empty rows are
   skipped, and the product writes y[perm[k]] directly. The copy is built at final assembly and kept up to date
   lazily: a values-only change is refreshed by one gather through a stored map (no re-sort), a change of the
   nonzero pattern rebuilds it, and nothing is redone when nothing changed. Everything else (MatSetValues(),
   preallocation, MatZeroRows(), MatDuplicate(), MatConvert(), factorizations, ...) is AIJ's.

   Options Database Keys:
+  -mat_type pellr                        - sets the matrix type (also -dm_mat_type pellr)
.  -mat_pellr_format <auto,pellr,sell,ellr,csr> - storage of the blocks for the forward products (`MatPELLRSetFormat()`): PELLR, sliced ELLR in row order (slices of 32 rows of their own width), ELLR (all rows padded to the longest; refused when that is excessive), or the CSR itself (cuSPARSE SpMV on the GPU, the SeqAIJ product on the host); auto: pellr on the host, the format predictor's choice for `MATPELLRCUDA`
.  -mat_pellr_transpose <explicit,atomic> - transpose products with a cached explicit PELLR transpose or by scattering rows (whatever the format)
.  -mat_pellr_long_row_length <256>       - rows at least this long form the long-row segment
.  -mat_pellr_diagonal_slices <auto,on,off> - (`MATPELLR`, process-wide, default off) the host layouts' diagonal slices, by the GPU's rule (below): their product reads x[row + offset] (consecutively for sell and ellr: vector loads) and no column index; off by default (not faster on the CPU it was measured on)
.  -mat_pellr_build <device,host>         - (`MATPELLRCUDA`) build the layout on the GPU from the CSR (default), or on the host and copy it
.  -mat_pellr_cuda_overlap <bool>         - (`MATPELLRCUDA`, process-wide, default true) a product's kernels too small to fill the GPU (wide slice classes, long rows) run on side streams, overlapping the others
.  -mat_pellr_cuda_overlap_min_nnz <n>    - (`MATPELLRCUDA`, process-wide) only products of at least n entries overlap (default 1048576)
.  -mat_pellr_cuda_csr_kernel <auto,cusparse,vector,stream> - (`MATPELLRCUDA`, process-wide, default auto) the GPU product of blocks stored as csr: our vector kernel (a group of threads a row) or cuSPARSE's; auto takes ours on rows of regular length (16 or more entries a row on average, none over 4 times that), where it was 4-22% faster on the H200; stream (opt-in) computes a thread block's products through shared memory (rows of any length up to the block's shared memory), 1.1-1.2 times faster than cuSPARSE on short rows on the H200
.  -mat_pellr_cuda_csr_threads <n>        - (`MATPELLRCUDA`, process-wide) threads a row of our CSR kernel, 2, 4, 8, 16 or 32 (default 0: a power of 2 near a quarter of the average row length, 4 to 32)
.  -mat_pellr_cuda_csr_stream_entries <n> - (`MATPELLRCUDA`, process-wide) `-mat_pellr_cuda_csr_kernel stream`: entries a thread block, 256 to 4096 (default 2048)
.  -mat_pellr_cuda_compact_columns <auto,on,off> - (`MATPELLRCUDA`, process-wide, default auto) the GPU layout stores the column indices of a slice as 16-bit offsets from the slice's smallest column when it spans at most 65536 columns (10 instead of 12 bytes a slot): `on` for every such slice, `auto` only for blocks of at least 2^24 entries, 16 a non-empty row on average, with 98% of the slices fitting (where it was measured faster on the H200: 27-point meshes), `off` never
.  -mat_pellr_cuda_diagonal_slices <auto,on,off> - (`MATPELLRCUDA`, process-wide, default auto) a GPU slice whose 32 rows are all as long as the slice is wide and whose entries j each lie on one diagonal (column - row the same in the 32 rows: stencil matrices, DMDA) is multiplied without reading its column indices or row lengths (8 instead of 12 bytes a slot, x read consecutively); `auto` when at least 1/8 of the slice slots are in such slices, `on` whenever one is, `off` never
.  -mat_pellr_cuda_reuse_block <bool>     - (`MATPELLRCUDA`, process-wide, default true) a GPU rebuild of a block (new nonzero pattern, another format, an option that remakes the layout) reuses the device memory of the layout it replaces when the new layout fits in it with at most 1/32 unused, instead of allocating again
-  -mat_view ::ascii_info                 - shows the layout, the warp iterations of ELL/ELLR/PELLR and the degree of perturbation

   Level: beginner

.seealso: `MATPELLRCUDA`, `MATAIJ`, `MATSELL`, `MatPELLRGetInfo()`, `MatPELLRSetFormat()`, `MatPELLRFormat`, `MatPELLRWarpIterations()`, `MatPELLRPerturbation()`
M*/

/*MC
   MATPELLRCUDA - MATPELLRCUDA = "pellrcuda" - `MATPELLR` whose PELLR copy lives on the GPU: products with vectors of
   type `VECCUDA` (the default vector type of this matrix) run there, without copying the vectors to the host.
   Long rows use a thread block per row, wide slices several threads per row, the others a thread per row; the
   transpose products use a lazily built, cached explicit transpose (or atomics with -mat_pellr_transpose atomic).

   Options Database Keys:
+  -mat_type pellrcuda                          - sets the matrix type (also -dm_mat_type pellrcuda, with -dm_vec_type cuda)
.  -mat_pellr_format <auto,pellr,sell,ellr,csr> - storage of the blocks on the GPU for the forward products (csr: cuSPARSE CSR SpMV, ALG1); auto (default): the
                                                 storage-format predictor estimates the time of one product in each format (plus its conversion amortized over the expected
                                                 products) from the row lengths of each block and keeps the fastest
.  -mat_pellr_expected_products <100>           - auto: products the conversion cost is amortized over
.  -mat_pellr_max_memory_ratio <1.15>           - auto: only formats whose device footprint is at most this times the CSR's are candidates (ELLR/SELL pad rows)
.  -mat_pellr_predict_threads <n>               - auto: host threads of the predictor's pass over the row pointers of a block of 2^20 rows or more (process-wide; the features do not depend on it; default the process's cores shared among the node's ranks, at most 8)
.  -mat_pellr_predict_device <true>             - auto: compute the features of a block built on the GPU (2^13 rows or more, or 2^21 entries) on the GPU, from the copy of the
                                                 CSR the build makes anyway (the build takes it), and those of a CSR already on the GPU with its column access; false: on
                                                 the host (a CSR on the GPU without column access). The same features as the host's
.  -mat_pellr_model <file>                      - auto: calibration file written by bench/bench_calibrate (`MatPELLRCalibrationFit()`); default the calibrations
                                                 built into the library (NVIDIA H200, NVIDIA H100 80GB HBM3): the one whose GPU and SM count are the device's,
                                                 else the analytic model (-info and -mat_view say which, and why)
.  -mat_view ::ascii_info                       - with auto also the features of each block, every candidate's predicted conversion/product/rearrangement time and the choice
-  see `MATPELLR`

   Level: beginner

.seealso: `MATPELLR`, `MATAIJCUSPARSE`, `MATSELLCUDA`, `MatPELLRSetFormat()`, `MatPELLRCalibrationCreate()`
M*/

PETSC_EXTERN PetscErrorCode MatCreate_SeqPELLR(Mat A)
{
  PetscFunctionBegin;
  PetscCall(MatSetType(A, MATSEQAIJ));
  PetscCall(PellrConvertInPlace(A, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_EXTERN PetscErrorCode MatCreate_MPIPELLR(Mat A)
{
  PetscFunctionBegin;
  PetscCall(MatSetType(A, MATMPIAIJ));
  PetscCall(PellrConvertInPlace(A, PETSC_FALSE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(PETSC_HAVE_CUDA)
PETSC_EXTERN PetscErrorCode MatCreate_SeqPELLRCUDA(Mat A)
{
  PetscFunctionBegin;
  PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA));
  PetscCall(MatSetType(A, MATSEQAIJ));
  PetscCall(PellrConvertInPlace(A, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_EXTERN PetscErrorCode MatCreate_MPIPELLRCUDA(Mat A)
{
  PetscFunctionBegin;
  PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA));
  PetscCall(MatSetType(A, MATMPIAIJ));
  PetscCall(PellrConvertInPlace(A, PETSC_TRUE));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/*@
  MatPELLRGetInfo - Gets the PELLR statistics and the lazy-update counters of a `MATPELLR` or `MATPELLRCUDA` matrix

  Not Collective

  Input Parameters:
+ A       - the matrix
- offdiag - `PETSC_TRUE` for the off-diagonal block of an MPI matrix, else the (local diagonal) block

  Output Parameter:
. info - the statistics of the block (built if needed) and its counters

  Level: intermediate

.seealso: `MATPELLR`, `MatPELLRWarpIterations()`, `MatPELLRPerturbation()`
@*/
PetscErrorCode MatPELLRGetInfo(Mat A, PetscBool offdiag, MatPELLRInfo *info)
{
  Mat_PELLR         *p;
  PellrBlock        *b;
  const PellrLayout *L;
  PetscBool          ours, dev;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscAssertPointer(info, 3);
  PetscCall(PellrIsOurs(A, &ours));
  PetscCheck(ours, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "Not a PELLR matrix but %s", ((PetscObject)A)->type_name);
  PetscCheck(A->assembled, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONGSTATE, "Matrix is not assembled");
  PetscCall(PellrGetData(A, &p));
  PetscCheck(!offdiag || p->mpi, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "A sequential matrix has no off-diagonal block");
  b = offdiag ? &p->o : &p->d;
  PetscCall(PellrReportDevice(A, p, &dev));
  if (!(dev ? b->dbuilt : b->built)) { /* e.g. after MatDuplicate(), built at first use */
    if (p->mpi) {
      Mat Ad, Ao;
      PetscCall(PellrMPIEnsure(A, p, PETSC_FALSE, dev, &Ad, &Ao));
    } else {
      PetscObjectState cur;
      PetscCall(PellrSeqState(A, p, &cur));
      PetscCall(PellrBlockEnsure(A, p, b, A, cur, PETSC_FALSE, dev));
    }
  }
  L = dev ? &b->DI : &b->L;
  info->rows                = L->m;
  info->nonempty_rows       = L->nonempty;
  info->long_rows           = L->nlong;
  info->slices              = L->nslices;
  info->max_row_length      = L->maxlen;
  info->nonzeros            = L->nnz;
  info->slots               = L->nslots;
  info->iterations_ell      = L->it_ell;
  info->iterations_ellr     = L->it_ellr;
  info->iterations_pellr    = L->it_pellr;
#if defined(PETSC_HAVE_CUDA)
  if (info->iterations_pellr < 0 && dev && b->dL) PetscCall(PellrDeviceWarpIterationsPELLR(b->dL, &info->iterations_pellr)); /* a GPU build in another format */
#endif
  info->perturbation        = L->perturbation;
  info->builds              = b->nbuild;
  info->refreshes           = b->nrefresh;
  info->transpose_builds    = b->ntbuild;
  info->transpose_refreshes = b->ntrefresh;
  info->uploads             = b->nupload;
  info->device_refreshes    = b->ndrefresh;
  info->format              = L->format;
  info->compact_slices      = -1;
  info->diagonal_slices     = -1;
#if defined(PETSC_HAVE_CUDA)
  if (p->cuda && b->dL) PetscCall(PellrDeviceGetCompactSlices(b->dL, &info->compact_slices)); /* also a host-built layout's copy */
  if (p->cuda && b->dL) PetscCall(PellrDeviceGetDiagonalSliceCount(b->dL, &info->diagonal_slices, NULL));
#endif
  if (!p->cuda && b->L.dptr) info->diagonal_slices = b->L.ndiag; /* the host type's own */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatPELLRSetFormat - Sets the storage format of the blocks of a `MATPELLR` or `MATPELLRCUDA` matrix used by its forward products

  Logically Collective

  Input Parameters:
+ A   - the matrix
- fmt - `MAT_PELLR_FORMAT_AUTO` (the default), `MAT_PELLR_FORMAT_PELLR`, `MAT_PELLR_FORMAT_SELL`, `MAT_PELLR_FORMAT_ELLR` or `MAT_PELLR_FORMAT_CSR`

  Options Database Key:
. -mat_pellr_format <auto,pellr,sell,ellr,csr> - the format

  Level: intermediate

  Notes:
  Every sequential block (the matrix on one process, the diagonal and off-diagonal blocks in parallel) is stored in the
  format; a change drops the copies, which are rebuilt at the next use. Transpose products always use the PELLR
  explicit transpose (or the atomic path of `-mat_pellr_transpose atomic`; on the host a CSR block then uses the
  `MATSEQAIJ` product, on the GPU the explicit transpose).

  `MAT_PELLR_FORMAT_ELLR` pads every row to the longest one: the build fails with `PETSC_ERR_SUP` when that needs
  more than 8 nnz + 32 m value slots (or 2^31 - 1) in a block (in parallel on the processes whose block is refused).
  `MatDuplicate()` keeps the format.

  With `MAT_PELLR_FORMAT_AUTO` a `MATPELLRCUDA` block is stored in the format the storage-format predictor expects to be
  fastest (`-mat_pellr_expected_products`, `-mat_pellr_model`), a `MATPELLR` block in PELLR. The call does nothing for other
  matrix types.

.seealso: `MATPELLR`, `MatPELLRGetFormat()`, `MatPELLRFormat`
@*/
PetscErrorCode MatPELLRSetFormat(Mat A, MatPELLRFormat fmt)
{
  PetscBool ours;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscValidLogicalCollectiveEnum(A, fmt, 2);
  PetscCheck(fmt >= MAT_PELLR_FORMAT_AUTO && fmt <= MAT_PELLR_FORMAT_CSR, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_OUTOFRANGE, "Unknown MatPELLRFormat %d", (int)fmt);
  PetscCall(PellrIsOurs(A, &ours));
  if (!ours) PetscFunctionReturn(PETSC_SUCCESS);
  {
    Mat_PELLR *p;

    PetscCall(PellrGetData(A, &p));
    if (p->format != fmt) {
      p->format = fmt;
      PetscCall(PellrBlockDestroy(&p->d)); /* rebuilt at the next use */
      PetscCall(PellrBlockDestroy(&p->o));
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@
  MatPELLRGetFormat - Gets the requested storage format of a `MATPELLR` or `MATPELLRCUDA` matrix and the one its local
  diagonal block (the whole matrix on one process) is stored in

  Not Collective

  Input Parameter:
. A - the matrix (assembled if `used` is requested)

  Output Parameters:
+ requested - the format set with `MatPELLRSetFormat()` or `-mat_pellr_format` (may be `NULL`)
- used      - the format of the local diagonal block, after resolving `MAT_PELLR_FORMAT_AUTO` (may be `NULL`); the
              block is built if it is not

  Level: intermediate

.seealso: `MATPELLR`, `MatPELLRSetFormat()`, `MatPELLRGetInfo()`
@*/
PetscErrorCode MatPELLRGetFormat(Mat A, MatPELLRFormat *requested, MatPELLRFormat *used)
{
  Mat_PELLR *p;
  PetscBool  ours;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscCall(PellrIsOurs(A, &ours));
  PetscCheck(ours, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "Not a PELLR matrix but %s", ((PetscObject)A)->type_name);
  PetscCall(PellrGetData(A, &p));
  if (requested) *requested = p->format;
  if (used) {
    MatPELLRInfo info;
    PetscCall(MatPELLRGetInfo(A, PETSC_FALSE, &info)); /* builds the block if needed */
    *used = p->d.fset ? p->d.fmt : info.format;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(PETSC_HAVE_CUDA)
/* H (host build) against G (download of the GPU build) with the statistics S of the GPU build */
static PetscErrorCode PellrLayoutCompare(Mat aij, const char *what, const PellrLayout *H, const PellrLayout *G, const PellrLayout *S, PetscBool *same)
{
  PetscBool   eq = PETSC_TRUE;
  const char *bad = NULL;

  PetscFunctionBegin;
  if (H->format != G->format || H->format != S->format) bad = "format";
  if (!bad && (H->m != G->m || H->n != G->n || H->nnz != G->nnz || H->nlong != G->nlong || H->nblock != G->nblock || H->nrows != G->nrows || H->nslices != G->nslices || H->nslots != G->nslots || H->nonempty != S->nonempty)) bad = "sizes";
  for (int c = 0; !bad && c < 7; c++)
    if (H->tclass[c] != G->tclass[c]) bad = "thread classes";
  if (!bad && (H->maxlen != S->maxlen || H->it_ell != S->it_ell || H->it_ellr != S->it_ellr || H->it_pellr != S->it_pellr || H->perturbation != S->perturbation)) bad = "statistics";
  if (!bad && H->m > 0) {
    PetscCall(PetscArraycmp(H->perm, G->perm, H->m, &eq));
    if (!eq) bad = "permutation";
    if (!bad && (!H->sorder) != (!G->sorder)) bad = "slice order";
    if (!bad && H->sorder) PetscCall(PetscArraycmp(H->sorder, G->sorder, H->nslices, &eq));
    if (!bad && !eq) bad = "slice order";
    if (!bad) PetscCall(PetscArraycmp(H->longptr, G->longptr, H->nlong + 1, &eq));
    if (!bad && !eq) bad = "long-row pointers";
    if (!bad) PetscCall(PetscArraycmp(H->sliceptr, G->sliceptr, H->nslices + 1, &eq));
    if (!bad && !eq) bad = "slice pointers";
    if (!bad) PetscCall(PetscArraycmp(H->rlen, G->rlen, PELLR_SLICE * H->nslices, &eq));
    if (!bad && !eq) bad = "row lengths";
    if (!bad) PetscCall(PetscArraycmp(H->col, G->col, H->nslots, &eq));
    if (!bad && !eq) bad = "column indices";
    if (!bad && G->map) PetscCall(PetscArraycmp(H->map, G->map, H->nslots, &eq)); /* only the transpose keeps a map on the GPU */
    if (!bad && !eq) bad = "value map";
    if (!bad) PetscCall(PetscArraycmp(H->val, G->val, H->nslots, &eq));
    if (!bad && !eq) bad = "values";
  }
  if (bad) {
    *same = PETSC_FALSE;
    PetscCall(PetscInfo(aij, "PELLR %s: the GPU build differs from the host build in its %s\n", what, bad));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/*@
  MatPELLRCompareBuilds - Builds the PELLR layout of the local block(s) of a `MATPELLRCUDA` (or `MATPELLR`) matrix, and
  of their explicit transposes, both on the host and on the GPU, and compares them entry by entry

  Collective

  Input Parameter:
. A - the assembled matrix

  Output Parameter:
. same - `PETSC_TRUE` if the two builds are identical (permutation, pointers, row lengths, columns, value maps, values
         and statistics) on every process; with `-info` the first difference is reported

  Level: developer

  Note:
  This checks `-mat_pellr_build device` (the default of `MATPELLRCUDA`) against the host build; the matrix itself is not changed.

.seealso: `MATPELLRCUDA`, `MatPELLRGetInfo()`
@*/
PetscErrorCode MatPELLRCompareBuilds(Mat A, PetscBool *same)
{
  PetscBool ours;

  PetscFunctionBegin;
  PetscValidHeaderSpecific(A, MAT_CLASSID, 1);
  PetscAssertPointer(same, 2);
  PetscCall(PellrIsOurs(A, &ours));
  PetscCheck(ours, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONG, "Not a PELLR matrix but %s", ((PetscObject)A)->type_name);
  PetscCheck(A->assembled, PetscObjectComm((PetscObject)A), PETSC_ERR_ARG_WRONGSTATE, "Matrix is not assembled");
#if !defined(PETSC_HAVE_CUDA)
  SETERRQ(PetscObjectComm((PetscObject)A), PETSC_ERR_SUP, "PETSc was built without CUDA: there is no GPU build");
#else
  {
    Mat_PELLR *p;
    Mat        blk[2];
    PetscInt   nb = 1;
    PetscBool  loc = PETSC_TRUE;

    PetscCall(PellrGetData(A, &p));
    PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA));
    if (p->mpi) {
      const PetscInt *garray;
      PetscCall(PellrMPIGetSeqAIJ(A, &blk[0], &blk[1], &garray));
      nb = 2;
    } else blk[0] = A;
    for (PetscInt k = 0; k < nb; k++) {
      const PetscInt    *ai, *aj;
      const PetscScalar *aa, *dv;
      PetscInt           m, n;
      PellrLayout        H, HT, G, GT, S, ST;
      PellrDevice        D = NULL, DT = NULL;
      MatPELLRFormat     fmt;

      PetscCall(PetscMemzero(&H, sizeof(H)));
      PetscCall(PetscMemzero(&HT, sizeof(HT)));
      PetscCall(PetscMemzero(&G, sizeof(G)));
      PetscCall(PetscMemzero(&GT, sizeof(GT)));
      PetscCall(MatGetSize(blk[k], &m, &n));
      PetscCall(MatSeqAIJGetCSRAndMemType(blk[k], &ai, &aj, NULL, NULL));
      PetscCall(MatSeqAIJGetArrayRead(blk[k], &aa));
      PetscCall(PellrBlockFormat(A, p, k ? &p->o : &p->d, blk[k], PETSC_FALSE)); /* the format the block is (or will be) stored in: chosen once per pattern */
      fmt = (k ? &p->o : &p->d)->fmt;
      PetscCall(PellrLayoutBuild(&H, fmt, m, n, ai, aj, NULL, p->long_row_length));
      PetscCall(PellrLayoutSetValues(&H, aa));
      PetscCall(PellrLayoutBuildTranspose(&HT, m, n, ai, aj, p->long_row_length));
      PetscCall(PellrLayoutSetValues(&HT, aa));
      PetscCall(PellrDeviceBuild(m, n, ai, aj, PETSC_MEMTYPE_HOST, p->long_row_length, fmt, PETSC_FALSE, NULL, NULL, &S, &D));
      PetscCall(PellrDeviceUploadValues(D, aa, PETSC_MEMTYPE_HOST, &dv));
      PetscCall(PellrDeviceSetValues(D, dv));
      PetscCall(PellrDeviceBuild(m, n, ai, aj, PETSC_MEMTYPE_HOST, p->long_row_length, MAT_PELLR_FORMAT_PELLR, PETSC_TRUE, NULL, NULL, &ST, &DT));
      PetscCall(PellrDeviceSetValues(DT, dv));
      PetscCall(PellrDeviceReleaseValues(D));
      PetscCall(PellrDeviceDownload(D, &G));
      PetscCall(PellrDeviceDownload(DT, &GT));
      if (S.it_pellr < 0) PetscCall(PellrDeviceWarpIterationsPELLR(D, &S.it_pellr)); /* not made by a GPU build in another format */
      if (fmt == MAT_PELLR_FORMAT_CSR) { /* no layout to compare: the statistics, and the CSR copy itself holds the CSR */
        PetscBool eq = PETSC_TRUE;
        if (G.m != H.m || G.nnz != H.nnz || S.format != fmt || S.maxlen != H.maxlen || S.nonempty != H.nonempty || S.it_ell != H.it_ell || S.it_ellr != H.it_ellr || S.it_pellr != H.it_pellr || S.perturbation != H.perturbation) eq = PETSC_FALSE;
        if (eq && H.nnz) PetscCall(PetscArraycmp(G.val, aa, H.nnz, &eq));
        if (!eq) {
          loc = PETSC_FALSE;
          PetscCall(PetscInfo(blk[k], "PELLR %s: the GPU CSR copy differs from the block\n", k ? "off-diagonal block" : "block"));
        }
      } else PetscCall(PellrLayoutCompare(blk[k], k ? "off-diagonal block" : "block", &H, &G, &S, &loc));
      PetscCall(MatSeqAIJRestoreArrayRead(blk[k], &aa));
      PetscCall(PellrLayoutCompare(blk[k], k ? "off-diagonal block transpose" : "transpose", &HT, &GT, &ST, &loc));
      PetscCall(PellrLayoutDestroy(&H));
      PetscCall(PellrLayoutDestroy(&HT));
      PetscCall(PellrLayoutDestroy(&G));
      PetscCall(PellrLayoutDestroy(&GT));
      PetscCall(PellrDeviceDestroy(&D));
      PetscCall(PellrDeviceDestroy(&DT));
    }
    PetscCallMPI(MPIU_Allreduce(&loc, same, 1, MPIU_BOOL, MPI_LAND, PetscObjectComm((PetscObject)A)));
  }
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatRegister_PELLR_Private(void)
{
  PetscClassId  id = MAT_CLASSID;
  MatFactorType ft[4] = {MAT_FACTOR_LU, MAT_FACTOR_CHOLESKY, MAT_FACTOR_ILU, MAT_FACTOR_ICC};

  PetscFunctionBegin;
  PetscCall(MatRegister(MATSEQPELLR, MatCreate_SeqPELLR));
  PetscCall(MatRegister(MATMPIPELLR, MatCreate_MPIPELLR));
  PetscCall(MatRegisterRootName(MATPELLR, MATSEQPELLR, MATMPIPELLR));
  /* the seqpellr handler also serves seqpellrcuda (MatSolverTypeGet() matches type-name prefixes) */
  for (PetscInt i = 0; i < 4; i++) PetscCall(MatSolverTypeRegister(MATSOLVERPETSC, MATSEQPELLR, ft[i], MatGetFactor_PELLR_Petsc));
#if defined(PETSC_HAVE_CUDA)
  PetscCall(MatRegister(MATSEQPELLRCUDA, MatCreate_SeqPELLRCUDA));
  PetscCall(MatRegister(MATMPIPELLRCUDA, MatCreate_MPIPELLRCUDA));
  PetscCall(MatRegisterRootName(MATPELLRCUDA, MATSEQPELLRCUDA, MATMPIPELLRCUDA));
#endif
  PetscCall(PetscLogEventRegister("PELLRBuild", id, &MAT_PELLR_Build));
  PetscCall(PetscLogEventRegister("PELLRRefresh", id, &MAT_PELLR_Refresh));
  PetscCall(PetscLogEventRegister("PELLRTransBuild", id, &MAT_PELLR_TransposeBuild));
  PetscCall(PetscLogEventRegister("PELLRCopyToGPU", id, &MAT_PELLR_CopyToGPU));
  PetscCall(PetscLogEventRegister("PELLRMult", id, &MAT_PELLR_Mult));
  PetscFunctionReturn(PETSC_SUCCESS);
}
