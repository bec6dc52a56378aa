/*
  Storage-format predictor of MATPELLR / MATPELLRCUDA (internal, not installed).

  At final assembly the matrix type computes structural features of a block from its CSR row pointers
  (PellrFeaturesCompute(), on the GPU when the row pointers are there), predicts the time of one SpMV of every
  candidate storage format with a model (PellrModelPredict()) and keeps the predicted-fastest. The model is either a
  calibration file (PellrModelLoad(), fitted by PellrModelFit() from measurements) or the analytic fallback
  (PellrModelCreateAnalytic()); README.md (section "Storage-format prediction") documents both.

  Per candidate c, T_c = Ts_c + Tp_c + TC_c / expected_products:
    Ts_c = c0 + c1 work_c + c2 h S_c + c3 crit_c + c4 launches_c + c5 (1 - h) S_c + c6 G_c
                                                        (SpMV device time; coefficients per row-count interval)
           S_c = bytes_c - G_c: the bytes of the format's arrays, x and y streamed once; G_c: the gathers of x
           (32 xsec_c, or 8 nnz without column indices); h = 1 when S_c <= L2 (the hardware's effective L2
           capacity, l2_mb), else (L2 / S_c)^2: the share of a product's stream that back-to-back products find in
           L2 (an SpMV inside a Krylov loop rereads the same arrays), so c2 is an L2 and c5 a DRAM cost per byte.
           A version-2 model (Ts = c0 + c1 work + c2 bytes + c3 crit + c4 launches) is the case c5 = c6 = c2.
    TC_c = d0 + d1 nnz + d2 m + d3 slots_c + d4 maxlen   (conversion time from the host CSR, including its upload;
                                                        maxlen: the build kernels' longest chain, a thread per row,
                                                        version 5; older models read with d4 = 0)
    Tp_c = 0                                            (result rearrangement: fused into the kernels)

  Wiring (pellrcuda's final assembly, per sequential block with CSR row pointers ai of memory type mtype):
    PellrModel      model;                      borrowed: never destroyed by the caller
    PellrFeatures   f;
    PellrPrediction pred;
    PetscCall(PellrPredictGetModel(model_file_or_NULL, &model));   once per process and file; analytic fallback
    PetscCall(PellrFeaturesCompute(m, n, ai, mtype, long_row_length, &f));
    PetscCall(PellrModelPredict(model, &f, expected_products, implemented_formats_or_NULL, &pred));
    use pred.choice (unless a format is forced); -mat_view ::ascii_info: PellrPredictionView(viewer, &f, &pred)
  Both calls are logged in the event PELLRPredict.
*/
#pragma once

#include <petscsparsegpu.h>
#include <petscviewer.h>
#include <petscdevicetypes.h>
#include "pellrimpl.h" /* MatPELLRDiagonal */

typedef enum {
  PELLR_CAND_CSR,
  PELLR_CAND_ELLR,
  PELLR_CAND_SELL,
  PELLR_CAND_PELLR,
  PELLR_NCAND
} PellrCandidate;

PETSC_INTERN const char *const PellrCandidateNames[]; /* "csr", "ellr", "sell", "pellr" (then the PETSc enum triple) */

#define PELLR_PRED_NHIST 33   /* log2 histogram of row lengths: bucket 0 empty rows, bucket b >= 1 lengths in [2^(b-1), 2^b) */
#define PELLR_PRED_HCAP  1024 /* lengths below this are counted in a table, longer ones listed (at most nnz / 1024 of them) */
#define PELLR_PRED_NINT  8    /* row-count intervals of the model */
#define PELLR_PRED_NTS   7    /* Ts coefficients c0..c6 */
#define PELLR_PRED_NTC   5    /* TC coefficients d0..d4 (d4: model version 5) */
#define PELLR_PRED_DEFAULT_PRODUCTS 100
#define PELLR_DEFAULT_MAX_MEMORY_RATIO 1.15 /* -mat_pellr_max_memory_ratio: the memory target */
#define PELLR_PRED_MODEL_VERSION 5     /* of the model file (PellrModelLoad(); versions 2 to 4 are read as well) */
#define PELLR_PRED_DEFAULT_L2_MB 20    /* effective L2 capacity for the matrix arrays when a model file does not give one */
#define PELLR_PRED_L2_SHARE 0.4        /* effective L2 capacity / the device's L2 (cross-validated on the H200: 0.3-0.5 alike) */
#define PELLR_PRED_SAMPLE_NNZ (1 << 14) /* column access patterns from at most about this many sampled entries (PellrFeaturesAddLocality()) */
#define PELLR_PRED_SAMPLE_ROWS 1024     /* rows per sampled window */
#define PELLR_PRED_SAMPLE_SORT 65536    /* rows per window of PELLR's sorted order */
#define PELLR_PRED_LOCALITY_ROWS (1 << 16) /* blocks with fewer rows ... */
#define PELLR_PRED_LOCALITY_NNZ  (1 << 21) /* ... and fewer entries are not sampled (PellrFeaturesWantLocality()) */
#define PELLR_PRED_DEVICE_ROWS (1 << 14) /* blocks of fewer rows (and fewer than PELLR_PRED_LOCALITY_NNZ entries) keep the host features: below this the GPU pass costs its floor of 36-45 us, the host 5-38 us (session 39 on an H100, feature-times-small.csv; 1 << 13 before) */
#define PELLR_PRED_HUBER 0.05           /* the fit's robust (Huber) threshold on the relative error */

