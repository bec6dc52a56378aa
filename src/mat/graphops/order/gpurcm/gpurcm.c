/*
  MATORDERINGGPURCM ("gpurcm"): Reverse Cuthill-McKee ordering by speculative parallel batches
  (Mlakar, Winter, Parger, Steinberger, IPDPS 2021) on CPU threads or on the GPU, identical to PETSc's
  MATORDERINGRCM (SPARSEPACK genrcm on the graph of MatGetRowIJ(mat, symmetric, inode-compressed)).

  Backends: serial (gpurcmserial.c: exact port of SPARSEPACK genrcm/fnroot/rootls/rcm/degree, 0-based),
            threads (gpurcmthreads.c: POSIX threads + C11 atomics), cuda (gpurcm.cu).
  This file: the MatOrdering itself (options, backend choice, the graph, the ISes) and its registration.
*/
#include <petscsparsegpu.h> /*I "petscsparsegpu.h" I*/
#include <petsc/private/matimpl.h>
#include "gpurcmhost.h"

const char *const MatGPURCMBackends[]      = {"auto", "cuda", "threads", "serial", "MatGPURCMBackend", "MAT_GPURCM_BACKEND_", NULL};
const char *const MatGPURCMCUDARootFinds[] = {"levels", "ordered", "MatGPURCMCUDARootFind", "MAT_GPURCM_CUDA_ROOTFIND_", NULL};
const char *const MatGPURCMCUDANumbers[]   = {"batch", "levels", "auto", "MatGPURCMCUDANumber", "MAT_GPURCM_CUDA_NUMBER_", NULL};
const char *const MatGPURCMThreadsNumbers[] = {"batch", "levels", "narrow", "auto", "MatGPURCMThreadsNumber", "MAT_GPURCM_THREADS_NUMBER_", NULL};
const char *const MatGPURCMThreadsWaits[]   = {"auto", "spin", "sleep", "MatGPURCMThreadsWait", "MAT_GPURCM_THREADS_WAIT_", NULL};
const char *const MatGPURCMCUDAUploads[]   = {"staged", "pageable", "pinned", "MatGPURCMCUDAUpload", "MAT_GPURCM_CUDA_UPLOAD_", NULL};
PetscLogEvent     MAT_GPURCM_Order = 0, MAT_GPURCM_Graph = 0, MAT_GPURCM_RootFind = 0, MAT_GPURCM_Number = 0, MAT_GPURCM_Setup = 0;

/* Components up to this size are ordered serially by the threads backend (no synchronization cost) */
#define GPURCM_SMALL_COMPONENT 4096
/* Blocks of consecutive nodes per thread in the threads backend's level-synchronous root finder */
#define GPURCM_OWNER_BLOCKS 1
/* Automatic backend choice. Since the serial backend skips SPARSEPACK's degree pass, a BFS pass and the graph's
   construction (sessions 46-47) it is the fastest CPU code below a few hundred thousand nodes and with fewer than 4
   threads. On the 16-core H100 host (session 47 job 3): at 90k nodes (2D 300^2, 3D 45^3) serial 2.7 / 4.3 ms against
   at best 4.4 / 4.6 ms with 2-16 threads; at 1M-4M nodes 4 threads 1.1-2.0x faster than serial, 16 threads 1.65-4.4x,
   2 threads slower on 3 of 5 meshes (also on every mesh of the 2-vCPU machine) */
/* At most this many threads per core the process may use (PetscSparseGPUAvailableCores(): its share of the node) */
#define GPURCM_THREADS_PER_CORE_MAX 4
#define GPURCM_AUTO_THREADS_MIN         200000
#define GPURCM_AUTO_THREADS_MIN_THREADS 4
#define GPURCM_AUTO_CUDA_MIN            100000
#define GPURCM_CUDA_MAX_COMPONENTS_DEFAULT 8 /* -mat_gpurcm_cuda_max_components */

/*
  A matrix flagged structurally symmetric (MAT_STRUCTURALLY_SYMMETRIC, MAT_SYMMETRIC, MAT_SPD) is ordered on its raw
  CSR, as PETSc's rcm does. Where its pattern is not symmetric after all, SPARSEPACK may miss nodes (a node reached
  only through an entry whose mirror is absent): rcm then returns entries it never wrote, an undefined ordering, and so
  would gpurcm. perm[] was set to -1 before the ordering: if it is not a permutation, free it and raise an error.
*/
static PetscErrorCode GPURCMCheckFlaggedPermutation(PetscInt n, PetscInt **perm)
{
  PetscBT   seen;
  PetscBool ok = PETSC_TRUE;

  PetscFunctionBegin;
  PetscCall(PetscBTCreate(n, &seen));
  for (PetscInt i = 0; i < n && ok; i++) {
    const PetscInt v = (*perm)[i];
    if (v < 0 || v >= n || PetscBTLookupSet(seen, v)) ok = PETSC_FALSE;
  }
  PetscCall(PetscBTDestroy(&seen));
  if (!ok) PetscCall(PetscFree(*perm));
  PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONG, "gpurcm: the matrix is flagged structurally symmetric (MAT_STRUCTURALLY_SYMMETRIC, MAT_SYMMETRIC or MAT_SPD) but its nonzero pattern is not symmetric, and on it the Reverse Cuthill-McKee ordering of PETSc's rcm is undefined (nodes left unnumbered); unset the flag (MatSetOption(A, MAT_STRUCTURALLY_SYMMETRIC, PETSC_FALSE)) or store the pattern symmetric");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The ordering's permutation (n entries, owned by the row or the column IS from here on) as the row and the column IS:
  two ISes with arrays of their own, as rcm returns them (copy: the permutation copied by the threads backend, else
  ISCreateGeneral() copies it). Not one IS referenced twice (as PETSc's spectral ordering returns
  it), which saves a copy: MatReorderForNonzeroDiagonal() (-pc_factor_nonzeros_along_diagonal) swaps entries of each
  IS's array in place, and on a shared array its result would differ from rcm's (tests/gpurcm_identity.c checks it).
