/* Internal data structures of MATPELLR / MATPELLRCUDA (not installed). */
#pragma once

#include <petscsparsegpu.h>
#include <petsc/private/matimpl.h>

/* Rows per slice of the sliced PELLR layout (one CUDA warp) */
#define PELLR_SLICE 32
/* long rows at least this long are spread over thread blocks on the GPU (chunks of entries), shorter long rows get a warp per row */
#define PELLR_BLOCK_ROW 1024
/* the GPU's block rows: threads per block, and entries per block (a row longer than this is cut into pieces of several
   blocks, so that the longest row does not decide the kernel's time); the format predictor's critical path uses both */
#define PELLR_LONG_THREADS 256
#define PELLR_LONG_CHUNK   4096

/* threads per row on the GPU for a slice of width w: about 16 entries per thread, 1..32 (the layout's thread classes
   and the format predictor's critical path both follow this rule) */
static inline PetscInt PellrThreadsPerRow(PetscInt w)
{
  PetscInt t = 1;
  while (t < 32 && w >= 32 * t) t *= 2;
  return t;
}

/*
  PellrLayout - one sparse block (a SeqAIJ) in PELLR storage, 32-bit indices.

  Sorted order k = 0..m-1 is the stable sort of the rows by length, longest first (perm[k] = original row):
    [0, nlong)            long rows, stored CSR-like without padding: entries longptr[k] .. longptr[k+1]-1;
                          a row is long if it has >= long_row_length entries, or >= 32 entries and the slice it would
                          head would be more than 1/3 padding; on the GPU the first nblock (>= PELLR_BLOCK_ROW
                          entries) are cut into equal chunks of entries, a thread block each (a row may span several:
                          their partial sums are added in order), the others get a warp per row
    [nlong, nrows)        the other non-empty rows, sliced per 32 sorted rows: slice s holds sorted rows
                          nlong + 32 s + r (r = 0..31), width w_s = its longest row, entry j of row r at
                          sliceptr[s] + 32 j + r (column-major in the slice), rlen[32 s + r] = row length
                          (0 for the padding rows of the last slice)
    [nrows, m)            empty rows: never touched by the product kernels except to set y = 0 (or z)
  map[t] is the index in the CSR value array of slot t (-1 for padding): a values-only change is one gather.
  The slices are in nonincreasing width; tclass[c] .. tclass[c+1]-1 are the slices processed with
  2^(5-c) threads per row on the GPU (c = 0: 32 threads ... c = 5: one thread per row).

  The other formats (-mat_pellr_format) use the same arrays:
    SELL  rows in their own order (perm = identity), no long rows, nrows = m (empty rows are rows of length 0 in
          their slice), slice s holds rows 32 s .. 32 s + 31 and is as wide as its longest row; the slices are not
          in nonincreasing width, so sorder lists them grouped by thread class (stably) and the classes
          tclass[c] .. tclass[c+1]-1 are positions in sorder
    ELLR  as SELL, but every slice as wide as the longest row of the block (one class, no sorder)
    CSR   no arrays: the statistics only (the products use the CSR: cuSPARSE on the GPU, SeqAIJ on the host)
  On the GPU (pellrcuda.cu) a slice may also keep its columns as 16-bit offsets (-mat_pellr_cuda_compact_columns), and
  a slice whose 32 rows are all w long with entry j at the same column - row in every row is a diagonal slice
  (-mat_pellr_cuda_diagonal_slices): its products take the w offsets from a table shared by a run of such slices and
  read neither its columns nor its row lengths (which stay stored for the other kernels).
*/
typedef struct {
  MatPELLRFormat format;    /* PELLR, SELL, ELLR (arrays as above) or CSR (statistics only: the products use the CSR) */
  PetscInt    m, n, nnz;    /* rows, columns and stored nonzeros of the block */
  PetscInt    nlong, nrows; /* long rows; rows in the long-row and slice segments (PELLR: the non-empty rows; SELL, ELLR: all m; CSR: non-empty) */
  PetscInt    nonempty;     /* non-empty rows */
  PetscInt    nblock;       /* long rows [0, nblock) have >= PELLR_BLOCK_ROW entries: a thread block per row; the others a warp */
  PetscInt    nslices, nslots;
  PetscInt    tclass[7];
  PetscInt    maxlen;
  int        *perm;     /* [m] (the identity for SELL and ELLR) */
  int        *sorder;   /* SELL only: [nslices] the slices grouped by thread class (stable), tclass indexes it */
  int        *longptr;  /* [nlong+1] */
  int        *sliceptr; /* [nslices+1] */
  int        *rlen;     /* [32 nslices] */
  int        *col;      /* [nslots] */
  int        *map;      /* [nslots] */
  PetscScalar *val;     /* [nslots] */
  /* host diagonal slices (the host type pellr, -mat_pellr_diagonal_slices; the GPU's rule: a slice whose 32 rows are
     all rows of the block, as long as the slice is wide, with entry j on one diagonal in every row): slice s has its
     offsets (column - row) at doff[dptr[s]], -1 for the other slices; runs of slices with equal offsets share them.
     dptr NULL: none used. ndiag, ndiagslots: the diagonal slices found and their slots (also when not used) */
  int       *dptr, *doff;
  PetscInt   ndiag;
  PetscInt64 ndiagslots;
  /* the seed's statistics (Wang & Gu 2020), computed from the row lengths at build time */
  PetscInt64 it_ell, it_ellr, it_pellr;
  PetscReal  perturbation;
} PellrLayout;