/*
  PellrFeatures - structural features of an m x n CSR block.
  Warp iterations: a warp (32 consecutive rows, one thread each) iterates as often as its longest row.
    it_ell   ceil(m/32) * maxlen                                       (ELL: one width for all)
    it_ellr  sum over 32-row groups of the original order of the group's longest row (ELLR with per-row lengths)
    it_sell  the same sum (SELL: 32-row slices of their own width in the original order)
    it_pellr the seed's PELLR count: the same after a stable sort by decreasing length (all rows, MatPELLRWarpIterations())
    it_pslice PELLR as stored here: sum over the slices that follow the long rows of the slice's first (longest) row
  work[c]: warp iterations of candidate c (CSR: ceil(nnz/32); PELLR: it_pslice + sum over long rows of ceil(len/32))
  crit[c]: the critical path: iterations of the longest sequential chain of one thread, summed over the kernels the
    product launches one after the other (each ends with its longest chain; a few wide slices in a kernel of their own
    cost their whole chain): CSR ceil(maxlen/32) (a warp per row at worst); ELLR ceil(maxlen / threads per row);
    SELL the sum over its thread classes of ceil(widest slice of the class / threads per row); PELLR the same over its
    slice classes plus ceil(longest block row / 256) and ceil(longest warp row / 32)
  slots[c]: stored value slots (CSR nnz, ELLR m*maxlen, SELL 32*it_sell, PELLR nnz_long + 32*it_pslice)
  launches[c]: kernel launches of one product: CSR 2 where cuSPARSE computes it, 1 where our vector kernel does
            (PELLR_CSR_VECTOR_MIN_ROW / PELLR_CSR_VECTOR_MAX_RATIO, the rule of -mat_pellr_cuda_csr_kernel auto: a
            cuSPARSE product costs about 3.5 us more on the H200, 8 against 4.5 us on the smallest); ELLR 1; SELL one per thread class (PellrThreadsPerRow() of the
            slice widths) present; PELLR one per class of its slices, one for block rows, one for warp rows, one for empty rows
  bytes[c]: bytes one product moves, counted in 32-byte sectors where the access pattern leaves sectors partly used:
            row metadata, x once (8n), y once (8m), and the value (8 bytes) and column index (4 bytes) of every entry:
    CSR   12 nnz + 4(m+1)
    ELLR, SELL  32 (q4 + q8) + metadata (4m ELLR, 4(ceil(m/32)+1) SELL): a warp step j reads the value sectors of the
          4-lane groups and the index sectors of the 8-lane groups with a row longer than j (padding past the rows of
          such a group is never read), q4 / q8 = sums over the aligned 4- / 8-row groups of their longest row
    PELLR 12 nnz_long + 32 (q4 + q8 of the sorted slices) + 4m (perm) + 4*32 nslices (lengths) + 4(nslices+1) + 4(nlong+1)
          With PellrFeaturesAddLocality() (the column indices) also the gathers of x: 32 bytes per sector of x a warp step
          reads that the same warp did not read at its previous step (xsec[c], estimated from sampled rows: in the
          format's own order: CSR the mean of 32 consecutive entries of a row and ELLR's count, ELLR/SELL step j of 32 consecutive rows, PELLR step j
          of 32 rows of equal length in the sorted order, which may lie far apart), and PELLR's scattered writes of y
          (32 bytes per sector of y a slice writes instead of 8 per row). Without it (row pointers only) xsec[c] = -1 and
          every format is charged nnz/4 sectors (dense gathers: no format favoured).
  dfound[c], dkept[c]: the slots of c's diagonal slices (-mat_pellr_cuda_diagonal_slices: 32 rows as long as the slice
            is wide, entry j on one diagonal in every row; ELLR's slices are as wide as the longest row, CSR has none),
            estimated from the sampled groups and slices of PellrFeaturesAddLocality() (exact when the block is sampled
            whole), and those the layout keeps under the mode (auto: at least PELLR_DIAGONAL_MIN_SHARE of the slice
            slots). A version-4 model takes their column indices (4 bytes a slot) out of bytes[c]; bytes[c] itself
            does not, so that version-2 and -3 models predict as they were fitted.
*/
typedef struct {
  PetscInt   m, n, long_row_length;
  PetscInt64 nnz;
  PetscInt   empty, maxlen;
  PetscReal  mean, stddev;
  PetscInt64 hist[PELLR_PRED_NHIST];
  PetscInt64 it_ell, it_ellr, it_sell, it_pellr, it_pslice;
  PetscReal  perturbation;
  PetscInt   nlong, nblock, nslices; /* PELLR: long rows (nblock of them a block per row), slices */
  PetscInt64 nnz_long;
  PetscReal  long_fraction; /* nnz_long / nnz */
  PetscInt64 work[PELLR_NCAND], crit[PELLR_NCAND], slots[PELLR_NCAND];
  PetscInt64 launches[PELLR_NCAND];
  PetscInt64 q4_nat, q8_nat, q4_srt, q8_srt; /* sums of the longest row of the aligned 4- and 8-row groups: original order, PELLR's sorted slices */
  PetscInt   long_min;                       /* shortest long row of PELLR (0: none) */
  PetscReal  bytes[PELLR_NCAND];
  PetscReal  xsec[PELLR_NCAND];  /* column access (PellrFeaturesAddLocality()): sectors of x read anew per product; -1: not computed */
  PetscReal  ysec_pellr;         /* sectors of y PELLR's slices write (scattered by the sort); -1: not computed */
  PetscInt64 sampled;            /* entries the access patterns were sampled from */
  PetscReal  dfound[PELLR_NCAND]; /* slots in diagonal slices (PellrFeaturesAddLocality(), estimated from the sampled slices); -1: not computed */
  PetscReal  dkept[PELLR_NCAND];  /* those the GPU layout keeps under the -mat_pellr_cuda_diagonal_slices mode given (0 or dfound[c]); -1: not computed */
} PellrFeatures;

typedef struct {
  char      gpu[128];     /* device name (cudaDeviceProp.name), "analytic" for a device-independent model */
  PetscInt  sm;           /* multiprocessors (0: any) */
  PetscReal copy_gbs;     /* device-to-device copy bandwidth, GB/s */
  PetscReal h2d_gbs;      /* host-to-device bandwidth, GB/s */
  PetscReal launch_us;    /* kernel launch latency, microseconds */
  PetscReal l2_mb;        /* effective L2 capacity for a product's arrays, MB (10^6 bytes; Ts's h) */
} PellrHardware;

typedef struct {
  PetscInt  samples;               /* calibration samples the coefficients were fitted from (0: analytic coefficients) */
  PetscReal c[PELLR_PRED_NTS];     /* Ts = c0 + c1 work + c2 h S + c3 crit + c4 launches + c5 (1 - h) S + c6 G (seconds) */
  PetscReal d[PELLR_PRED_NTC];     /* TC = d0 + d1 nnz + d2 m + d3 slots + d4 maxlen (seconds) */
} PellrModelCoef;

typedef struct _n_PellrModel *PellrModel;
struct _n_PellrModel {
  PellrHardware  hw;
  PetscBool      analytic;                              /* created by PellrModelCreateAnalytic() */
  PetscInt       version;                               /* of its file (2 to 5); fitted and analytic models: PELLR_PRED_MODEL_VERSION. 4: diagonal slices read no column index; 5: TC's d4 */
  char           source[PETSC_MAX_PATH_LEN];            /* file name, "embedded", or "analytic" */
  PellrModelCoef coef[PELLR_NCAND][PELLR_PRED_NINT];
};

typedef struct {
  PetscReal      tc[PELLR_NCAND], ts[PELLR_NCAND], tp[PELLR_NCAND], total[PELLR_NCAND];
  PetscBool      feasible[PELLR_NCAND];
  PetscReal      expected_products;
  PetscInt       interval;
  PellrCandidate choice;
  PetscBool      diagonal;                  /* the model (version 4 or later) takes the kept diagonal slices' column indices out of the bytes */
  PetscReal      csr_efficiency;            /* analytic model: CSR's share of the copy bandwidth for these rows (PellrAnalyticCSREfficiency()); 0: calibrated */
  char           model[PETSC_MAX_PATH_LEN]; /* the model's source */
} PellrPrediction;