*/
static PetscErrorCode GPURCMPermutationIS(PetscInt n, PetscInt **perm, PetscInt **copy, IS *row, IS *col)
{
  PetscFunctionBegin;
  if (copy && *copy) { /* made by the threads backend */
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, *perm, PETSC_OWN_POINTER, row));
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, *copy, PETSC_OWN_POINTER, col));
    *copy = NULL;
  } else {
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, *perm, PETSC_COPY_VALUES, row));
    PetscCall(ISCreateGeneral(PETSC_COMM_SELF, n, *perm, PETSC_OWN_POINTER, col));
  }
  *perm = NULL;
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(PETSC_HAVE_CUDA)
/*
  The two ISes of a GPU ordering, made while its kernels run (GPURCMHostWork: one IS per wait). ISCreateGeneral() reads
  the whole array once (its minimum and maximum) on the calling thread: on a 4M-row mesh the two ISes cost about 8 ms
  there, a third of the ordering. So each IS is made during a wait for the GPU, on an array holding 0..n-1 (written by
  threads), which has the minimum and maximum of any permutation of n; the permutation is then written into those
  arrays, as PETSc's MatReorderForNonzeroDiagonal() writes into an IS's array: downloaded into both (GPURCMDownload():
  staged, or into one and copied into the other by threads), the ISes' cached properties cleared and their states
  increased. Not with -is_view, which would show the arrays before the permutation.
*/
typedef struct {
  PetscInt  n, threads, made; /* made: how many of the ISes exist */
  PetscInt *idx[2];           /* their arrays (owned by is[k] once it exists) */
  IS        is[2];
} GPURCMEarlyIS;

static void GPURCMIotaRange(void *ctx, PetscInt t, PetscInt begin, PetscInt end)
{
  PetscInt *a = (PetscInt *)ctx;

  (void)t;
  for (PetscInt i = begin; i < end; i++) a[i] = i;
}