typedef struct _p_PellrDevice *PellrDevice; /* device copy of a PellrLayout (pellrcuda.cu) */

/* One AIJ block with its PELLR copy and (lazily) its explicit transpose, with the states they match */
typedef struct {
  PetscBool        built;
  PetscObjectId    id;       /* the SeqAIJ the layout was built from */
  PetscObjectState nzstate;  /* its nonzerostate at build time */
  PetscObjectState hstate;   /* object state the host values match */
  PellrLayout      L;
  PetscBool        tbuilt;   /* explicit transpose (pattern of the current L) */
  PetscObjectState thstate;
  PellrLayout      T;
  PellrDevice      dL, dT;   /* device copies (pellrcuda): uploaded host layouts, or built on the GPU (-mat_pellr_build device) */
  PetscBool        dbuilt;   /* dL (and dT) were built on the GPU, for the pattern did/dnzstate */
  PetscObjectId    did;
  PetscObjectState dnzstate;
  PellrLayout      DI, DTI;  /* statistics of the GPU-built dL and dT (scalars only, no arrays) */
  void            *dspare;   /* the device memory block of the last dropped dL, reused by its next GPU build if it fits (-mat_pellr_cuda_reuse_block) */
  size_t           dsparesize;
  PetscObjectState dstate, dtstate;
  PetscBool        fset;     /* fmt is the format chosen by PellrChooseFormat() for the pattern fid/fnzstate */
  MatPELLRFormat   fmt;
  PetscObjectId    fid;
  PetscObjectState fnzstate;
  struct _n_PellrPredictInfo *pinfo; /* -mat_pellr_format auto on the GPU: the features and prediction behind fmt (pellrpredict.h) */
  PetscInt         nbuild, nrefresh, ntbuild, ntrefresh, nupload, ndrefresh;
} PellrBlock;

/* where pellrcuda builds its layout: on the GPU from the CSR (default), or on the host and copied */
typedef enum {
  MAT_PELLR_BUILD_DEVICE = 0,
  MAT_PELLR_BUILD_HOST   = 1
} MatPELLRBuild;

typedef enum {
  MAT_PELLR_TRANSPOSE_EXPLICIT = 0,
  MAT_PELLR_TRANSPOSE_ATOMIC   = 1
} MatPELLRTransposeMode;

typedef struct {
  MatPELLRFormat        format; /* requested (-mat_pellr_format); the used one is in each block */
  MatPELLRTransposeMode tmode;
  MatPELLRBuild         build;
  PetscInt              long_row_length;
  PetscReal             expected_products; /* -mat_pellr_expected_products: products the conversion is amortized over (auto) */
  PetscReal             max_memory_ratio;  /* -mat_pellr_max_memory_ratio: auto considers only formats whose device footprint is at most this times the CSR's */
  char                  model[PETSC_MAX_PATH_LEN]; /* -mat_pellr_model: calibration file of the predictor ("" = the embedded one) */
  PetscBool             predict_device; /* -mat_pellr_predict_device: the predictor's features on the GPU (from the copy of the CSR the build makes) */
  PetscBool             cuda; /* pellrcuda: products with cuda vectors run on the GPU */
  PetscBool             mpi;
  Mat                   owner; /* the matrix this data was made for (another one after PETSc's MatHeaderMerge(): PellrGetData()) */
  PellrBlock            d, o; /* diagonal block (the whole matrix when sequential) and off-diagonal block */
  /* sequential: MatAssemblyEnd() increases the object state once after our assemblyend */
  PetscBool             expect;
  PetscObjectState      expect_state;
  /* MPI: ghost values of x */
  VecScatter            sct;
  Vec                   lvec;
  PetscObjectId         sct_id;
  PetscObjectState      sct_nzstate;
  /* the parent's (SeqAIJ or MPIAIJ) operations that we chain to */
  PetscErrorCode (*assemblyend)(Mat, MatAssemblyType);
  PetscErrorCode (*destroy)(Mat);
  PetscErrorCode (*duplicate)(Mat, MatDuplicateOption, Mat *);
  PetscErrorCode (*mult)(Mat, Vec, Vec);
  PetscErrorCode (*multadd)(Mat, Vec, Vec, Vec);
  PetscErrorCode (*multtranspose)(Mat, Vec, Vec);
  PetscErrorCode (*multtransposeadd)(Mat, Vec, Vec, Vec);
  PetscErrorCode (*getdiagonal)(Mat, Vec);
  PetscErrorCode (*view)(Mat, PetscViewer);
  PetscErrorCode (*setfromoptions)(Mat, PetscOptionItems *);
  PetscErrorCode (*creategraph)(Mat, PetscBool, PetscBool, PetscReal, PetscInt, PetscInt[], Mat *);
  PetscErrorCode (*productsetfromoptions)(Mat);
  PetscErrorCode (*transpose)(Mat, MatReuse, Mat *);
  PetscErrorCode (*lufactor)(Mat, IS, IS, const MatFactorInfo *);
  PetscErrorCode (*shift)(Mat, PetscScalar);
  PetscErrorCode (*retrievevalues)(Mat);
  PetscErrorCode (*setpreallocationcoo)(Mat, PetscCount, PetscInt[], PetscInt[]); /* MPI: the parent's MatSetPreallocationCOO_C */
} Mat_PELLR;