/* what a pellrcuda block chose with -mat_pellr_format auto (PellrBlock.pinfo), for -mat_view */
struct _n_PellrPredictInfo {
  PellrFeatures   f;
  PellrPrediction pred;
};

/* one calibration measurement: features of a matrix block, measured Ts and TC per candidate in seconds (NaN: not measured or infeasible) */
typedef struct {
  PetscInt      group; /* matrices of one family share a group id: cross-validation never splits a group */
  PellrFeatures f;
  PetscReal     ts[PELLR_NCAND], tc[PELLR_NCAND];
} PellrSample;

/* cross-validation results per candidate (Ts) and of the choice */
typedef struct {
  PetscInt  ntest[PELLR_NCAND];    /* test samples with a measured Ts */
  PetscReal rel5[PELLR_NCAND];     /* fraction with |pred - meas| <= 0.05 meas */
  PetscReal abs15[PELLR_NCAND];    /* fraction with |pred - meas| <= 1.5 us */
  PetscReal tc_rel5[PELLR_NCAND];  /* the same for TC: fraction within 5% */
  PetscInt  tc_ntest[PELLR_NCAND];
  PetscInt  nchoice;               /* test samples with at least one candidate measured */
  PetscReal top1;                  /* fraction whose choice's measured total is within 5% of the best measured */
  PetscReal geomean;               /* geometric mean of best / chosen measured total (1 = always the best) */
  PetscReal worst;                 /* smallest best / chosen */
} PellrCVReport;

PETSC_INTERN PetscErrorCode PellrPredictRegister_Private(void);
PETSC_INTERN PetscLogEvent  MAT_PELLR_Predict;

PETSC_INTERN PetscErrorCode PellrFeaturesCompute(PetscInt, PetscInt, const PetscInt *, PetscMemType, PetscInt, PellrFeatures *);
PETSC_INTERN PetscErrorCode PellrFeaturesAddLocality(PellrFeatures *, const PetscInt *, const PetscInt *, MatPELLRDiagonal);
PETSC_INTERN PetscErrorCode PellrFeaturesAddLocalityDevice(PellrFeatures *, const PetscInt *, const PetscInt *, MatPELLRDiagonal); /* CSR in GPU memory */

/* whether the prediction (PellrChooseFormat()) and the calibration (MatPELLRCalibrationAddSample()) sample a block's
   column access: not for blocks of fewer than 2^16 rows and 2^21 entries. Their products are bound by launches and
   latencies: on session 21's 119 H200 training matrices of that size, the built-in (version 2) and the version-3
   models chose exactly the same formats without the sampled access as with it (on larger blocks they did not), while
   the sampling cost a median 2.3 times their whole GPU conversion (bench/results/2026-12-04-CPU-session33). */
static inline PetscBool PellrFeaturesWantLocality(const PellrFeatures *f)
{
  return (PetscBool)(f->m >= PELLR_PRED_LOCALITY_ROWS || f->nnz >= PELLR_PRED_LOCALITY_NNZ);
}
PETSC_INTERN PetscErrorCode PellrPredictSetThreads(PetscInt); /* host threads of the feature passes (-mat_pellr_predict_threads, process-wide; 0: the default) */
PETSC_INTERN PetscErrorCode PellrPredictGetThreads(PetscInt *);
PETSC_INTERN PetscErrorCode PellrFeaturesFeasible(const PellrFeatures *, PetscBool[]);
PETSC_INTERN PetscErrorCode PellrFeaturesView(PetscViewer, const PellrFeatures *);

PETSC_INTERN PetscErrorCode PellrHardwareDefault(PellrHardware *);
PETSC_INTERN PetscErrorCode PellrModelCreateAnalytic(const PellrHardware *, PellrModel *);
PETSC_INTERN PetscErrorCode PellrModelLoad(const char[], PellrModel *);
PETSC_INTERN PetscErrorCode PellrModelLoadString(const char[], const char[], PellrModel *);
PETSC_INTERN PetscErrorCode PellrModelLoadDefault(const char[], const char[], PetscInt, PellrModel *);
PETSC_INTERN PetscInt       PellrModelEmbeddedCount(void);
PETSC_INTERN PetscErrorCode PellrModelLoadEmbedded(PetscInt, PellrModel *);
PETSC_INTERN PetscErrorCode PellrModelWrite(PellrModel, const char[]);
PETSC_INTERN PetscErrorCode PellrModelMatchesDevice(PellrModel, const char[], PetscInt, PetscBool *);
PETSC_INTERN PetscErrorCode PellrModelDestroy(PellrModel *);
PETSC_INTERN PetscErrorCode PellrModelInterval(PetscInt, PetscInt *);
PETSC_INTERN PetscErrorCode PellrPredictGetModel(const char[], PellrModel *);

