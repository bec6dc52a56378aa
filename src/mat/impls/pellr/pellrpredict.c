/*
  Storage-format predictor of MATPELLR / MATPELLRCUDA: features of the row lengths, the time model (calibrated or
  analytic), its strict file format, the NNLS fit and cross-validation. See pellrpredict.h and README.md
  ("Storage-format prediction").
*/
#include "pellrimpl.h"
#include "pellrpredict.h"
#include "pellrlocality.h"
#include "pellrpredict_default.h"
#include <sparsegpuimpl.h>
#include <petscdevice.h>
#include <errno.h>
#if defined(PETSC_HAVE_CUDA)
  #include <petscdevice_cuda.h>
#endif

PetscLogEvent MAT_PELLR_Predict;

const char *const PellrCandidateNames[] = {"csr", "ellr", "sell", "pellr", "PellrCandidate", "PELLR_CAND_", NULL};

PetscErrorCode PellrPredictRegister_Private(void)
{
  PetscFunctionBegin;
  PetscCall(PetscLogEventRegister("PELLRPredict", MAT_CLASSID, &MAT_PELLR_Predict));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------------------------------ features */

/* thread class of a slice of width w: 0 for 32 threads per row ... 5 for one (PellrThreadsPerRow()) */
static inline PetscInt PellrThreadClass(PetscInt w)
{
  PetscInt t = PellrThreadsPerRow(w), c = 0;
  while ((32 >> c) > t) c++;
  return c;
}

/* One pass over the row pointers of rows [r0, r1) (r0 a multiple of 32; r1 too unless it is m), adding to s (zeroed
   by the caller, its list of long rows s->big of cap entries): returns -1, or the row at or after which the row pointers
   decrease (a negative length, or more long rows than the nonzeros allow). Plain C: it runs on the threads. Why it is
   written this way: the counters stay in registers (the struct's fields would be reloaded after every store through
   cnt), equal lengths are counted as runs (a mesh has long runs, and incrementing one histogram entry row after row is
   a chain of dependent stores), and the aligned 4-, 8- and 32-row groups are loops of their own instead of index tests
   per row. */
static PetscInt PellrLengthSummaryRows(const PetscInt *rp, PetscInt r0, PetscInt r1, PetscInt cap, PellrLengthSummary *s)
{
  PetscInt64 q4 = 0, q8 = 0, pert = 0, ellr = 0, run = 0;
  PetscInt   nbig = 0, prev = r0 ? rp[r0] - rp[r0 - 1] : (r1 ? rp[1] - rp[0] : 0), cur = -1;

  for (PetscInt g = r0; g < r1; g += PELLR_SLICE) {
    const PetscInt k = (PetscInt)PetscMin((PetscInt64)r1 - g, PELLR_SLICE);
    PetscInt       len[PELLR_SLICE], gmax = 0, c, neg = 0;

    for (PetscInt r = 0; r < k; r++) { /* the group's lengths first: a loop the compiler vectorizes */
      len[r] = rp[g + r + 1] - rp[g + r];
      neg |= len[r];
    }
    for (PetscInt r = k; r < PELLR_SLICE; r++) len[r] = 0; /* a short last group: its 4- and 8-row maxima are those of its rows */
    if (neg < 0) {
      PetscInt r = 0;
      while (len[r] >= 0) r++;
      return g + r;
    }
    for (PetscInt o = 0; o < PELLR_SLICE; o += 8) { /* aligned 8-row groups of two aligned 4-row groups */
      PetscInt a4 = PetscMax(PetscMax(len[o], len[o + 1]), PetscMax(len[o + 2], len[o + 3]));
      PetscInt b4 = PetscMax(PetscMax(len[o + 4], len[o + 5]), PetscMax(len[o + 6], len[o + 7]));
      q4 += a4 + b4;
      q8 += PetscMax(a4, b4);
      gmax = PetscMax(gmax, PetscMax(a4, b4));
    }
    {
      PetscInt same = 1, d = PetscAbsInt(len[0] - prev);

      for (PetscInt r = 1; r < k; r++) d += PetscAbsInt(len[r] - len[r - 1]);
      for (PetscInt r = 0; r < k; r++) same &= (len[r] == cur);
      pert += d;
      prev = len[k - 1];
      if (same) run += k; /* the whole group continues the run (meshes: nearly every group) */
      else {              /* counted row by row (a run test would mispredict on rows of random lengths) */
        if (cur >= 0) s->cnt[cur] += run;
        for (PetscInt r = 0; r < k; r++) {
          const PetscInt l = len[r];

          if (l < PELLR_PRED_HCAP) s->cnt[l]++;
          else if (nbig < cap) s->big[nbig++] = l;
          else return g + r; /* with nonnegative lengths summing to nnz at most nnz / PELLR_PRED_HCAP rows are that long: more means corrupt row pointers */
        }
        cur = len[k - 1] < PELLR_PRED_HCAP ? len[k - 1] : -1; /* a run continuing into the next group: its rows so far are counted */
        run = 0;
      }
    }
    ellr += gmax;
    c = PellrThreadClass(gmax);
    s->gcls[c]++;
    s->gmax[c] = PetscMax(s->gmax[c], gmax);
  }
  if (cur >= 0) s->cnt[cur] += run;
  s->nbig = nbig;
  s->q4   = q4;
  s->q8   = q8;
  s->pert = pert;
  s->ellr = ellr;
  return -1;
}

/*
  The host pass is split among threads from PELLR_PRED_THREAD_ROWS rows on, at least PELLR_PRED_THREAD_ROWS / 4 rows a
  thread (each a range of whole 32-row groups with a summary of its own, added up: the same summary whatever the number
  of threads). Why: one thread takes about 0.8 ms per 2^20 rows (2 to 2.5 cycles a row), a tenth of the GPU conversion
  of 2^20 rows of 4, where the target is 1%; starting a thread costs about 20 us, so only blocks of 2^20 rows or more
  are split. -mat_pellr_predict_threads (process-wide) sets the threads; by default the process's cores (shared among
  the node's MPI ranks), at most PELLR_PRED_MAX_THREADS.
*/
#define PELLR_PRED_THREAD_ROWS (1 << 20)
#define PELLR_PRED_MAX_THREADS 8
static PetscInt PellrPredictThreads = 0; /* 0: not set */

PetscErrorCode PellrPredictSetThreads(PetscInt nthreads)
{
  PetscFunctionBegin;
  PetscCheck(nthreads >= 0 && nthreads <= PETSC_SPARSEGPU_MAX_THREADS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_pellr_predict_threads must be between 1 and %d (0: the default), not %" PetscInt_FMT, PETSC_SPARSEGPU_MAX_THREADS, nthreads);
  PellrPredictThreads = nthreads;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the threads of the feature passes: set, else -mat_pellr_predict_threads, else the default (the cores are counted
   only when asked for: sysconf() reads a file, 20-30 us, as much as all the features of a small block) */
PetscErrorCode PellrPredictGetThreads(PetscInt *nthreads)
{
  PetscFunctionBegin;
  if (!PellrPredictThreads) {
    PetscInt  n = 0;
    PetscBool set;
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-mat_pellr_predict_threads", &n, &set));
    if (set && n) PetscCall(PellrPredictSetThreads(n));
  }
  *nthreads = PellrPredictThreads ? PellrPredictThreads : PetscMax(1, PetscMin(PELLR_PRED_MAX_THREADS, PetscSparseGPUAvailableCores()));
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  const PetscInt     *rp;
  PetscInt            m, cap;
  PellrLengthSummary *part;  /* one per thread, big[] of cap entries each */
  PetscInt           *bad;   /* per thread: PellrLengthSummaryRows()'s answer */
  PetscInt           *start; /* per thread: its first row */
} PellrSummaryCtx;

static void PellrLengthSummaryRange(void *ctx, PetscInt tid, PetscInt g0, PetscInt g1) /* 32-row groups [g0, g1) */
{
  PellrSummaryCtx *c = (PellrSummaryCtx *)ctx;

  c->start[tid] = g0 * PELLR_SLICE;
  c->bad[tid]   = PellrLengthSummaryRows(c->rp, g0 * PELLR_SLICE, (PetscInt)PetscMin((PetscInt64)g1 * PELLR_SLICE, c->m), c->cap, &c->part[tid]);
}

static PetscErrorCode PellrLengthSummaryHost(PetscInt m, const PetscInt *rp, PetscInt nthreads, PellrLengthSummary *s)
{
  PetscInt64 nnz = m ? (PetscInt64)(rp[m] - rp[0]) : 0;
  PetscInt   cap = (PetscInt)PetscMin((PetscInt64)m, nnz / PELLR_PRED_HCAP + 1), bad = -1;

  PetscFunctionBegin;
  PetscCheck(nnz >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "Row pointers give %" PetscInt64_FMT " nonzeros", nnz);
  PetscCall(PetscMemzero(s, sizeof(*s)));
  s->nnz = nnz;
  PetscCall(PetscMalloc1(cap, &s->big));
  nthreads = PetscMin(nthreads, PETSC_SPARSEGPU_MAX_THREADS);
  if (m < PELLR_PRED_THREAD_ROWS || nthreads < 2) bad = PellrLengthSummaryRows(rp, 0, m, cap, s);
  else {
    const PetscInt      ngroups = (PetscInt)(((PetscInt64)m + PELLR_SLICE - 1) / PELLR_SLICE), minchunk = PELLR_PRED_THREAD_ROWS / 4 / PELLR_SLICE;
    PellrLengthSummary *part;
    PetscInt           *big, *bads, *start;
    PellrSummaryCtx     ctx;
    int                 fail;

    PetscCall(PetscCalloc4(nthreads, &part, (size_t)nthreads * cap, &big, nthreads, &bads, nthreads, &start));
    for (PetscInt t = 0; t < nthreads; t++) {
      part[t].big = big + (size_t)t * cap;
      bads[t]     = -1;
    }
    ctx.rp    = rp;
    ctx.m     = m;
    ctx.cap   = cap;
    ctx.part  = part;
    ctx.bad   = bads;
    ctx.start = start;
    fail      = PetscSparseGPUParallelForC(nthreads, ngroups, minchunk, PellrLengthSummaryRange, &ctx);
    for (PetscInt t = 0; t < nthreads && bad < 0; t++) { /* the parts in row order: the first bad row */
      bad = bads[t];
      if (bad >= 0) break;
      for (PetscInt l = 0; l < PELLR_PRED_HCAP; l++) s->cnt[l] += part[t].cnt[l];
      for (PetscInt i = 0; i < part[t].nbig && bad < 0; i++) {
        if (s->nbig == cap) bad = start[t]; /* more long rows than the nonzeros allow */
        else s->big[s->nbig++] = part[t].big[i];
      }
      s->ellr += part[t].ellr;
      s->q4 += part[t].q4;
      s->q8 += part[t].q8;
      s->pert += part[t].pert;
      for (PetscInt c = 0; c < 6; c++) {
        s->gcls[c] += part[t].gcls[c];
        s->gmax[c] = PetscMax(s->gmax[c], part[t].gmax[c]);
      }
    }
    PetscCall(PetscFree4(part, big, bads, start));
    if (fail) {
      PetscCall(PetscFree(s->big));
      SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SYS, "pthread_join() failed");
    }
  }
  if (bad >= 0) {
    PetscCall(PetscFree(s->big));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_CORRUPT, "Row pointers decrease at or after row %" PetscInt_FMT, bad);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* log2 bucket of a row length: 0 for empty rows, b >= 1 for lengths in [2^(b-1), 2^b) (the last bucket takes the rest) */
static inline PetscInt PellrLog2Bucket(PetscInt l)
{
  PetscInt b = 0;
  while (b < PELLR_PRED_NHIST - 1 && ((PetscInt64)1 << b) <= (PetscInt64)l) b++;
  return b;
}

static inline PetscInt64 CeilDiv(PetscInt64 a, PetscInt64 b)
{
  return (a + b - 1) / b;
}

/* sum of the first k lengths of the sorted order, from the runs of equal length (rs: first position, ps: prefix sum) */
static PetscInt64 PellrSortedPrefix(PetscInt nruns, const PetscInt rl[], const PetscInt64 rs[], const PetscInt64 ps[], PetscInt64 k)
{
  PetscInt lo = 0, hi = nruns - 1;

  if (nruns == 0 || k <= 0) return 0;
  while (lo < hi) { /* last run with rs <= k */
    PetscInt mid = (lo + hi + 1) / 2;
    if (rs[mid] <= k) lo = mid;
    else hi = mid - 1;
  }
  return ps[lo] + (k - rs[lo]) * rl[lo];
}

/*
  All features from the length summary. The sorted order of PELLR is determined by the number of rows of each
  length: the runs of equal length, longest first, give every sorted-order statistic exactly (no approximation):
  the long rows (the prefix of rows >= long_row_length, then runs of rows >= 32 while the slice their first row
  would head is more than 1/3 padding: within a run the slice sum only decreases, so a run is long as a whole or
  ends the long rows at its first row), the slices' first rows, and the seed's PELLR count.
*/
static PetscErrorCode PellrFeaturesFinish(PetscInt m, PetscInt n, PetscInt longlen, PellrLengthSummary *s, PellrFeatures *f)
{
  const PetscInt64 nnz = s->nnz;
  PetscInt   nruns = 0, *rl, nrows;
  PetscInt64 *rc, *rs, *ps, k, sum = 0, rows = 0, nlong = 0, nblock = 0, longwork = 0, crit = 0;
  PetscReal  sumsq = 0;

  PetscFunctionBegin;
  PetscCall(PetscMemzero(f, sizeof(*f)));
  f->m               = m;
  f->n               = n;
  f->nnz             = nnz;
  f->long_row_length = longlen;
  PetscCall(PetscSortInt(s->nbig, s->big));
  PetscCall(PetscMalloc4(PELLR_PRED_HCAP + s->nbig, &rl, PELLR_PRED_HCAP + s->nbig, &rc, PELLR_PRED_HCAP + s->nbig + 1, &rs, PELLR_PRED_HCAP + s->nbig + 1, &ps));
  for (PetscInt i = s->nbig - 1; i >= 0; i--) {
    if (nruns && rl[nruns - 1] == s->big[i]) rc[nruns - 1]++;
    else {
      rl[nruns]   = s->big[i];
      rc[nruns++] = 1;
    }
  }
  for (PetscInt l = PELLR_PRED_HCAP - 1; l >= 0; l--) {
    if (!s->cnt[l]) continue;
    rl[nruns]   = l;
    rc[nruns++] = s->cnt[l];
  }
  for (PetscInt r = 0; r < nruns; r++) {
    rs[r] = rows;
    ps[r] = sum;
    rows += rc[r];
    sum += rc[r] * rl[r];
    sumsq += (PetscReal)rc[r] * (PetscReal)rl[r] * (PetscReal)rl[r];
    f->hist[PellrLog2Bucket(rl[r])] += rc[r];
  }
  PetscCheck(rows == m && sum == nnz, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Row-length summary of %" PetscInt64_FMT " rows, %" PetscInt64_FMT " nonzeros does not match %" PetscInt_FMT " rows, %" PetscInt64_FMT " nonzeros", rows, sum, m, nnz);
  f->maxlen = nruns ? rl[0] : 0;
  f->empty  = (nruns && rl[nruns - 1] == 0) ? (PetscInt)rc[nruns - 1] : 0;
  nrows     = m - f->empty;
  if (m) {
    f->mean   = (PetscReal)nnz / (PetscReal)m;
    f->stddev = PetscSqrtReal(PetscMax(0.0, sumsq / (PetscReal)m - f->mean * f->mean));
  }
  f->it_ell  = CeilDiv(m, PELLR_SLICE) * f->maxlen;
  f->it_ellr = s->ellr;
  f->it_sell = s->ellr;
  if (m > 1 && nnz > 0) f->perturbation = (PetscReal)s->pert / ((PetscReal)(m - 1) * ((PetscReal)nnz / (PetscReal)m));
  /* the seed's PELLR count (MatPELLRWarpIterations()): the first row of each warp of the sorted order */
  for (PetscInt r = 0; r < nruns; r++) {
    PetscInt64 first = rs[r], last = rs[r] + rc[r], w0 = CeilDiv(first, PELLR_SLICE), w1 = (last - 1) / PELLR_SLICE;
    if (w1 >= w0) f->it_pellr += (w1 - w0 + 1) * rl[r];
  }
  /* long rows (PellrLayoutBuild() of pellr.c) */
  for (PetscInt r = 0; r < nruns && rl[r] > 0; r++) {
    if (rl[r] < longlen) {
      PetscInt64 win;
      if (rl[r] < 32) break;
      win = PellrSortedPrefix(nruns, rl, rs, ps, PetscMin(nlong + PELLR_SLICE, (PetscInt64)nrows)) - PellrSortedPrefix(nruns, rl, rs, ps, nlong);
      if (3 * win >= 2 * PELLR_SLICE * (PetscInt64)rl[r]) break;
    }
    nlong += rc[r];
    f->long_min = rl[r];
    if (rl[r] >= PELLR_BLOCK_ROW) {
      if (!nblock) crit += CeilDiv(PetscMin(rl[r], (PetscInt64)PELLR_LONG_CHUNK), PELLR_LONG_THREADS); /* a chunk of the block rows: the block-row kernel's chain */
      nblock += rc[r];
    } else {
      if (nlong == rc[r] + nblock) crit += CeilDiv(rl[r], 32); /* the longest warp row: the warp-row kernel's chain */
    }
    longwork += rc[r] * CeilDiv(rl[r], 32);
  }
  f->nlong         = (PetscInt)nlong;
  f->nblock        = (PetscInt)nblock;
  f->nnz_long      = PellrSortedPrefix(nruns, rl, rs, ps, nlong);
  f->long_fraction = nnz ? (PetscReal)f->nnz_long / (PetscReal)nnz : 0.0;
  f->nslices       = (PetscInt)CeilDiv(nrows - nlong, PELLR_SLICE);
  /* the slices' first rows: sorted positions nlong + 32 j < nrows (and the first rows of their 4- and 8-row groups) */
  {
    PetscBool cls[6] = {PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE, PETSC_FALSE};
    PetscInt64 csell = 0;
    for (PetscInt r = 0; r < nruns && rl[r] > 0; r++) {
      PetscInt64 first = PetscMax(rs[r], nlong), last = rs[r] + rc[r], w0, w1;
      if (last <= first) continue;
      for (PetscInt64 g = 4; g <= 8; g += 4) {
        w0 = CeilDiv(first - nlong, g);
        w1 = (last - 1 - nlong) / g;
        if (w1 >= w0) *(g == 4 ? &f->q4_srt : &f->q8_srt) += (w1 - w0 + 1) * rl[r];
      }
      w0 = CeilDiv(first - nlong, PELLR_SLICE);
      w1 = (last - 1 - nlong) / PELLR_SLICE;
      if (w1 >= w0) {
        f->it_pslice += (w1 - w0 + 1) * rl[r];
        if (!cls[PellrThreadClass(rl[r])]) crit += CeilDiv(rl[r], PellrThreadsPerRow(rl[r])); /* the class's widest slice: its kernel's chain */
        cls[PellrThreadClass(rl[r])] = PETSC_TRUE;
      }
    }
    f->launches[PELLR_CAND_PELLR] = (nblock > 0) + (nlong > nblock) + (f->empty > 0);
    f->launches[PELLR_CAND_SELL]  = 0;
    for (PetscInt c = 0; c < 6; c++) {
      f->launches[PELLR_CAND_PELLR] += cls[c];
      f->launches[PELLR_CAND_SELL] += s->gcls[c] > 0;
      if (s->gcls[c]) csell += CeilDiv(s->gmax[c], 32 >> c);
    }
    f->crit[PELLR_CAND_SELL] = csell;
    /* cuSPARSE's product costs about one launch more than our vector kernel's (the auto rule of PellrCSRKernelSetUp()) */
    f->launches[PELLR_CAND_CSR]  = (f->mean >= PELLR_CSR_VECTOR_MIN_ROW && (PetscReal)f->maxlen <= PELLR_CSR_VECTOR_MAX_RATIO * f->mean) ? 1 : 2;
    f->launches[PELLR_CAND_ELLR] = 1;
  }
  f->q4_nat = s->q4;
  f->q8_nat = s->q8;
  f->work[PELLR_CAND_CSR]   = CeilDiv(nnz, 32);
  f->work[PELLR_CAND_ELLR]  = f->it_ellr;
  f->work[PELLR_CAND_SELL]  = f->it_sell;
  f->work[PELLR_CAND_PELLR] = f->it_pslice + longwork;
  f->crit[PELLR_CAND_CSR]   = CeilDiv(f->maxlen, 32);
  f->crit[PELLR_CAND_ELLR]  = CeilDiv(f->maxlen, PellrThreadsPerRow(f->maxlen));
  f->crit[PELLR_CAND_PELLR] = crit;
  f->slots[PELLR_CAND_CSR]   = nnz;
  f->slots[PELLR_CAND_ELLR]  = (PetscInt64)m * f->maxlen;
  f->slots[PELLR_CAND_SELL]  = PELLR_SLICE * f->it_sell;
  f->slots[PELLR_CAND_PELLR] = f->nnz_long + PELLR_SLICE * f->it_pslice;
  {
    const PetscReal xy = 8.0 * n + 8.0 * m;
    k                  = CeilDiv(m, PELLR_SLICE);
    f->bytes[PELLR_CAND_CSR]   = 12.0 * nnz + 4.0 * (m + 1) + xy;
    f->bytes[PELLR_CAND_ELLR]  = 32.0 * (f->q4_nat + f->q8_nat) + 4.0 * m + xy;
    f->bytes[PELLR_CAND_SELL]  = 32.0 * (f->q4_nat + f->q8_nat) + 4.0 * (k + 1) + xy;
    f->bytes[PELLR_CAND_PELLR] = 12.0 * f->nnz_long + 32.0 * (f->q4_srt + f->q8_srt) + 4.0 * m + 4.0 * PELLR_SLICE * f->nslices + 4.0 * (f->nslices + 1) + 4.0 * (f->nlong + 1) + xy;
    /* x gathers without the column indices: nnz/4 sectors for every format (PellrFeaturesAddLocality() replaces this) */
    for (PetscInt c = 0; c < PELLR_NCAND; c++) {
      f->xsec[c] = -1;
      f->bytes[c] += 32.0 * 0.25 * (PetscReal)nnz;
    }
    f->ysec_pellr = -1;
    for (PetscInt c = 0; c < PELLR_NCAND; c++) f->dfound[c] = f->dkept[c] = -1; /* PellrFeaturesAddLocality() */
  }
  PetscCall(PetscFree4(rl, rc, rs, ps));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PellrFeaturesCompute - features of the m x n CSR block with row pointers rowptr[0..m] (host or, mtype CUDA, device
  memory: then one GPU pass summarizes the row lengths and the host finishes from the summary, giving the same
  features as the host path); long_row_length is MATPELLR's -mat_pellr_long_row_length.
*/
/* the sector counting of PellrFeaturesAddLocality() (PellrStepSectors() and its helpers) is in pellrlocality.h: the GPU
   runs the same code (pellrpredict.cu) */

/* the end of the run of rows of length l that continues at row e (< b: the window's end) */
static inline PetscInt PellrRunEnd(const PetscInt *rp, PetscInt e, PetscInt b, PetscInt l)
{
  while (e + 8 <= b) { /* 8 rows at a time without a branch a row (runs of a mesh are hundreds of rows long) */
    PetscInt diff = 0;
    for (PetscInt r = 0; r < 8; r++) diff |= (rp[e + r + 1] - rp[e + r]) ^ l;
    if (diff) break;
    e += 8;
  }
  while (e < b && rp[e + 1] - rp[e] == l) e++;
  return e;
}

/*
  PellrFeaturesAddLocality - the column access pattern of every format, from the column indices of a host CSR block:
  the sectors (32 bytes, four values) of x a warp step reads that the warp did not read at its previous step (xsec[c]),
  and the sectors of y PELLR's slices write (ysec_pellr), folded into bytes[c] (32 bytes per sector, replacing the
  nnz/4 sectors charged without column indices). Each format's own warp steps: ELLR and SELL step j of 32 consecutive rows; PELLR step j of the rows of a slice of its sorted order, and 32
  consecutive entries of a long row; CSR (cuSPARSE) the mean of the sectors of 32 consecutive entries of a row and of
  the ELLR count (consecutive rows share sectors: the mean cross-validated better than either alone, 2026-11-29 H200
  data). Windows of up to PELLR_PRED_SAMPLE_ROWS consecutive rows (fewer for long rows),
  evenly spaced, about PELLR_PRED_SAMPLE_NNZ entries in all (rows capped at a quarter of that), give the rates per
  entry, which are scaled to the block; PELLR's slices come from the stable sort by length of up to 4 windows of
  PELLR_PRED_SAMPLE_SORT rows (the exact sorted order of a smaller block), about PELLR_PRED_SAMPLE_NNZ entries of
  evenly spaced slices. Deterministic, and far cheaper than a conversion (reads of the row pointers of the sort
  windows and of the sampled entries only). The same sampled groups and slices estimate the slots of each format's
  diagonal slices (dfound[c]: the diagonal share of the sampled slots times the format's slice slots) and dkept[c],
  those a layout keeps under the mode dmode of -mat_pellr_cuda_diagonal_slices. The calibration and
  the prediction must agree on it: both call it (MatPELLRCalibrationAddSample(), PellrChooseFormat()), on the blocks
  PellrFeaturesWantLocality() selects.
*/
/* the bytes of the estimate without column indices taken out of f (or those of an earlier call), before counting */
static void PellrLocalityReset(PellrFeatures *f)
{
  const PetscInt nrows = f->m - f->empty;

  for (PetscInt c = 0; c < PELLR_NCAND; c++) {
    if (f->xsec[c] < 0) f->bytes[c] -= 32.0 * 0.25 * (PetscReal)f->nnz; /* the estimate without column indices */
    else f->bytes[c] -= 32.0 * f->xsec[c];                               /* called twice: replace */
    f->xsec[c] = 0;
  }
  if (f->ysec_pellr >= 0) f->bytes[PELLR_CAND_PELLR] -= 32.0 * f->ysec_pellr - 8.0 * (nrows - f->nlong);
  f->ysec_pellr = 0;
  f->sampled    = 0;
  for (PetscInt c = 0; c < PELLR_NCAND; c++) f->dfound[c] = f->dkept[c] = 0;
}

/* what PellrFeaturesAddLocality() samples (f->m > 0, f->nnz > 0) */
static void PellrLocalitySamplingSet(const PellrFeatures *f, PellrLocalitySampling *s)
{
  const PetscInt64 S = PELLR_PRED_SAMPLE_NNZ;
  const PetscInt   m = f->m, nrows = f->m - f->empty;
  const PetscReal  mean = (PetscReal)f->nnz / (PetscReal)m;

  memset(s, 0, sizeof(*s));
  s->m        = m;
  s->maxlen   = f->maxlen;
  s->long_min = f->long_min;
  s->cap      = PELLR_PRED_SAMPLE_NNZ / 4;
  s->W        = PELLR_SLICE * (PetscInt)PetscMax(1, PetscMin(PELLR_PRED_SAMPLE_ROWS / PELLR_SLICE, (PetscReal)S / (PELLR_SLICE * PetscMax(mean, 1.0))));
  s->nwin     = (PetscInt)CeilDiv(m, s->W);
  s->nv       = (PetscInt)PetscMax(1, PetscMin((PetscReal)s->nwin, (PetscReal)S / (s->W * PetscMax(mean, 1.0))));
  s->sorted   = (PetscBool)(nrows > f->nlong);
  if (s->sorted) {
    const PetscReal smean = PetscMax(1.0, (PetscReal)(f->nnz - f->nnz_long) / (PetscReal)(nrows - f->nlong));

    s->Wp    = PetscMin(m, PELLR_PRED_SAMPLE_SORT);
    s->nwp   = (PetscInt)CeilDiv(m, s->Wp);
    s->nvp   = PetscMin(s->nwp, PELLR_PRED_SORT_WINDOWS);
    s->lmaxb = f->long_min ? f->long_min - 1 : f->maxlen; /* slice rows: lengths 1..lmaxb */
    s->nch   = (PetscInt)PetscMax(1, (PetscReal)S / (s->nvp * PELLR_SLICE * smean));
  }
}

/* the counts on the host CSR */
static PetscErrorCode PellrLocalityCountHost(const PellrLocalitySampling *s, const PetscInt *rowptr, const PetscInt *colidx, const PellrFeatures *f, PellrLocalityCounts *cnts)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(cnts, sizeof(*cnts)));
  for (PetscInt v = 0; v < s->nv; v++) {
    PetscInt a, b;

    PellrLocalityWindow(s, v, &a, &b);
    for (PetscInt g = a; g < b; g += PELLR_SLICE) PellrLocalityWindowGroup(s, rowptr, colidx, g, PetscMin(b, g + PELLR_SLICE), cnts);
  }
  /* PELLR's slices: rows of equal length may lie far apart (a block-diagonal matrix puts the same row of every block in
     one slice), so the sort needs far larger windows: up to 4 windows of PELLR_PRED_SAMPLE_SORT rows (the whole block
     when smaller: its exact sorted order), stably sorted by decreasing length (a counting sort of the row lengths),
     and evenly spaced slices of each window's order */
  if (s->sorted) {
    const PetscInt lmaxb = s->lmaxb;
    PetscInt      *order, *cnt;

    PetscCall(PetscMalloc1(s->Wp, &order));
    for (PetscInt v = 0; v < s->nvp; v++) {
      PetscInt a, b, qc, ns = 0, lmax = 0;

      PellrLocalitySortWindow(s, v, &a, &b);
      qc = (b - a + 3) / 4;
      /* the keys' range: the block's longest slice row when it is short (any bound at least the window's longest slice
         row gives the same order), else the window's (lmaxb can be a long row's length - 1, huge: a pass of its own) */
      if (lmaxb <= PELLR_PRED_HCAP) lmax = lmaxb;
      else
        for (PetscInt i = a; i < b; i++) {
          const PetscInt l = rowptr[i + 1] - rowptr[i];
          lmax             = PetscMax(lmax, l <= lmaxb ? l : 0);
        }
      PetscCall(PetscMalloc1(4 * (lmax + 2), &cnt));

      /* a stable counting sort by decreasing length (key lmax - l + 1). Counting rows one by one would increment one
         counter row after row where nearly all rows have one length (meshes), a chain of dependent stores: with few
         length changes (degree of perturbation below 0.1) the rows are counted and placed by runs of equal length;
         otherwise the window is cut into 4 consecutive chunks with counters of their own, processed side by side (4
         independent chains and no branch on the lengths, which runs would mispredict on rows of random lengths).
         Chunk c's rows of a key follow those of chunks 0..c-1: either way the order is the stable one. */
      PetscCall(PetscArrayzero(cnt, 4 * (lmax + 2)));
      if (f->perturbation < 0.1) {
        for (PetscInt i = a; i < b;) {
          const PetscInt l = rowptr[i + 1] - rowptr[i];
          const PetscInt e = PellrRunEnd(rowptr, i + 1, b, l);
          if (l > 0 && l <= lmax) cnt[lmax - l + 1] += e - i;
          i = e;
        }
        for (PetscInt k = 1; k <= lmax; k++) { /* the first position of key k */
          const PetscInt n = cnt[k];
          cnt[k] = ns;
          ns += n;
        }
        for (PetscInt i = a; i < b;) {
          const PetscInt l = rowptr[i + 1] - rowptr[i];
          const PetscInt e = PellrRunEnd(rowptr, i + 1, b, l);
          if (l > 0 && l <= lmax) {
            PetscInt *o = order + cnt[lmax - l + 1];
            for (PetscInt r = i; r < e; r++) o[r - i] = r;
            cnt[lmax - l + 1] += e - i;
          }
          i = e;
        }
      } else {
        for (PetscInt t = 0; t < qc; t++)
          for (PetscInt c = 0; c < 4; c++) {
            const PetscInt i = a + c * qc + t;
            if (i < b) {
              const PetscInt l = rowptr[i + 1] - rowptr[i];
              if (l > 0 && l <= lmax) cnt[c * (lmax + 2) + lmax - l + 1]++;
            }
          }
        for (PetscInt k = 1; k <= lmax; k++) /* each chunk's first position of key k */
          for (PetscInt c = 0; c < 4; c++) {
            const PetscInt n = cnt[c * (lmax + 2) + k];
            cnt[c * (lmax + 2) + k] = ns;
            ns += n;
          }
        for (PetscInt t = 0; t < qc; t++)
          for (PetscInt c = 0; c < 4; c++) {
            const PetscInt i = a + c * qc + t;
            if (i < b) {
              const PetscInt l = rowptr[i + 1] - rowptr[i];
              if (l > 0 && l <= lmax) order[cnt[c * (lmax + 2) + lmax - l + 1]++] = i;
            }
          }
      }
      PetscCall(PetscFree(cnt));
      for (PetscInt c = 0, q, k; PellrLocalitySortedSlice(ns, s->nch, c, &q, &k); c++) PellrLocalitySlice(rowptr, colidx, order + q, k, (PetscInt)s->cap, cnts);
    }
    PetscCall(PetscFree(order));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the features from the counts */
static void PellrLocalityFinish(PellrFeatures *f, const PellrLocalityCounts *k, MatPELLRDiagonal dmode)
{
  const PetscInt nrows = f->m - f->empty;

  f->sampled = k->ec + k->en + k->el + k->es;
  {
    const PetscReal nnz = (PetscReal)f->nnz, nl = (PetscReal)f->nnz_long, rc = k->ec ? (PetscReal)k->xc / k->ec : 0.25;

    f->xsec[PELLR_CAND_ELLR]  = (k->en ? (PetscReal)k->xn / k->en : rc) * nnz;
    f->xsec[PELLR_CAND_CSR]   = 0.5 * (rc * nnz + f->xsec[PELLR_CAND_ELLR]);
    f->xsec[PELLR_CAND_SELL]  = f->xsec[PELLR_CAND_ELLR];
    f->xsec[PELLR_CAND_PELLR] = (k->el ? (PetscReal)k->xl / k->el : rc) * nl + (k->es ? (PetscReal)k->xs / k->es : f->xsec[PELLR_CAND_ELLR] / nnz) * (nnz - nl);
    f->ysec_pellr             = (k->rs ? (PetscReal)k->ys / k->rs : 0.25) * (PetscReal)(nrows - f->nlong);
  }
  for (PetscInt c = 0; c < PELLR_NCAND; c++) f->bytes[c] += 32.0 * f->xsec[c];
  f->bytes[PELLR_CAND_PELLR] += 32.0 * f->ysec_pellr - 8.0 * (nrows - f->nlong);
  {
    const PetscReal slice[PELLR_NCAND] = {0, (PetscReal)f->slots[PELLR_CAND_ELLR], (PetscReal)f->slots[PELLR_CAND_SELL], (PetscReal)(f->slots[PELLR_CAND_PELLR] - f->nnz_long)};
    const PetscReal share[PELLR_NCAND] = {0, k->tellr ? (PetscReal)k->dellr / k->tellr : 0, k->tsell ? (PetscReal)k->dsell / k->tsell : 0, k->tpellr ? (PetscReal)k->dpellr / k->tpellr : 0};

    for (PetscInt c = 0; c < PELLR_NCAND; c++) {
      f->dfound[c] = share[c] * slice[c];
      f->dkept[c]  = PellrDiagonalSlicesKept(dmode, f->dfound[c] > 0, (PetscInt64)f->dfound[c], (PetscInt64)slice[c]) ? f->dfound[c] : 0;
    }
  }
}

/* PellrFeaturesAddLocality() or PellrFeaturesAddLocalityDevice() */
static PetscErrorCode PellrFeaturesAddLocalityImpl(PellrFeatures *f, const PetscInt *rowptr, const PetscInt *colidx, PetscMemType mtype, MatPELLRDiagonal dmode)
{
  PellrLocalitySampling s;
  PellrLocalityCounts   cnts;

  PetscFunctionBegin;
  PellrLocalityReset(f);
  if (!f->m || !f->nnz) PetscFunctionReturn(PETSC_SUCCESS);
  PellrLocalitySamplingSet(f, &s);
  if (PetscMemTypeHost(mtype)) PetscCall(PellrLocalityCountHost(&s, rowptr, colidx, f, &cnts));
#if defined(PETSC_HAVE_CUDA) && !defined(PELLR_PREDICT_HOST_ONLY)
  else PetscCall(PellrLocalityCountDevice(&s, rowptr, colidx, &cnts));
#else
  else SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "Column indices in %s memory need PETSc with CUDA", PetscMemTypeToString(mtype));
#endif
  PellrLocalityFinish(f, &cnts, dmode);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PellrFeaturesAddLocality(PellrFeatures *f, const PetscInt *rowptr, const PetscInt *colidx, MatPELLRDiagonal dmode)
{
  PetscFunctionBegin;
  PetscCall(PellrFeaturesAddLocalityImpl(f, rowptr, colidx, PETSC_MEMTYPE_HOST, dmode));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PellrFeaturesAddLocalityDevice - PellrFeaturesAddLocality() of a CSR block in GPU memory (rowptr and colidx device
  pointers, colidx[0] the entry of row 0; 32-bit PetscInt): the GPU runs the host's counting code on the same sampled
  groups and slices (pellrlocality.h; PELLR's sorted windows by a stable radix sort), so the features are the host's,
  bit for bit. Only the 16 counts come back.
*/
PetscErrorCode PellrFeaturesAddLocalityDevice(PellrFeatures *f, const PetscInt *rowptr, const PetscInt *colidx, MatPELLRDiagonal dmode)
{
  PetscFunctionBegin;
  PetscCall(PellrFeaturesAddLocalityImpl(f, rowptr, colidx, PETSC_MEMTYPE_CUDA, dmode));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PellrFeaturesCompute(PetscInt m, PetscInt n, const PetscInt *rowptr, PetscMemType mtype, PetscInt long_row_length, PellrFeatures *f)
{
  PellrLengthSummary s;
  PetscErrorCode     ierr = PETSC_SUCCESS;

  PetscFunctionBegin;
  PetscAssertPointer(f, 6);
  PetscCheck(m >= 0 && n >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Need m >= 0 and n >= 0, not %" PetscInt_FMT " x %" PetscInt_FMT, m, n);
  PetscCheck(long_row_length >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Long-row length must be >= 1, not %" PetscInt_FMT, long_row_length);
  if (m) PetscAssertPointer(rowptr, 3);
#if defined(PETSC_HAVE_CUDA) && !defined(PELLR_PREDICT_HOST_ONLY)
  PetscCheck(PetscMemTypeHost(mtype) || mtype == PETSC_MEMTYPE_CUDA || mtype == PETSC_MEMTYPE_NVSHMEM, PETSC_COMM_SELF, PETSC_ERR_SUP, "Row pointers in %s memory", PetscMemTypeToString(mtype));
#else
  PetscCheck(PetscMemTypeHost(mtype), PETSC_COMM_SELF, PETSC_ERR_SUP, "Row pointers in %s memory need PETSc with CUDA", PetscMemTypeToString(mtype));
#endif
  PetscCall(PetscLogEventBegin(MAT_PELLR_Predict, NULL, NULL, NULL, NULL));
  if (PetscMemTypeHost(mtype)) {
    PetscInt nthreads = 1;
    if (m >= PELLR_PRED_THREAD_ROWS) PetscCall(PellrPredictGetThreads(&nthreads));
    ierr = PellrLengthSummaryHost(m, rowptr, nthreads, &s);
  }
#if defined(PETSC_HAVE_CUDA) && !defined(PELLR_PREDICT_HOST_ONLY)
  else ierr = PellrLengthSummaryDevice(m, rowptr, &s);
#endif
  if (!ierr) {
    ierr = PellrFeaturesFinish(m, n, long_row_length, &s, f);
    PetscCall(PetscFree(s.big));
  }
  PetscCall(PetscLogEventEnd(MAT_PELLR_Predict, NULL, NULL, NULL, NULL)); /* balanced also when the row pointers are corrupt */
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* structural feasibility: 32-bit slot indices for the padded formats; ELLR also no more than 8 nnz + 32 m slots */
PetscErrorCode PellrFeaturesFeasible(const PellrFeatures *f, PetscBool feasible[])
{
  PetscBool idx32 = (PetscBool)(f->m <= PETSC_INT32_MAX && f->n <= PETSC_INT32_MAX);

  PetscFunctionBegin;
  feasible[PELLR_CAND_CSR]   = PETSC_TRUE;
  feasible[PELLR_CAND_ELLR]  = (PetscBool)(idx32 && f->slots[PELLR_CAND_ELLR] <= PETSC_INT32_MAX && f->slots[PELLR_CAND_ELLR] <= 8 * f->nnz + 32 * (PetscInt64)f->m);
  feasible[PELLR_CAND_SELL]  = (PetscBool)(idx32 && f->slots[PELLR_CAND_SELL] <= PETSC_INT32_MAX);
  feasible[PELLR_CAND_PELLR] = (PetscBool)(idx32 && f->slots[PELLR_CAND_PELLR] <= PETSC_INT32_MAX);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PellrFeaturesView(PetscViewer viewer, const PellrFeatures *f)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "features: %" PetscInt_FMT " rows, %" PetscInt_FMT " columns, %" PetscInt64_FMT " nonzeros, %" PetscInt_FMT " empty rows; row length mean %g, std. deviation %g, max %" PetscInt_FMT "\n", f->m, f->n, f->nnz, f->empty, (double)f->mean, (double)f->stddev, f->maxlen));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  row lengths by log2 bucket:"));
  PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_FALSE));
  for (PetscInt b = 0; b < PELLR_PRED_NHIST; b++) {
    if (!f->hist[b]) continue;
    if (b == 0) PetscCall(PetscViewerASCIIPrintf(viewer, " [0] %" PetscInt64_FMT, f->hist[b]));
    else PetscCall(PetscViewerASCIIPrintf(viewer, " [%" PetscInt64_FMT ",%" PetscInt64_FMT ") %" PetscInt64_FMT, (PetscInt64)1 << (b - 1), (PetscInt64)1 << b, f->hist[b]));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "\n"));
  PetscCall(PetscViewerASCIIUseTabs(viewer, PETSC_TRUE));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  warp iterations: ELL %" PetscInt64_FMT ", ELLR %" PetscInt64_FMT ", SELL %" PetscInt64_FMT ", PELLR %" PetscInt64_FMT " (seed, all rows sorted), PELLR slices %" PetscInt64_FMT "; degree of perturbation %.4f\n", f->it_ell, f->it_ellr, f->it_sell, f->it_pellr, f->it_pslice, (double)f->perturbation));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  PELLR: %" PetscInt_FMT " long rows (%" PetscInt_FMT " a block per row) with %" PetscInt64_FMT " nonzeros (fraction %.4f; long-row length %" PetscInt_FMT "), %" PetscInt_FMT " slices\n", f->nlong, f->nblock, f->nnz_long, (double)f->long_fraction, f->long_row_length, f->nslices));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  kernel launches: csr %" PetscInt64_FMT ", ellr %" PetscInt64_FMT ", sell %" PetscInt64_FMT ", pellr %" PetscInt64_FMT "\n", f->launches[PELLR_CAND_CSR], f->launches[PELLR_CAND_ELLR], f->launches[PELLR_CAND_SELL], f->launches[PELLR_CAND_PELLR]));
  if (f->xsec[PELLR_CAND_CSR] >= 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  x sectors read anew per nonzero (from %" PetscInt64_FMT " sampled entries): csr %.4f, ellr %.4f, sell %.4f, pellr %.4f; y sectors of PELLR's slices per row %.4f\n", f->sampled, f->nnz ? (double)(f->xsec[PELLR_CAND_CSR] / f->nnz) : 0.0, f->nnz ? (double)(f->xsec[PELLR_CAND_ELLR] / f->nnz) : 0.0, f->nnz ? (double)(f->xsec[PELLR_CAND_SELL] / f->nnz) : 0.0, f->nnz ? (double)(f->xsec[PELLR_CAND_PELLR] / f->nnz) : 0.0, f->m - f->empty - f->nlong > 0 ? (double)(f->ysec_pellr / (f->m - f->empty - f->nlong)) : 0.0));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "  x sectors: not sampled (%s): nnz/4 for every format\n", PellrFeaturesWantLocality(f) ? "no host column indices" : "a small block, bound by launches and latencies"));
  if (f->dfound[PELLR_CAND_SELL] >= 0) PetscCall(PetscViewerASCIIPrintf(viewer, "  slots in diagonal slices (estimated from the sampled slices): ellr %.0f, sell %.0f, pellr %.0f; kept by the layout: %.0f, %.0f, %.0f\n", (double)f->dfound[PELLR_CAND_ELLR], (double)f->dfound[PELLR_CAND_SELL], (double)f->dfound[PELLR_CAND_PELLR], (double)f->dkept[PELLR_CAND_ELLR], (double)f->dkept[PELLR_CAND_SELL], (double)f->dkept[PELLR_CAND_PELLR]));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------------------------------ model */

/* row-count intervals: [0, 2^12), [2^12, 2^14), ..., [2^22, 2^24), [2^24, inf) */
PetscErrorCode PellrModelInterval(PetscInt m, PetscInt *interval)
{
  PetscInt i = 0;

  PetscFunctionBegin;
  while (i < PELLR_PRED_NINT - 1 && (PetscInt64)m >= ((PetscInt64)1 << (12 + 2 * i))) i++;
  *interval = i;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscInt64 PellrIntervalLo(PetscInt i)
{
  return i == 0 ? 0 : (PetscInt64)1 << (10 + 2 * i);
}

/* -1: unbounded */
static PetscInt64 PellrIntervalHi(PetscInt i)
{
  return i == PELLR_PRED_NINT - 1 ? -1 : (PetscInt64)1 << (12 + 2 * i);
}

/* nominal parameters of an H200-class GPU, used when nothing was measured */
PetscErrorCode PellrHardwareDefault(PellrHardware *hw)
{
  PetscFunctionBegin;
  PetscCall(PetscMemzero(hw, sizeof(*hw)));
  PetscCall(PetscStrncpy(hw->gpu, "analytic", sizeof(hw->gpu)));
  hw->sm        = 132;
  hw->copy_gbs  = 4000;
  hw->h2d_gbs   = 50;
  hw->launch_us = 3;
  hw->l2_mb     = PELLR_PRED_DEFAULT_L2_MB;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The analytic model (also the fit's fallback for a candidate without enough samples). Ts = c0 + c1 work + c2 bytes + c3 crit + c4 launches
  (c5 = c6 = c2: the streamed and the gathered bytes, in L2 or not, all cost the same):
    c0 = 0, c4 = launch latency (the kernel launches of the format, PellrFeatures.launches)
    c2 = 1 / (efficiency * copy bandwidth): the product is memory bound; the efficiency is how much of the copy
         bandwidth the access pattern sustains: coalesced column-major slices 0.8 (SELL, PELLR), ELLR 0.7 (warps with
         rows of different lengths leave lanes idle in partly used sectors), CSR 0.6 on uniform rows (row-major entries
         and row pointer indirection; ELL-type formats beat CSR on regular matrices, Bell & Garland 2009), rising to
         0.9 where neighbouring rows differ in length (PellrAnalyticCSREfficiency(), applied in PellrModelPredict())
    c1 = 1 / (SMs * 1e9): about one warp iteration per ns per SM issued (a few instructions per iteration)
    c3 = 4 ns per iteration of the longest sequential chain of one thread: imbalance; a thread-per-row format
         (ELLR, SELL) with one huge row waits for that row's thread, PELLR and CSR split long rows over threads
  TC = d0 + d1 nnz + d2 m + d3 slots + d4 maxlen: every candidate uploads the CSR (12 bytes per nonzero, 4 per row at
  the host-to-device bandwidth); the padded formats then read it and write their slots on the device (12 bytes per
  slot, copy bandwidth), PELLR also sorts the rows (radix sort of 8-byte pairs, 4 passes) and reads back three
  scalars (a launch latency each) in about 15 launches in all. d4 = 0: the longest row's chain in the build kernels
  is left to calibrations (version 5).
  Tp = 0 for every candidate: the result rearrangement of the sorted formats is fused into the kernels.
*/
/*
  The analytic model's CSR bandwidth efficiency, from how irregular neighbouring rows are: the padding SELL would store
  in its slices of 32 consecutive rows, pad = SELL slots / nonzeros - 1 (0 on uniform rows, also where a few huge rows
  sit among uniform ones). 0.6 at pad = 0, rising linearly to 0.9 at pad = 0.25 and beyond: cuSPARSE's CSR kernel
  balances its work over the entries, where the ELL-type kernels pay for neighbouring rows of unequal lengths (idle
  lanes, and with PELLR's sorting scattered results). Chosen offline (session 40) on the measured times of both
  calibrated GPUs, every candidate timed on 255 training and 15 large matrices (H200:
  bench/results/2026-12-04-H200-session32/job1, H100: bench/results/2026-12-05-H100-session40/job1): with 0.6 on
  every matrix the analytic choice was within 5% of the fastest on 53% / 47% of the large sets (H200 / H100), with
  this rule on 87% / 80% (bench/results/2026-12-05-H100-session40/NOTE.md).
*/
#define PELLR_ANALYTIC_CSR_EFF_UNIFORM   0.6
#define PELLR_ANALYTIC_CSR_EFF_IRREGULAR 0.9
#define PELLR_ANALYTIC_CSR_PAD_IRREGULAR 0.25
static PetscReal PellrAnalyticCSREfficiency(const PellrFeatures *f)
{
  const PetscReal pad = f->nnz > 0 && f->slots[PELLR_CAND_SELL] > f->nnz ? (PetscReal)f->slots[PELLR_CAND_SELL] / (PetscReal)f->nnz - 1 : 0;

  return PELLR_ANALYTIC_CSR_EFF_UNIFORM + (PELLR_ANALYTIC_CSR_EFF_IRREGULAR - PELLR_ANALYTIC_CSR_EFF_UNIFORM) * PetscMin(pad / PELLR_ANALYTIC_CSR_PAD_IRREGULAR, 1.0);
}

static PetscErrorCode PellrAnalyticCoef(const PellrHardware *hw, PellrCandidate c, PellrModelCoef *k)
{
  const PetscReal L = hw->launch_us * 1e-6, bw = hw->copy_gbs * 1e9, up = 1.0 / (hw->h2d_gbs * 1e9);
  const PetscReal eff[PELLR_NCAND] = {PELLR_ANALYTIC_CSR_EFF_UNIFORM, 0.7, 0.8, 0.8}; /* CSR's: see PellrModelPredict() */
  const PetscReal tcl[PELLR_NCAND] = {2, 3, 4, 15}, rowb[PELLR_NCAND] = {0, 8, 12, 72};

  PetscFunctionBegin;
  PetscCall(PetscMemzero(k, sizeof(*k)));
  k->c[0] = 0;
  k->c[4] = L;
  k->c[1] = 1.0 / ((PetscReal)PetscMax(hw->sm, 1) * 1e9);
  k->c[2] = 1.0 / (eff[c] * bw);
  k->c[3] = 4e-9;
  k->c[5] = k->c[2]; /* no L2 reuse assumed: every byte at the DRAM cost */
  k->c[6] = k->c[2];
  k->d[0] = tcl[c] * L;
  k->d[1] = 12 * up + (c == PELLR_CAND_CSR ? 0 : 12 / bw);
  k->d[2] = 4 * up + rowb[c] / bw;
  k->d[3] = c == PELLR_CAND_CSR ? 0 : 12 / bw;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PellrHardwareCheck(const PellrHardware *hw)
{
  PetscFunctionBegin;
  PetscCheck(hw->sm >= 0 && hw->copy_gbs > 0 && hw->h2d_gbs > 0 && hw->launch_us >= 0 && hw->l2_mb > 0 && PetscIsNormalReal(hw->copy_gbs) && PetscIsNormalReal(hw->h2d_gbs) && !PetscIsInfOrNanReal(hw->launch_us) && PetscIsNormalReal(hw->l2_mb), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Bad hardware parameters: sm %" PetscInt_FMT " copy %g GB/s h2d %g GB/s launch %g us L2 %g MB", hw->sm, (double)hw->copy_gbs, (double)hw->h2d_gbs, (double)hw->launch_us, (double)hw->l2_mb);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PellrModelCreateAnalytic(const PellrHardware *hw, PellrModel *model)
{
  PellrModel M;

  PetscFunctionBegin;
  PetscAssertPointer(model, 2);
  PetscCall(PetscNew(&M));
  if (hw) M->hw = *hw;
  else PetscCall(PellrHardwareDefault(&M->hw));
  PetscCall(PellrHardwareCheck(&M->hw));
  M->analytic = PETSC_TRUE;
  M->version  = PELLR_PRED_MODEL_VERSION;
  PetscCall(PetscStrncpy(M->source, "analytic", sizeof(M->source)));
  for (PetscInt c = 0; c < PELLR_NCAND; c++)
    for (PetscInt i = 0; i < PELLR_PRED_NINT; i++) PetscCall(PellrAnalyticCoef(&M->hw, (PellrCandidate)c, &M->coef[c][i]));
  *model = M;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PellrModelDestroy(PellrModel *model)
{
  PetscFunctionBegin;
  PetscCall(PetscFree(*model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PellrModelMatchesDevice(PellrModel M, const char gpu[], PetscInt sm, PetscBool *match)
{
  PetscBool same;

  PetscFunctionBegin;
  if (M->analytic) {
    *match = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscStrcmp(M->hw.gpu, gpu, &same));
  *match = (PetscBool)(same && (M->hw.sm == 0 || M->hw.sm == sm));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The model file (version 5: as version 4 with a fifth conversion coefficient d4, the cost per entry of the longest
  row, whose thread in the build kernels is the longest chain of a conversion (session 37: without it, on the H200
  training blocks with a row of 4096 entries or more, SELL's conversions were fitted a median 1.86 times too short,
  up to 10.8, PELLR's up to 1.53 times); version 4: as version 3, fitted with the
  diagonal slices' column indices out of the stream, PellrRegressors(); versions 2 to 4 are read with d4 = 0;
  version 3: Ts with the L2 and DRAM costs of the stream and the gathers' cost, c5 and c6, read and
  used as fitted, without the diagonal slices; version 2 files, without c5, c6 and l2_mb, are read as c5 = c6 = c2,
  i.e. as they predicted; version 1 files are refused), strictly parsed: lines starting with # and blank lines are
  ignored; otherwise exactly
    pellr-model version=5
    hardware gpu="<name>" sm=<int> copy_gbs=<real> h2d_gbs=<real> launch_us=<real> l2_mb=<real>
    cand=<csr|ellr|sell|pellr> interval=<i> rows_lo=<int> rows_hi=<int|inf> samples=<int> c0=.. c1=.. c2=.. c3=.. c4=.. c5=.. c6=.. d0=.. d1=.. d2=.. d3=.. d4=..
                     (one line per candidate and interval, candidates in the order csr ellr sell pellr, intervals 0..7)
    end
  Fields are key=value separated by blanks, in this order, none missing, none extra; a value in double quotes may
  contain blanks. Coefficients are finite and >= 0, bandwidths > 0. Any deviation is PETSC_ERR_FILE_UNEXPECTED
  naming file:line and what was expected.
*/
#define PELLR_MODEL_MAXTOK 24

typedef struct {
  char key[32];
  char val[160];
} PellrTok;

static PetscErrorCode PellrTokenize(const char *file, PetscInt lineno, char *line, PellrTok tok[], PetscInt *ntok)
{
  char *p = line;

  PetscFunctionBegin;
  *ntok = 0;
  while (*p) {
    char  *k, *v;
    size_t kl, vl;

    while (*p == ' ' || *p == '\t') p++;
    if (!*p) break;
    PetscCheck(*ntok < PELLR_MODEL_MAXTOK, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": too many fields (more than %d)", file, lineno, PELLR_MODEL_MAXTOK);
    k = p;
    while (*p && *p != '=' && *p != ' ' && *p != '\t') p++;
    kl = (size_t)(p - k);
    PetscCheck(*p == '=' && kl > 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": expected a field key=value, found '%.*s'", file, lineno, (int)PetscMin(kl + 1, 40), k);
    PetscCheck(kl < sizeof(tok[0].key), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": field name '%.*s...' too long", file, lineno, 20, k);
    p++;
    if (*p == '"') {
      v = ++p;
      while (*p && *p != '"') p++;
      PetscCheck(*p == '"', PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": unterminated quoted value of field '%.*s'", file, lineno, (int)kl, k);
      vl = (size_t)(p - v);
      p++;
      PetscCheck(!*p || *p == ' ' || *p == '\t', PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": expected a blank after the quoted value of field '%.*s'", file, lineno, (int)kl, k);
    } else {
      v = p;
      while (*p && *p != ' ' && *p != '\t') p++;
      vl = (size_t)(p - v);
      PetscCheck(vl > 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": empty value of field '%.*s'", file, lineno, (int)kl, k);
    }
    PetscCheck(vl < sizeof(tok[0].val), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": value of field '%.*s' too long", file, lineno, (int)kl, k);
    PetscCall(PetscMemcpy(tok[*ntok].key, k, kl));
    tok[*ntok].key[kl] = 0;
    PetscCall(PetscMemcpy(tok[*ntok].val, v, vl));
    tok[*ntok].val[vl] = 0;
    (*ntok)++;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the fields must be exactly keys[0..nkeys-1], in this order */
static PetscErrorCode PellrExpectKeys(const char *file, PetscInt lineno, const char *what, const PellrTok tok[], PetscInt ntok, const char *const keys[], PetscInt nkeys)
{
  PetscFunctionBegin;
  for (PetscInt i = 0; i < nkeys; i++) {
    PetscBool same;
    PetscCheck(i < ntok, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": %s line: missing field '%s' (field %" PetscInt_FMT " of %" PetscInt_FMT ")", file, lineno, what, keys[i], i + 1, nkeys);
    PetscCall(PetscStrcmp(tok[i].key, keys[i], &same));
    PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": %s line: expected field '%s' (field %" PetscInt_FMT " of %" PetscInt_FMT "), found '%s'", file, lineno, what, keys[i], i + 1, nkeys, tok[i].key);
  }
  PetscCheck(ntok == nkeys, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": %s line: unexpected extra field '%s' after the %" PetscInt_FMT " expected", file, lineno, what, tok[nkeys].key, nkeys);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PellrParseInt(const char *file, PetscInt lineno, const PellrTok *t, PetscInt64 lo, PetscInt64 *v)
{
  char     *end;
  long long x;

  PetscFunctionBegin;
  errno = 0;
  x     = strtoll(t->val, &end, 10);
  PetscCheck(!errno && *end == 0 && end != t->val && x >= lo, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": field '%s': expected an integer >= %" PetscInt64_FMT ", found '%s'", file, lineno, t->key, lo, t->val);
  *v = (PetscInt64)x;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a finite real, >= 0 (positive: > 0) */
static PetscErrorCode PellrParseReal(const char *file, PetscInt lineno, const PellrTok *t, PetscBool positive, PetscReal *v)
{
  char  *end;
  double x;

  PetscFunctionBegin;
  x = strtod(t->val, &end); /* underflow to a tiny or zero value is accepted */
  PetscCheck(*end == 0 && end != t->val && !PetscIsInfOrNanReal((PetscReal)x) && (positive ? x > 0 : x >= 0), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": field '%s': expected a finite real %s 0, found '%s'", file, lineno, t->key, positive ? ">" : ">=", t->val);
  *v = (PetscReal)x;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode PellrModelParse(const char name[], char *buf, PellrModel M)
{
  static const char *const khead[] = {"version"};
  static const char *const khw[]   = {"gpu", "sm", "copy_gbs", "h2d_gbs", "launch_us", "l2_mb"};
  static const char *const kcand[] = {"cand", "interval", "rows_lo", "rows_hi", "samples", "c0", "c1", "c2", "c3", "c4", "c5", "c6", "d0", "d1", "d2", "d3", "d4"};
  static const char *const kcand2[] = {"cand", "interval", "rows_lo", "rows_hi", "samples", "c0", "c1", "c2", "c3", "c4", "d0", "d1", "d2", "d3"};
  PetscInt64               version = PELLR_PRED_MODEL_VERSION;
  char                    *line, *next;
  PetscInt                 lineno = 0, state = 0; /* 0: header, 1: hardware, 2 + k: candidate line k, 2 + NCAND*NINT: end, then nothing */
  const PetscInt           nc = PELLR_NCAND * PELLR_PRED_NINT;
  PellrTok                 tok[PELLR_MODEL_MAXTOK];
  PetscInt                 ntok;

  PetscFunctionBegin;
  for (line = buf; line; line = next) {
    size_t len;
    char  *s;

    next = strchr(line, '\n');
    if (next) *next++ = 0;
    lineno++;
    if (!next && !*line) break; /* the text ends with a newline */
    PetscCall(PetscStrlen(line, &len));
    while (len && (line[len - 1] == '\r' || line[len - 1] == ' ' || line[len - 1] == '\t')) line[--len] = 0;
    for (s = line; *s == ' ' || *s == '\t'; s++);
    if (!*s || *s == '#') continue;
    PetscCheck(state <= 2 + nc, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": unexpected content after 'end': '%.40s'", name, lineno, s);
    if (state == 0 || state == 1 || state == 2 + nc) {
      const char *word = state == 0 ? "pellr-model" : state == 1 ? "hardware" : "end";
      size_t      wl;
      PetscBool   same;

      PetscCall(PetscStrlen(word, &wl));
      PetscCall(PetscStrncmp(s, word, wl, &same));
      PetscCheck(same && (s[wl] == 0 || s[wl] == ' ' || s[wl] == '\t'), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": expected a line starting with '%s', found '%.40s'", name, lineno, word, s);
      PetscCall(PellrTokenize(name, lineno, s + wl, tok, &ntok));
      if (state == 0) {
        PetscInt64 v;
        PetscCall(PellrExpectKeys(name, lineno, "pellr-model", tok, ntok, khead, 1));
        PetscCall(PellrParseInt(name, lineno, &tok[0], 0, &v));
        PetscCheck(v >= 2 && v <= PELLR_PRED_MODEL_VERSION, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": model file version %" PetscInt64_FMT ", this library reads versions 2 to %d (recalibrate, or refit offline: bench_calibrate -times)", name, lineno, v, PELLR_PRED_MODEL_VERSION);
        version    = v;
        M->version = (PetscInt)v;
      } else if (state == 1) {
        PetscInt64 v;
        PetscCall(PellrExpectKeys(name, lineno, "hardware", tok, ntok, khw, version == 2 ? 5 : 6));
        PetscCheck(tok[0].val[0] && strlen(tok[0].val) < sizeof(M->hw.gpu), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": field 'gpu': expected a nonempty name of fewer than %d characters", name, lineno, (int)sizeof(M->hw.gpu));
        PetscCall(PetscStrncpy(M->hw.gpu, tok[0].val, sizeof(M->hw.gpu)));
        PetscCall(PellrParseInt(name, lineno, &tok[1], 0, &v));
        PetscCheck(v <= PETSC_INT32_MAX, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": field 'sm' too large", name, lineno);
        M->hw.sm = (PetscInt)v;
        PetscCall(PellrParseReal(name, lineno, &tok[2], PETSC_TRUE, &M->hw.copy_gbs));
        PetscCall(PellrParseReal(name, lineno, &tok[3], PETSC_TRUE, &M->hw.h2d_gbs));
        PetscCall(PellrParseReal(name, lineno, &tok[4], PETSC_FALSE, &M->hw.launch_us));
        if (version == 2) M->hw.l2_mb = PELLR_PRED_DEFAULT_L2_MB; /* unused: c5 = c6 = c2 */
        else PetscCall(PellrParseReal(name, lineno, &tok[5], PETSC_TRUE, &M->hw.l2_mb));
      } else PetscCall(PellrExpectKeys(name, lineno, "end", tok, ntok, NULL, 0));
    } else {
      const PetscInt  c = (state - 2) / PELLR_PRED_NINT, i = (state - 2) % PELLR_PRED_NINT;
      PellrModelCoef *k = &M->coef[c][i];
      PetscInt64      v;
      PetscBool       same;

      PetscCall(PellrTokenize(name, lineno, s, tok, &ntok));
      PetscCheck(ntok > 0 && !strcmp(tok[0].key, "cand"), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": expected the line of cand=%s interval=%" PetscInt_FMT " (%" PetscInt_FMT " candidate lines in all), found '%.40s'", name, lineno, PellrCandidateNames[c], i, nc, s);
      const PetscInt  nts = version == 2 ? 5 : PELLR_PRED_NTS, ntc = version >= 5 ? PELLR_PRED_NTC : 4;

      PetscCall(PellrExpectKeys(name, lineno, "candidate", tok, ntok, version == 2 ? kcand2 : kcand, 5 + nts + ntc));
      PetscCall(PetscStrcmp(tok[0].val, PellrCandidateNames[c], &same));
      PetscCheck(same, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": expected cand=%s (candidates csr, ellr, sell, pellr in this order, %d intervals each), found cand=%s", name, lineno, PellrCandidateNames[c], PELLR_PRED_NINT, tok[0].val);
      PetscCall(PellrParseInt(name, lineno, &tok[1], 0, &v));
      PetscCheck(v == i, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": expected interval=%" PetscInt_FMT " for cand=%s, found interval=%s", name, lineno, i, PellrCandidateNames[c], tok[1].val);
      PetscCall(PellrParseInt(name, lineno, &tok[2], 0, &v));
      PetscCheck(v == PellrIntervalLo(i), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": expected rows_lo=%" PetscInt64_FMT " for interval %" PetscInt_FMT ", found rows_lo=%s", name, lineno, PellrIntervalLo(i), i, tok[2].val);
      if (PellrIntervalHi(i) < 0) PetscCheck(!strcmp(tok[3].val, "inf"), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": expected rows_hi=inf for interval %" PetscInt_FMT ", found rows_hi=%s", name, lineno, i, tok[3].val);
      else {
        PetscCall(PellrParseInt(name, lineno, &tok[3], 0, &v));
        PetscCheck(v == PellrIntervalHi(i), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": expected rows_hi=%" PetscInt64_FMT " for interval %" PetscInt_FMT ", found rows_hi=%s", name, lineno, PellrIntervalHi(i), i, tok[3].val);
      }
      PetscCall(PellrParseInt(name, lineno, &tok[4], 0, &v));
      PetscCheck(v <= PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": field 'samples' too large", name, lineno);
      k->samples = (PetscInt)v;
      for (PetscInt j = 0; j < nts; j++) PetscCall(PellrParseReal(name, lineno, &tok[5 + j], PETSC_FALSE, &k->c[j]));
      for (PetscInt j = 0; j < ntc; j++) PetscCall(PellrParseReal(name, lineno, &tok[5 + nts + j], PETSC_FALSE, &k->d[j]));
      for (PetscInt j = ntc; j < PELLR_PRED_NTC; j++) k->d[j] = 0; /* d4 of an older file: its conversions as predicted */
      if (version == 2) k->c[5] = k->c[6] = k->c[2]; /* one cost per byte, as version 2 predicted */
    }
    state++;
  }
  PetscCheck(state > 2 + nc, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%" PetscInt_FMT ": unexpected end of file: expected %s", name, lineno,
             state == 0 ? "the line 'pellr-model version=5'" : state == 1 ? "the 'hardware' line" : state == 2 + nc ? "the line 'end'" : "more candidate lines");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* parses the model text (PellrModelLoad() documents the format); name is used in the messages */
PetscErrorCode PellrModelLoadString(const char name[], const char text[], PellrModel *model)
{
  PellrModel     M;
  char          *buf;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscAssertPointer(text, 2);
  PetscAssertPointer(model, 3);
  *model = NULL;
  PetscCall(PetscNew(&M));
  PetscCall(PetscStrncpy(M->source, name, sizeof(M->source)));
  PetscCall(PetscStrallocpy(text, &buf));
  ierr = PellrModelParse(name, buf, M);
  PetscCall(PetscFree(buf));
  if (ierr) PetscCall(PetscFree(M));
  PetscCall(ierr);
  *model = M;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* reads the model file: PETSC_ERR_FILE_OPEN when it cannot be read, PETSC_ERR_FILE_UNEXPECTED naming file:line when malformed */
PetscErrorCode PellrModelLoad(const char file[], PellrModel *model)
{
  FILE          *fp;
  char          *text;
  size_t         len = 0, cap = 1 << 16, got;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscAssertPointer(file, 1);
  fp = fopen(file, "r");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot open the PELLR model file %s", file);
  PetscCall(PetscMalloc1(cap + 1, &text));
  while ((got = fread(text + len, 1, cap - len, fp)) > 0) {
    len += got;
    if (len == cap) {
      char *t;
      if (cap >= (1 << 24)) break;
      PetscCall(PetscMalloc1(2 * cap + 1, &t));
      PetscCall(PetscMemcpy(t, text, len));
      PetscCall(PetscFree(text));
      text = t;
      cap *= 2;
    }
  }
  (void)fclose(fp);
  text[len] = 0;
  if (len == cap) {
    PetscCall(PetscFree(text));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: larger than %d bytes: not a PELLR model file", file, 1 << 24);
  }
  if (strlen(text) != len) {
    PetscCall(PetscFree(text));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: contains a NUL byte: not a PELLR model file", file);
  }
  ierr = PellrModelLoadString(file, text, model);
  PetscCall(PetscFree(text));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PellrModelWrite(PellrModel M, const char file[])
{
  const PetscInt version = PetscMax(M->version, 3), ntc = version >= 5 ? PELLR_PRED_NTC : 4; /* a version-2 model as version 3 with c5 = c6 = c2, an older one without d4 (0): the same predictions */
  FILE          *fp;
  int            err = 0;

  PetscFunctionBegin;
  PetscCheck(!strchr(M->hw.gpu, '"') && !strchr(M->hw.gpu, '\n') && M->hw.gpu[0], PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "GPU name '%s' cannot be written (empty, or a quote or newline in it)", M->hw.gpu);
  fp = fopen(file, "w");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot write the PELLR model file %s", file);
  err |= fprintf(fp, "# PETSc SparseGPU: PELLR storage-format model (format: src/mat/impls/pellr/pellrpredict.c)\n") < 0;
  err |= fprintf(fp, "# Ts = c0 + c1 work + c2 h S + c3 crit + c4 launches + c5 (1 - h) S + c6 G (S streamed bytes, G gathered, h the share in L2), TC = d0 + d1 nnz + d2 m + d3 slots + d4 maxlen (seconds; d4 from version 5); samples=0: analytic coefficients\n") < 0;
  err |= fprintf(fp, "# version 4: S without the column indices of the diagonal slices a layout keeps; version 5: TC with d4\n") < 0;
  err |= fprintf(fp, "pellr-model version=%d\n", (int)version) < 0;
  err |= fprintf(fp, "hardware gpu=\"%s\" sm=%" PetscInt64_FMT " copy_gbs=%.17g h2d_gbs=%.17g launch_us=%.17g l2_mb=%.17g\n", M->hw.gpu, (PetscInt64)M->hw.sm, (double)M->hw.copy_gbs, (double)M->hw.h2d_gbs, (double)M->hw.launch_us, (double)M->hw.l2_mb) < 0;
  for (PetscInt c = 0; c < PELLR_NCAND; c++) {
    for (PetscInt i = 0; i < PELLR_PRED_NINT; i++) {
      const PellrModelCoef *k = &M->coef[c][i];
      char                  hi[32];

      if (PellrIntervalHi(i) < 0) PetscCall(PetscStrncpy(hi, "inf", sizeof(hi)));
      else PetscCall(PetscSNPrintf(hi, sizeof(hi), "%" PetscInt64_FMT, PellrIntervalHi(i)));
      err |= fprintf(fp, "cand=%s interval=%d rows_lo=%" PetscInt64_FMT " rows_hi=%s samples=%" PetscInt64_FMT, PellrCandidateNames[c], (int)i, PellrIntervalLo(i), hi, (PetscInt64)k->samples) < 0;
      for (PetscInt j = 0; j < PELLR_PRED_NTS; j++) err |= fprintf(fp, " c%d=%.17g", (int)j, (double)k->c[j]) < 0;
      for (PetscInt j = 0; j < ntc; j++) err |= fprintf(fp, " d%d=%.17g", (int)j, (double)k->d[j]) < 0;
      err |= fprintf(fp, "\n") < 0;
    }
  }
  err |= fprintf(fp, "end\n") < 0;
  err |= fclose(fp) != 0;
  PetscCheck(!err, PETSC_COMM_SELF, PETSC_ERR_FILE_WRITE, "Cannot write the PELLR model file %s", file);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PellrModelEmbeddedCount/PellrModelLoadEmbedded - the calibrations compiled into the library (config/embed-model.sh
  writes them into pellrpredict_default.h from src/mat/impls/pellr/models/: h200.model, h100.model), by index.
*/
PetscInt PellrModelEmbeddedCount(void)
{
  return PELLR_DEFAULT_NMODELS;
}

PetscErrorCode PellrModelLoadEmbedded(PetscInt i, PellrModel *model)
{
  PetscFunctionBegin;
  PetscCheck(i >= 0 && i < PELLR_DEFAULT_NMODELS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Embedded calibration %" PetscInt_FMT " of %d", i, (int)PELLR_DEFAULT_NMODELS);
  PetscCall(PellrModelLoadString(PellrDefaultModelNames[i], PellrDefaultModelTexts[i], model));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The model used for a device named gpu with sm multiprocessors: the file when given, else the first calibration
  embedded at build time whose GPU and SM count are the device's; a missing or mismatched calibration falls back to
  the analytic model (PetscInfo() and the model's source, which -mat_view prints, say why). A malformed file is an error.
*/
PetscErrorCode PellrModelLoadDefault(const char file[], const char gpu[], PetscInt sm, PellrModel *model)
{
  PellrModel    M = NULL;
  PellrHardware hw;
  PetscBool     match = PETSC_FALSE;
  char          why[1024]          = "";

  PetscFunctionBegin;
  if (file && file[0]) {
    PetscCall(PellrModelLoad(file, &M));
    PetscCall(PellrModelMatchesDevice(M, gpu, sm, &match));
    if (!match) PetscCall(PetscSNPrintf(why, sizeof(why), "the calibration %s is for %s with %" PetscInt_FMT " SMs, not this %s with %" PetscInt_FMT " SMs", M->source, M->hw.gpu, M->hw.sm, gpu, sm));
  } else {
    size_t len;

    PetscCall(PetscSNPrintf(why, sizeof(why), "no calibration built in for this %s with %" PetscInt_FMT " SMs; built in:", gpu, sm));
    for (PetscInt i = 0; i < PellrModelEmbeddedCount() && !match; i++) {
      PetscCall(PellrModelDestroy(&M));
      PetscCall(PellrModelLoadEmbedded(i, &M));
      PetscCall(PellrModelMatchesDevice(M, gpu, sm, &match));
      PetscCall(PetscStrlen(why, &len));
      PetscCall(PetscSNPrintf(why + len, sizeof(why) - len, "%s %s (%" PetscInt_FMT " SMs)", i ? "," : "", M->hw.gpu, M->hw.sm));
    }
    if (!PellrModelEmbeddedCount()) PetscCall(PetscStrlcat(why, " none", sizeof(why)));
  }
  if (match) {
    *model = M;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscInfo(NULL, "PELLR storage-format predictor: %s: using the analytic model\n", why));
  PetscCall(PellrModelDestroy(&M));
  PetscCall(PellrHardwareDefault(&hw));
  PetscCall(PellrModelCreateAnalytic(&hw, model));
  /* -mat_view says why (users of other GPUs see it there) */
  PetscCall(PetscSNPrintf((*model)->source, sizeof((*model)->source), "analytic (%s)", why));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the process-wide model of PellrPredictGetModel() */
static PellrModel PellrModelCached                        = NULL;
static char       PellrModelCachedFile[PETSC_MAX_PATH_LEN] = "";
static PetscBool  PellrModelCacheFinalizer                 = PETSC_FALSE;

static PetscErrorCode PellrModelCacheDestroy(void)
{
  PetscFunctionBegin;
  PetscCall(PellrModelDestroy(&PellrModelCached));
  PellrModelCachedFile[0]  = 0;
  PellrModelCacheFinalizer = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PellrPredictGetModel - the model for the current device, loaded once per process and file (file NULL or "": the
  embedded calibration), PellrModelLoadDefault() choosing it (analytic fallback with a PetscInfo() message). The model
  is borrowed: do not destroy it (PetscFinalize() does), and do not keep it: a call with another file frees it.
*/
PetscErrorCode PellrPredictGetModel(const char file[], PellrModel *model)
{
  const char *key = file ? file : "";
  PetscBool   same;
  char        gpu[128] = "none";
  PetscInt    sm       = 0;

  PetscFunctionBegin;
  PetscCall(PetscStrcmp(key, PellrModelCachedFile, &same));
  if (PellrModelCached && same) {
    *model = PellrModelCached;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PellrModelDestroy(&PellrModelCached));
#if defined(PETSC_HAVE_CUDA) && !defined(PELLR_PREDICT_HOST_ONLY)
  PetscCall(PellrDeviceIdentify(gpu, sizeof(gpu), &sm));
#endif
  PetscCall(PellrModelLoadDefault(file, gpu, sm, &PellrModelCached));
  PetscCall(PetscStrncpy(PellrModelCachedFile, key, sizeof(PellrModelCachedFile)));
  if (!PellrModelCacheFinalizer) {
    PetscCall(PetscRegisterFinalize(PellrModelCacheDestroy));
    PellrModelCacheFinalizer = PETSC_TRUE;
  }
  *model = PellrModelCached;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------------------------------ prediction */

/* expected_products >= PETSC_INFINITY (or IEEE inf): the conversion cost is ignored */
static inline PetscBool PellrProductsInfinite(PetscReal e)
{
  return (PetscBool)(PetscIsInfReal(e) || e >= PETSC_INFINITY);
}

#define PELLR_PRED_NMAX 8 /* >= PELLR_PRED_NTS, PELLR_PRED_NTC */

/* the column-index bytes of candidate c's kept diagonal slices, which a version-4 model (diagonal) takes out of the
   streamed bytes (0 otherwise) */
static inline PetscReal PellrDiagonalIndexBytes(const PellrFeatures *f, PellrCandidate c, PetscBool diagonal)
{
  return diagonal && f->dkept[c] > 0 ? 4.0 * f->dkept[c] : 0.0;
}

static void PellrRegressors(const PellrFeatures *, PellrCandidate, PetscBool, PetscReal, PetscBool, PetscReal[]);

static void PellrEvalCoef(const PellrModelCoef *k, const PellrFeatures *f, PellrCandidate c, PetscReal l2_bytes, PetscBool diagonal, PetscReal *ts, PetscReal *tc)
{
  PetscReal a[PELLR_PRED_NMAX];

  PellrRegressors(f, c, PETSC_FALSE, l2_bytes, diagonal, a);
  *ts = 0;
  for (PetscInt j = 0; j < PELLR_PRED_NTS; j++) *ts += k->c[j] * a[j];
  PellrRegressors(f, c, PETSC_TRUE, l2_bytes, diagonal, a);
  *tc = 0;
  for (PetscInt j = 0; j < PELLR_PRED_NTC; j++) *tc += k->d[j] * a[j];
}

/*
  PellrModelPredict - TC, Ts, Tp and total = Ts + Tp + TC / expected_products per candidate and the choice: the
  feasible candidate (feasible[] given, or NULL for all, and structurally feasible, PellrFeaturesFeasible()) of least
  total; totals within a relative 1e-9 of the least count as equal and then the first in the order csr, ellr, sell,
  pellr wins, so the choice is deterministic. expected_products may be PETSC_INFINITY (conversion cost ignored).
*/
PetscErrorCode PellrModelPredict(PellrModel M, const PellrFeatures *f, PetscReal expected_products, const PetscBool feasible[], PellrPrediction *p)
{
  PetscBool sf[PELLR_NCAND];
  PetscReal best = PETSC_INFINITY;
  PetscInt  interval;

  PetscFunctionBegin;
  PetscAssertPointer(f, 2);
  PetscAssertPointer(p, 5);
  PetscCheck(expected_products > 0 && !PetscIsNanReal(expected_products), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Expected products must be > 0, not %g", (double)expected_products);
  PetscCall(PetscLogEventBegin(MAT_PELLR_Predict, NULL, NULL, NULL, NULL));
  PetscCall(PetscMemzero(p, sizeof(*p)));
  PetscCall(PellrModelInterval(f->m, &interval));
  PetscCall(PellrFeaturesFeasible(f, sf));
  p->interval          = interval;
  p->expected_products = expected_products;
  p->diagonal          = (PetscBool)(M->version >= 4);
  PetscCall(PetscStrncpy(p->model, M->source, sizeof(p->model)));
  for (PetscInt c = 0; c < PELLR_NCAND; c++) {
    PellrModelCoef k = M->coef[c][interval];

    if (M->analytic && c == PELLR_CAND_CSR) { /* the analytic CSR's bandwidth efficiency depends on the rows */
      const PetscReal eff = PellrAnalyticCSREfficiency(f), scale = PELLR_ANALYTIC_CSR_EFF_UNIFORM / eff;

      p->csr_efficiency = eff;
      k.c[2] *= scale;
      k.c[5] *= scale;
      k.c[6] *= scale;
    }
    PellrEvalCoef(&k, f, (PellrCandidate)c, 1e6 * M->hw.l2_mb, p->diagonal, &p->ts[c], &p->tc[c]);
  }
  /* In the total, every other format's conversion counts at least as much as the CSR's: they are built from the CSR on
     the device, its upload included. The fitted TC of the formats differ by their noise (single-shot timings), which,
     amortized, can otherwise decide between formats of nearly equal Ts (block-diagonal bcsstk17 on the H200: PELLR
     chosen 0.3 us ahead by a TC 0.13 ms below the CSR's, and measured 1.4x slower). p->tc stays the model's value. */
  for (PetscInt c = 0; c < PELLR_NCAND; c++) {
    const PetscReal tc = c != PELLR_CAND_CSR && p->tc[c] < p->tc[PELLR_CAND_CSR] ? p->tc[PELLR_CAND_CSR] : p->tc[c];

    p->tp[c]       = 0;
    p->total[c]    = p->ts[c] + p->tp[c] + (PellrProductsInfinite(expected_products) ? 0 : tc / expected_products);
    p->feasible[c] = (PetscBool)(sf[c] && (!feasible || feasible[c]) && !PetscIsInfOrNanReal(p->total[c]));
    if (p->feasible[c]) best = PetscMin(best, p->total[c]);
  }
  for (PetscInt c = 0; c < PELLR_NCAND; c++) {
    if (p->feasible[c] && p->total[c] <= best * (1 + 1e-9)) {
      p->choice = (PellrCandidate)c;
      break;
    }
  }
  PetscCall(PetscLogEventEnd(MAT_PELLR_Predict, NULL, NULL, NULL, NULL));
  PetscCheck(best < PETSC_INFINITY, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "No feasible storage format among the candidates");
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PellrPredictionView(PetscViewer viewer, const PellrFeatures *f, const PellrPrediction *p)
{
  PetscInt64 lo = PellrIntervalLo(p->interval), hi = PellrIntervalHi(p->interval);
  char       amort[128];

  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "storage-format prediction (model: %s)\n", p->model));
  PetscCall(PetscViewerASCIIPushTab(viewer));
  if (f) PetscCall(PellrFeaturesView(viewer, f));
  if (PellrProductsInfinite(p->expected_products)) PetscCall(PetscStrncpy(amort, "conversion cost ignored (infinitely many products)", sizeof(amort)));
  else PetscCall(PetscSNPrintf(amort, sizeof(amort), "conversion amortized over %g products", (double)p->expected_products));
  if (hi < 0) PetscCall(PetscViewerASCIIPrintf(viewer, "row interval %" PetscInt_FMT ": rows >= %" PetscInt64_FMT "; %s\n", p->interval, lo, amort));
  else PetscCall(PetscViewerASCIIPrintf(viewer, "row interval %" PetscInt_FMT ": rows in [%" PetscInt64_FMT ", %" PetscInt64_FMT "); %s\n", p->interval, lo, hi, amort));
  PetscCall(PetscViewerASCIIPrintf(viewer, "candidate  feasible  slots            bytes          TC (s)       Ts (s)       Tp (s)  total (s)\n"));
  for (PetscInt c = 0; c < PELLR_NCAND; c++) {
    PetscCall(PetscViewerASCIIPrintf(viewer, "%-9s  %-8s  %-15" PetscInt64_FMT "  %-13.6g  %-11.4e  %-11.4e  %-6g  %.4e%s\n", PellrCandidateNames[c], p->feasible[c] ? "yes" : "no", f ? f->slots[c] : (PetscInt64)-1, f ? (double)(f->bytes[c] - PellrDiagonalIndexBytes(f, (PellrCandidate)c, p->diagonal)) : -1.0, (double)p->tc[c], (double)p->ts[c], (double)p->tp[c], (double)p->total[c], (PellrCandidate)c == p->choice ? "  <- chosen" : ""));
  }
  if (p->diagonal && f && f->dkept[PELLR_CAND_SELL] >= 0) PetscCall(PetscViewerASCIIPrintf(viewer, "bytes: without the column indices of the diagonal slices kept (the model is of version 4 or later)\n"));
  if (p->csr_efficiency > 0) PetscCall(PetscViewerASCIIPrintf(viewer, "analytic model: CSR streams at %.3g of the copy bandwidth on these rows (0.6 on uniform rows, up to 0.9 where neighbouring rows differ in length)\n", (double)p->csr_efficiency));
  PetscCall(PetscViewerASCIIPrintf(viewer, "Tp = 0 for every candidate: the result rearrangement is fused into the SpMV kernels\n"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "the totals count each format's conversion as at least the CSR's (built from it on the device)\n"));
  PetscCall(PetscViewerASCIIPrintf(viewer, "choice: %s\n", PellrCandidateNames[p->choice]));
  PetscCall(PetscViewerASCIIPopTab(viewer));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------------------------------ NNLS */

/* least squares on the columns P[0..np-1] of A (column-major, lda = m): z[P[j]] = solution, by Householder QR */
static PetscErrorCode PellrLSQ(PetscInt m, const PetscReal A[], const PetscReal b[], PetscInt np, const PetscInt P[], PetscReal z[], PetscReal *work)
{
  PetscReal *Q = work, *r = work + m * np, x[16];

  PetscFunctionBegin;
  PetscCheck(np <= 16, PETSC_COMM_SELF, PETSC_ERR_SUP, "At most 16 unknowns");
  for (PetscInt j = 0; j < np; j++)
    for (PetscInt i = 0; i < m; i++) Q[i + j * m] = A[i + P[j] * m];
  for (PetscInt i = 0; i < m; i++) r[i] = b[i];
  for (PetscInt j = 0; j < np && j < m; j++) { /* Householder reflection of column j, applied to the rest and to r */
    PetscReal nrm = 0, alpha, vtv, *v = Q + j * m;
    for (PetscInt i = j; i < m; i++) nrm += v[i] * v[i];
    nrm   = PetscSqrtReal(nrm);
    alpha = v[j] > 0 ? -nrm : nrm;
    if (nrm == 0) continue;
    v[j] -= alpha;
    vtv = 0;
    for (PetscInt i = j; i < m; i++) vtv += v[i] * v[i];
    for (PetscInt k = j + 1; k < np; k++) {
      PetscReal s = 0, *w = Q + k * m;
      for (PetscInt i = j; i < m; i++) s += v[i] * w[i];
      s = 2 * s / vtv;
      for (PetscInt i = j; i < m; i++) w[i] -= s * v[i];
    }
    {
      PetscReal s = 0;
      for (PetscInt i = j; i < m; i++) s += v[i] * r[i];
      s = 2 * s / vtv;
      for (PetscInt i = j; i < m; i++) r[i] -= s * v[i];
    }
    v[j] = alpha; /* R(j,j); R(j,k) = Q[j + k m] for k > j */
  }
  for (PetscInt j = np - 1; j >= 0; j--) {
    PetscReal s = j < m ? r[j] : 0, d = j < m ? Q[j + j * m] : 0, dmax = 0;
    for (PetscInt k = j + 1; k < np; k++) s -= Q[j + k * m] * x[k];
    for (PetscInt k = 0; k < np && k < m; k++) dmax = PetscMax(dmax, PetscAbsReal(Q[k + k * m]));
    x[j] = PetscAbsReal(d) > 1e-12 * dmax ? s / d : 0; /* a dependent column gets 0 (then leaves the passive set) */
  }
  for (PetscInt j = 0; j < np; j++) z[P[j]] = x[j];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PellrNNLS - min ||A x - b||_2 subject to x >= 0 (Lawson and Hanson 1974, algorithm NNLS), A m x n column-major, n <= 16.
  rnorm (optional) is the residual norm.
*/
PetscErrorCode PellrNNLS(PetscInt m, PetscInt n, const PetscReal A[], const PetscReal b[], PetscReal x[], PetscReal *rnorm)
{
  PetscInt   P[16], np = 0, iter = 0;
  PetscBool  passive[16], tried[16];
  PetscReal  w[16], z[16], *res, *work, anorm = 0;

  PetscFunctionBegin;
  PetscCheck(n >= 1 && n <= 16 && m >= 1, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "NNLS of %" PetscInt_FMT " x %" PetscInt_FMT ": need m >= 1 and 1 <= n <= 16", m, n);
  PetscCall(PetscMalloc2(m, &res, m * (n + 1), &work));
  for (PetscInt j = 0; j < n; j++) {
    x[j]       = 0;
    passive[j] = PETSC_FALSE;
    tried[j]   = PETSC_FALSE;
  }
  for (PetscInt i = 0; i < m * n; i++) anorm = PetscMax(anorm, PetscAbsReal(A[i]));
  while (iter++ < 3 * n + 10) {
    PetscInt  t    = -1;
    PetscReal wmax = 0, bn = 0;

    for (PetscInt i = 0; i < m; i++) {
      res[i] = b[i];
      for (PetscInt j = 0; j < n; j++) res[i] -= A[i + j * m] * x[j];
      bn = PetscMax(bn, PetscAbsReal(b[i]));
    }
    for (PetscInt j = 0; j < n; j++) {
      w[j] = 0;
      for (PetscInt i = 0; i < m; i++) w[j] += A[i + j * m] * res[i];
      if (!passive[j] && !tried[j] && w[j] > wmax) {
        wmax = w[j];
        t    = j;
      }
    }
    if (t < 0 || wmax <= 1e-13 * anorm * (bn + anorm) * m) break; /* Kuhn-Tucker conditions hold */
    passive[t] = PETSC_TRUE;
    P[np++]    = t;
    for (PetscBool first = PETSC_TRUE;; first = PETSC_FALSE) { /* inner loop: solve on the passive set, step back while some passive z <= 0 */
      PetscReal alpha = 2;
      PetscInt  nq = 0, qmin = -1;

      PetscCall(PellrLSQ(m, A, b, np, P, z, work));
      if (first && z[t] <= 0) { /* the new column does not help (round-off): reject it for this round */
        passive[t] = PETSC_FALSE;
        tried[t]   = PETSC_TRUE;
        np--;
        break;
      }
      for (PetscInt j = 0; j < np; j++) {
        PetscInt q = P[j];
        if (z[q] <= 0 && x[q] / (x[q] - z[q]) < alpha) {
          alpha = x[q] / (x[q] - z[q]);
          qmin  = q;
        }
      }
      if (alpha > 1) {
        for (PetscInt j = 0; j < np; j++) x[P[j]] = z[P[j]];
        for (PetscInt j = 0; j < n; j++) tried[j] = PETSC_FALSE;
        break;
      }
      for (PetscInt j = 0; j < np; j++) x[P[j]] += alpha * (z[P[j]] - x[P[j]]);
      x[qmin] = 0; /* the variable that reached its bound first (at least one leaves, so the loop ends) */
      for (PetscInt j = 0; j < np; j++) {
        PetscInt q = P[j];
        if (x[q] <= 1e-15 * PetscAbsReal(z[q]) || x[q] <= 0) {
          x[q]       = 0;
          passive[q] = PETSC_FALSE;
        } else P[nq++] = q;
      }
      np = nq;
    }
  }
  if (rnorm) {
    PetscReal s = 0;
    for (PetscInt i = 0; i < m; i++) {
      PetscReal r = b[i];
      for (PetscInt j = 0; j < n; j++) r -= A[i + j * m] * x[j];
      s += r * r;
    }
    *rnorm = PetscSqrtReal(s);
  }
  PetscCall(PetscFree2(res, work));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------------------------------ fitting */

static inline PetscBool PellrValidTime(PetscReal t)
{
  return (PetscBool)(!PetscIsInfOrNanReal(t) && t > 0);
}

/* the regressors of Ts (tc = PETSC_FALSE: PELLR_PRED_NTS of them) or TC (PELLR_PRED_NTC) of candidate c; l2_bytes:
   the effective L2 capacity (PellrHardware.l2_mb); diagonal (version-4 models): the diagonal slices the layout keeps
   read no column index, 4 bytes a slot fewer in the stream */
static void PellrRegressors(const PellrFeatures *f, PellrCandidate c, PetscBool tc, PetscReal l2_bytes, PetscBool diagonal, PetscReal a[])
{
  a[0] = 1;
  if (!tc) {
    const PetscReal G = f->xsec[c] >= 0 ? 32.0 * f->xsec[c] : 8.0 * (PetscReal)f->nnz;
    const PetscReal S = PetscMax(f->bytes[c] - G - PellrDiagonalIndexBytes(f, c, diagonal), 0.0);
    const PetscReal h = S <= l2_bytes ? 1.0 : (l2_bytes / S) * (l2_bytes / S);

    a[1] = (PetscReal)f->work[c];
    a[2] = h * S;
    a[3] = (PetscReal)f->crit[c];
    a[4] = (PetscReal)f->launches[c];
    a[5] = (1 - h) * S;
    a[6] = G;
  } else {
    a[1] = (PetscReal)f->nnz;
    a[2] = (PetscReal)f->m;
    a[3] = (PetscReal)f->slots[c];
    a[4] = (PetscReal)f->maxlen;
  }
}

/*
  Fits one set of coefficients to the samples sel[0..n-1] by NNLS on the relative error, made robust: minimize
  sum_i rho(a_i . x / t_i - 1) over x >= 0 with Huber's rho of threshold PELLR_PRED_HUBER (quadratic within 5%, linear
  beyond, so that a few measurements far off the model, e.g. the noisy smallest ones, do not pull the others out of
  the 5% band), by iteratively reweighted NNLS (rows scaled by 1/t_i and sqrt(weight), columns to unit maximum, then
  unscaled); 20 reweightings from the plain NNLS solution, deterministic.
*/
static PetscErrorCode PellrFitOne(PetscInt n, const PellrSample s[], const PetscInt sel[], PellrCandidate c, PetscBool tc, PetscReal l2_bytes, PetscBool diagonal, PetscReal coef[])
{
  const PetscInt nk = tc ? PELLR_PRED_NTC : PELLR_PRED_NTS;
  PetscReal     *A, *Aw, *b, *bw, scale[PELLR_PRED_NMAX], x[PELLR_PRED_NMAX];

  PetscFunctionBegin;
  PetscCall(PetscMalloc4(nk * n, &A, nk * n, &Aw, n, &b, n, &bw));
  for (PetscInt j = 0; j < nk; j++) scale[j] = 0;
  for (PetscInt i = 0; i < n; i++) {
    const PellrSample *q = &s[sel[i]];
    PetscReal          a[PELLR_PRED_NMAX], t = tc ? q->tc[c] : q->ts[c];

    PellrRegressors(&q->f, c, tc, l2_bytes, diagonal, a);
    for (PetscInt j = 0; j < nk; j++) {
      A[i + j * n] = a[j] / t;
      scale[j]     = PetscMax(scale[j], PetscAbsReal(A[i + j * n]));
    }
    b[i] = 1;
  }
  for (PetscInt j = 0; j < nk; j++) {
    if (scale[j] == 0) scale[j] = 1;
    for (PetscInt i = 0; i < n; i++) A[i + j * n] /= scale[j];
  }
  PetscCall(PellrNNLS(n, nk, A, b, x, NULL));
  for (PetscInt it = 0; it < 20; it++) {
    for (PetscInt i = 0; i < n; i++) {
      PetscReal r = -1, w;
      for (PetscInt j = 0; j < nk; j++) r += A[i + j * n] * x[j];
      w     = PetscAbsReal(r) <= PELLR_PRED_HUBER ? 1 : PetscSqrtReal(PELLR_PRED_HUBER / PetscAbsReal(r));
      bw[i] = w;
      for (PetscInt j = 0; j < nk; j++) Aw[i + j * n] = w * A[i + j * n];
    }
    PetscCall(PellrNNLS(n, nk, Aw, bw, x, NULL));
  }
  for (PetscInt j = 0; j < nk; j++) coef[j] = x[j] / scale[j];
  PetscCall(PetscFree4(A, Aw, b, bw));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PellrModelFit - fits Ts and TC of every candidate in every row interval from the samples (NaN or <= 0: not measured)
  by robust NNLS on the relative error (PellrFitOne()). An interval with fewer than min_samples measurements (min_samples <= 0: 10, about 1.5 times the
  coefficients) is merged with its neighbours, alternately the next larger and the next smaller interval, until it has
  enough; a candidate with too few measurements in all keeps the analytic coefficients of hw (samples = 0 in the file).
*/
PetscErrorCode PellrModelFit(const PellrHardware *hw, PetscInt ns, const PellrSample s[], PetscInt min_samples, PellrModel *model)
{
  PellrModel M;
  PetscInt  *itv, *sel;

  PetscFunctionBegin;
  PetscAssertPointer(model, 5);
  if (ns) PetscAssertPointer(s, 3);
  if (min_samples <= 0) min_samples = 10;
  PetscCall(PellrModelCreateAnalytic(hw, &M));
  M->analytic = PETSC_FALSE;
  PetscCall(PetscStrncpy(M->source, "fit", sizeof(M->source)));
  PetscCall(PetscMalloc2(ns, &itv, ns, &sel));
  for (PetscInt q = 0; q < ns; q++) PetscCall(PellrModelInterval(s[q].f.m, &itv[q]));
  for (PetscInt c = 0; c < PELLR_NCAND; c++) {
    for (PetscInt tc = 0; tc < 2; tc++) {
      for (PetscInt i = 0; i < PELLR_PRED_NINT; i++) {
        PetscInt lo = i, hi = i, n = 0;

        for (PetscBool up = PETSC_TRUE;; up = (PetscBool)!up) {
          n = 0;
          for (PetscInt q = 0; q < ns; q++)
            if (itv[q] >= lo && itv[q] <= hi && PellrValidTime(tc ? s[q].tc[c] : s[q].ts[c])) sel[n++] = q;
          if (n >= min_samples || (lo == 0 && hi == PELLR_PRED_NINT - 1)) break;
          if ((up && hi < PELLR_PRED_NINT - 1) || lo == 0) hi++;
          else lo--;
        }
        if (n < min_samples) continue; /* analytic coefficients */
        PetscCall(PellrFitOne(n, s, sel, (PellrCandidate)c, (PetscBool)tc, 1e6 * M->hw.l2_mb, (PetscBool)(M->version >= 4), tc ? M->coef[c][i].d : M->coef[c][i].c));
        if (!tc) M->coef[c][i].samples = n;
      }
    }
  }
  PetscCall(PetscFree2(itv, sel));
  *model = M;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  PellrModelCrossValidate - k-fold cross-validation by groups: the distinct group ids, in increasing order, go to
  folds 0, 1, ..., k-1, 0, ... so that a group is never split between training and test. For each fold the model is
  fitted (PellrModelFit()) on the other folds and evaluated on this one. fold[] (optional, ns) receives each sample's
  fold. The choice among the candidates measured for a sample uses total = Ts + TC / expected_products (measured and
  predicted alike); it counts as correct when its measured total is within 5% of the best measured total.
*/
PetscErrorCode PellrModelCrossValidate(const PellrHardware *hw, PetscInt ns, const PellrSample s[], PetscInt kfolds, PetscInt min_samples, PetscReal expected_products, PetscInt fold[], PellrCVReport *rep)
{
  PetscInt    *groups, ng = ns, *fo, *rel5, *abs15, *tcrel5, ncorrect = 0;
  PellrSample *train;
  PetscReal    logsum = 0;

  PetscFunctionBegin;
  PetscAssertPointer(rep, 8);
  PetscCheck(expected_products > 0 && !PetscIsNanReal(expected_products), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Expected products must be > 0, not %g", (double)expected_products);
  PetscCall(PetscMemzero(rep, sizeof(*rep)));
  rep->worst = 1;
  PetscCall(PetscMalloc3(ns, &groups, ns, &fo, ns, &train));
  PetscCall(PetscCalloc3(PELLR_NCAND, &rel5, PELLR_NCAND, &abs15, PELLR_NCAND, &tcrel5));
  for (PetscInt q = 0; q < ns; q++) groups[q] = s[q].group;
  PetscCall(PetscSortRemoveDupsInt(&ng, groups));
  if (kfolds < 2 || kfolds > ng) { /* free before the error (-malloc_dump stays clean) */
    PetscCall(PetscFree3(groups, fo, train));
    PetscCall(PetscFree3(rel5, abs15, tcrel5));
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Cross-validation needs 2 <= folds <= groups, not %" PetscInt_FMT " folds of %" PetscInt_FMT " groups", kfolds, ng);
  }
  for (PetscInt q = 0; q < ns; q++) {
    PetscInt loc;
    PetscCall(PetscFindInt(s[q].group, ng, groups, &loc));
    fo[q] = loc % kfolds;
    if (fold) fold[q] = fo[q];
  }
  for (PetscInt k = 0; k < kfolds; k++) {
    PellrModel M;
    PetscInt   nt = 0;

    for (PetscInt q = 0; q < ns; q++)
      if (fo[q] != k) train[nt++] = s[q];
    PetscCall(PellrModelFit(hw, nt, train, min_samples, &M));
    for (PetscInt q = 0; q < ns; q++) {
      PellrPrediction p;
      PetscBool       avail[PELLR_NCAND], sf[PELLR_NCAND], any = PETSC_FALSE;
      PetscReal       meas[PELLR_NCAND], best = PETSC_INFINITY;

      if (fo[q] != k) continue;
      PetscCall(PellrModelPredict(M, &s[q].f, PETSC_INFINITY, NULL, &p));
      PetscCall(PellrFeaturesFeasible(&s[q].f, sf));
      for (PetscInt c = 0; c < PELLR_NCAND; c++) {
        if (PellrValidTime(s[q].ts[c])) {
          PetscReal err = PetscAbsReal(p.ts[c] - s[q].ts[c]);
          rep->ntest[c]++;
          if (err <= 0.05 * s[q].ts[c]) rel5[c]++;
          if (err <= 1.5e-6) abs15[c]++;
        }
        if (PellrValidTime(s[q].tc[c])) {
          rep->tc_ntest[c]++;
          if (PetscAbsReal(p.tc[c] - s[q].tc[c]) <= 0.05 * s[q].tc[c]) tcrel5[c]++;
        }
        avail[c] = (PetscBool)(sf[c] && PellrValidTime(s[q].ts[c]) && (PellrProductsInfinite(expected_products) || (!PetscIsInfOrNanReal(s[q].tc[c]) && s[q].tc[c] >= 0)));
        meas[c]  = avail[c] ? s[q].ts[c] + (PellrProductsInfinite(expected_products) ? 0 : s[q].tc[c] / expected_products) : PETSC_INFINITY;
        if (avail[c]) {
          any  = PETSC_TRUE;
          best = PetscMin(best, meas[c]);
        }
      }
      if (!any) continue;
      PetscCall(PellrModelPredict(M, &s[q].f, expected_products, avail, &p));
      rep->nchoice++;
      if (meas[p.choice] <= 1.05 * best) ncorrect++;
      logsum += PetscLogReal(best / meas[p.choice]);
      rep->worst = PetscMin(rep->worst, best / meas[p.choice]);
    }
    PetscCall(PellrModelDestroy(&M));
  }
  for (PetscInt c = 0; c < PELLR_NCAND; c++) {
    rep->rel5[c]    = rep->ntest[c] ? (PetscReal)rel5[c] / rep->ntest[c] : 0;
    rep->abs15[c]   = rep->ntest[c] ? (PetscReal)abs15[c] / rep->ntest[c] : 0;
    rep->tc_rel5[c] = rep->tc_ntest[c] ? (PetscReal)tcrel5[c] / rep->tc_ntest[c] : 0;
  }
  rep->top1    = rep->nchoice ? (PetscReal)ncorrect / rep->nchoice : 0;
  rep->geomean = rep->nchoice ? PetscExpReal(logsum / rep->nchoice) : 1;
  PetscCall(PetscFree3(groups, fo, train));
  PetscCall(PetscFree3(rel5, abs15, tcrel5));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode PellrCVReportView(PetscViewer viewer, const PellrCVReport *r)
{
  PetscFunctionBegin;
  PetscCall(PetscViewerASCIIPrintf(viewer, "cross-validation: candidate, test samples, Ts within 5%%, Ts within 1.5 us, TC samples, TC within 5%%\n"));
  for (PetscInt c = 0; c < PELLR_NCAND; c++) PetscCall(PetscViewerASCIIPrintf(viewer, "  %-6s %6" PetscInt_FMT "  %.4f  %.4f  %6" PetscInt_FMT "  %.4f\n", PellrCandidateNames[c], r->ntest[c], (double)r->rel5[c], (double)r->abs15[c], r->tc_ntest[c], (double)r->tc_rel5[c]));
  PetscCall(PetscViewerASCIIPrintf(viewer, "  choice: %" PetscInt_FMT " samples, top-1 (within 5%% of the best) %.4f, geometric mean best/chosen %.4f, worst %.4f\n", r->nchoice, (double)r->top1, (double)r->geomean, (double)r->worst));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------------------------------------ developer check */
#if !defined(PELLR_PREDICT_HOST_ONLY) /* the CPU tests compile this file in (its functions are hidden in the library) */

/*
  MatPELLRPredictCheckDevice - copies the row pointers to the GPU, computes the features there and on the host and
  reports whether they are identical field by field (GPU test). Without CUDA: same = PETSC_FALSE with an error.
*/
PetscErrorCode MatPELLRPredictCheckDevice(PetscInt m, PetscInt n, const PetscInt rowptr[], PetscInt long_row_length, PetscBool *same)
{
  PetscFunctionBegin;
  *same = PETSC_FALSE;
#if defined(PETSC_HAVE_CUDA) && !defined(PELLR_PREDICT_HOST_ONLY)
  {
    PellrFeatures fh, fd;
    PetscInt     *d_rp;

    PetscCall(PellrFeaturesCompute(m, n, rowptr, PETSC_MEMTYPE_HOST, long_row_length, &fh));
    PetscCallCUDA(cudaMalloc((void **)&d_rp, (size_t)(m + 1) * sizeof(PetscInt)));
    PetscCallCUDA(cudaMemcpy(d_rp, rowptr, (size_t)(m + 1) * sizeof(PetscInt), cudaMemcpyHostToDevice));
    PetscCall(PellrFeaturesCompute(m, n, d_rp, PETSC_MEMTYPE_CUDA, long_row_length, &fd));
    PetscCallCUDA(cudaFree(d_rp));
    *same = (PetscBool)!memcmp(&fh, &fd, sizeof(fh));
  }
#else
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "MatPELLRPredictCheckDevice() needs PETSc with CUDA");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(PETSC_HAVE_CUDA) && !defined(PELLR_PREDICT_HOST_ONLY)
/* the CSR (rowptr, colidx from the entry of row 0) copied to the GPU */
static PetscErrorCode PellrCopyCSRToDevice(PetscInt m, const PetscInt rowptr[], const PetscInt colidx[], PetscInt **d_rp, PetscInt **d_cj)
{
  const PetscInt64 nnz = m ? (PetscInt64)(rowptr[m] - rowptr[0]) : 0;

  PetscFunctionBegin;
  PetscCallCUDA(cudaMalloc((void **)d_rp, (size_t)(m + 1) * sizeof(PetscInt)));
  PetscCallCUDA(cudaMalloc((void **)d_cj, (size_t)PetscMax(nnz, 1) * sizeof(PetscInt)));
  PetscCallCUDA(cudaMemcpy(*d_rp, rowptr, (size_t)(m + 1) * sizeof(PetscInt), cudaMemcpyHostToDevice));
  if (nnz) PetscCallCUDA(cudaMemcpy(*d_cj, colidx, (size_t)nnz * sizeof(PetscInt), cudaMemcpyHostToDevice));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* all the predictor's features of a CSR in memory of type mtype: PellrChooseFormat()'s calls */
static PetscErrorCode PellrFeaturesAll(PetscInt m, PetscInt n, const PetscInt rowptr[], const PetscInt colidx[], PetscMemType mtype, PetscInt long_row_length, PetscBool locality, PellrFeatures *f)
{
  PetscFunctionBegin;
  PetscCall(PellrFeaturesCompute(m, n, rowptr, mtype, long_row_length, f));
  if (locality) PetscCall(PellrFeaturesAddLocalityImpl(f, rowptr, colidx, mtype, MAT_PELLR_DIAGONAL_AUTO));
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/*
  MatPELLRPredictCheckDeviceLocality - MatPELLRPredictCheckDevice() with the column access as well: the features of the
  CSR (rowptr, colidx from the entry of row 0) with PellrFeaturesAddLocality() on the host against those of a copy on
  the GPU with PellrFeaturesAddLocalityDevice(), field by field (GPU test; 32-bit PetscInt)
*/
PetscErrorCode MatPELLRPredictCheckDeviceLocality(PetscInt m, PetscInt n, const PetscInt rowptr[], const PetscInt colidx[], PetscInt long_row_length, PetscBool *same)
{
  PetscFunctionBegin;
  *same = PETSC_FALSE;
#if defined(PETSC_HAVE_CUDA) && !defined(PELLR_PREDICT_HOST_ONLY)
  PetscCheck(sizeof(PetscInt) == sizeof(int), PETSC_COMM_SELF, PETSC_ERR_SUP, "The GPU features need 32-bit PetscInt");
  {
    PellrFeatures fh, fd;
    PetscInt     *d_rp, *d_cj;

    PetscCall(PellrFeaturesAll(m, n, rowptr, colidx, PETSC_MEMTYPE_HOST, long_row_length, PETSC_TRUE, &fh));
    PetscCall(PellrCopyCSRToDevice(m, rowptr, colidx, &d_rp, &d_cj));
    PetscCall(PellrFeaturesAll(m, n, d_rp, d_cj, PETSC_MEMTYPE_CUDA, long_row_length, PETSC_TRUE, &fd));
    PetscCallCUDA(cudaFree(d_rp));
    PetscCallCUDA(cudaFree(d_cj));
    *same = (PetscBool)!memcmp(&fh, &fd, sizeof(fh));
  }
#else
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "MatPELLRPredictCheckDeviceLocality() needs PETSc with CUDA");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  MatPELLRPredictTimeFeatures - seconds (median of reps) of all the features auto computes for a block (the row-length
  pass, and the column access where PellrFeaturesWantLocality() asks for it) on the host CSR, and on a copy on the GPU
  (the copy not timed: the GPU build makes it anyway); for the benchmark of the prediction's cost
*/
PetscErrorCode MatPELLRPredictTimeFeatures(PetscInt m, PetscInt n, const PetscInt rowptr[], const PetscInt colidx[], PetscInt long_row_length, PetscInt reps, PetscLogDouble *host_s, PetscLogDouble *device_s)
{
  PetscFunctionBegin;
  *host_s = *device_s = -1;
#if defined(PETSC_HAVE_CUDA) && !defined(PELLR_PREDICT_HOST_ONLY)
  PetscCheck(sizeof(PetscInt) == sizeof(int), PETSC_COMM_SELF, PETSC_ERR_SUP, "The GPU features need 32-bit PetscInt");
  PetscCheck(reps >= 1 && reps <= 1000, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "reps must be in 1..1000, not %" PetscInt_FMT, reps);
  {
    PellrFeatures  f;
    PetscInt      *d_rp, *d_cj;
    PetscLogDouble t[2][1000], t0, t1;
    PetscBool      loc;

    PetscCall(PellrFeaturesCompute(m, n, rowptr, PETSC_MEMTYPE_HOST, long_row_length, &f));
    loc = PellrFeaturesWantLocality(&f);
    PetscCall(PellrCopyCSRToDevice(m, rowptr, colidx, &d_rp, &d_cj));
    PetscCall(PellrFeaturesAll(m, n, d_rp, d_cj, PETSC_MEMTYPE_CUDA, long_row_length, loc, &f)); /* warm-up (module loading, pools) */
    for (PetscInt r = 0; r < reps; r++)
      for (int k = 0; k < 2; k++) { /* alternated */
        PetscCallCUDA(cudaDeviceSynchronize());
        PetscCall(PetscTime(&t0));
        PetscCall(PellrFeaturesAll(m, n, k ? d_rp : rowptr, k ? d_cj : colidx, k ? PETSC_MEMTYPE_CUDA : PETSC_MEMTYPE_HOST, long_row_length, loc, &f));
        PetscCall(PetscTime(&t1));
        t[k][r] = t1 - t0;
      }
    PetscCallCUDA(cudaFree(d_rp));
    PetscCallCUDA(cudaFree(d_cj));
    PetscCall(PetscSortReal(reps, t[0]));
    PetscCall(PetscSortReal(reps, t[1]));
    *host_s   = t[0][reps / 2];
    *device_s = t[1][reps / 2];
  }
#else
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "MatPELLRPredictTimeFeatures() needs PETSc with CUDA");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PellrHardwareMeasure() for programs outside the library (the calibration driver) */
PetscErrorCode MatPELLRPredictMeasureHardware(PellrHardware *hw)
{
  PetscFunctionBegin;
#if defined(PETSC_HAVE_CUDA)
  PetscCall(PellrHardwareMeasure(hw));
#else
  SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SUP, "MatPELLRPredictMeasureHardware() needs PETSc with CUDA");
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif
