/*
  PETSc SparseGPU: GPU sparse kernels for unmodified PETSc 3.22 applications.

  Load into any PETSc application with
      -dll_append /path/to/libpetscsparsegpu.so
  (or through PETSC_OPTIONS) and select the components with runtime options:
      -mat_type pellrcuda | pellr            (matrix storage)
      -pc_type subtree_ilu                   (ILU(k)/ICC(k) with sync-free triangular solves)
      -mat_ordering_type gpurcm              (Reverse Cuthill-McKee ordering)
  A program may also link the library and call PetscSparseGPUInitializePackage() itself.
*/
#pragma once

#include <petscmat.h>
#include <petscpc.h>

/* SUBMANSEC = Mat */

/*J
  MATPELLR - "pellr": AIJ on the host with a PELLR (row-length sorted, sliced ELLPACK-R) copy used for host products
  MATPELLRCUDA - "pellrcuda": AIJ on the host with a PELLR copy on the GPU used for products with cuda vectors

  Level: beginner
J*/
#define MATPELLR        "pellr"
#define MATSEQPELLR     "seqpellr"
#define MATMPIPELLR     "mpipellr"
#define MATPELLRCUDA    "pellrcuda"
#define MATSEQPELLRCUDA "seqpellrcuda"
#define MATMPIPELLRCUDA "mpipellrcuda"

/*E
  MatPELLRFormat - Storage of the sequential blocks of a `MATPELLR`/`MATPELLRCUDA` matrix used by the forward products

  Values:
+ `MAT_PELLR_FORMAT_AUTO`  - chosen per block when it is built: by the storage-format predictor for `MATPELLRCUDA`, PELLR for `MATPELLR`
. `MAT_PELLR_FORMAT_PELLR` - rows stably sorted by length, long-row segment, slices of 32 sorted rows of their own width
. `MAT_PELLR_FORMAT_SELL`  - sliced ELLPACK-R: rows in their order, slices of 32 rows of their own width
. `MAT_PELLR_FORMAT_ELLR`  - ELLPACK-R: rows in their order, every slice as wide as the longest row
- `MAT_PELLR_FORMAT_CSR`   - the CSR itself (cuSPARSE SpMV on the GPU, the `MATSEQAIJ` product on the host)

  Level: intermediate

.seealso: `MATPELLR`, `MatPELLRSetFormat()`, `MatPELLRGetFormat()`
E*/
typedef enum {
  MAT_PELLR_FORMAT_AUTO,
  MAT_PELLR_FORMAT_PELLR,
  MAT_PELLR_FORMAT_SELL,
  MAT_PELLR_FORMAT_ELLR,
  MAT_PELLR_FORMAT_CSR
} MatPELLRFormat;
PETSC_EXTERN const char *const MatPELLRFormats[];

PETSC_EXTERN PetscErrorCode MatPELLRSetFormat(Mat, MatPELLRFormat);
PETSC_EXTERN PetscErrorCode MatPELLRGetFormat(Mat, MatPELLRFormat *, MatPELLRFormat *);

/* Calibration of the pellrcuda storage-format predictor (bench/bench_calibrate.c; src/mat/impls/pellr/models/README.md) */
typedef struct _p_MatPELLRCalibration *MatPELLRCalibration;
PETSC_EXTERN PetscErrorCode MatPELLRCalibrationCreate(MPI_Comm, MatPELLRCalibration *);
PETSC_EXTERN PetscErrorCode MatPELLRCalibrationSetHardware(MatPELLRCalibration, const char[], PetscInt, PetscReal, PetscReal, PetscReal);
PETSC_EXTERN PetscErrorCode MatPELLRCalibrationSetL2Cache(MatPELLRCalibration, PetscReal);
PETSC_EXTERN PetscErrorCode MatPELLRCalibrationAddSample(MatPELLRCalibration, Mat, PetscInt, const PetscReal[], const PetscReal[]);
PETSC_EXTERN PetscErrorCode MatPELLRCalibrationFit(MatPELLRCalibration, const char[]);
PETSC_EXTERN PetscErrorCode MatPELLRCalibrationCrossValidate(MatPELLRCalibration, PetscInt, PetscViewer);
PETSC_EXTERN PetscErrorCode MatPELLRCalibrationEvaluate(MatPELLRCalibration, const char[], PetscViewer);
PETSC_EXTERN PetscErrorCode MatPELLRCalibrationDestroy(MatPELLRCalibration *);

/* PELLR statistics and lazy-update counters of a MATPELLR/MATPELLRCUDA matrix (of the local diagonal block when MPI) */
typedef struct {
  PetscInt   rows, nonempty_rows, long_rows, slices, max_row_length;
  PetscInt64 nonzeros, slots;                /* stored nonzeros; value slots including slice padding */
  PetscInt64 iterations_ell, iterations_ellr, iterations_pellr; /* warp iterations of ELL, ELLR, PELLR */
  PetscReal  perturbation;                   /* degree of perturbation of the row lengths */
  PetscInt   builds, refreshes;              /* pattern builds and values-only refreshes of the host copy */
  PetscInt   transpose_builds, transpose_refreshes;
  PetscInt   uploads, device_refreshes;      /* pattern uploads and values-only refreshes of the device copy */
  MatPELLRFormat format;                     /* the storage format of the block */
  PetscInt   compact_slices;                 /* pellrcuda: slices whose columns are 16-bit offsets on the GPU (-mat_pellr_cuda_compact_columns); -1: 32-bit columns */
  PetscInt   diagonal_slices;                /* slices whose entries each lie on one diagonal, read without column indices: pellrcuda's GPU layout (-mat_pellr_cuda_diagonal_slices), pellr's host layout (-mat_pellr_diagonal_slices); -1: none used */
} MatPELLRInfo;

PETSC_EXTERN PetscErrorCode MatPELLRGetInfo(Mat, PetscBool, MatPELLRInfo *);
PETSC_EXTERN PetscErrorCode MatPELLRWarpIterations(PetscInt, const PetscInt[], PetscInt, PetscInt64 *, PetscInt64 *, PetscInt64 *);
PETSC_EXTERN PetscErrorCode MatPELLRPerturbation(PetscInt, const PetscInt[], PetscReal *);
PETSC_EXTERN PetscErrorCode MatPELLRCompareBuilds(Mat, PetscBool *);

/* "subtree_ilu": ILU(k)/ICC(k) preconditioner with synchronization-free subtree partial-sum triangular solves */
#define PCSUBTREEILU "subtree_ilu"

/* "gpurcm": Reverse Cuthill-McKee by speculative parallel batches, identical to MATORDERINGRCM */
#define MATORDERINGGPURCM "gpurcm"

/* Version of this library */
#define PETSCSPARSEGPU_VERSION_MAJOR 0
#define PETSCSPARSEGPU_VERSION_MINOR 1
#define PETSCSPARSEGPU_VERSION_PATCH 0

PETSC_EXTERN PetscErrorCode PetscSparseGPUInitializePackage(void);
PETSC_EXTERN PetscErrorCode PetscSparseGPUFinalizePackage(void);
PETSC_EXTERN PetscErrorCode PetscSparseGPUGetVersion(char[], size_t);
PETSC_EXTERN PetscErrorCode PetscDLLibraryRegister_petscsparsegpu(void);