PETSC_INTERN PetscLogEvent MAT_PELLR_Build, MAT_PELLR_Refresh, MAT_PELLR_TransposeBuild, MAT_PELLR_CopyToGPU, MAT_PELLR_Mult;

PETSC_INTERN PetscErrorCode PellrLayoutDestroy(PellrLayout *);
PETSC_INTERN PetscErrorCode PellrFormatSlots(MatPELLRFormat, PetscInt, const PetscInt *, PetscInt, PetscInt64 *);
PETSC_INTERN PetscErrorCode PellrChooseFormat(Mat, Mat_PELLR *, PellrBlock *, Mat, PetscBool, MatPELLRFormat *);
/* the auto rule of the csr format's GPU product (our vector kernel or cuSPARSE): also the predictor's csr launches */
#define PELLR_CSR_VECTOR_MIN_ROW   16
#define PELLR_CSR_VECTOR_MAX_RATIO 4
/* diagonal slices, whose entries each lie on one diagonal, read no columns: -mat_pellr_cuda_diagonal_slices on the GPU
   (pellr_diagonal_detect() in pellrcuda.cu), -mat_pellr_diagonal_slices in the host type's layouts (pellr.c) */
typedef enum {
  MAT_PELLR_DIAGONAL_AUTO = 0, /* when at least PELLR_DIAGONAL_MIN_SHARE of the slice slots are in diagonal slices */
  MAT_PELLR_DIAGONAL_ON   = 1, /* whenever a slice is diagonal */
  MAT_PELLR_DIAGONAL_OFF  = 2
} MatPELLRDiagonal;
#define PELLR_DIAGONAL_MIN_SHARE 0.125
/* the rule of both: keep the ndiag diagonal slices found (ndiagslots of the layout's sliceslots slice slots) under mode */
static inline PetscBool PellrDiagonalSlicesKept(MatPELLRDiagonal mode, PetscInt64 ndiag, PetscInt64 ndiagslots, PetscInt64 sliceslots)
{
  if (mode == MAT_PELLR_DIAGONAL_OFF || !ndiag) return PETSC_FALSE;
  return (PetscBool)!(mode == MAT_PELLR_DIAGONAL_AUTO && (PetscReal)ndiagslots < PELLR_DIAGONAL_MIN_SHARE * (PetscReal)sliceslots);
}
PETSC_INTERN const char *const MatPELLRDiagonals[];
PETSC_INTERN PetscErrorCode PellrHostDiagonalSlicesMode(MatPELLRDiagonal *);
#if defined(PETSC_HAVE_CUDA)
PETSC_INTERN PetscErrorCode PellrDeviceUpload(const PellrLayout *, PellrDevice *);
PETSC_INTERN PetscErrorCode PellrDeviceRefresh(PellrDevice, const PetscScalar *, PetscInt);
PETSC_INTERN PetscErrorCode PellrDeviceDestroy(PellrDevice *);
PETSC_INTERN PetscErrorCode PellrDeviceMult(PellrDevice, const PetscScalar *, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode PellrDeviceSetOverlap(PetscBool, PetscInt);
PETSC_INTERN PetscErrorCode PellrDeviceGetOverlap(PetscBool *, PetscInt *);
/* -mat_pellr_cuda_compact_columns: 16-bit column offsets of the GPU slices (PellrDeviceCompactColumns() in pellrcuda.cu) */
typedef enum {
  MAT_PELLR_COMPACT_AUTO = 0, /* the block has at least PELLR_COMPACT_MIN_NNZ entries, PELLR_COMPACT_MIN_ROW a non-empty row on average, and PELLR_COMPACT_MIN_FIT of its slices fit */
  MAT_PELLR_COMPACT_ON   = 1, /* every slice that fits */
  MAT_PELLR_COMPACT_OFF  = 2
} MatPELLRCompact;
#define PELLR_COMPACT_MIN_ROW 16
#define PELLR_COMPACT_MIN_NNZ (1 << 24)
#define PELLR_COMPACT_MIN_FIT 0.98
PETSC_INTERN const char *const MatPELLRCompacts[];
PETSC_INTERN PetscErrorCode PellrDeviceSetCompactColumns(MatPELLRCompact);
PETSC_INTERN PetscErrorCode PellrDeviceGetCompactColumns(MatPELLRCompact *);
PETSC_INTERN PetscErrorCode PellrDeviceGetCompactSlices(PellrDevice, PetscInt *);
PETSC_INTERN PetscErrorCode PellrDeviceSetDiagonalSlices(MatPELLRDiagonal);
PETSC_INTERN PetscErrorCode PellrDeviceGetDiagonalSlices(MatPELLRDiagonal *);
PETSC_INTERN PetscErrorCode PellrDeviceDiagonalSlicesMode(MatPELLRDiagonal *);
PETSC_INTERN PetscErrorCode PellrDeviceGetDiagonalSliceCount(PellrDevice, PetscInt *, PetscInt64 *);
/* -mat_pellr_cuda_csr_kernel: the GPU product of the csr format (PellrCSRKernelSetUp() in pellrcuda.cu) */
typedef enum {
  MAT_PELLR_CSR_KERNEL_AUTO     = 0, /* ours on rows of regular length: PELLR_CSR_VECTOR_MIN_ROW entries a row on average, none over PELLR_CSR_VECTOR_MAX_RATIO times that; else cuSPARSE */
  MAT_PELLR_CSR_KERNEL_CUSPARSE = 1,
  MAT_PELLR_CSR_KERNEL_VECTOR   = 2, /* ours, always */
  MAT_PELLR_CSR_KERNEL_STREAM   = 3  /* opt-in: row blocks through shared memory (the vector kernel where a block would not fit) */
} MatPELLRCSRKernel;
PETSC_INTERN const char *const MatPELLRCSRKernels[];
PETSC_INTERN PetscErrorCode PellrDeviceSetCSRKernel(MatPELLRCSRKernel, PetscInt, PetscInt);
PETSC_INTERN PetscErrorCode PellrDeviceGetCSRKernel(MatPELLRCSRKernel *, PetscInt *, PetscInt *);
PETSC_INTERN PetscErrorCode PellrDeviceGetCSRThreads(PellrDevice, PetscInt *, PetscInt *);
PETSC_INTERN PetscErrorCode PellrDeviceMultTransposeAtomic(PellrDevice, const PetscScalar *, const PetscScalar *, PetscScalar *);
PETSC_INTERN PetscErrorCode PellrDeviceGetDiagonal(PellrDevice, PetscScalar *);
PETSC_INTERN PetscErrorCode PellrDeviceStageCSR(PetscInt, const PetscInt *, const PetscInt *, const PetscInt **, const PetscInt **);
PETSC_INTERN PetscErrorCode PellrDeviceStageDrop(void);
PETSC_INTERN PetscErrorCode PellrDeviceBuild(PetscInt, PetscInt, const PetscInt *, const PetscInt *, PetscMemType, PetscInt, MatPELLRFormat, PetscBool, void **, size_t *, PellrLayout *, PellrDevice *);
PETSC_INTERN PetscErrorCode PellrDeviceDestroyKeepBlock(PellrDevice *, void **, size_t *);
PETSC_INTERN PetscErrorCode PellrDeviceFreeBlock(void **, size_t *);
PETSC_INTERN PetscErrorCode PellrDeviceSetReuseBlock(PetscBool);
PETSC_INTERN PetscErrorCode PellrDeviceGetReuseBlock(PetscBool *);
PETSC_INTERN PetscErrorCode PellrDeviceUploadValues(PellrDevice, const PetscScalar *, PetscMemType, const PetscScalar **);
PETSC_INTERN PetscErrorCode PellrDeviceSetValues(PellrDevice, const PetscScalar *);
PETSC_INTERN PetscErrorCode PellrDeviceReleaseValues(PellrDevice);
PETSC_INTERN PetscErrorCode PellrDeviceDownload(PellrDevice, PellrLayout *);
PETSC_INTERN PetscErrorCode PellrDeviceWarpIterationsPELLR(PellrDevice, PetscInt64 *);
#endif
