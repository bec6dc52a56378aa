/* Internal declarations of the gpurcm ordering (not installed) */
#pragma once

#include <sparsegpuimpl.h>

typedef enum {
  MAT_GPURCM_BACKEND_AUTO,
  MAT_GPURCM_BACKEND_CUDA,
  MAT_GPURCM_BACKEND_THREADS,
  MAT_GPURCM_BACKEND_SERIAL
} MatGPURCMBackend;

PETSC_INTERN const char *const MatGPURCMBackends[];

/* Root finder of the cuda backend: level-synchronous BFS passes (the last level's node of minimum degree taken
   when unique, else the pass is repeated in queue order) or every pass in queue order by the batch kernel */
typedef enum {
  MAT_GPURCM_CUDA_ROOTFIND_LEVELS,
  MAT_GPURCM_CUDA_ROOTFIND_ORDERED
} MatGPURCMCUDARootFind;

PETSC_INTERN const char *const MatGPURCMCUDARootFinds[];

/* Cuthill-McKee numbering of the cuda backend: speculative batches (queue order), level by level, or chosen per component */
typedef enum {
  MAT_GPURCM_CUDA_NUMBER_BATCH,
  MAT_GPURCM_CUDA_NUMBER_LEVELS,
  MAT_GPURCM_CUDA_NUMBER_AUTO
} MatGPURCMCUDANumber;

PETSC_INTERN const char *const MatGPURCMCUDANumbers[];

/* Cuthill-McKee numbering of the threads backend: speculative batches, level by level (claims, three barriers a
   level), level by level with one barrier a level (narrow levels), or chosen per component */
typedef enum {
  MAT_GPURCM_THREADS_NUMBER_BATCH,
  MAT_GPURCM_THREADS_NUMBER_LEVELS,
  MAT_GPURCM_THREADS_NUMBER_NARROW,
  MAT_GPURCM_THREADS_NUMBER_AUTO
} MatGPURCMThreadsNumber;

PETSC_INTERN const char *const MatGPURCMThreadsNumbers[];

/* Spin-waits of the threads backend: sleep after about 0.1 ms when the threads share cores (auto), never, or always */
typedef enum {
  MAT_GPURCM_THREADS_WAIT_AUTO,
  MAT_GPURCM_THREADS_WAIT_SPIN,
  MAT_GPURCM_THREADS_WAIT_SLEEP
} MatGPURCMThreadsWait;

PETSC_INTERN const char *const MatGPURCMThreadsWaits[];

/* auto numbering of the threads backend: level by level when the widest level exceeds GPURCM_THREADS_LEVEL_WIDTH nodes
   per thread; else, narrow levels (one barrier a level) when it exceeds GPURCM_THREADS_NARROW_WIDTH; else batches */
#define GPURCM_THREADS_LEVEL_WIDTH  256
#define GPURCM_THREADS_NARROW_WIDTH 32
#define GPURCM_MAX_BATCH (1 << 20) /* -mat_gpurcm_batch at most (each thread keeps 16 batches of counts) */

/* Upload of a host matrix's CSR by the cuda backend: through pinned staging buffers filled by several threads,
   the driver's copy of pageable memory, or page-locked in place (cudaHostRegister) */
typedef enum {
  MAT_GPURCM_CUDA_UPLOAD_STAGED,
  MAT_GPURCM_CUDA_UPLOAD_PAGEABLE,
  MAT_GPURCM_CUDA_UPLOAD_PINNED
} MatGPURCMCUDAUpload;

PETSC_INTERN const char *const MatGPURCMCUDAUploads[];

#if defined(__CUDACC__)
  #define GPURCM_HOST_DEVICE __host__ __device__
#else
  #define GPURCM_HOST_DEVICE
#endif

/* Structural-symmetry check of row r of a CSR (threads and cuda backends): 0 when the row is strictly ascending with
   columns in [0, n) and every entry above the diagonal has its mirror (binary search in the row of its column), else
   1; adds the row's entries below and above the diagonal to *nlow and *nup (stops counting at the first defect).
   With every row passing, equal totals make the mirror map a bijection: the CSR is structurally symmetric. */
GPURCM_HOST_DEVICE static inline int GPURCMRowUnmirrored(PetscInt n, PetscInt r, const PetscInt *ai, const PetscInt *aj, PetscInt64 *nlow, PetscInt64 *nup)
{
  PetscInt prev = -1;

  for (PetscInt k = ai[r]; k < ai[r + 1]; k++) {
    const PetscInt c = aj[k];

    if (c <= prev || c >= n) return 1;
    prev = c;
    if (c < r) (*nlow)++;
    else if (c > r) {
      PetscInt l = ai[c], h = ai[c + 1];

      (*nup)++;
      while (l < h) {
        const PetscInt mid = l + (h - l) / 2;

        if (aj[mid] < r) l = mid + 1;
        else h = mid;
      }
      if (l == ai[c + 1] || aj[l] != r) return 1;
    }
  }
  return 0;
}