PETSC_INTERN PetscErrorCode PellrModelPredict(PellrModel, const PellrFeatures *, PetscReal, const PetscBool[], PellrPrediction *);
PETSC_INTERN PetscErrorCode PellrPredictionView(PetscViewer, const PellrFeatures *, const PellrPrediction *);

PETSC_INTERN PetscErrorCode PellrNNLS(PetscInt, PetscInt, const PetscReal[], const PetscReal[], PetscReal[], PetscReal *);
PETSC_INTERN PetscErrorCode PellrModelFit(const PellrHardware *, PetscInt, const PellrSample[], PetscInt, PellrModel *);
PETSC_INTERN PetscErrorCode PellrModelCrossValidate(const PellrHardware *, PetscInt, const PellrSample[], PetscInt, PetscInt, PetscReal, PetscInt[], PellrCVReport *);
PETSC_INTERN PetscErrorCode PellrCVReportView(PetscViewer, const PellrCVReport *);
PETSC_INTERN void           PellrCandidatesWithinMemory(const PellrFeatures *, PetscBool, PetscBool, PetscReal, PetscBool[]); /* pellr.c: auto's memory budget */

/*
  Exported for programs outside the library (all the above are hidden in libpetscsparsegpu.so; such programs, like the
  CPU tests and a calibration driver, compile pellrpredict.c in with PELLR_PREDICT_HOST_ONLY defined and reach the GPU
  through these):
    MatPELLRPredictCheckDevice()      features from row pointers copied to the GPU equal the host's, field by field
    MatPELLRPredictCheckDeviceLocality()  the same with the column access (PellrFeaturesAddLocalityDevice())
    MatPELLRPredictTimeFeatures()     the features' time on the host and on the GPU (the benchmark of their cost)
    MatPELLRPredictMeasureHardware()  PellrHardwareMeasure(): name, SMs, copy and host-to-device bandwidth, launch latency
*/
PETSC_EXTERN PetscErrorCode MatPELLRPredictCheckDevice(PetscInt, PetscInt, const PetscInt[], PetscInt, PetscBool *);
PETSC_EXTERN PetscErrorCode MatPELLRPredictCheckDeviceLocality(PetscInt, PetscInt, const PetscInt[], const PetscInt[], PetscInt, PetscBool *);
PETSC_EXTERN PetscErrorCode MatPELLRPredictTimeFeatures(PetscInt, PetscInt, const PetscInt[], const PetscInt[], PetscInt, PetscInt, PetscLogDouble *, PetscLogDouble *);
PETSC_EXTERN PetscErrorCode MatPELLRPredictMeasureHardware(PellrHardware *);

/* the summary of the row lengths both paths compute (host loop, or one GPU pass), from which all features follow */
typedef struct {
  PetscInt64  cnt[PELLR_PRED_HCAP]; /* rows of each length < PELLR_PRED_HCAP */
  PetscInt    nbig;                 /* rows of length >= PELLR_PRED_HCAP */
  PetscInt   *big;                  /* their lengths (any order; PellrFeaturesFinish() sorts them) */
  PetscInt64  ellr;                 /* sum over 32-row groups of the group's longest row */
  PetscInt64  q4, q8;               /* the same over the aligned 4- and 8-row groups */
  PetscInt64  gcls[6];              /* 32-row groups by the thread class of their longest row (PellrThreadsPerRow(): 32, 16, ..., 1 threads) */
  PetscInt64  gmax[6];              /* the longest row of each class's groups */
  PetscInt64  pert;                 /* sum over i > 0 of |len_i - len_{i-1}| */
  PetscInt64  nnz;                  /* rowptr[m] - rowptr[0] */
} PellrLengthSummary;

#if defined(PETSC_HAVE_CUDA)
PETSC_INTERN PetscErrorCode PellrLengthSummaryDevice(PetscInt, const PetscInt *, PellrLengthSummary *);
PETSC_INTERN PetscErrorCode PellrDeviceIdentify(char[], size_t, PetscInt *);
PETSC_INTERN PetscErrorCode PellrHardwareMeasure(PellrHardware *);
PETSC_INTERN PetscErrorCode PellrDeviceEffectiveL2(PetscReal *);
#endif
