/*
  Shared helpers of the PETSc SparseGPU benchmark drivers (bench/README.md describes what is measured).

  Matrices come from a list of specs (-matrices a,b,c):
    NAME or mtx:NAME            NAME.mtx.gz from -matdir (mtx:all / real: every .mtx.gz there, sorted)
    lap2d:N                     2D 5-point Laplacian on an N x N grid (N^2 rows)
    lap3d:N | lap3d7:N          3D 7-point Laplacian on an N^3 grid
    lap3d27:N                   3D 27-point stencil on an N^3 grid
    dmda2d:N | dmda3d:N         5-/7-point Laplacian assembled through PETSc's DMDA (DMCreateMatrix + MatSetValuesStencil)
    blkdiag:NAME:NNZ            kron(I_k, A_NAME) with k = ceil(NNZ / nnz(A_NAME)) (block-diagonal scale-up)
    kron:NAMEA:NAMEB            kron(A_NAMEA, A_NAMEB) (Kronecker scale-up, e.g. kron:bcsstk01:bcsstk17)
    powerlaw:M:AVG[:SHAPE]      M rows, Pareto(SHAPE, default 1.5) row lengths of mean ~AVG, random columns
  Sizes accept k/M suffixes (lap2d:4k, powerlaw:4M:16, blkdiag:bcsstk17:10M).
  Everything is generated directly in CSR (MatCreateSeqAIJWithArrays), deterministic (fixed seed).
*/
#pragma once

#include <petscmat.h>
#include <petscksp.h>
#include <petsctime.h>
#if defined(PETSC_HAVE_CUDA)
  #include <cuda_runtime.h>
  #include <petscdevice_cuda.h>
#endif

#define BENCH_MAX_LIST 512

typedef struct {
  char           name[256]; /* short name used in the CSV (no commas) */
  char           kind[32];  /* mtx, lap2d, lap3d7, lap3d27, blkdiag, kron, powerlaw */
  Mat            A;         /* MATSEQAIJ on the host */
  PetscInt       m, n;
  PetscInt64     nnz;
  PetscInt       rowmax;    /* longest row */
  PetscReal      rowcv;     /* coefficient of variation of the row lengths */
  PetscBool      symmetric; /* numerically symmetric (checked only when asked) */
  PetscLogDouble gen_s;     /* time to read or generate */
} BenchMatrix;

typedef struct {
  PetscLogDouble start;      /* PetscTime() at BenchInitialize() */
  PetscReal      time_limit; /* seconds; later cases are skipped (and reported so) once exceeded */
  PetscInt       warmup, reps;
  PetscInt       batch;     /* GPU timings: calls back to back between one pair of events (a sample = their mean) */
  PetscBool      gate;      /* GPU timings: the stream waits until every timed call is enqueued (device time only) */
  PetscInt       gate_timeouts; /* gated timings whose gate opened on its time limit (the host blocked while enqueuing) */
  PetscReal      case_time; /* host timings: reps are reduced (to >= 3) when reps calls would exceed this */
  char           matdir[PETSC_MAX_PATH_LEN];
  PetscBool      gpu;       /* PETSc has CUDA and a device is present */
  FILE          *csv;
} BenchCtx;

/* Calls whose failure is an expected outcome (zero pivots, unsupported types) run under PetscReturnErrorHandler, and the
   error message goes to the CSV note instead of a traceback on stderr */
#define BenchTry(ierr, call) \
  do { \
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL)); \
    ierr = (call); \
    PetscCall(PetscPopErrorHandler()); \
  } while (0)

/* A timed operation: called warmup + reps times */
typedef PetscErrorCode (*BenchOp)(void *);

PETSC_INTERN PetscErrorCode BenchInitialize(BenchCtx *, const char[], const char[]);
PETSC_INTERN PetscErrorCode BenchFinalize(BenchCtx *);
PETSC_INTERN PetscErrorCode BenchGetList(const char[], const char[], char *[], PetscInt *);
PETSC_INTERN PetscErrorCode BenchFreeList(char *[], PetscInt);
PETSC_INTERN PetscErrorCode BenchExpandMatrixSpecs(BenchCtx *, char *[], PetscInt, char *[], PetscInt *);
PETSC_INTERN PetscErrorCode BenchMatrixCreate(BenchCtx *, const char[], BenchMatrix *, PetscBool *);
PETSC_INTERN PetscErrorCode BenchMatrixDestroy(BenchMatrix *);
PETSC_INTERN PetscBool      BenchTimeLeft(BenchCtx *);
PETSC_INTERN PetscErrorCode BenchSync(BenchCtx *);
PETSC_INTERN PetscErrorCode BenchTimeOp(BenchCtx *, PetscBool, BenchOp, void *, PetscInt, double *, double *, PetscInt *);
PETSC_INTERN PetscErrorCode BenchDeviceFreeMemory(BenchCtx *, size_t *);
PETSC_INTERN PetscErrorCode BenchDeviceCopyBandwidth(BenchCtx *, double *, double *);
PETSC_INTERN PetscErrorCode BenchHostCopyBandwidth(double *, double *);
PETSC_INTERN PetscErrorCode BenchErrorNote(PetscErrorCode, const char[], char[], size_t);
PETSC_INTERN PetscErrorCode BenchMatTypeRegistered(const char[], PetscBool *);
PETSC_INTERN PetscErrorCode BenchVecIsDevice(Vec, PetscBool *);
PETSC_INTERN PetscErrorCode BenchVecCopyAny(Vec, Vec);
PETSC_INTERN PetscErrorCode BenchVecRelDiff(Vec, Vec, PetscReal *);
PETSC_INTERN PetscErrorCode BenchFillRandom(Vec, PetscInt);
PETSC_INTERN PetscErrorCode BenchPermBandwidth(Mat, const PetscInt[], PetscInt *);
PETSC_INTERN PetscErrorCode BenchDeviceName(BenchCtx *, char[], size_t);
PETSC_INTERN double         BenchMedian(const double[], PetscInt);
PETSC_INTERN double         BenchMin(const double[], PetscInt);
PETSC_INTERN PetscErrorCode BenchParseSize(const char[], PetscInt64 *);