/* Largest -mat_gpurcm_cuda_narrow: levels up to this size fit the shared-memory level buffers of one block */
#define GPURCM_CUDA_NARROW_MAX 4096
/* Default -mat_gpurcm_cuda_narrow: one block is faster than the grid on levels that fill at most one round of its threads */
#define GPURCM_CUDA_NARROW_DEFAULT 1024
/* Default -mat_gpurcm_cuda_claim_slots: room for the claims of a level of up to 1024 light nodes in most graphs */
#define GPURCM_CUDA_CLAIM_SLOTS 4096

typedef struct {
  MatGPURCMCUDARootFind rootfind;
  MatGPURCMCUDANumber   number;
  PetscInt              narrow;      /* levels of at most this many nodes are expanded by one thread block */
  PetscInt              batchblocks; /* thread blocks of the numbering's batch kernel; 0: automatic */
  MatGPURCMCUDAUpload   upload;      /* how a host matrix's CSR is uploaded */
  PetscInt              uploadthreads; /* host threads filling the staging buffers */
  PetscBool             speculate;     /* the root finder's candidate passes are Cuthill-McKee numberings */
  PetscBool             bitmap;        /* the level kernels' narrow levels keep the visited (numbered) nodes in a shared-memory bitmap when it fits */
  PetscBool             leveltables;   /* else in shared-memory hash tables of the last four levels, when they fit */
  PetscInt              claimslots;    /* slots of the level numbering's shared claim table (a power of 2; half as many if they do not fit) */
  PetscBool             ell;           /* the narrow levels read rows from a packed ELL copy when every row has at most 8 entries */
  PetscBool             fitwarps;      /* the level kernels' warps with no node of a level only pass its barriers */
  PetscInt              maxcomponents; /* -mat_gpurcm_cuda_max_components with -mat_gpurcm_backend auto: a graph of more components of over
                                          GPURCM_CUDA_SMALL nodes is left to the host (each costs the GPU a fixed ~1.5 ms); 0: never */
} MatGPURCMCUDAOptions;
/* Host work that the cuda backend does while its kernels run: at each wait for a long kernel (a root-finder pass, a
   numbering) step(ctx, &more) is called once, after the launch and before the result is read, until it sets more to
   PETSC_FALSE; the steps left are done before the permutation is downloaded */
typedef struct {
  PetscErrorCode (*step)(void *, PetscBool *);
  void     *ctx;
  PetscBool more;
} GPURCMHostWork;

PETSC_INTERN PetscLogEvent     MAT_GPURCM_Order, MAT_GPURCM_Graph, MAT_GPURCM_RootFind, MAT_GPURCM_Number, MAT_GPURCM_Setup;

/* Serial exact port of SPARSEPACK genrcm on a 0-based graph (the reference; also used for small components) */
PETSC_INTERN PetscErrorCode MatGPURCMSerial_Private(PetscInt, const PetscInt[], const PetscInt[], PetscBool, PetscBool, PetscInt[]);

#if defined(PETSC_HAVE_CUDA)
/* CUDA backend (gpurcm.cu) */
PETSC_INTERN PetscErrorCode MatGPURCMCUDAAvailable_Private(PetscBool *);
/* Orders the symmetric graph (0-based CSR, host arrays) on the GPU; perm is a host array of length n */
PETSC_INTERN PetscErrorCode MatGPURCMCUDAOrderGraph_Private(PetscInt, const PetscInt[], const PetscInt[], PetscMemType, const MatGPURCMCUDAOptions *, PetscInt[]);
/* Builds PETSc's symmetrized graph of a SeqAIJ CSR (m rows; with inode sizes, the inode-compressed graph of nnodes
   nodes) on the GPU and orders it; perm is a host array of length m (nnodes with inodes). flagged (no inodes): the
   matrix is flagged structurally symmetric, so its graph is the raw CSR: ordered only if the GPU check finds it
   symmetric, else *ordered is PETSC_FALSE and perm is untouched (the caller orders it with SPARSEPACK's passes). hw
   (may be NULL): host work done while the kernels run (all of it done before perm is written); perm2 (may be NULL):
   a second host array that receives the permutation too. *declined: the graph has more components than
   opt->maxcomponents allows (auto): *ordered is PETSC_FALSE, perm untouched, the host orders it */
PETSC_INTERN PetscErrorCode MatGPURCMCUDAOrderCSR_Private(PetscInt, const PetscInt[], const PetscInt[], PetscMemType, PetscInt, const PetscInt[], PetscBool, const MatGPURCMCUDAOptions *, GPURCMHostWork *, PetscInt[], PetscInt[], PetscBool *, PetscBool *);
#endif