/* GPURCMHostWork step: the next IS */
static PetscErrorCode GPURCMEarlyISStep(void *ctx, PetscBool *more)
{
  GPURCMEarlyIS *e = (GPURCMEarlyIS *)ctx;
  const PetscInt k = e->made;

  PetscFunctionBegin;
  PetscCall(PetscSparseGPUParallelFor(e->threads, e->n, (PetscInt)1 << 18, GPURCMIotaRange, e->idx[k]));
  PetscCall(ISCreateGeneral(PETSC_COMM_SELF, e->n, e->idx[k], PETSC_OWN_POINTER, &e->is[k]));
  e->made = k + 1;
  *more   = (PetscBool)(e->made < 2);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* After the GPU ordering: ordered, both arrays hold the permutation and the ISes become row and col; else they are destroyed */
static PetscErrorCode GPURCMEarlyISFinish(GPURCMEarlyIS *e, PetscBool ordered, IS *row, IS *col)
{
  PetscFunctionBegin;
  if (ordered) {
    PetscCheck(e->made == 2, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpurcm: %" PetscInt_FMT " of the 2 ISes made during the GPU ordering", e->made);
    for (PetscInt k = 0; k < 2; k++) {
      PetscCall(ISClearInfoCache(e->is[k], PETSC_FALSE));
      PetscCall(PetscObjectStateIncrease((PetscObject)e->is[k]));
    }
    *row = e->is[0];
    *col = e->is[1];
  } else {
    for (PetscInt k = 0; k < 2; k++) {
      if (k < e->made) PetscCall(ISDestroy(&e->is[k]));
      else PetscCall(PetscFree(e->idx[k]));
    }
  }
  e->made = 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* After a parallel backend's attempt on a SeqAIJ matrix: its permutation (n entries) becomes the row and column IS,
   or, where it did not order (a matrix flagged structurally symmetric whose pattern is not), the serial backend
   takes over */
#if defined(PETSC_HAVE_CUDA) || defined(GPURCM_HAVE_THREADS)
static PetscErrorCode GPURCMParallelResult(Mat mat, PetscInt n, PetscBool ordered, PetscInt **perm, PetscInt **copy, IS *row, IS *col, MatGPURCMBackend *used)
{
  PetscFunctionBegin;
  if (ordered) {
    PetscCall(GPURCMPermutationIS(n, perm, copy, row, col));
  } else {
    PetscCall(PetscFree(*perm));
    if (copy) PetscCall(PetscFree(*copy));
    PetscCall(PetscInfo(mat, "gpurcm: matrix flagged structurally symmetric but its graph is not: using the serial backend\n"));
    *used = MAT_GPURCM_BACKEND_SERIAL;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

/* auto's backend without the GPU (or after the cuda backend handed a graph back): threads from GPURCM_AUTO_THREADS_MIN
   nodes with at least GPURCM_AUTO_THREADS_MIN_THREADS threads, else serial */
static MatGPURCMBackend GPURCMAutoHostBackend(PetscInt nthreads, PetscInt m)
{
  return PetscDefined(HAVE_PTHREAD) && nthreads >= GPURCM_AUTO_THREADS_MIN_THREADS && m >= GPURCM_AUTO_THREADS_MIN ? MAT_GPURCM_BACKEND_THREADS : MAT_GPURCM_BACKEND_SERIAL;
}

/* Default thread count: the cores this process may run on, shared among the node's MPI ranks */
static PetscInt GPURCMDefaultThreads(void)
{
#if defined(GPURCM_HAVE_THREADS)
  return PetscSparseGPUAvailableCores();
#else
  return 1;
#endif
}

/*
  MatGetOrdering_GPURCM - the MatOrdering function: same graph and same result as MatGetOrdering_RCM()
  (MatGetOrdering() handles MPIAIJ by ordering the diagonal block, zero-row matrices and inode expansion
  around this function, exactly as for rcm).
*/
static PetscErrorCode MatGetOrdering_GPURCM(Mat mat, MatOrderingType type, IS *row, IS *col)
{
  MatGPURCMBackend     backend = MAT_GPURCM_BACKEND_AUTO, used;
  const PetscInt       cores    = GPURCMDefaultThreads();
  PetscInt             nthreads = cores, nrow, m, nc = 0, *perm = NULL, *permcopy = NULL, batch = 64, small = GPURCM_SMALL_COMPONENT, ownblocks = GPURCM_OWNER_BLOCKS;
  const PetscInt      *ia, *ja;
  PetscBool            done, ncdone = PETSC_FALSE, flg, symknown = PETSC_FALSE, symflag = PETSC_FALSE, graphsym = PETSC_TRUE, raw = PETSC_FALSE;
  PetscBool            cudaok = PETSC_FALSE, isseqaij = PETSC_FALSE;
  MatGPURCMThreadsNumber lvmode = MAT_GPURCM_THREADS_NUMBER_AUTO;
  MatGPURCMThreadsWait   wait   = MAT_GPURCM_THREADS_WAIT_AUTO;
  PetscBool              keep   = PETSC_TRUE;
  PetscBool              components = PETSC_TRUE;
  PetscInt               maxcomp    = GPURCM_CUDA_MAX_COMPONENTS_DEFAULT;
  PetscLogDouble       tstart;
  MatGPURCMCUDAOptions copt = {MAT_GPURCM_CUDA_ROOTFIND_LEVELS, MAT_GPURCM_CUDA_NUMBER_AUTO, GPURCM_CUDA_NARROW_DEFAULT, 0, MAT_GPURCM_CUDA_UPLOAD_STAGED, 1, PETSC_TRUE, PETSC_TRUE, PETSC_TRUE, GPURCM_CUDA_CLAIM_SLOTS, PETSC_TRUE, PETSC_FALSE};

  PetscFunctionBegin;
  PetscCall(PetscTime(&tstart));
  /* not PetscObjectOptionsBegin(): the matrix's options were printed by MatSetFromOptions() already and -help would skip these */
  PetscOptionsBegin(PetscObjectComm((PetscObject)mat), ((PetscObject)mat)->prefix, "Reverse Cuthill-McKee ordering gpurcm (PETSc SparseGPU)", "Mat");
  PetscCall(PetscOptionsEnum("-mat_gpurcm_backend", "Where gpurcm runs", "MATORDERINGGPURCM", MatGPURCMBackends, (PetscEnum)backend, (PetscEnum *)&backend, NULL));
  PetscCall(PetscOptionsInt("-mat_gpurcm_threads", "Number of CPU threads of the threads backend", "MATORDERINGGPURCM", nthreads, &nthreads, &flg));
  PetscCall(PetscOptionsInt("-mat_gpurcm_batch", "Parents per batch of the threads backend", "MATORDERINGGPURCM", batch, &batch, NULL));
  PetscCall(PetscOptionsInt("-mat_gpurcm_serial_component", "Components up to this size are ordered serially by the threads backend", "MATORDERINGGPURCM", small, &small, NULL));
  PetscCall(PetscOptionsInt("-mat_gpurcm_owner_blocks", "(developer) Blocks of consecutive nodes per thread in the threads backend's level BFS (each thread marks and expands the nodes of its blocks)", "MATORDERINGGPURCM", ownblocks, &ownblocks, NULL));
  PetscCall(PetscOptionsEnum("-mat_gpurcm_threads_number", "Cuthill-McKee numbering of the threads backend: speculative batches, level by level (claims, three barriers a level), narrow (level by level, one barrier a level), or auto (levels when the widest level of the first root-finder pass exceeds 256 nodes per thread, narrow when it exceeds 32, else batch)", "MATORDERINGGPURCM", MatGPURCMThreadsNumbers, (PetscEnum)lvmode, (PetscEnum *)&lvmode, NULL));
  PetscCall(PetscOptionsEnum("-mat_gpurcm_threads_wait", "Waits of the threads backend for each other: spin, then sleep after about 0.1 ms (sleep), only spin (spin), or sleep only when the threads and the node's other runnable threads outnumber the cores (auto)", "MATORDERINGGPURCM", MatGPURCMThreadsWaits, (PetscEnum)wait, (PetscEnum *)&wait, NULL));
  PetscCall(PetscOptionsBool("-mat_gpurcm_threads_keep", "The threads backend keeps its threads (asleep) and its node arrays (about 50 bytes a node) for the next ordering with as many threads, until PetscFinalize(); false: started and freed at each ordering", "MATORDERINGGPURCM", keep, &keep, NULL));
  PetscCall(PetscOptionsBool("-mat_gpurcm_threads_components", "The threads backend labels the components left after the first one at once and orders each one of at most the larger of serial_component and nodes left / threads nodes by one thread, in parallel (false: one at a time, by all threads)", "MATORDERINGGPURCM", components, &components, NULL));
  PetscCall(PetscOptionsBool("-mat_gpurcm_speculate", "The root finder's pass from each candidate root is the Cuthill-McKee numbering from it, kept when the root finder returns that root (serial backend: on a symmetric graph; a matrix flagged structurally symmetric is checked)", "MATORDERINGGPURCM", copt.speculate, &copt.speculate, NULL));
  PetscCall(PetscOptionsEnum("-mat_gpurcm_cuda_rootfind", "Root finder of the cuda backend: level-synchronous passes (a pass repeated in queue order on ties) or every pass in queue order", "MATORDERINGGPURCM", MatGPURCMCUDARootFinds, (PetscEnum)copt.rootfind, (PetscEnum *)&copt.rootfind, NULL));
  PetscCall(PetscOptionsEnum("-mat_gpurcm_cuda_number", "Cuthill-McKee numbering of the cuda backend: speculative batches, level by level, or auto (level by level when every level of the first root-finder pass is narrow and the claim tables fit in shared memory, or with the level tables when the widest level holds at most 3 narrow levels of nodes, or when its levels hold at least 2048 nodes on average)", "MATORDERINGGPURCM", MatGPURCMCUDANumbers, (PetscEnum)copt.number, (PetscEnum *)&copt.number, NULL));
  PetscCall(PetscOptionsInt("-mat_gpurcm_cuda_narrow", "Levels of at most this many nodes are expanded by one thread block (0: every level by the whole grid)", "MATORDERINGGPURCM", copt.narrow, &copt.narrow, NULL));
  PetscCall(PetscOptionsBool("-mat_gpurcm_cuda_bitmap", "Narrow levels of the level kernels keep the visited or numbered nodes in a shared-memory bitmap of all nodes (when it fits: up to about 1.2 million nodes)", "MATORDERINGGPURCM", copt.bitmap, &copt.bitmap, NULL));
  PetscCall(PetscOptionsBool("-mat_gpurcm_cuda_level_tables", "Without the bitmap, narrow levels of the level kernels keep the nodes of the last levels in shared-memory hash tables (any number of nodes)", "MATORDERINGGPURCM", copt.leveltables, &copt.leveltables, NULL));
  PetscCall(PetscOptionsBool("-mat_gpurcm_cuda_ell", "The level numbering's narrow levels read each node's row, with its neighbours' degrees, from a packed ELL copy of the graph when every row has at most 8 entries and there are fewer than 2^24 - 1 nodes; the level BFS's from a copy of 4 neighbours a node when every row has at most 5", "MATORDERINGGPURCM", copt.ell, &copt.ell, NULL));
  PetscCall(PetscOptionsBool("-mat_gpurcm_cuda_fit_warps", "In the level kernels (root finder and numbering), the warps of a thread block that hold no node of the level being expanded skip to its barriers instead of running its steps on no data", "MATORDERINGGPURCM", copt.fitwarps, &copt.fitwarps, NULL));
  PetscCall(PetscOptionsInt("-mat_gpurcm_cuda_claim_slots", "Slots of the level numbering's shared-memory claim table (a power of 2, 64 to 4096)", "MATORDERINGGPURCM", copt.claimslots, &copt.claimslots, NULL));
  PetscCall(PetscOptionsInt("-mat_gpurcm_cuda_max_components", "With -mat_gpurcm_backend auto, a graph with more components of over 64 nodes than this is left to the threads or serial backend (each costs the GPU a fixed ~1.5 ms); 0: never", "MATORDERINGGPURCM", maxcomp, &maxcomp, NULL));
  PetscCall(PetscOptionsInt("-mat_gpurcm_cuda_batch_blocks", "Thread blocks of the cuda batch numbering (0: from the widest level)", "MATORDERINGGPURCM", copt.batchblocks, &copt.batchblocks, NULL));
  PetscCall(PetscOptionsEnum("-mat_gpurcm_cuda_upload", "Upload of a host matrix's CSR by the cuda backend: pinned staging buffers filled by threads, the driver's pageable copy, or page-locked in place", "MATORDERINGGPURCM", MatGPURCMCUDAUploads, (PetscEnum)copt.upload, (PetscEnum *)&copt.upload, NULL));
  PetscOptionsEnd();
  PetscCheck(copt.narrow >= 0 && copt.narrow <= GPURCM_CUDA_NARROW_MAX, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_gpurcm_cuda_narrow must be between 0 and %d, not %" PetscInt_FMT, GPURCM_CUDA_NARROW_MAX, copt.narrow);
  PetscCheck(copt.claimslots >= 64 && copt.claimslots <= GPURCM_CUDA_CLAIM_SLOTS && !(copt.claimslots & (copt.claimslots - 1)), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_gpurcm_cuda_claim_slots must be a power of 2 from 64 to %d, not %" PetscInt_FMT, GPURCM_CUDA_CLAIM_SLOTS, copt.claimslots);
  PetscCheck(maxcomp >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_gpurcm_cuda_max_components must be nonnegative, not %" PetscInt_FMT, maxcomp);
  copt.maxcomponents = backend == MAT_GPURCM_BACKEND_AUTO ? maxcomp : 0; /* a requested cuda backend orders every graph */
  PetscCheck(copt.batchblocks >= 0, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_gpurcm_cuda_batch_blocks must be nonnegative, not %" PetscInt_FMT, copt.batchblocks);
  PetscCheck(batch >= 1 && batch <= GPURCM_MAX_BATCH, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_gpurcm_batch must be in [1, %d], not %" PetscInt_FMT, GPURCM_MAX_BATCH, batch);
  PetscCheck(nthreads >= 1 && nthreads <= 65535, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_gpurcm_threads must be in [1, 65535], not %" PetscInt_FMT, nthreads);
  PetscCheck(ownblocks >= 1 && ownblocks <= 4096, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-mat_gpurcm_owner_blocks must be in [1, 4096], not %" PetscInt_FMT, ownblocks);
  { /* the threads backend's threads wait for each other at every level and batch: many more of them than cores only
       wait for time slices (2D 300^2 on the 2-core CI machine: 0.03 s with 8 threads, 15-26 s with 160-240) */
    const PetscInt cap = GPURCM_THREADS_PER_CORE_MAX * cores;
    if (nthreads > cap) {
      PetscCall(PetscInfo(NULL, "gpurcm: -mat_gpurcm_threads %" PetscInt_FMT " lowered to %" PetscInt_FMT " (%d per core this process may use)\n", nthreads, cap, GPURCM_THREADS_PER_CORE_MAX));
      nthreads = cap;
    }
  }
  copt.uploadthreads = PetscMin(nthreads, 8); /* host copies into the staging buffers: a few threads saturate the memory */
#if !defined(GPURCM_HAVE_THREADS)
  PetscCheck(backend != MAT_GPURCM_BACKEND_THREADS, PETSC_COMM_SELF, PETSC_ERR_SUP, "-mat_gpurcm_backend threads needs POSIX threads and C11 atomics, which this build lacks");
#endif
#if defined(PETSC_HAVE_CUDA)
  PetscCall(MatGPURCMCUDAAvailable_Private(&cudaok));
#endif
  PetscCheck(backend != MAT_GPURCM_BACKEND_CUDA || cudaok, PETSC_COMM_SELF, PETSC_ERR_SUP, "-mat_gpurcm_backend cuda: %s", PetscDefined(HAVE_CUDA) ? "no CUDA device is available" : "PETSc was configured without CUDA");
  PetscCall(PetscObjectBaseTypeCompareAny((PetscObject)mat, &isseqaij, MATSEQAIJ, ""));
  PetscCall(MatGetLocalSize(mat, &m, NULL));
  used = backend;
  if (backend == MAT_GPURCM_BACKEND_AUTO) {
    if (cudaok && m >= GPURCM_AUTO_CUDA_MIN) used = MAT_GPURCM_BACKEND_CUDA;
    else used = GPURCMAutoHostBackend(nthreads, m);
  }
  PetscCall(PetscLogEventBegin(MAT_GPURCM_Order, mat, 0, 0, 0));
  /* MatGetRowIJ() symmetrizes, except for matrices flagged structurally symmetric (raw CSR); with inodes its graph has
     nc < m nodes (the node count alone: no graph is built for it) */
  PetscCall(MatIsStructurallySymmetricKnown(mat, &symknown, &symflag));
  if (isseqaij) PetscCall(MatGetRowIJ(mat, 0, PETSC_TRUE, PETSC_TRUE, &nc, NULL, NULL, &ncdone));
#if defined(PETSC_HAVE_CUDA)
  if (used == MAT_GPURCM_BACKEND_CUDA && isseqaij) {
    /* PETSc's graph is built on the GPU from the CSR: inode-compressed (always symmetrized by PETSc), or the
       symmetrized lower triangle unless the matrix is flagged structurally symmetric. A flagged matrix's graph is
       its raw CSR: ordered on the GPU when the GPU check finds that pattern symmetric, else (a wrong flag, on which
       rcm keeps SPARSEPACK's passes) by the serial backend below */
    if (ncdone) {
      const PetscInt *ai, *aj;
      PetscInt       *sizes = NULL, nnodes = m;
      PetscMemType    mtype;
      const PetscBool flagged = (PetscBool)(nc == m && symknown && symflag);
      PetscBool       ordered, isview, declined;
      PetscLogDouble  t1, t2, t3;
      GPURCMEarlyIS   eis = {nc, copt.uploadthreads, 0, {NULL, NULL}, {NULL, NULL}};
      GPURCMHostWork  hw  = {GPURCMEarlyISStep, &eis, PETSC_TRUE};

      if (nc < m) {
        PetscCall(MatInodeGetInodeSizes(mat, &nnodes, &sizes, NULL));
        PetscCheck(nnodes == nc && sizes, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpurcm: inode sizes do not match the compressed graph");
      }
      PetscCall(PetscInfo(mat, "gpurcm: backend cuda (requested %s), n %" PetscInt_FMT " (graph %" PetscInt_FMT " nodes), graph %s on the GPU\n", MatGPURCMBackends[backend], m, nc, flagged ? "(the raw CSR of a matrix flagged structurally symmetric) checked" : "built"));
      PetscCall(MatSeqAIJGetCSRAndMemType(mat, &ai, &aj, NULL, &mtype));
      PetscCall(PetscOptionsHasName(NULL, NULL, "-is_view", &isview));
      PetscCall(PetscTime(&t1));
      if (!isview) { /* the ISes made while the GPU orders, the permutation downloaded into their arrays */
        PetscCall(PetscMalloc1(nc, &eis.idx[0]));
        PetscCall(PetscMalloc1(nc, &eis.idx[1]));
        PetscCall(MatGPURCMCUDAOrderCSR_Private(m, ai, aj, mtype, nc, nc < m ? sizes : NULL, flagged, &copt, &hw, eis.idx[0], eis.idx[1], &ordered, &declined));
        while (ordered && hw.more) PetscCall(GPURCMEarlyISStep(&eis, &hw.more)); /* (done by then) */
        PetscCall(PetscTime(&t2));
        PetscCall(GPURCMEarlyISFinish(&eis, ordered, row, col));
        if (!ordered && !declined) PetscCall(GPURCMParallelResult(mat, nc, ordered, &perm, NULL, row, col, &used)); /* perm: NULL */
      } else {
        PetscCall(PetscMalloc1(nc, &perm));
        PetscCall(MatGPURCMCUDAOrderCSR_Private(m, ai, aj, mtype, nc, nc < m ? sizes : NULL, flagged, &copt, NULL, perm, NULL, &ordered, &declined));
        PetscCall(PetscTime(&t2));
        if (declined) PetscCall(PetscFree(perm));
        else PetscCall(GPURCMParallelResult(mat, nc, ordered, &perm, NULL, row, col, &used));
      }
      if (declined) { /* many components (backend auto): the host orders them, as auto would without a GPU */
        used = GPURCMAutoHostBackend(nthreads, m);
        PetscCall(PetscInfo(mat, "gpurcm: many components: backend %s instead of cuda (-mat_gpurcm_cuda_max_components)\n", MatGPURCMBackends[used]));
      }
      PetscCall(PetscTime(&t3));
      PetscCall(PetscInfo(mat, "gpurcm: cuda backend's host time %g ms: %g before the GPU (options, checks), %g from the upload to the download%s, %g the two ISes after it\n", 1e3 * (t3 - tstart), 1e3 * (t1 - tstart), 1e3 * (t2 - t1), isview ? "" : " (the two ISes made meanwhile)", 1e3 * (t3 - t2)));
      if (ordered) {
        PetscCall(PetscLogEventEnd(MAT_GPURCM_Order, mat, 0, 0, 0));
        PetscFunctionReturn(PETSC_SUCCESS);
      }
    }
  }
#endif
#if defined(GPURCM_HAVE_THREADS)
  if (used == MAT_GPURCM_BACKEND_THREADS && isseqaij && nthreads > 1 && m > 1) {
    /* Build PETSc's graph from the raw CSR in parallel: inode-compressed (always symmetrized by PETSc), or
       the symmetrized lower triangle unless the matrix is flagged structurally symmetric. A flagged matrix's graph
       is its raw CSR: ordered by the threads when their check finds that pattern symmetric, else (a wrong flag) by
       the serial backend below */
    if (ncdone) {
      PetscInt       *tns = NULL, *tvc = NULL, nnodes = m, *sizes = NULL;
      const PetscInt *cia = NULL, *cja = NULL;
      PetscBool       check = PETSC_FALSE, ordered;
      const PetscBool flagged = (PetscBool)(nc == m && symknown && symflag);

      if (nc < m) { /* inode starts and column-to-inode map, as MatGetRowIJ_SeqAIJ_Inode_Symmetric() */
        PetscCall(MatInodeGetInodeSizes(mat, &nnodes, &sizes, NULL));
        PetscCheck(nnodes == nc && sizes, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpurcm: inode sizes do not match the compressed graph");
        PetscCall(PetscMalloc2(nc + 1, &tns, m, &tvc));
        tns[0] = 0;
        for (PetscInt i = 0; i < nc; i++) {
          tns[i + 1] = tns[i] + sizes[i];
          for (PetscInt k = tns[i]; k < tns[i + 1]; k++) tvc[k] = i;
        }
      }
      PetscCall(PetscOptionsGetBool(((PetscObject)mat)->options, ((PetscObject)mat)->prefix, "-mat_gpurcm_check_graph", &check, NULL));
      if (check) PetscCall(MatGetRowIJ(mat, 0, PETSC_TRUE, PETSC_TRUE, NULL, &cia, &cja, &done));
      PetscCall(MatGetRowIJ(mat, 0, PETSC_FALSE, PETSC_FALSE, &nrow, &ia, &ja, &done));
      PetscCheck(done && nrow == m, PETSC_COMM_SELF, PETSC_ERR_SUP, "Cannot get rows for matrix");
      PetscCall(PetscInfo(mat, "gpurcm: backend threads (requested %s), %" PetscInt_FMT " threads, n %" PetscInt_FMT " (graph %" PetscInt_FMT " nodes), graph %s by the threads\n", MatGPURCMBackends[backend], nthreads, m, nc, flagged ? "(the raw CSR of a matrix flagged structurally symmetric) checked" : "built"));
      PetscCall(PetscMalloc1(nc, &perm));
      PetscCall(PetscMalloc1(nc, &permcopy)); /* (apart: each IS frees its own array) */
      PetscCall(MatGPURCMThreads_Private(nc, ia, ja, PETSC_TRUE, flagged, tns, tvc, cia, cja, nthreads, batch, small, ownblocks, copt.speculate, lvmode, wait, keep, components, perm, permcopy, &ordered));
      PetscCall(MatRestoreRowIJ(mat, 0, PETSC_FALSE, PETSC_FALSE, NULL, &ia, &ja, &done));
      if (check) PetscCall(MatRestoreRowIJ(mat, 0, PETSC_TRUE, PETSC_TRUE, NULL, &cia, &cja, &done));
      PetscCall(PetscFree2(tns, tvc));
      PetscCall(GPURCMParallelResult(mat, nc, ordered, &perm, &permcopy, row, col, &used));
      if (ordered) {
        PetscCall(PetscLogEventEnd(MAT_GPURCM_Order, mat, 0, 0, 0));
        PetscFunctionReturn(PETSC_SUCCESS);
      }
    }
  }
#endif
  PetscCall(PetscLogEventBegin(MAT_GPURCM_Graph, mat, 0, 0, 0));
  if (used == MAT_GPURCM_BACKEND_SERIAL && isseqaij && m > 1 && !(symknown && symflag)) {
    /* Without inodes, PETSc's symmetrized graph of a structurally symmetric matrix is its CSR itself (each row: its
       entries c <= r, then the mirrors r' > r, ascending): a serial check of the raw CSR, about a third of building
       that graph (a quarter of the serial ordering of a 2D mesh), decides whether building it can be skipped */
    if (ncdone && nc == m) {
      PetscCall(MatGetRowIJ(mat, 0, PETSC_FALSE, PETSC_FALSE, &nrow, &ia, &ja, &done));
      PetscCheck(done && nrow == m, PETSC_COMM_SELF, PETSC_ERR_SUP, "Cannot get rows for matrix");
      PetscCall(PetscMalloc1(nrow, &perm));
      raw = GPURCMCSRIsSymmetric(nrow, ia, ja, perm); /* (perm as the check's workspace) */
      if (!raw) {
        PetscCall(MatRestoreRowIJ(mat, 0, PETSC_FALSE, PETSC_FALSE, NULL, &ia, &ja, &done));
        PetscCall(PetscFree(perm));
      }
    }
  }
  if (!raw) {
    PetscCall(MatGetRowIJ(mat, 0, PETSC_TRUE, PETSC_TRUE, &nrow, &ia, &ja, &done));
    PetscCheck(done, PetscObjectComm((PetscObject)mat), PETSC_ERR_SUP, "Cannot get rows for matrix");
    PetscCall(PetscMalloc1(nrow, &perm));
  }
  PetscCall(PetscLogEventEnd(MAT_GPURCM_Graph, mat, 0, 0, 0));
  if (symknown && symflag) {
    /* degree = row length (the parallel backends; the serial one's fast passes) is SPARSEPACK's degree only on a
       symmetric graph: check a flagged matrix's raw CSR (perm as the check's workspace) */
    graphsym = GPURCMCSRIsSymmetric(nrow, ia, ja, perm);
    if (!graphsym && used != MAT_GPURCM_BACKEND_SERIAL) {
      PetscCall(PetscInfo(mat, "gpurcm: matrix flagged structurally symmetric but its graph is not: using the serial backend\n"));
      used = MAT_GPURCM_BACKEND_SERIAL;
    }
    for (PetscInt i = 0; i < nrow; i++) perm[i] = -1; /* GPURCMCheckFlaggedPermutation() */
  }
  if (used == MAT_GPURCM_BACKEND_THREADS) PetscCall(PetscInfo(mat, "gpurcm: backend threads (requested %s), %" PetscInt_FMT " threads, n %" PetscInt_FMT " (graph %" PetscInt_FMT " nodes)\n", MatGPURCMBackends[backend], nthreads, m, nrow));
  else PetscCall(PetscInfo(mat, "gpurcm: backend %s (requested %s), n %" PetscInt_FMT " (graph %" PetscInt_FMT " nodes)%s\n", MatGPURCMBackends[used], MatGPURCMBackends[backend], m, nrow, raw ? ": the matrix is structurally symmetric, its CSR is the graph" : (used == MAT_GPURCM_BACKEND_SERIAL && !graphsym ? ", SPARSEPACK's passes (graph not symmetric)" : "")));
  switch (used) {
#if defined(PETSC_HAVE_CUDA)
  case MAT_GPURCM_BACKEND_CUDA:
    PetscCall(MatGPURCMCUDAOrderGraph_Private(nrow, ia, ja, PETSC_MEMTYPE_HOST, &copt, perm));
    break;
#endif
#if defined(GPURCM_HAVE_THREADS)
  case MAT_GPURCM_BACKEND_THREADS: {
    PetscBool ordered; /* always, without build */

    PetscCall(PetscMalloc1(nrow, &permcopy));
    PetscCall(MatGPURCMThreads_Private(nrow, ia, ja, PETSC_FALSE, PETSC_FALSE, NULL, NULL, NULL, NULL, nthreads, batch, small, ownblocks, copt.speculate, lvmode, wait, keep, components, perm, permcopy, &ordered));
  } break;
#endif
  default:
    PetscCall(PetscLogEventBegin(MAT_GPURCM_Number, 0, 0, 0, 0));
    /* symmetric unless flagged (MatGetRowIJ() symmetrized it) and found not to be: a wrongly flagged matrix's raw
       CSR keeps SPARSEPACK's degree pass, which rcm's result on it depends on */
    PetscCall(MatGPURCMSerial_Private(nrow, ia, ja, graphsym, copt.speculate, perm));
    PetscCall(PetscLogEventEnd(MAT_GPURCM_Number, 0, 0, 0, 0));
  }
  PetscCall(MatRestoreRowIJ(mat, 0, (PetscBool)!raw, (PetscBool)!raw, NULL, &ia, &ja, &done));
  if (symknown && symflag) PetscCall(GPURCMCheckFlaggedPermutation(nrow, &perm)); /* (the threads ran, and permcopy exists, only on a symmetric graph) */
  PetscCall(GPURCMPermutationIS(nrow, &perm, &permcopy, row, col));
  PetscCall(PetscLogEventEnd(MAT_GPURCM_Order, mat, 0, 0, 0));
  (void)copt;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*MC
  MATORDERINGGPURCM - "gpurcm": Reverse Cuthill-McKee ordering computed by speculative parallel batches
  (Mlakar et al., IPDPS 2021) on CPU threads or on the GPU. The result is identical to `MATORDERINGRCM`
  on every matrix: same graph (`MatGetRowIJ()` symmetrized, inode-compressed), same SPARSEPACK
  pseudo-peripheral root finder and tie rules, same handling of components, inodes and MPI matrices.

  Options Database Keys:
+ -pc_factor_mat_ordering_type gpurcm          - use it in `PCLU`, `PCILU`, `PCCHOLESKY`, `PCICC` (and `subtree_ilu`)
. -mat_ordering_type gpurcm                    - plugin-wide default: at library load, sets -pc_factor_mat_ordering_type and
                                                 -sub_pc_factor_mat_ordering_type to gpurcm unless those are given
. -mat_gpurcm_backend <auto,cuda,threads,serial> - where it runs; auto = cuda if PETSc has CUDA, a device is present
                                                 and n >= 100000 (a graph of many components handed back, see
                                                 -mat_gpurcm_cuda_max_components); else threads if n >= 200000 and there
                                                 are at least 4 threads (-mat_gpurcm_threads); else serial
. -mat_gpurcm_threads <n>                      - CPU threads of the threads backend (default: the cores this process may run on,
                                                 shared among the MPI ranks of the node when the process is not bound);
                                                 at most 4 per such core (more would spin-wait for time slices: lowered,
                                                 with a line in -info)
. -mat_gpurcm_batch <64>                       - parents per batch of the threads backend (1 to 2^20)
. -mat_gpurcm_serial_component <4096>          - components up to this size are ordered serially by the threads backend (0: none)
. -mat_gpurcm_owner_blocks <1>                 - (developer) blocks of consecutive nodes per thread in the threads backend's level-synchronous
                                                 root finder: each thread marks and expands the nodes of its blocks (dealt in turn; 1: one
                                                 range per thread, the best on 2D and 7-point meshes; more balance shell-shaped levels)
. -mat_gpurcm_threads_number <auto,batch,levels,narrow> - Cuthill-McKee numbering of the threads backend: batch = speculative
                                                 batches; levels = level by level (each thread a contiguous share of a level in
                                                 rank order: claims, barrier, children sorted by degree, barrier with the
                                                 counts, write, barrier); narrow = level by level with one barrier a level
                                                 (each child's parent read from its neighbours' keys, no claims); auto
                                                 (default) = levels when the widest level of the component's first
                                                 root-finder pass exceeds 256 nodes per thread, narrow when it exceeds 32
                                                 (2D meshes), else batch
. -mat_gpurcm_threads_wait <auto,spin,sleep>   - how the threads backend's threads wait for each other: spin (with a pause hint,
                                                 the core yielded every 256 steps), or sleep 20 us a step once a wait has
                                                 lasted about 0.1 ms; auto (default) = sleep when the threads and the node's
                                                 other runnable threads (/proc/loadavg) outnumber the cores the process may
                                                 use, else spin (with a core each, sleeping only delays the hand-offs)
. -mat_gpurcm_threads_keep <true>             - the threads backend keeps its threads (asleep) and its node arrays (about 50
                                                 bytes a node) for the next ordering with as many threads, until PetscFinalize()
                                                 (starting 15 threads took 2 ms of a 20 ms ordering on 16 cores); false = started
                                                 and freed at each ordering
. -mat_gpurcm_threads_components <true>       - the threads backend orders the components left after the first one together:
                                                 labelled at once (a lock-free union-find), each of at most max(serial_component,
                                                 nodes left / threads) nodes by one thread with SPARSEPACK's serial code, in
                                                 parallel, the larger ones by all threads (a graph of many independent blocks);
                                                 false = one component at a time, each by all threads
. -mat_gpurcm_speculate <true>                 - every backend (cuda: the level root finder; serial: a symmetric graph, i.e.
                                                 not a flagged matrix whose pattern is not): the pass from each candidate root (every
                                                 pass after the first) is the Cuthill-McKee numbering from that root, which
                                                 has the same levels: when fnroot returns the candidate, as it mostly does at
                                                 the second pass, the numbering is done and one pass is saved; otherwise it
                                                 is dropped (serial: its last level is re-read in rootls order when several
                                                 of its nodes share the smallest degree)
. -mat_gpurcm_cuda_rootfind <levels,ordered>   - root finder of the cuda backend: levels = level-synchronous passes, a pass repeated
                                                 in queue order only when its last level holds several nodes of minimum degree;
                                                 ordered = every pass in queue order by the batch kernel
. -mat_gpurcm_cuda_number <auto,batch,levels>  - Cuthill-McKee numbering of the cuda backend: batch = speculative batches in
                                                 queue order; levels = level by level (children of each level's nodes in
                                                 rank order, each node's sorted by degree), one cooperative kernel, its narrow
                                                 levels claimed in a shared-memory table with a bitmap of the numbered nodes
                                                 when they fit (up to about 1.2 million nodes), else with the level tables;
                                                 auto (default) = levels when
                                                 every level of the component's first root-finder pass is narrow and the tables
                                                 fit (a latency-bound numbering in one block), or with the level tables when
                                                 the widest level holds at most 3 x narrow nodes (2D meshes of 1100^2 to
                                                 3000^2), or when its levels hold at least 2048 nodes on average (3D meshes,
                                                 power-law graphs), else batch
. -mat_gpurcm_cuda_narrow <1024>               - (developer) levels of at most this many nodes (0 to 4096) are expanded by one
                                                 thread block, wider ones by the whole grid (level root finder and numbering);
                                                 1024 was faster than 2048 and 4096 on every mesh measured (session 15)
. -mat_gpurcm_cuda_bitmap <true>               - (developer) the narrow levels (one block) of the level kernels keep the visited or
                                                 numbered nodes in a bitmap of all nodes in shared memory, when it fits (up to
                                                 about 1.2 million nodes), instead of claiming with global atomics; the previous
                                                 and the current level are entered when a narrow stretch follows wide levels
. -mat_gpurcm_cuda_level_tables <true>         - (developer) without the bitmap (a larger graph, or the bitmap off), the narrow
                                                 levels keep the nodes of the last four levels in shared-memory hash tables
                                                 (a level meets only the previous, the current and the next level), for any
                                                 number of nodes; a level whose previous or current table overflowed claims
                                                 with global atomics
. -mat_gpurcm_cuda_ell <true>                 - (developer) when every row of the graph has at most 8 entries (meshes of low degree) and
                                                 there are fewer than 2^24 - 1 nodes, the narrow levels (one block) of the level
                                                 numbering read each node's row from a packed ELL copy (neighbour | degree << 24,
                                                 4 bytes an entry, made at the first level numbering), which gives the children's
                                                 degrees without loading their row pointers; and when every row has at most 5
                                                 entries and the bitmap is used, the root finder's level BFS reads each node's
                                                 neighbours (itself left out) from a copy of 4 a node (16 bytes), made at its first
                                                 pass, and issues the four claims together
. -mat_gpurcm_cuda_fit_warps <false>          - (developer) in the level kernels, the warps of a thread block that hold no node of the
                                                 level being expanded (in a narrow level of n nodes, all but the first n/32) skip to the
                                                 level's barriers, and the numbering's scan adds only the working warps' counts
                                                 (2D meshes 1.07-1.15x faster). Off by default: those warps wait at barriers of their own
                                                 (PTX's non-.aligned barrier.sync/barrier.red since session 58), and compute-sanitizer's
                                                 synccheck still reports barrier errors with the option on
. -mat_gpurcm_cuda_claim_slots <4096>          - (developer) slots of the level numbering's shared-memory claim table (a power of 2,
                                                 64 to 4096; half as many when they do not fit); a level whose claims find no
                                                 slot is numbered in global memory
. -mat_gpurcm_cuda_max_components <8>         - with -mat_gpurcm_backend auto, a graph with more components of over 64 nodes than
                                                 this is ordered by the threads backend (or the serial one, as auto chooses
                                                 without a GPU) instead: the GPU orders such a component in several passes
                                                 and synchronizations, a fixed ~1.5 ms each (a block-diagonal matrix of 75
                                                 blocks: 125 ms, rcm 83 ms, 16 threads 27 ms); 0 = never
. -mat_gpurcm_cuda_batch_blocks <0>            - (developer) thread blocks of the cuda batch numbering; 0: from the widest level of the
                                                 root's level structure (4 + 4 per 512 nodes), all co-resident blocks if unknown
. -mat_gpurcm_cuda_upload <staged,pageable,pinned> - upload of a host matrix's CSR by the cuda backend: staged = split among up to
                                                 8 threads (-mat_gpurcm_threads), at least 1 MiB each, each filling two 4 MiB pinned
                                                 buffers of its own in turn (chunks of a quarter of its part, 256 KiB to 4 MiB)
                                                 while the other's DMA runs on its own stream;
                                                 pageable = the driver's copy of pageable memory; pinned = page-locked in place
                                                 (cudaHostRegister) for one DMA copy
- -mat_gpurcm_check_graph                      - (developer) compare the graph built by the threads backend with MatGetRowIJ()'s

  Level: intermediate

  Notes:
  The options are read with the matrix's options prefix (for MPIAIJ, whose diagonal block is ordered, without it).
  `-info` reports the backend chosen; `-log_view` shows the events GPURCMOrder (whole ordering), GPURCMGraph
  (graph construction), GPURCMRootFind (components and pseudo-peripheral roots), GPURCMNumber (numbering) and
  GPURCMSetup (the threads backend's workspace, thread pool and first touch of its node arrays).

  -mat_ordering_type <type> takes effect through the options database only: when the library is initialized
  (at -dll_append loading, or PetscSparseGPUInitializePackage()) it inserts -pc_factor_mat_ordering_type <type>
  and -sub_pc_factor_mat_ordering_type <type> unless the user gave them. So it reaches every factorization PC
  whose options are read with the prefix "" or "sub_" (-pc_type ilu/icc/lu/cholesky, the blocks of the default
  parallel bjacobi/asm) when the application calls KSPSetFromOptions()/PCSetFromOptions(). An explicit
  -[sub_]pc_factor_mat_ordering_type wins; PCs with other prefixes (e.g. -mg_levels_) need their own option.
  Like any option, the inserted one also overrides a PCFactorSetMatOrderingType() that the code calls before
  KSPSetFromOptions(); one called after it wins. External factorization packages that ignore PETSc's ordering
  (MUMPS, SuperLU_DIST, ...) are not affected.

  The serial backend is an exact port of SPARSEPACK genrcm (dynamic masked degrees): identical on any graph. It
  takes the CSR itself as the graph when a serial check finds it structurally symmetric (no inodes, not flagged).
  Its fast passes and the threads and cuda backends use degree = row length, which is SPARSEPACK's degree on the
  symmetric graphs that MatGetRowIJ() returns; the raw CSR of a matrix flagged structurally symmetric (which rcm
  orders as it is) is checked by the backend that orders it (cuda on the GPU, threads in parallel, serial in one
  O(nnz) pass), and where its pattern is not symmetric the serial backend orders it with SPARSEPACK's passes. The
  threads and cuda backends order components of
  at most 4096 (threads; -mat_gpurcm_serial_component) or 64 (cuda) nodes serially, larger ones with batches.
  The threads backend takes the CSR itself as the graph when a parallel check finds it structurally symmetric (no
  inodes), else builds PETSc's symmetrized graph in parallel; its root finder runs level-synchronous BFS passes and
  repeats a pass with the (ordered) batch engine only when the last level holds several nodes of minimum degree.
  The cuda root finder does the same (default): each pass is one cooperative kernel whose blocks are all co-resident;
  narrow levels are expanded by one block with the levels in shared memory, wide ones by all blocks between grid
  barriers. The ordered root finder computes every pass in SPARSEPACK's queue order by the batch kernel.
  The levels numbering builds level k+1 in Cuthill-McKee order from level k: each node's parent is its neighbour of
  smallest rank in level k (an atomicMin of (rank, position in the row)), each node's children are sorted stably by
  degree and written in rank order after a scan.
  Hubs (power-law graphs, circuits): in both cuda numberings a node's children are sorted by its thread when there
  are at most 32 of them, else by the whole thread block; when some row of the graph is longer than 32 entries the
  cuda backend allocates 16 bytes of sort keys per graph entry for this. The threads and serial backends merge-sort
  long lists on the CPU. PETSc's rcm sorts them by insertion (SPARSEPACK), quadratic in a hub's degree.

.seealso: `MatGetOrdering()`, `MATORDERINGRCM`, `PCFactorSetMatOrderingType()`
M*/

/* -mat_ordering_type <type>: make it the default ordering of factorization PCs through the options database.
   PCFactor reads -[prefix]pc_factor_mat_ordering_type in PCSetFromOptions(); the prefixes covered are those of
   the factorization PCs PETSc creates by default: none (PCILU/PCICC/PCLU/PCCHOLESKY given with -pc_type) and
   sub_ (PCBJACOBI/PCASM blocks, the default parallel preconditioner). */
static const char *const GPURCMFactorOrderingOptions[] = {"-pc_factor_mat_ordering_type", "-sub_pc_factor_mat_ordering_type"};

static PetscErrorCode GPURCMApplyGlobalOrderingOption(void)
{
  char      type[256];
  PetscBool set, has;

  PetscFunctionBegin;
  type[0] = 0;
  PetscOptionsBegin(PETSC_COMM_WORLD, NULL, "PETSc SparseGPU ordering options", "Mat");
  PetscCall(PetscOptionsString("-mat_ordering_type", "Default ordering of factorization preconditioners: sets -pc_factor_mat_ordering_type and -sub_pc_factor_mat_ordering_type unless given", "MATORDERINGGPURCM", type, type, sizeof(type), &set));
  PetscOptionsEnd();
  if (!set || !type[0]) PetscFunctionReturn(PETSC_SUCCESS);
  for (size_t i = 0; i < sizeof(GPURCMFactorOrderingOptions) / sizeof(GPURCMFactorOrderingOptions[0]); i++) {
    PetscCall(PetscOptionsHasName(NULL, NULL, GPURCMFactorOrderingOptions[i], &has));
    if (has) continue; /* given by the user: it wins */
    PetscCall(PetscOptionsSetValue(NULL, GPURCMFactorOrderingOptions[i], type));
    PetscCall(PetscOptionsHasName(NULL, NULL, GPURCMFactorOrderingOptions[i], &has)); /* mark it used: no "unused option" warning where no such PC exists */
  }
  PetscCall(PetscInfo(NULL, "-mat_ordering_type %s: default ordering of factorization preconditioners (unless -pc_factor_mat_ordering_type / -sub_pc_factor_mat_ordering_type are given)\n", type));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatOrderingRegister_GPURCM_Private(void)
{
  PetscFunctionBegin;
  PetscCall(MatInitializePackage());
  PetscCall(MatOrderingRegister(MATORDERINGGPURCM, MatGetOrdering_GPURCM));
  PetscCall(PetscLogEventRegister("GPURCMOrder", MAT_CLASSID, &MAT_GPURCM_Order));
  PetscCall(PetscLogEventRegister("GPURCMGraph", MAT_CLASSID, &MAT_GPURCM_Graph));
  PetscCall(PetscLogEventRegister("GPURCMRootFind", MAT_CLASSID, &MAT_GPURCM_RootFind));
  PetscCall(PetscLogEventRegister("GPURCMNumber", MAT_CLASSID, &MAT_GPURCM_Number));
  PetscCall(PetscLogEventRegister("GPURCMSetup", MAT_CLASSID, &MAT_GPURCM_Setup));
  PetscCall(GPURCMApplyGlobalOrderingOption());
  PetscFunctionReturn(PETSC_SUCCESS);
}
