/*
  CUDA backend of PCSUBTREEILU: synchronization-free triangular solves (no level analysis, no level barrier, no
  host synchronization; one kernel launch per triangular solve).

  Each solution value is its own readiness flag: before a solve the output vector is filled with a sentinel bit
  pattern (a NaN payload that arithmetic never produces), and a row's value is published with one 64-bit store.
  A consumer waits for exactly the inputs it needs with relaxed gpu-scope loads: the value and its readiness arrive
  in one single-copy-atomic access, so neither a fence nor a counter is needed, and each input is used as soon as it
  is known. Summation orders are fixed, so the cuda backend is always bitwise reproducible (with or without
  -pc_subtree_ilu_deterministic).

  Chains: consecutive rows (in the solve's order) where each row depends on the previous one (the x-direction of a
  natural-ordered grid, a band) are grouped, at most -pc_subtree_ilu_cuda_chain (<= 32) rows per group, and one
  warp solves a group, one lane per row: the lanes gather their rows' inputs from outside the group in parallel,
  then the chain is resolved inside the warp (an affine scan, or shuffles) and the critical path crosses warps
  only between groups. Rows independent of each other whose inputs are final at the same dependency hop are a
  group too (e.g. the rows of an RCM level: the group's 32 lanes then solve 32 rows at once); the rules, which never
  lengthen the critical path beyond that of chains alone, are in subtreeilugroups.c. A warp takes a run of up to
  SUBTREEILU_MAXSUPER groups of one chain per ticket (so fewer tickets wait at once), and a block takes up to
  SUBTREEILU_WARPS consecutive warp tickets (see SolveKernel); blocks take block tickets by level of their DAG, so
  that the tickets held at once follow a wide wavefront (the diagonal planes of a 3D grid).

  Deadlock freedom by construction: a persistent grid of warps takes groups by a ticket (atomicAdd on a counter)
  in topological order; a warp only ever waits for rows of groups with smaller tickets (checked at setup: every
  input of a row lies before it in the solve's order), which were taken earlier by warps that are running (a warp
  takes a ticket only while it executes; blocks not yet scheduled hold none). The warp holding the smallest
  unfinished ticket therefore waits for nobody and finishes; by induction all do. This needs no co-residency of the
  grid, no occupancy assumption and no warp-synchronous behaviour (no lane ever waits for another lane of its warp;
  the lanes only meet in *_sync warp intrinsics).
*/
#include <petscdevice_cuda.h>
#include "subtreeiluimpl.h"
#include "sparsegpucudatrace.h"

#define SUBTREEILU_MAXCHAIN 32 /* most rows of a group (one lane per row) */
#define SUBTREEILU_SENTINEL 0xFFF4A5A5A5A5A5A5ULL /* "not yet solved": a signaling NaN payload (arithmetic yields quiet NaNs) */
#define SUBTREEILU_QNAN     0x7FF8000000000000ULL

typedef struct {
  PetscInt     n, nnz;
  PetscBool    lower;
  PetscInt    *rowptr, *colidx, *colptr, *rowidx;
  PetscScalar *val, *cval;
  PetscInt     ngroups; /* groups (chains of dependent consecutive rows), the same for T and T^T */
  PetscInt    *gptr;    /* group g: rows gptr[g] .. gptr[g+1]-1 */
  PetscInt     nsuper;  /* warp tickets: runs of linked groups (one chain longer than a group), at most SUBTREEILU_MAXSUPER groups */
  PetscInt    *sptr;    /* warp ticket s: groups sptr[s] .. sptr[s+1]-1 */
  PetscInt     nblk;    /* block tickets: up to SUBTREEILU_WARPS consecutive warp tickets, one per warp of a block */
  PetscInt    *bptr;    /* block ticket b: warp tickets bptr[b] .. bptr[b+1]-1 */
  PetscInt    *border;  /* the non-transposed solve takes block ticket border[t] t-th (by level, subtreeilugroups.c) */
  size_t       smem;    /* dynamic shared memory of the solve kernel: the rows of the largest block ticket */
  int          perSM;   /* blocks of the solve kernel one multiprocessor holds with that shared memory */
  PetscBool    borrowed; /* rowptr .. cval are another DevTri's, read transposed (ICC: L = U^T), not freed here */
} DevTri;

struct _PCSubtreeILUCUDA {
  PetscInt     n;
  DevTri       L, U;
  PetscInt    *rperm, *cperm; /* the L solve's gather t[p] = b[rperm[p]], the U solve's scatter x[cperm[p]] = t[p]: the
                                 ordering's permutations composed with the level sorts */
  /* level-sorted triangles (-pc_subtree_ilu_cuda_level_sort, subtreeilulevelsort.c): index 0 U, 1 L */
  PCSubtreeILUTri hsort[2];    /* the host copy in the new numbering, the one copied to the device (ICC: L = U^T borrowed) */
  PetscInt       *sperm[2];    /* host: perm[new] = old, or NULL: that triangle keeps the factor's numbering (ICC: sperm[1] == sperm[0]) */
  PetscInt       *spos[2];     /* host: position in the factor-numbered CSR of each entry of hsort's CSR (ICC's L: NULL) */
  PetscInt       *midLU, *midUL; /* device: U's input from L's output, t[p] = s[midLU[p]], and the transposed way (NULL: one numbering) */
  PetscInt       *psym;          /* device (ICC): U's sort, the symmetric applies' gather and scatter (NULL: none) */
  PetscScalar *dinv, *sqrtdinv;
  PetscScalar *t1, *t2, *t3, *hb, *hx; /* work, and device copies of host vectors */
  int         *tickets;                /* one group ticket counter per triangular solve of an apply */
  int          nsm;                    /* multiprocessors of the device */
  int          scan;                   /* bidiagonal chains by an affine scan */
  unsigned     backoff;                /* nanoseconds of sleep between two polls of an unpublished value */
  int          blockspersm;            /* most blocks per multiprocessor of the persistent grids (0: as many as fit) */
  int          levelorder;             /* non-transposed solves take block tickets by level (DevTri.border) */
  PetscInt     longrow;                /* rows with more inputs from outside their group may be summed by a whole warp (0: never) */
};

/* blocks of a persistent grid: perSM (what fits) per multiprocessor, or fewer if asked (fewer polling warps compete
   with the ones on the critical path for issue slots and L2 bandwidth; any grid size is correct) */
static inline PetscInt PersistentBlocks(int perSM, int nsm, int blockspersm)
{
  int bps = PetscMax(1, perSM);

  if (blockspersm > 0) bps = PetscMin(bps, blockspersm);
  return (PetscInt)bps * nsm;
}

#if defined(PETSC_USE_COMPLEX) || defined(PETSC_USE_REAL_SINGLE) || defined(PETSC_USE_REAL___FLOAT128) || defined(PETSC_USE_REAL___FP16)
  #define SUBTREEILU_CUDA_SUPPORTED 0
#else
  #define SUBTREEILU_CUDA_SUPPORTED 1
#endif

static PetscErrorCode DevTriDestroy(DevTri *T)
{
  PetscFunctionBegin;
  if (!T->borrowed) {
    PetscCallCUDA(cudaFree(T->rowptr));
    PetscCallCUDA(cudaFree(T->colidx));
    PetscCallCUDA(cudaFree(T->colptr));
    PetscCallCUDA(cudaFree(T->rowidx));
    PetscCallCUDA(cudaFree(T->val));
    PetscCallCUDA(cudaFree(T->cval));
  }
  PetscCallCUDA(cudaFree(T->gptr));
  PetscCallCUDA(cudaFree(T->sptr));
  PetscCallCUDA(cudaFree(T->bptr));
  PetscCallCUDA(cudaFree(T->border));
  PetscCall(PetscMemzero(T, sizeof(*T)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

template <typename T>
static PetscErrorCode Upload(T **d, const T *h, PetscInt n)
{
  PetscFunctionBegin;
  if (!*d) PetscCallCUDA(cudaMalloc((void **)d, PetscMax(n, 1) * sizeof(T)));
  if (n) PetscCallCUDA(cudaMemcpy(*d, h, n * sizeof(T), cudaMemcpyHostToDevice));
  PetscCall(PetscLogCpuToGpu(n * sizeof(T)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the device array *d of n entries (allocated here) as a segment of a staged upload from h (PetscSparseGPUStagedUpload()) */
template <typename T>
static PetscErrorCode UploadSegment(T **d, const T *h, PetscInt n, PetscSparseGPUSegment seg[], PetscInt *nseg)
{
  PetscFunctionBegin;
  PetscCheck(*nseg < 24, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Too many segments for one staged upload");
  if (!*d) PetscCallCUDA(cudaMalloc((void **)d, PetscMax(n, 1) * sizeof(T)));
  seg[*nseg].dst   = *d;
  seg[*nseg].src   = h;
  seg[*nseg].bytes = (size_t)n * sizeof(T);
  (*nseg)++;
  PetscCall(PetscLogCpuToGpu(n * sizeof(T)));
  PetscFunctionReturn(PETSC_SUCCESS);
}

__global__ static void __launch_bounds__(SUBTREEILU_WARPS * 32, 4) SolveKernel(PetscInt, int, int, unsigned, PetscInt, const PetscInt *__restrict__, const PetscInt *__restrict__, const PetscInt *__restrict__, const PetscInt *__restrict__, const PetscInt *__restrict__, const PetscInt *__restrict__, const PetscScalar *__restrict__, const PetscScalar *__restrict__, const PetscScalar *__restrict__, const PetscScalar *__restrict__, PetscScalar *, int *);

/* the solve schedule (groups, warp and block tickets: subtreeilugroups.c, made by PCSubtreeILUCUDASetUp_Private())
   on the device; G is freed */
static PetscErrorCode DevTriSchedule(DevTri *D, const PCSubtreeILUTri *T, PCSubtreeILUGroups *G)
{
  int perSM = 0;

  PetscFunctionBegin;
  D->ngroups = G->ngroups;
  D->nsuper  = G->nsuper;
  D->nblk    = G->nblk;
  D->smem    = (size_t)G->maxrows * sizeof(unsigned long long); /* <= SUBTREEILU_WARPS * SUBTREEILU_MAXSUPER * 32 rows */
  PetscCall(Upload(&D->gptr, G->gptr, G->ngroups + 1));
  PetscCall(Upload(&D->sptr, G->sptr, G->nsuper + 1));
  PetscCall(Upload(&D->bptr, G->bptr, G->nblk + 1));
  PetscCall(Upload(&D->border, G->border, G->nblk));
  PetscCall(PetscInfo(NULL, "PCSUBTREEILU cuda solve schedule of %s: %" PetscInt_FMT " rows, %" PetscInt_FMT " groups (%.1f rows each), %" PetscInt_FMT " warp tickets, %" PetscInt_FMT " block tickets in %" PetscInt_FMT " levels, critical path %" PetscInt_FMT " groups, %zu bytes of shared memory per block\n", T->lower ? "L" : "U", T->n, G->ngroups, G->ngroups ? (double)T->n / G->ngroups : 0.0, G->nsuper, G->nblk, G->bdepth, G->hops, D->smem));
  PetscCall(PCSubtreeILUGroupsDestroy_Private(G));
  /* persistent grid: as many blocks as fit at once (more would only wait to be scheduled; fewer is also correct) */
  if (D->smem > 48 * 1024) PetscCallCUDA(cudaFuncSetAttribute(SolveKernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)D->smem));
  PetscCallCUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, SolveKernel, SUBTREEILU_WARPS * 32, D->smem));
  D->perSM = PetscMax(1, perSM);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the device copy of T's structure (unless valuesonly) and values, as segments of one staged upload (seg, nseg); when T
   borrows its arrays (T = S^T, ICC), so does D from S's device copy DS. The schedule is set apart (DevTriSchedule()). */
static PetscErrorCode DevTriUpload(DevTri *D, const PCSubtreeILUTri *T, const DevTri *DS, PetscBool valuesonly, PetscSparseGPUSegment seg[], PetscInt *nseg)
{
  PetscFunctionBegin;
  if (!valuesonly) {
    PetscCall(DevTriDestroy(D));
    D->n     = T->n;
    D->nnz   = T->nnz;
    D->lower = T->lower;
    if (T->borrowed) {
      PetscCheck(DS && DS->n == T->n && DS->nnz == T->nnz && !DS->borrowed, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The device copy of the transposed factor is missing");
      D->borrowed = PETSC_TRUE;
      D->rowptr   = DS->colptr;
      D->colidx   = DS->rowidx;
      D->val      = DS->cval;
      D->colptr   = DS->rowptr;
      D->rowidx   = DS->colidx;
      D->cval     = DS->val;
    } else {
      PetscCall(UploadSegment(&D->rowptr, (const PetscInt *)T->rowptr, T->n + 1, seg, nseg));
      PetscCall(UploadSegment(&D->colptr, (const PetscInt *)T->colptr, T->n + 1, seg, nseg));
      PetscCall(UploadSegment(&D->colidx, (const PetscInt *)T->colidx, T->nnz, seg, nseg));
      PetscCall(UploadSegment(&D->rowidx, (const PetscInt *)T->rowidx, T->nnz, seg, nseg));
    }
  }
  if (!D->borrowed) { /* (a borrowed copy's values are its owner's) */
    PetscCall(UploadSegment(&D->val, (const PetscScalar *)T->val, T->nnz, seg, nseg));
    PetscCall(UploadSegment(&D->cval, (const PetscScalar *)T->cval, T->nnz, seg, nseg));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the segments of a staged upload: the driver's copies when under 1 MiB in all (no pinned buffers for them) */
static PetscErrorCode UploadSegments(const PetscSparseGPUSegment seg[], PetscInt nseg, PetscInt nthreads)
{
  PetscFunctionBegin;
  PetscCall(PetscSparseGPUUpload(seg, nseg, PetscMin(nthreads, 8), (size_t)1 << 20));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the triangle t (0: U, 1: L) as the device has it: level-sorted or the factor's own */
static const PCSubtreeILUTri *SolveTri(PC_SubtreeILU *st, int t)
{
  return st->cuda->sperm[t] ? &st->cuda->hsort[t] : t ? &st->L : &st->U;
}

/* the setup's copies to the device (everything but the schedules), in one staged upload. The pivots are in U's
   numbering (the U solves use them; ICC's symmetric applies too, in the same numbering) */
static PetscErrorCode DevUploadAll(PC_SubtreeILU *st, PetscBool valuesonly)
{
  PCSubtreeILUCUDA      c    = st->cuda;
  PetscInt              nseg = 0, n = st->n;
  PetscSparseGPUSegment seg[24];
  const PetscScalar    *dinv = st->dinv, *sqrtdinv = st->sqrtdinv;
  PetscScalar          *pdinv = NULL, *psqrtdinv = NULL;
  const PetscBool       icc   = st->type == PC_SUBTREEILU_ICC ? PETSC_TRUE : PETSC_FALSE;

  PetscFunctionBegin;
  for (int t = 0; t < 2; t++) /* (ICC's L reads U's) */
    if (c->sperm[t] && c->spos[t]) PetscCall(PCSubtreeILULevelSortValues_Private(t ? st->L.val : st->U.val, c->spos[t], st->setupthreads, &c->hsort[t]));
  if (c->sperm[0]) {
    const PetscInt *pu = c->sperm[0];

    PetscCall(PetscMalloc2(n, &pdinv, icc ? n : 0, &psqrtdinv));
    for (PetscInt p = 0; p < n; p++) pdinv[p] = st->dinv[pu[p]];
    if (icc)
      for (PetscInt p = 0; p < n; p++) psqrtdinv[p] = st->sqrtdinv[pu[p]];
    dinv     = pdinv;
    sqrtdinv = psqrtdinv;
  }
  PetscCall(DevTriUpload(&c->U, SolveTri(st, 0), NULL, valuesonly, seg, &nseg));
  PetscCall(DevTriUpload(&c->L, SolveTri(st, 1), &c->U, valuesonly, seg, &nseg)); /* (ICC: U's arrays) */
  PetscCall(UploadSegment(&c->dinv, dinv, n, seg, &nseg));
  if (icc) PetscCall(UploadSegment(&c->sqrtdinv, sqrtdinv, n, seg, &nseg));
  PetscCall(UploadSegments(seg, nseg, st->setupthreads));
  PetscCall(PetscFree2(pdinv, psqrtdinv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the level sorts made with the schedules (subtreeilu.c, subtreeilulevelsort.c): where taken, the sorted triangles go
   to the device instead of the factor's, and their schedules replace G's (U, L; ICC: L = U^T in U's numbering) */
static PetscErrorCode LevelSortTake(PC_SubtreeILU *st, PCSubtreeILUGroups G[2])
{
  PCSubtreeILUCUDA c   = st->cuda;
  const PetscBool  icc = st->type == PC_SUBTREEILU_ICC ? PETSC_TRUE : PETSC_FALSE;

  PetscFunctionBegin;
  for (int t = 0; t < 2; t++) {
    PCSubtreeILUGroups Gs, GsT;
    PetscBool          sorted;

    PetscCall(PCSubtreeILULevelSortFinish_Private(&st->lsort[t], &sorted, &c->hsort[t], &c->sperm[t], &c->spos[t], &Gs, &GsT));
    if (!sorted) continue;
    PetscCall(PCSubtreeILUGroupsDestroy_Private(&G[t]));
    G[t] = Gs;
    if (icc && t == 0) { /* L = U^T in U's new numbering, with the schedule made for it */
      PetscCall(PCSubtreeILUTriBorrowTranspose_Private(&c->hsort[1], &c->hsort[0]));
      c->sperm[1] = c->sperm[0];
      PetscCall(PCSubtreeILUGroupsDestroy_Private(&G[1]));
      G[1] = GsT;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_INTERN PetscErrorCode PCSubtreeILUCUDAGetMultiprocessors_Private(PetscInt *nsm)
{
  int dev, m;

  PetscFunctionBegin;
  PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA));
  PetscCallCUDA(cudaGetDevice(&dev));
  PetscCallCUDA(cudaDeviceGetAttribute(&m, cudaDevAttrMultiProcessorCount, dev));
  *nsm = PetscMax(1, m);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the applies' permutations on the device: the ordering's composed with the level sorts (pl, pu: perm[new] = old, NULL:
   identity), and the gathers between the L and U solves where their numberings differ */
static PetscErrorCode LevelSortPermutations(PC_SubtreeILU *st)
{
  PCSubtreeILUCUDA c  = st->cuda;
  const PetscInt   n  = st->n, *pl = c->sperm[1], *pu = c->sperm[0];
  PetscInt        *rl, *cu, *lu, *ul, *plinv;

  PetscFunctionBegin;
  PetscCall(PetscMalloc5(n, &rl, n, &cu, n, &lu, n, &ul, n, &plinv));
  for (PetscInt p = 0; p < n; p++) {
    rl[p]                 = st->rperm[pl ? pl[p] : p];
    cu[p]                 = st->cperm[pu ? pu[p] : p];
    plinv[pl ? pl[p] : p] = p;
  }
  PetscCall(Upload(&c->rperm, rl, n));
  PetscCall(Upload(&c->cperm, cu, n));
  if (pl != pu) {
    for (PetscInt p = 0; p < n; p++) {
      lu[p]     = plinv[pu ? pu[p] : p];
      ul[lu[p]] = p;
    }
    PetscCall(Upload(&c->midLU, lu, n));
    PetscCall(Upload(&c->midUL, ul, n));
  }
  if (st->type == PC_SUBTREEILU_ICC && pu) PetscCall(Upload(&c->psym, pu, n));
  PetscCall(PetscFree5(rl, cu, lu, ul, plinv));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_INTERN PetscErrorCode PCSubtreeILUCUDADestroy_Private(PCSubtreeILUCUDA *cuda)
{
  PCSubtreeILUCUDA c = *cuda;

  PetscFunctionBegin;
  if (!c) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(DevTriDestroy(&c->L));
  PetscCall(DevTriDestroy(&c->U));
  PetscCall(PCSubtreeILUTriDestroy_Private(&c->hsort[1])); /* (before U's, whose arrays a borrowed L reads) */
  PetscCall(PCSubtreeILUTriDestroy_Private(&c->hsort[0]));
  if (c->sperm[1] != c->sperm[0]) PetscCall(PetscFree(c->sperm[1]));
  PetscCall(PetscFree(c->sperm[0]));
  PetscCall(PetscFree(c->spos[0]));
  PetscCall(PetscFree(c->spos[1]));
  PetscCallCUDA(cudaFree(c->midLU));
  PetscCallCUDA(cudaFree(c->midUL));
  PetscCallCUDA(cudaFree(c->psym));
  PetscCallCUDA(cudaFree(c->rperm));
  PetscCallCUDA(cudaFree(c->cperm));
  PetscCallCUDA(cudaFree(c->dinv));
  PetscCallCUDA(cudaFree(c->sqrtdinv));
  PetscCallCUDA(cudaFree(c->t1));
  PetscCallCUDA(cudaFree(c->t2));
  PetscCallCUDA(cudaFree(c->t3));
  PetscCallCUDA(cudaFree(c->hb));
  PetscCallCUDA(cudaFree(c->hx));
  PetscCallCUDA(cudaFree(c->tickets));
  PetscCall(PetscFree(*cuda));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_INTERN PetscErrorCode PCSubtreeILUCUDAGetGroups_Private(PC_SubtreeILU *st, PetscInt *ngL, PetscInt *ngU, PetscInt *ntL, PetscInt *ntU, PetscBool *sortedL, PetscBool *sortedU)
{
  PetscFunctionBegin;
  *sortedL = (PetscBool)(st->cuda && st->cuda->sperm[1]);
  *sortedU = (PetscBool)(st->cuda && st->cuda->sperm[0]);
  *ngL = st->cuda ? st->cuda->L.ngroups : 0;
  *ngU = st->cuda ? st->cuda->U.ngroups : 0;
  *ntL = st->cuda ? st->cuda->L.nsuper : 0;
  *ntU = st->cuda ? st->cuda->U.nsuper : 0;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ kernels */
__device__ static __forceinline__ unsigned long long LoadRelaxed(const PetscScalar *p)
{
  unsigned long long v;

  asm volatile("ld.relaxed.gpu.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}

__device__ static __forceinline__ void StoreRelaxed(PetscScalar *p, unsigned long long v)
{
  asm volatile("st.relaxed.gpu.b64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
}

/* the same in shared memory, between the warps of a block: shared-memory atomics (an exchange to publish; to poll, a
   compare-and-swap that only ever replaces the sentinel by itself), single-copy atomic like the global accesses and
   seen as synchronization by compute-sanitizer's racecheck */
__device__ static __forceinline__ unsigned long long LoadSharedRelaxed(unsigned long long *p)
{
  return atomicCAS(p, SUBTREEILU_SENTINEL, SUBTREEILU_SENTINEL);
}

__device__ static __forceinline__ void StoreSharedRelaxed(unsigned long long *p, unsigned long long v)
{
  (void)atomicExch(p, v);
}

/* t[i] = b[perm[i]] (perm may be NULL) when t, and o1[i] = o2[i] = sentinel (o2 may be NULL); resets the tickets */
__global__ static void PrepKernel(PetscInt n, const PetscInt *__restrict__ perm, const PetscScalar *__restrict__ b, PetscScalar *__restrict__ t, PetscScalar *__restrict__ o1, PetscScalar *__restrict__ o2, int *__restrict__ tickets)
{
  unsigned long long *u1 = (unsigned long long *)o1, *u2 = (unsigned long long *)o2; /* integer stores: the exact bits */

  if (blockIdx.x == 0 && threadIdx.x < 2) tickets[threadIdx.x] = 0;
  for (PetscInt i = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; i < n; i += (PetscInt)gridDim.x * blockDim.x) {
    if (t) t[i] = b[perm ? perm[i] : i];
    u1[i] = SUBTREEILU_SENTINEL;
    if (u2) u2[i] = SUBTREEILU_SENTINEL;
  }
}

/* t[i] = s[perm[i]]: from one triangle's numbering to the other's */
__global__ static void GatherVecKernel(PetscInt n, const PetscInt *__restrict__ perm, const PetscScalar *__restrict__ s, PetscScalar *__restrict__ t)
{
  for (PetscInt i = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; i < n; i += (PetscInt)gridDim.x * blockDim.x) t[i] = s[perm[i]];
}

/* x[perm[i]] = t[i] (perm may be NULL) times scale[i] (may be NULL) */
__global__ static void ScatterKernel(PetscInt n, const PetscInt *__restrict__ perm, const PetscScalar *__restrict__ scale, const PetscScalar *__restrict__ t, PetscScalar *__restrict__ x)
{
  for (PetscInt i = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; i < n; i += (PetscInt)gridDim.x * blockDim.x) {
    PetscScalar v         = scale ? t[i] * scale[i] : t[i];
    x[perm ? perm[i] : i] = v;
  }
}

/*
  x_i = (b_i rs_i - sum_j T_ij x_j) ds_i. dptr/didx/dval: inputs of a row (the system's CSR: T's CSR, or its CSC for
  T^T; each row's inputs sorted by increasing index). x must hold the sentinel everywhere on entry.

  A block takes block tickets t = 0, 1, ... until none is left, in a topological order: b = border[t] for the
  non-transposed solve (by level of the block tickets' DAG, so that the tickets held at once follow a wide wavefront),
  else ascending b = t, descending b = nblk-1-t; block ticket b is up to SUBTREEILU_WARPS consecutive warp tickets (bptr), the w-th of them in the
  solve's order for warp w; warp ticket s is a run of groups of one chain (sptr), which the warp solves group after
  group in the solve's order (a later group reads the earlier ones' values like any other input). Every value the
  block solves is also kept in its shared memory, where its later warps read it (see LoadX; shared-memory
  atomics, so the polling is race-free): the chains of one
  block ticket are typically neighbouring grid lines, whose dependencies then cost no L2 round trip. A block waits
  at __syncthreads() for its warps at the end of each block ticket; a warp only waits for rows of earlier block
  tickets or of earlier warps (or groups) of its own, so the argument below holds with block tickets. Lane q solves the q-th
  row of a group in the solve's order. Phase 1: every lane subtracts its row's
  terms from outside the group from b_i (CSR order), waiting for each value to be published (values are loaded in
  batches, so the waits overlap). Products and differences are rounded separately (no fused multiply-add), as in
  PETSc's host MatSolve, so that with the row-by-row phase 2 the L solve repeats PETSc's arithmetic exactly (the U
  solve too when a row's only in-group term is its chain predecessor and it has no other terms): this matters for
  shifted zero pivots, where multipliers of 1e13 amplify any rounding difference. Exception (phase 1a, longrow): a
  row with more than longrow inputs from outside its group, e.g. a hub of a power-law graph, would hold its lane (and
  every row that waits for it) for one round trip per SUBTREEILU_BATCH inputs; the whole warp sums it instead
  (WarpRowSum()) when that costs the group fewer round trips. Phase 2 resolves the dependencies inside the group (a chain): when every in-group input is the
  previous row (bidiagonal chain, the common case) by a log2(32)-step scan of the affine maps x_q = alpha_q + beta_q
  x_{q-1} (scan = 1; a row without in-group input cuts it, so that non-finite values travel as in PETSc's solve), else step by step, the value of row r being broadcast by a shuffle. Both orders are fixed:
  the results are bitwise reproducible. Then every lane publishes its x_i with one store.
*/
#define SUBTREEILU_BATCH 4

/* waits until none of the B values u (loaded from the inputs j, -1: none) is the sentinel, polling the unpublished
   ones together (each poll an L2 round trip: in order, a stale second input would cost another) */
template <int B, typename LoadFn>
__device__ static __forceinline__ void WaitBatch(unsigned long long (&u)[B], const PetscInt (&j)[B], unsigned backoff, LoadFn LoadX)
{
  int waiting;

  do { /* the inputs' groups have smaller tickets: they are being solved */
    waiting = 0;
  #pragma unroll
    for (int q = 0; q < B; q++) waiting |= (u[q] == SUBTREEILU_SENTINEL);
    if (waiting) {
      if (backoff) __nanosleep(backoff);
  #pragma unroll
      for (int q = 0; q < B; q++)
        if (u[q] == SUBTREEILU_SENTINEL) u[q] = LoadX(j[q]);
    }
  } while (waiting);
}

/* sum_k dval[k] x[didx[k]], k in [k0, k1), by the whole warp (a long row, e.g. a hub's): lane l takes k0 + l, k0 + l + 32,
   ..., 32 SUBTREEILU_BATCH entries of the row per round trip instead of SUBTREEILU_BATCH; the lanes' sums are added by a
   butterfly, a fixed order: the result is bitwise reproducible, the same in every lane */
template <typename LoadFn>
__device__ static PetscScalar WarpRowSum(PetscInt k0, PetscInt k1, const PetscInt *__restrict__ didx, const PetscScalar *__restrict__ dval, unsigned backoff, LoadFn LoadX)
{
  const int   lane = threadIdx.x & 31;
  PetscScalar sum  = 0.0;
  PetscInt    jn[SUBTREEILU_BATCH]; /* the next round's inputs, loaded a round ahead: one latency a round, not two */

  #pragma unroll
  for (int q = 0; q < SUBTREEILU_BATCH; q++) jn[q] = k0 + lane + 32 * q < k1 ? didx[k0 + lane + 32 * q] : -1;
  for (PetscInt k = k0 + lane; k < k1; k += 32 * SUBTREEILU_BATCH) {
    PetscInt           j[SUBTREEILU_BATCH];
    PetscScalar        a[SUBTREEILU_BATCH];
    unsigned long long u[SUBTREEILU_BATCH];

  #pragma unroll
    for (int q = 0; q < SUBTREEILU_BATCH; q++) {
      j[q]  = jn[q];
      a[q]  = j[q] >= 0 ? dval[k + 32 * q] : 0.0;
      jn[q] = k + 32 * (SUBTREEILU_BATCH + q) < k1 ? didx[k + 32 * (SUBTREEILU_BATCH + q)] : -1;
    }
  #pragma unroll
    for (int q = 0; q < SUBTREEILU_BATCH; q++) u[q] = j[q] >= 0 ? LoadX(j[q]) : 0ULL;
    WaitBatch(u, j, backoff, LoadX);
  #pragma unroll
    for (int q = 0; q < SUBTREEILU_BATCH; q++)
      if (j[q] >= 0) sum = __dadd_rn(sum, __dmul_rn(a[q], __longlong_as_double((long long)u[q])));
  }
  #pragma unroll
  for (int off = 16; off > 0; off >>= 1) sum = __dadd_rn(sum, __shfl_xor_sync(0xffffffffu, sum, off));
  return sum;
}

/* the largest and the sum of v over the warp */
__device__ static __forceinline__ PetscInt WarpMax(PetscInt v)
{
  #pragma unroll
  for (int off = 16; off > 0; off >>= 1) v = max(v, (PetscInt)__shfl_xor_sync(0xffffffffu, v, off));
  return v;
}

__device__ static __forceinline__ PetscInt WarpSum(PetscInt v)
{
  #pragma unroll
  for (int off = 16; off > 0; off >>= 1) v += (PetscInt)__shfl_xor_sync(0xffffffffu, v, off);
  return v;
}

__global__ static void __launch_bounds__(SUBTREEILU_WARPS * 32, 4) SolveKernel(PetscInt nblk, int ascending, int scan, unsigned backoff, PetscInt longrow, const PetscInt *__restrict__ border, const PetscInt *__restrict__ bptr, const PetscInt *__restrict__ sptr, const PetscInt *__restrict__ gptr, const PetscInt *__restrict__ dptr, const PetscInt *__restrict__ didx, const PetscScalar *__restrict__ dval, const PetscScalar *__restrict__ b, const PetscScalar *__restrict__ rs, const PetscScalar *__restrict__ ds, PetscScalar *x, int *ticket)
{
  extern __shared__ unsigned long long xs[]; /* the values of the block ticket's rows lo .. hi-1, or the sentinel */
  __shared__ int                      bticket;
  const unsigned                      full = 0xffffffffu;
  const int                           lane = threadIdx.x & 31, wib = threadIdx.x >> 5;

  while (true) {
    int      t;
    PetscInt bk, lo, hi, sg, sg0 = 0, sg1 = 0;

    if (threadIdx.x == 0) bticket = atomicAdd(ticket, 1);
    __syncthreads();
    t = bticket;
    if (t >= nblk) break; /* uniform over the block */
    bk = border ? border[t] : ascending ? t : nblk - 1 - t;
    lo = gptr[sptr[bptr[bk]]];
    hi = gptr[sptr[bptr[bk + 1]]];
    for (PetscInt k = threadIdx.x; k < hi - lo; k += blockDim.x) xs[k] = SUBTREEILU_SENTINEL;
    __syncthreads();
    /* an input solved by this block (an earlier warp of it, or this warp) is read in shared memory: a few ns instead
       of an L2 round trip, so that the dependencies between the block's chains (e.g. the neighbouring grid lines)
       cost little; volatile loads, as the other warps store into it */
    auto LoadX = [&](PetscInt jj) -> unsigned long long { return (jj >= lo && jj < hi) ? LoadSharedRelaxed(&xs[jj - lo]) : LoadRelaxed(&x[jj]); };
    sg = ascending ? bptr[bk] + wib : bptr[bk + 1] - 1 - wib; /* warp w: the w-th warp ticket in the solve's order */
    if (ascending ? sg < bptr[bk + 1] : sg >= bptr[bk]) {
      sg0 = sptr[sg];
      sg1 = sptr[sg + 1];
    }
    for (PetscInt gg = 0; gg < sg1 - sg0; gg++) { /* the groups of one chain, in order */
      int         nin = 0, act, bidiag, pending, mybidiag = 1;
      PetscInt    g = ascending ? sg0 + gg : sg1 - 1 - gg, g0, g1, len, i = -1, in0 = 0, in1 = 0, e0 = 0, e1 = 0;
      PetscScalar acc = 0.0, dsi = 1.0, beta = 0.0, xi, s = 0.0;

      g0  = gptr[g];
      g1  = gptr[g + 1];
      len = g1 - g0;
      act = lane < len;
      if (act) {
        PetscInt k0, k1, m;

        i  = ascending ? g0 + lane : g1 - 1 - lane;
        k0 = dptr[i];
        k1 = dptr[i + 1];
        /* inputs inside the group: ascending, the largest indices (a suffix); descending, the smallest (a prefix) */
        if (ascending) {
          for (m = k1; m > k0 && didx[m - 1] >= g0; m--) { }
          e0 = k0, e1 = m, in0 = m, in1 = k1;
        } else {
          for (m = k0; m < k1 && didx[m] < g1; m++) { }
          e0 = m, e1 = k1, in0 = k0, in1 = m;
        }
        nin = (int)(in1 - in0);
        s   = rs ? b[i] * rs[i] : b[i];
        if (ds) dsi = ds[i];
        /* phase 2's coefficient and this lane's part of its choice, loaded before the waits (independent of the
           inputs' values); the warp's vote comes after them, so that no lane waits for the others before polling
           (job 3/4 of session 12: a vote before the waits made natural-ordered applies 1.5x slower, loads after
           them 1.4x slower than this). The scan only for contractions (|beta| <= 1, e.g. diagonally dominant
           factors), where its rounding stays at the level of the row-by-row solve; otherwise (e.g. after a shifted
           zero pivot, |beta| ~ 1/shift) the row-by-row order, which is PETSc's own */
        if (nin == 1) beta = -dval[in0] * dsi;
        mybidiag = nin == 0 || (nin == 1 && didx[in0] == (ascending ? i - 1 : i + 1) && fabs(beta) <= 1.0);
      }
      /* phase 1a: rows with more than longrow inputs from outside the group (hubs; a lone row of a group leaves 31
         lanes idle) are summed by the whole warp, one after the other, when that costs fewer round trips than the
         lanes' own loops (in batches of SUBTREEILU_BATCH per lane): these rows' sums are then not in PETSc's order */
      if (longrow > 0) {
        const PetscInt len1 = act ? e1 - e0 : 0;
        unsigned       lng  = __ballot_sync(full, len1 > longrow);

        if (lng) {
          const PetscInt own = (len1 + SUBTREEILU_BATCH - 1) / SUBTREEILU_BATCH, whole = (len1 + 32 * SUBTREEILU_BATCH - 1) / (32 * SUBTREEILU_BATCH) + 1;

          if (WarpSum(len1 > longrow ? whole : 0) + WarpMax(len1 > longrow ? 0 : own) < WarpMax(own)) {
            while (lng) {
              const int      r  = __ffs(lng) - 1;
              const PetscInt r0 = __shfl_sync(full, e0, r), r1 = __shfl_sync(full, e1, r);
              PetscScalar    sum;

              lng &= lng - 1;
              sum = WarpRowSum(r0, r1, didx, dval, backoff, LoadX);
              if (lane == r) s = __dsub_rn(s, sum), e1 = e0;
            }
          }
        }
      }
      if (act) {
        /* phase 1: the inputs from outside the group, a batch at a time; the unpublished ones of a batch are polled
           together, then subtracted in CSR order */
        for (PetscInt k = e0; k < e1; k += SUBTREEILU_BATCH) {
          PetscInt           j[SUBTREEILU_BATCH];
          PetscScalar        a[SUBTREEILU_BATCH];
          unsigned long long u[SUBTREEILU_BATCH];

  #pragma unroll
          for (int q = 0; q < SUBTREEILU_BATCH; q++) {
            j[q] = k + q < e1 ? didx[k + q] : -1;
            a[q] = k + q < e1 ? dval[k + q] : 0.0;
          }
  #pragma unroll
          for (int q = 0; q < SUBTREEILU_BATCH; q++) u[q] = j[q] >= 0 ? LoadX(j[q]) : 0ULL; /* issued together */
          if (e1 - k == 1) { /* one input (e.g. a grid line's neighbour): the plain poll */
            while (u[0] == SUBTREEILU_SENTINEL) {
              if (backoff) __nanosleep(backoff);
              u[0] = LoadX(j[0]);
            }
          } else WaitBatch(u, j, backoff, LoadX);
  #pragma unroll
          for (int q = 0; q < SUBTREEILU_BATCH; q++)
            if (j[q] >= 0) s = __dsub_rn(s, __dmul_rn(a[q], __longlong_as_double((long long)u[q])));
        }
        acc = s;
      }
      bidiag = __all_sync(full, !act || mybidiag);
      if (bidiag && scan) {
        PetscScalar    alpha = acc * dsi;
        const unsigned cuts  = __ballot_sync(full, nin == 0) & (full >> (31 - lane));
        const int      seg   = cuts ? 31 - __clz((int)cuts) : -1; /* the last lane <= this one without in-group input */

        /* such a row cuts the chain: at step off the lane's map covers lanes lane-off+1 .. lane and composes the one
           before only if no cut lies in that range (lane - seg >= off). Composing through a cut with beta = 0 instead
           would turn a NaN or Inf earlier in the group into a NaN here, where the row-by-row solve and PETSc's give a
           finite value; a stored zero coefficient is no cut and propagates it, as theirs do */
  #pragma unroll
        for (int off = 1; off < 32; off <<= 1) {
          PetscScalar ap = __shfl_up_sync(full, alpha, off), bp = __shfl_up_sync(full, beta, off);

          if (lane - seg >= off) {
            alpha = alpha + beta * ap;
            beta  = beta * bp;
          }
        }
        xi = alpha;
      } else {
        PetscInt    p  = ascending ? in0 : in1 - 1, dir = ascending ? 1 : -1;
        PetscInt    cp = -1;
        PetscScalar ap = 0.0;

        pending = act && nin > 0;
        if (pending) cp = didx[p], ap = dval[p];
        for (int r = 0; r < len; r++) {
          PetscScalar xr;

          if (!__any_sync(full, pending)) break; /* every remaining row is final */
          xr = __shfl_sync(full, acc * dsi, r);  /* row r is final: all its in-group inputs come before it */
          if (pending && cp == (ascending ? g0 + r : g1 - 1 - r)) {
            acc = __dsub_rn(acc, __dmul_rn(ap, xr));
            p += dir;
            pending = ascending ? p < in1 : p >= in0;
            if (pending) cp = didx[p], ap = dval[p];
          }
        }
        xi = acc * dsi;
      }
      if (act) {
        unsigned long long u = (unsigned long long)__double_as_longlong(xi);

        if (u == SUBTREEILU_SENTINEL) u = SUBTREEILU_QNAN; /* cannot come from arithmetic; only a copied input */
        StoreRelaxed(&x[i], u);
        StoreSharedRelaxed(&xs[i - lo], u); /* the copy the block's later warps read */
      }
    }
    __syncthreads(); /* the block's shared values are reset by its next ticket */
  }
}

static inline int NumBlocks(PetscInt n, int bs)
{
  PetscInt nb = (n + bs - 1) / bs;
  return (int)PetscMin(PetscMax(nb, 1), 65535 * 16);
}

/* Copies the solve structures (valuesonly: only the values after a numeric refactorization) to the GPU */
PETSC_INTERN PetscErrorCode PCSubtreeILUCUDASetUp_Private(PC_SubtreeILU *st, PetscBool valuesonly)
{
  PCSubtreeILUCUDA c;
  PetscInt         n = st->n;

  PetscFunctionBegin;
  PetscCheck(SUBTREEILU_CUDA_SUPPORTED, PETSC_COMM_SELF, PETSC_ERR_SUP, "The cuda backend of PCSUBTREEILU needs real double precision scalars");
  PetscCheck(st->cudachain >= 1 && st->cudachain <= SUBTREEILU_MAXCHAIN, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-pc_subtree_ilu_cuda_chain must be in [1, %d], got %" PetscInt_FMT, SUBTREEILU_MAXCHAIN, st->cudachain);
  PetscCall(PetscDeviceInitialize(PETSC_DEVICE_CUDA));
  if (!valuesonly || !st->cuda) {
    PetscInt nsm;

    PetscCall(PCSubtreeILUCUDADestroy_Private(&st->cuda));
    PetscCall(PetscNew(&st->cuda));
    c    = st->cuda;
    c->n = n;
    PetscCallCUDA(cudaMalloc((void **)&c->t1, PetscMax(n, 1) * sizeof(PetscScalar)));
    PetscCallCUDA(cudaMalloc((void **)&c->t2, PetscMax(n, 1) * sizeof(PetscScalar)));
    PetscCallCUDA(cudaMalloc((void **)&c->t3, PetscMax(n, 1) * sizeof(PetscScalar)));
    PetscCallCUDA(cudaMalloc((void **)&c->tickets, 2 * sizeof(int)));
    /* the persistent solve grids are sized per triangular factor (DevTriSchedule) from the multiprocessors */
    PetscCall(PCSubtreeILUCUDAGetMultiprocessors_Private(&nsm));
    c->nsm     = (int)nsm;
    valuesonly = PETSC_FALSE;
  }
  c              = st->cuda;
  c->scan        = st->cudascan ? 1 : 0;
  c->backoff     = (unsigned)st->cudabackoff;
  c->blockspersm = (int)st->cudablockspersm;
  c->levelorder  = st->cudalevelorder ? 1 : 0;
  if (valuesonly) PetscCall(DevUploadAll(st, PETSC_TRUE));
  else {
    PCSubtreeILUGroups G[2];
    PetscLogDouble     t0, t1;

    PetscCheck((PetscInt64)n < 2147483647, PETSC_COMM_SELF, PETSC_ERR_SUP, "The cuda backend needs fewer than 2^31 rows");
    PetscCall(PCSubtreeILUMakeSchedules_Private(st)); /* (normally made with the host structures: PCSubtreeILUBuildStart_Private()) */
    st->schedready = PETSC_FALSE;
    PetscCall(PCSubtreeILUGroupsFinish_Private(&st->sched[0], &G[0]));
    PetscCall(PCSubtreeILUGroupsFinish_Private(&st->sched[1], &G[1]));
    PetscCall(LevelSortTake(st, G));
    PetscCall(LevelSortPermutations(st));
    PetscCall(PetscTime(&t0));
    PetscCall(DevUploadAll(st, PETSC_FALSE));
    PetscCall(PetscTime(&t1));
    PetscCall(PetscInfo(NULL, "PCSUBTREEILU cuda setup: copies to the device %g s\n", t1 - t0));
    PetscCall(DevTriSchedule(&c->U, SolveTri(st, 0), &G[0]));
    PetscCall(DevTriSchedule(&c->L, SolveTri(st, 1), &G[1]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* solves T x = b (transpose: T^T x = b) on the device, all pointers on the device; x holds the sentinel */
static PetscErrorCode DevTriSolve(PCSubtreeILUCUDA c, const DevTri *T, PetscBool transpose, const PetscScalar *b, const PetscScalar *rs, const PetscScalar *ds, PetscScalar *x, int *ticket)
{
  const PetscInt    *dptr, *didx;
  const PetscScalar *dval;
  int                ascending = (T->lower && !transpose) || (!T->lower && transpose) ? 1 : 0;
  PetscInt           nb        = PetscMin(PersistentBlocks(T->perSM, c->nsm, c->blockspersm), T->nblk);

  PetscFunctionBegin;
  if (!T->n) PetscFunctionReturn(PETSC_SUCCESS);
  if (!transpose) dptr = T->rowptr, didx = T->colidx, dval = T->val;
  else dptr = T->colptr, didx = T->rowidx, dval = T->cval;
  SolveKernel<<<(unsigned int)PetscMax(nb, 1), SUBTREEILU_WARPS * 32, T->smem, PetscDefaultCudaStream>>>(T->nblk, ascending, c->scan, c->backoff, c->longrow, transpose || !c->levelorder ? NULL : T->border, T->bptr, T->sptr, T->gptr, dptr, didx, dval, b, rs, ds, x, ticket);
  PetscCallCUDA(cudaGetLastError());
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* y = M^{-1} x (or the transposed/symmetric parts); device: x and y are device pointers, else host pointers.
   Kernels only, on PETSc's default stream: no host synchronization unless host vectors are given. */
PETSC_INTERN PetscErrorCode PCSubtreeILUCUDAApply_Private(PC_SubtreeILU *st, PCSubtreeILUApplyMode mode, const PetscScalar *x, PetscScalar *y, PetscBool device)
{
  PCSubtreeILUCUDA   c = st->cuda;
  PetscInt           n;
  const PetscScalar *b;
  PetscScalar       *out;
  PetscBool          icc = st->type == PC_SUBTREEILU_ICC ? PETSC_TRUE : PETSC_FALSE;
  int                nb;

  PetscFunctionBegin;
  PetscCheck(c, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The cuda backend is not set up");
  n          = c->n;
  c->longrow = st->cudalongrow; /* (a kernel argument: may change between applies) */
  if (!n) PetscFunctionReturn(PETSC_SUCCESS);
  nb = NumBlocks(n, 256);
  if (!device) {
    if (!c->hb) PetscCallCUDA(cudaMalloc((void **)&c->hb, n * sizeof(PetscScalar)));
    if (!c->hx) PetscCallCUDA(cudaMalloc((void **)&c->hx, n * sizeof(PetscScalar)));
    PetscCallCUDA(cudaMemcpyAsync(c->hb, x, n * sizeof(PetscScalar), cudaMemcpyHostToDevice, PetscDefaultCudaStream));
    PetscCall(PetscLogCpuToGpu(n * sizeof(PetscScalar)));
    b   = c->hb;
    out = c->hx;
  } else {
    b   = x;
    out = y;
  }
  if (icc && mode == PC_SUBTREEILU_APPLY_TRANSPOSE) mode = PC_SUBTREEILU_APPLY;
  PetscCall(PetscLogGpuTimeBegin());
  switch (mode) {
  case PC_SUBTREEILU_APPLY:
    PrepKernel<<<nb, 256, 0, PetscDefaultCudaStream>>>(n, c->rperm, b, c->t1, c->t2, c->t3, c->tickets);
    PetscCallCUDA(cudaGetLastError());
    PetscCall(DevTriSolve(c, &c->L, PETSC_FALSE, c->t1, NULL, NULL, c->t2, c->tickets));
    if (c->midLU) GatherVecKernel<<<nb, 256, 0, PetscDefaultCudaStream>>>(n, c->midLU, c->t2, c->t1); /* (t1 is free again) */
    PetscCall(DevTriSolve(c, &c->U, PETSC_FALSE, c->midLU ? c->t1 : c->t2, icc ? c->dinv : NULL, icc ? NULL : c->dinv, c->t3, c->tickets + 1));
    ScatterKernel<<<nb, 256, 0, PetscDefaultCudaStream>>>(n, c->cperm, NULL, c->t3, out);
    break;
  case PC_SUBTREEILU_APPLY_TRANSPOSE:
    PrepKernel<<<nb, 256, 0, PetscDefaultCudaStream>>>(n, c->cperm, b, c->t1, c->t2, c->t3, c->tickets);
    PetscCallCUDA(cudaGetLastError());
    PetscCall(DevTriSolve(c, &c->U, PETSC_TRUE, c->t1, NULL, c->dinv, c->t2, c->tickets));
    if (c->midUL) GatherVecKernel<<<nb, 256, 0, PetscDefaultCudaStream>>>(n, c->midUL, c->t2, c->t1);
    PetscCall(DevTriSolve(c, &c->L, PETSC_TRUE, c->midUL ? c->t1 : c->t2, NULL, NULL, c->t3, c->tickets + 1));
    ScatterKernel<<<nb, 256, 0, PetscDefaultCudaStream>>>(n, c->rperm, NULL, c->t3, out);
    break;
  case PC_SUBTREEILU_APPLY_SYMMETRIC_LEFT:
    PrepKernel<<<nb, 256, 0, PetscDefaultCudaStream>>>(n, c->rperm, b, c->t1, c->t2, NULL, c->tickets);
    PetscCallCUDA(cudaGetLastError());
    PetscCall(DevTriSolve(c, &c->L, PETSC_FALSE, c->t1, NULL, NULL, c->t2, c->tickets));
    ScatterKernel<<<nb, 256, 0, PetscDefaultCudaStream>>>(n, c->psym, c->sqrtdinv, c->t2, out); /* (sqrtdinv in U's numbering, L's too) */
    break;
  case PC_SUBTREEILU_APPLY_SYMMETRIC_RIGHT:
    PrepKernel<<<nb, 256, 0, PetscDefaultCudaStream>>>(n, c->psym, c->psym ? b : NULL, c->psym ? c->t1 : NULL, c->t2, NULL, c->tickets);
    PetscCallCUDA(cudaGetLastError());
    PetscCall(DevTriSolve(c, &c->U, PETSC_FALSE, c->psym ? c->t1 : b, c->sqrtdinv, NULL, c->t2, c->tickets));
    ScatterKernel<<<nb, 256, 0, PetscDefaultCudaStream>>>(n, c->cperm, NULL, c->t2, out);
    break;
  }
  PetscCallCUDA(cudaGetLastError());
  PetscCall(PetscLogGpuTimeEnd());
  PetscCall(PetscLogGpuFlops(2.0 * (st->L.nnz + st->U.nnz) + n));
  if (!device) {
    PetscCallCUDA(cudaMemcpyAsync(y, c->hx, n * sizeof(PetscScalar), cudaMemcpyDeviceToHost, PetscDefaultCudaStream));
    PetscCallCUDA(cudaStreamSynchronize(PetscDefaultCudaStream));
    PetscCall(PetscLogGpuToCpu(n * sizeof(PetscScalar)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ numeric refactorization on the GPU */
/*
  The plan's numeric ILU(k)/ICC(k) (subtreeilurefact.c describes the algorithm and its CPU version, which computes
  the same thing the same way) with the matrix values already on the device, then the solve structures' values
  (L, U in CSR and CSC, the inverted pivots, ICC sqrt(1/D)) gathered from the factor value array: no host copy.

  One warp factors a run of consecutive rows (each depending on the previous one, at most SUBTREEILU_REFACT_RUN),
  row after row, and takes the runs of one chain together (a ticket: up to SUBTREEILU_REFACT_TICKET runs, see tptr
  in subtreeiluimpl.h), so that the persistent grid's window of tickets holds whole grid lines: on an N x N grid the
  N lines of the wavefront progress together, instead of the few lines whose runs fitted in the window. Tickets are
  taken through an atomic counter by warps that are running, by level of the tickets' dependency DAG (PCSubtreeILUPlanTicketOrder_Private(),
  -pc_subtree_ilu_cuda_refactor_level_order) or in index order: either way a topological order, since a row only
  waits for rows with smaller indices, i.e. rows of its own ticket (already done by itself: no wait) or of tickets it
  depends on, taken earlier by warps that are running. The warp holding the earliest unfinished ticket thus waits for
  nobody: deadlock-free by construction, whatever the residency of the grid.

  Publication without fences, as in the solves: before the launch every value other rows read (ILU: fa; ICC: ubar
  and fa) is set to the sentinel (a signaling NaN, which arithmetic never produces), a finished row stores its final
  values there with single-copy-atomic 64-bit stores, and a consumer polls exactly the values it uses with relaxed
  gpu-scope loads until none is the sentinel (a value that has the sentinel's bits, only possible when copied from
  such a NaN of A, is published as a quiet NaN: the row fails PETSc's pivot check anyway). No row ever shows a
  partial value there: rows are computed in the warp's shared-memory buffer (rows of one run read each other there;
  see RefactKernel), or in the scratch array work when the run does not fit, and copied when final. So the critical path
  pays one L2 round trip per dependency and no memory fence.

  Within a row, the k loop (the L entries of row i, ICC: the contributing rows in PETSc's order) is sequential and
  the lanes work on the entries of the eliminating row in parallel (each lane's destination in the row comes from
  the plan's update map; the columns of one step are distinct, so no two lanes write the same entry, and
  __syncwarp() orders the steps). Everything that does not depend on values is done per run, in parallel, before any
  wait: the structure of the run's elimination steps and their update map go to shared memory, the initial values
  of all its rows are loaded at once; the loads of an eliminating row's pivot and entries are issued together;
  PETSc's pivot row sum is formed from parallel loads added in PETSc's order through shuffles. Every entry is thus
  computed by the same operations in the same order as PETSc, with __dmul_rn/__dsub_rn/__dadd_rn (no fused
  multiply-add contraction), and the result is deterministic.

  A row that PETSc's pivot check would not accept unchanged (or with a non-finite value) is recorded in a status
  word (atomicMin) and still published (pivot 1), so that no row waits forever: the caller copies 8 bytes back and
  then runs PETSc's numeric factorization on the host instead.
*/
struct _PCSubtreeILUCUDAPlan {
  PetscInt     n, nz, annz, ntickets, Lnnz, Unnz;
  int          icc, shifttype;
  double       zeropivot;
  PetscInt    *lptr, *ub, *ud, *bj, *aptr, *asrc, *adst, *cptr, *cpos, *crow, *mptr, *map, *msrc;
  PetscInt    *Lsrc, *Lcsrc, *Usrc, *Ucsrc, *dsrc; /* gathers into the solve structures */
  PetscInt    *ttptr, *truns; /* the tickets in the order they are taken: ticket t's runs (rows truns[2k] .. truns[2k+1]-1)
                                 for k in ttptr[t] .. ttptr[t+1]-1 */
  PetscInt    *horder;        /* (host) the tickets by level of their dependency DAG, made at the first use of that order */
  PetscInt     tdepth;        /* levels of that DAG (once horder is made) */
  PetscInt    *hlevptr;       /* (host) level l of horder: horder[hlevptr[l]] .. horder[hlevptr[l+1]-1] */
  int          tbylevel;      /* ttptr, truns are in horder's order (1) or in index order (0) */
  int          lanes;         /* lanes per chain the kernel runs with (0: not chosen yet); below 32 with the bundles: */
  PetscInt     nbundles, *tbptr; /* bundle b = the tickets tbptr[b] .. tbptr[b+1]-1 of ttptr's order, all of one level */
  int          lanesasked;    /* RefactLanes() when the bundles were made (-1: not yet; 0: automatic; lanes is 32 if their shared memory does not fit) */
  PetscScalar *fa, *ubar, *work, *aa;            /* factor values (PETSc's layout), ICC unscaled rows, scratch, upload buffer */
  int         *ticket, *status;                  /* status[0]: first failed row, status[1]: first ICC pivot < 0 */
  int          perSM, nsm, bufcap, capval, capsteps, capmap; /* blocks per multiprocessor that fit; the shared-memory sizes made for bufcap (-1: none yet) */
  int          rkwarps;                                      /* warps per block (SUBTREEILU_RK_WARPS; fewer for several chains a warp if more chains fit) */
  size_t       smem;                                     /* dynamic shared memory per block */
};

#define SUBTREEILU_NOROW 0x7f7f7f7f /* status bytes reset to 0x7f: no row */

PETSC_INTERN PetscErrorCode PCSubtreeILUCUDAPlanDestroy_Private(PCSubtreeILUCUDAPlan *plan)
{
  PCSubtreeILUCUDAPlan p = *plan;

  PetscFunctionBegin;
  if (!p) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallCUDA(cudaFree(p->lptr));
  PetscCallCUDA(cudaFree(p->ub));
  PetscCallCUDA(cudaFree(p->ud));
  PetscCallCUDA(cudaFree(p->bj));
  PetscCallCUDA(cudaFree(p->aptr));
  PetscCallCUDA(cudaFree(p->asrc));
  PetscCallCUDA(cudaFree(p->adst));
  PetscCallCUDA(cudaFree(p->cptr));
  PetscCallCUDA(cudaFree(p->cpos));
  PetscCallCUDA(cudaFree(p->crow));
  PetscCallCUDA(cudaFree(p->mptr));
  PetscCallCUDA(cudaFree(p->map));
  PetscCallCUDA(cudaFree(p->msrc));
  PetscCallCUDA(cudaFree(p->Lsrc));
  PetscCallCUDA(cudaFree(p->Lcsrc));
  PetscCallCUDA(cudaFree(p->Usrc));
  PetscCallCUDA(cudaFree(p->Ucsrc));
  PetscCallCUDA(cudaFree(p->dsrc));
  PetscCallCUDA(cudaFree(p->ttptr));
  PetscCallCUDA(cudaFree(p->truns));
  PetscCallCUDA(cudaFree(p->tbptr));
  PetscCall(PetscFree(p->horder));
  PetscCall(PetscFree(p->hlevptr));
  PetscCallCUDA(cudaFree(p->fa));
  PetscCallCUDA(cudaFree(p->ubar));
  PetscCallCUDA(cudaFree(p->work));
  PetscCallCUDA(cudaFree(p->aa));
  PetscCallCUDA(cudaFree(p->ticket));
  PetscCallCUDA(cudaFree(p->status));
  PetscCall(PetscFree(*plan));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the published value at p once it is not the sentinel; u: its first load (issued earlier, with others) */
__device__ static __forceinline__ double AwaitValue(unsigned long long u, const PetscScalar *p, unsigned backoff)
{
  while (u == SUBTREEILU_SENTINEL) {
    if (backoff) __nanosleep(backoff);
    u = LoadRelaxed(p);
  }
  return __longlong_as_double((long long)u);
}

/* publishes a final value (never the sentinel's bits: see above) */
__device__ static __forceinline__ void Publish(PetscScalar *p, double v)
{
  unsigned long long u = (unsigned long long)__double_as_longlong(v);

  StoreRelaxed(p, u == SUBTREEILU_SENTINEL ? SUBTREEILU_QNAN : u);
}

/* PivotPasses() of subtreeilurefact.c */
__device__ static __forceinline__ int DevPivotPasses(int type, double zeropivot, double pv, double rs)
{
  if (!isfinite(pv) || !isfinite(rs)) return 0;
  if (type == (int)MAT_SHIFT_NONZERO) return fabs(pv) <= zeropivot * rs ? 0 : 1;
  if (type == (int)MAT_SHIFT_POSITIVE_DEFINITE) return pv <= zeropivot * rs ? 0 : 1;
  return fabs(pv) <= zeropivot ? 0 : 1;
}

struct RefactArgs {
  PetscInt           ntickets;
  int                capval, capsteps, capmap; /* a run whose values, steps, map entries fit takes the fast path */
  int                shifttype;
  double             zeropivot;
  unsigned           backoff;
  PetscInt           nbundles; /* lanes < 32: bundles of tickets of one level, bundle b = tickets tbptr[b] .. tbptr[b+1]-1 */
  const PetscInt    *lptr, *ub, *ud, *bj, *aptr, *asrc, *adst, *cptr, *cpos, *crow, *ttptr, *truns, *tbptr, *mptr, *map, *msrc;
  const PetscScalar *aa;
  PetscScalar       *fa, *ubar, *work;
  int               *ticket, *status;
};

#define SUBTREEILU_RK_WARPS 4 /* warps per block of the refactorization kernel (at most; with several chains a warp perhaps fewer) */

/* doubles of shared memory per group of lanes (a warp, or a group of fewer lanes: then also 3 ints per row of a run):
   the values, then 3 (ICC 4) int arrays of steps and the map's 2, rounded up */
__host__ __device__ static inline size_t RefactWarpDoubles(bool icc, int capval, int capsteps, int capmap, int lanes)
{
  return (size_t)capval + ((size_t)(icc ? 4 : 3) * capsteps + 2 * (size_t)capmap + (lanes < 32 ? 3 * SUBTREEILU_REFACT_RUN : 0) + 1) / 2;
}

/* the lanes of the calling thread's group of G lanes (G: 32, 16, 8) within its warp */
template <int G>
__device__ static __forceinline__ unsigned GroupMask()
{
  return G == 32 ? 0xffffffffu : (0xffffffffu >> (32 - G)) << ((threadIdx.x & 31) & ~(G - 1));
}

/* a run: rows r0 .. r1-1, contiguous in the value arrays (ILU: L positions Lb .. Le-1 and U rows, stored from the
   end, Ub .. Ue; ICC: U rows Ub .. Ue), elimination steps S0 .. S1-1, update map entries M0 .. M1-1 */
typedef struct {
  PetscInt r0, r1, Lb, Le, Ub, Ue, S0, S1, M0, M1;
} RefactRun;

/* one pending load of an eliminating row k (outside the run): its inverted pivot, ICC its entry Ut(k,i), and this
   lane's entry of the part the step uses (0 when the lane has none) */
typedef struct {
  unsigned long long piv, uik, u;
  PetscInt           q; /* the step the loads are for, or -1 */
} RefactLoads;

/* a step's structure from RefactRunShared()'s shared-memory caches (ILU: read one step ahead, as it never changes
   during the run, so that a step's critical path holds only its values' loads): code = spiv, fst = sfirst, m0 = sm0,
   cnt = its updates, this lane's first update tq (-1: none) and its source offset src */
typedef struct {
  int code, fst, m0, cnt, tq, src;
} RefactStep;

/*
  The end of row i (both paths): PETSc's pivot check (a row sum only for the shift types that use it), the inverted
  pivot, the status words, then publication of the row. ld(pos)/st(pos, v) access the row's values being computed.
*/
template <bool ICC, int G, class Ld, class St>
__device__ static __forceinline__ void RefactFinishRow(const RefactArgs &a, PetscInt i, PetscInt s0, PetscInt s1, PetscInt u0, PetscInt d, double dk, Ld ld, St st)
{
  const unsigned gm   = GroupMask<G>();
  const int      lane = threadIdx.x & (G - 1);
  PetscScalar   *pub  = ICC ? a.ubar : a.fa;
  const PetscInt nl = ICC ? 0 : s1 - s0, nu = d - u0;
  const bool     small = nl <= G && nu <= G; /* the common case: one L and one U entry per lane at most, in registers */
  double         pv = ICC ? dk : ld(d), rs = 0.0, dinv = 1.0, xl = 0.0, xu = 0.0;
  int            fail = 0;

  if (small) {
    if (lane < nl) xl = ld(s0 + lane);
    if (lane < nu) xu = ld(u0 + lane);
  }
  if (a.shifttype == (int)MAT_SHIFT_NONE) { /* the check does not use the row sum: only whether it is finite */
    int bad = 0;

    if (small) bad = !isfinite(xl) || !isfinite(xu);
    else {
      for (PetscInt q = s0 + lane; q < s1 && !ICC; q += G) bad |= !isfinite(ld(q));
      for (PetscInt q = u0 + lane; q < d; q += G) bad |= !isfinite(ld(q));
    }
    rs = __any_sync(gm, bad) ? NAN : 0.0;
  } else { /* PETSc's row sum of the off-diagonal factor entries (L then U; ICC the unscaled row), in its order */
    for (int part = ICC ? 1 : 0; part < 2; part++) {
      PetscInt p0 = part ? u0 : s0, len = part ? nu : nl;

      for (PetscInt c = 0; c < len; c += G) {
        PetscInt n = PetscMin(len - c, (PetscInt)G);
        double   x = small ? fabs(part ? xu : xl) : (lane < n ? fabs(ld(p0 + c + lane)) : 0.0);

        for (int e = 0; e < (int)n; e++) rs = __dadd_rn(rs, __shfl_sync(gm, x, e, G));
      }
    }
  }
  if (!DevPivotPasses(a.shifttype, a.zeropivot, pv, rs)) fail = 1;
  else {
    dinv = __drcp_rn(pv); /* = 1.0 / pv (both correctly rounded), a shorter sequence */
    if (!isfinite(dinv)) fail = 1;
  }
  if (fail) dinv = 1.0; /* any finite value: the result is discarded; later rows must not wait */
  __syncwarp(gm);       /* every lane has read the pivot before lane 0 overwrites it */
  if (lane == 0) {
    if (fail) atomicMin(a.status, (int)i);
    if (ICC && dinv < 0) atomicMin(a.status + 1, (int)i);
    st(d, dinv);
    Publish(a.fa + d, dinv);
  }
  /* publish the finished row: ILU L, U and 1/pivot into fa; ICC the unscaled U row into ubar, 1/pivot into fa */
  if (small) {
    if (lane < nl) a.fa[s0 + lane] = xl;
    if (lane < nu) Publish(pub + u0 + lane, xu);
  } else {
    for (PetscInt q = s0 + lane; q < s1 && !ICC; q += G) a.fa[q] = ld(q);
    for (PetscInt q = u0 + lane; q < d; q += G) Publish(pub + q, ld(q));
  }
  __syncwarp(gm); /* lane 0's store of the pivot is seen by the row's successors in the run */
}

/*
  The fast path: the run's values in shared memory (val, buffer index bidx(pos): see RefactKernel) and its structure
  cached there with the buffer indices already applied, so that a step is a few shared-memory loads. Per step
  q - S0: spiv = buffer index of row k's inverted pivot when row k is in the run, else -1 - (its position in fa);
  sfirst = index (buffer or global, alike) of the first entry of row k the step may use; skb (ICC) = global position
  of Ut(k,i); sm0 = offset of the step's update map (its entries: up to the next step's offset); per map entry smap =
  the destination's buffer index, ssrc = the source's offset from sfirst. ILU reads the next step's structure from
  these caches during the current step (RefactStep), and the loads of its row (when outside the run) are issued before
  the current step waits, which overlaps them with this step and, at a row's last step, with the end of the row.
*/
template <bool ICC, int G>
__device__ static void RefactRunShared(const RefactArgs &a, const RefactRun &R, double *val, int *spiv, int *sfirst, int *skb, int *sm0, int *smap, int *ssrc, int *srow)
{
  const unsigned     gm   = GroupMask<G>();
  const int          lane = threadIdx.x & (G - 1);
  const PetscInt     nL = R.Le - R.Lb, size = nL + R.Ue - R.Ub + 1;
  const PetscScalar *pub = ICC ? a.ubar : a.fa;
  PetscInt           rub = 0, rud = 0, rst = 0;
  RefactLoads        pend;
  auto               bidx = [&](PetscInt pos) -> int { return (int)(pos < R.Le ? pos - R.Lb : nL + pos - R.Ub); };

  /* structure (no values: loaded at once, before any wait); a warp's lane l holds row r0+l's U range and first step,
     a group of fewer lanes keeps them in shared memory (srow: 3 per row) */
  if (G == 32) {
    if (lane < R.r1 - R.r0) {
      rub = a.ub[R.r0 + lane];
      rud = a.ud[R.r0 + lane];
      rst = ICC ? a.cptr[R.r0 + lane] : a.lptr[R.r0 + lane];
    }
  } else {
    for (PetscInt l = lane; l < R.r1 - R.r0; l += G) {
      srow[3 * l]     = (int)a.ub[R.r0 + l];
      srow[3 * l + 1] = (int)a.ud[R.r0 + l];
      srow[3 * l + 2] = (int)(ICC ? a.cptr[R.r0 + l] : a.lptr[R.r0 + l]);
    }
  }
  for (PetscInt q = R.S0 + lane; q < R.S1; q += G) {
    PetscInt k = ICC ? a.crow[q] : a.bj[q], kb = ICC ? a.cpos[q] : a.ub[k], kd = a.ud[k], first = ICC ? kb + 1 : kb;
    int      inrun = k >= R.r0;

    spiv[q - R.S0]   = inrun ? bidx(kd) : (int)(-1 - kd);
    sfirst[q - R.S0] = inrun ? bidx(first) : (int)first;
    if (ICC) skb[q - R.S0] = (int)kb;
    sm0[q - R.S0] = (int)(a.mptr[q] - R.M0);
  }
  for (PetscInt e = R.M0 + lane; e < R.M1; e += G) {
    smap[e - R.M0] = bidx(a.map[e]);
    ssrc[e - R.M0] = (int)a.msrc[e];
  }
  /* the initial values of all rows of the run at once (independent of other rows: off the critical path) */
  for (PetscInt j = lane; j < size; j += G) val[j] = 0.0;
  __syncwarp(gm);
  for (PetscInt q = a.aptr[R.r0] + lane; q < a.aptr[R.r1]; q += G) val[bidx(a.adst[q])] = a.aa[a.asrc[q]];
  __syncwarp(gm);

  /* step q's structure (q < S1) */
  auto step = [&](PetscInt q) -> RefactStep {
    const int  qq = (int)(q - R.S0);
    RefactStep s;

    s.code = spiv[qq];
    s.fst  = sfirst[qq];
    s.m0   = sm0[qq];
    s.cnt  = (q + 1 < R.S1 ? sm0[qq + 1] : (int)(R.M1 - R.M0)) - s.m0;
    s.tq   = lane < s.cnt ? smap[s.m0 + lane] : -1;
    s.src  = lane < s.cnt ? ssrc[s.m0 + lane] : 0;
    return s;
  };
  /* issues the loads of step q, whose row is outside the run (pivot code < 0; u: this lane's source in pub, or -1) */
  auto load = [&](PetscInt q, int code, int u) {
    pend.q   = q;
    pend.piv = LoadRelaxed(a.fa + (-1 - code));
    pend.uik = ICC ? LoadRelaxed(pub + skb[q - R.S0]) : 0ULL;
    pend.u   = u >= 0 ? LoadRelaxed(pub + u) : 0ULL;
  };
  /* issues the loads of step q (structure s) when its row is outside the run */
  auto issue = [&](PetscInt q, const RefactStep &s) {
    pend.q = -1;
    if (q < R.S1 && s.code < 0) load(q, s.code, s.tq >= 0 ? s.fst + s.src : -1);
  };
  /* the same when the structure is read at the step (not AHEAD): reads only what the loads need, only for a row
     outside the run */
  auto issueat = [&](PetscInt q) {
    pend.q = -1;
    if (q < R.S1) {
      const int qq = (int)(q - R.S0), code = spiv[qq];

      if (code < 0) {
        const int m0 = sm0[qq], cnt = (q + 1 < R.S1 ? sm0[qq + 1] : (int)(R.M1 - R.M0)) - m0;

        load(q, code, lane < cnt ? sfirst[qq] + ssrc[m0 + lane] : -1);
      }
    }
  };
  /* ILU reads the next step's structure a step ahead (H100, session 53: steady ILU(0) refactorizations of natural
     grids 5-11% faster); ICC's register pressure (its entries Ut(k,i)) then makes it spill, and it was 1-4% slower */
  constexpr bool AHEAD = !ICC;
  RefactStep     next  = {0, 0, 0, 0, -1, 0};

  if (AHEAD && R.S0 < R.S1) next = step(R.S0);
  if (AHEAD) issue(R.S0, next);
  else issueat(R.S0);
  for (PetscInt i = R.r0; i < R.r1; i++) {
    const int      li = (int)(i - R.r0);
    PetscInt       u0, d, s0, s1;

    if (G == 32) {
      const PetscInt s1n = __shfl_sync(gm, rst, (li + 1) & 31);

      u0 = __shfl_sync(gm, rub, li);
      d  = __shfl_sync(gm, rud, li);
      s0 = __shfl_sync(gm, rst, li);
      s1 = i + 1 < R.r1 ? s1n : R.S1;
    } else {
      u0 = srow[3 * li];
      d  = srow[3 * li + 1];
      s0 = srow[3 * li + 2];
      s1 = i + 1 < R.r1 ? srow[3 * li + 5] : R.S1;
    }
    double         dk = ICC ? val[bidx(d)] : 0.0;

    for (PetscInt q = s0; q < s1; q++) {
      const RefactStep cs = AHEAD ? next : step(q); /* (steps are consecutive across the run's rows) */
      const int        qq = (int)(q - R.S0), code = cs.code, fst = cs.fst, m0 = cs.m0, cnt = cs.cnt, tq0 = cs.tq, src0 = cs.src;
      const double     w = ICC ? 0.0 : val[q - R.Lb]; /* read before any lane can store the multiplier there */
      double           piv, uik = 0.0, u0v = 0.0, m;
      RefactLoads      cur;

      if (code < 0 && pend.q != q) issue(q, cs); /* not issued before (cannot happen: kept for safety) */
      cur = pend;
      if (AHEAD) {
        if (q + 1 < R.S1) next = step(q + 1);
        issue(q + 1, next);
      } else issueat(q + 1);
      if (!ICC && w == 0.0) continue; /* as PETSc: a zero multiplier changes nothing (uniform over the warp) */
      if (code >= 0) {
        piv = val[code];
        if (ICC) uik = val[skb[qq] - R.Ub];
        if (tq0 >= 0) u0v = val[fst + src0];
      } else {
        piv = AwaitValue(cur.piv, a.fa + (-1 - code), a.backoff);
        if (ICC) uik = AwaitValue(cur.uik, pub + skb[qq], a.backoff);
        if (tq0 >= 0) u0v = AwaitValue(cur.u, pub + fst + src0, a.backoff);
      }
      if (!ICC) m = __dmul_rn(w, piv);
      else {
        m  = __dmul_rn(-uik, piv);
        dk = __dadd_rn(dk, __dmul_rn(m, uik));
      }
      if (tq0 >= 0) val[tq0] = ICC ? __dadd_rn(val[tq0], __dmul_rn(m, u0v)) : __dsub_rn(val[tq0], __dmul_rn(m, u0v));
      for (int e = lane + G; e < cnt; e += G) { /* steps of more updates than lanes */
        const int tq = smap[m0 + e], us = fst + ssrc[m0 + e];
        double    u  = code >= 0 ? val[us] : AwaitValue(LoadRelaxed(pub + us), pub + us, a.backoff);

        val[tq] = ICC ? __dadd_rn(val[tq], __dmul_rn(m, u)) : __dsub_rn(val[tq], __dmul_rn(m, u));
      }
      if (ICC && lane == 0) a.fa[skb[qq]] = m; /* -Ut(k,i), PETSc's stored value (nobody reads it here) */
      __syncwarp(gm);                          /* every lane has read w and made its updates */
      /* the multiplier is L's entry, stored once no lane reads w any more: the row's later steps neither read nor write
         it (their columns are larger), its end reads it after the __syncwarp() below */
      if (!ICC && lane == 0) val[q - R.Lb] = m;
    }
    __syncwarp(gm);
    RefactFinishRow<ICC, G>(a, i, s0, s1, u0, d, dk, [&](PetscInt pos) { return val[bidx(pos)]; }, [&](PetscInt pos, double v) { val[bidx(pos)] = v; });
  }
  __syncwarp(gm); /* the run's shared memory is reused by the next run */
}

/* The general path (runs too large for the shared-memory caches): the run's values in the scratch array work (the
   factor's positions), the structure read from global memory */
template <bool ICC, int G>
__device__ static void RefactRunGlobal(const RefactArgs &a, const RefactRun &R)
{
  const unsigned     gm   = GroupMask<G>();
  const int          lane = threadIdx.x & (G - 1);
  const PetscScalar *pub  = ICC ? a.ubar : a.fa;
  PetscScalar       *w    = a.work;

  for (PetscInt q = R.Lb + lane; q < R.Le; q += G) w[q] = 0.0;
  for (PetscInt q = R.Ub + lane; q <= R.Ue; q += G) w[q] = 0.0;
  __syncwarp(gm);
  for (PetscInt q = a.aptr[R.r0] + lane; q < a.aptr[R.r1]; q += G) w[a.adst[q]] = a.aa[a.asrc[q]];
  __syncwarp(gm);
  for (PetscInt i = R.r0; i < R.r1; i++) {
    const PetscInt u0 = a.ub[i], d = a.ud[i], s0 = ICC ? a.cptr[i] : a.lptr[i], s1 = ICC ? a.cptr[i + 1] : a.lptr[i + 1];
    double         dk = ICC ? __ldcg(w + d) : 0.0;

    for (PetscInt q = s0; q < s1; q++) {
      const PetscInt k = ICC ? a.crow[q] : a.bj[q], kb = ICC ? a.cpos[q] : a.ub[k], kd = a.ud[k], first = ICC ? kb + 1 : kb;
      const PetscInt m0 = a.mptr[q], m1 = a.mptr[q + 1];
      const int      inrun = k >= R.r0;
      const double   wq = ICC ? 0.0 : __ldcg(w + q); /* read before any lane can store the multiplier there */
      double         piv, uik = 0.0, m;

      if (!ICC && wq == 0.0) continue; /* as PETSc: a zero multiplier changes nothing */
      if (inrun) {
        piv = __ldcg(w + kd);
        if (ICC) uik = __ldcg(w + kb);
      } else {
        piv = AwaitValue(LoadRelaxed(a.fa + kd), a.fa + kd, a.backoff);
        if (ICC) uik = AwaitValue(LoadRelaxed(pub + kb), pub + kb, a.backoff);
      }
      if (!ICC) m = __dmul_rn(wq, piv);
      else {
        m  = __dmul_rn(-uik, piv);
        dk = __dadd_rn(dk, __dmul_rn(m, uik));
      }
      for (PetscInt e = m0 + lane; e < m1; e += G) {
        const PetscInt tq = a.map[e], us = first + a.msrc[e];
        double         u  = inrun ? __ldcg(w + us) : AwaitValue(LoadRelaxed(pub + us), pub + us, a.backoff);

        w[tq] = ICC ? __dadd_rn(__ldcg(w + tq), __dmul_rn(m, u)) : __dsub_rn(__ldcg(w + tq), __dmul_rn(m, u));
      }
      if (ICC && lane == 0) a.fa[kb] = m;
      __syncwarp(gm);
      if (!ICC && lane == 0) w[q] = m; /* as in RefactRunShared(): after every lane has read wq */
    }
    __syncwarp(gm);
    RefactFinishRow<ICC, G>(a, i, s0, s1, u0, d, dk, [&](PetscInt pos) { return __ldcg(w + pos); }, [&](PetscInt pos, double v) { w[pos] = v; });
    __syncwarp(gm);
  }
}

/*
  Buffer index of factor position pos (ILU; ICC: of ubar) in a run: pos - Lb in the run's L range [Lb, Le), else
  (Le - Lb) + pos - Ub in its U range starting at Ub. The slot of a row's diagonal holds its inverted pivot once the
  row is done. Rows of the same run read each other's values there, other rows from the published arrays.
*/
template <bool ICC, int G>
__global__ static void __launch_bounds__(SUBTREEILU_RK_WARPS * 32) RefactKernel(RefactArgs a)
{
  extern __shared__ double refact_smem[]; /* per group of G lanes: capval values, then the step, map (and row) caches */
  const unsigned           full = 0xffffffffu;
  const int                gib = threadIdx.x / G, giw = (threadIdx.x & 31) / G; /* the group in the block, in the warp */
  double                  *val  = refact_smem + (size_t)gib * RefactWarpDoubles(ICC, a.capval, a.capsteps, a.capmap, G);
  int                     *spiv = (int *)(val + a.capval), *sfirst = spiv + a.capsteps, *sm0 = sfirst + a.capsteps, *skb = sm0 + a.capsteps, *smap = skb + (ICC ? a.capsteps : 0), *ssrc = smap + a.capmap, *srow = ssrc + a.capmap;

  while (true) {
    PetscInt t = 0, t1;

    if ((threadIdx.x & 31) == 0) t = atomicAdd(a.ticket, 1);
    t = __shfl_sync(full, t, 0);
    if (G == 32) { /* a ticket */
      if (t >= a.ntickets) break;
      t1 = t + 1;
    } else { /* a bundle of tickets of one level, one a group */
      if (t >= a.nbundles) break;
      t1 = a.tbptr[t + 1];
      t  = a.tbptr[t] + giw;
    }
    if (t < t1) {
      for (PetscInt k = a.ttptr[t]; k < a.ttptr[t + 1]; k++) { /* the runs of one chain, in order */
        RefactRun R;

        R.r0 = a.truns[2 * k];
        R.r1 = a.truns[2 * k + 1];
        R.Lb = ICC ? 0 : a.lptr[R.r0];
        R.Le = ICC ? 0 : a.lptr[R.r1];
        R.Ub = ICC ? a.ub[R.r0] : a.ub[R.r1 - 1];
        R.Ue = ICC ? a.ud[R.r1 - 1] : a.ud[R.r0];
        R.S0 = ICC ? a.cptr[R.r0] : a.lptr[R.r0];
        R.S1 = ICC ? a.cptr[R.r1] : a.lptr[R.r1];
        R.M0 = a.mptr[R.S0];
        R.M1 = a.mptr[R.S1];
        if ((R.Le - R.Lb) + (R.Ue - R.Ub + 1) <= a.capval && R.S1 - R.S0 <= a.capsteps && R.M1 - R.M0 <= a.capmap) RefactRunShared<ICC, G>(a, R, val, spiv, sfirst, skb, sm0, smap, ssrc, srow);
        else RefactRunGlobal<ICC, G>(a, R);
      }
    }
    if (G < 32) __syncwarp(full); /* the bundle's chains end together: the next bundle's start in lockstep */
  }
}

/* every value a row of the GPU refactorization reads from another row starts as the sentinel */
__global__ static void SentinelKernel(PetscInt nz, PetscScalar *__restrict__ fa, PetscScalar *__restrict__ ubar)
{
  for (PetscInt k = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; k < nz; k += (PetscInt)gridDim.x * blockDim.x) {
    ((unsigned long long *)fa)[k] = SUBTREEILU_SENTINEL;
    if (ubar) ((unsigned long long *)ubar)[k] = SUBTREEILU_SENTINEL;
  }
}

/* the solve structures' values from the factor values: val = sign fa[src], cval = sign fa[csrc], dinv, sqrt(dinv) */
__global__ static void GatherKernel(PetscInt Lnnz, PetscInt Unnz, PetscInt n, double sign, const PetscInt *__restrict__ Lsrc, const PetscInt *__restrict__ Lcsrc, const PetscInt *__restrict__ Usrc, const PetscInt *__restrict__ Ucsrc, const PetscInt *__restrict__ dsrc, const PetscScalar *__restrict__ fa, PetscScalar *__restrict__ Lval, PetscScalar *__restrict__ Lcval, PetscScalar *__restrict__ Uval, PetscScalar *__restrict__ Ucval, PetscScalar *__restrict__ dinv, PetscScalar *__restrict__ sqrtdinv)
{
  PetscInt m = PetscMax(PetscMax(Lnnz, Unnz), n);

  for (PetscInt k = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; k < m; k += (PetscInt)gridDim.x * blockDim.x) {
    if (k < Lnnz) {
      Lval[k]  = sign * fa[Lsrc[k]];
      Lcval[k] = sign * fa[Lcsrc[k]];
    }
    if (k < Unnz) {
      Uval[k]  = sign * fa[Usrc[k]];
      Ucval[k] = sign * fa[Ucsrc[k]];
    }
    if (k < n) {
      double d = fa[dsrc[k]];

      dinv[k] = d;
      if (sqrtdinv) sqrtdinv[k] = d >= 0 ? sqrt(d) : 0.0;
    }
  }
}

/* The kernel's ticket lists (PCSubtreeILUPlanTicketRuns_Private()) in the order -pc_subtree_ilu_cuda_refactor_level_order
   asks for, the level order made at its first use: host arrays the caller uploads and frees */
static PetscErrorCode RefactTicketLists(PC_SubtreeILU *st, PetscInt **ttptr, PetscInt **truns)
{
  PCSubtreeILUPlan    *hp = st->plan;
  PCSubtreeILUCUDAPlan p  = st->cudaplan;

  PetscFunctionBegin;
  p->tbylevel = st->cudarefactorder ? 1 : 0;
  if (p->tbylevel && !p->horder) PetscCall(PCSubtreeILUPlanTicketOrder_Private(hp, st->setupthreads, &p->horder, &p->tdepth, &p->hlevptr));
  PetscCall(PetscMalloc2(hp->ntickets + 1, ttptr, 2 * hp->nruns, truns));
  PCSubtreeILUPlanTicketRuns_Private(hp, p->tbylevel ? p->horder : NULL, *ttptr, *truns);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the lanes per chain asked for: -pc_subtree_ilu_cuda_refactor_lanes (0: RefactAutoLanes()), which needs the level
   order (else 32) */
static int RefactLanes(PC_SubtreeILU *st)
{
  return st->cudarefactorder ? (int)st->cudarefactlanes : 32;
}

/* the automatic choice from the width of the tickets' DAG (tickets per level, on average) against the warps the GPU
   holds at once (about 32 per multiprocessor for this kernel): a level much wider than that keeps every warp busy
   and is throughput-bound, where bundles of short chains save instructions; a narrower one is bound by the critical
   path's latency, which a bundle lengthens (its warp waits for the inputs of all its tickets). Measured in session 44
   (H100/H200, bench_factor): RCM-ordered 3D 7-point grids ILU(0)/ICC(0) (width 2 and 0.8 times the warps) factor
   fastest with 8 and 16 lanes, 1.8-2.0x and 1.06-1.2x faster than with 32; natural orderings and 2D grids (width at
   most 0.12 times) with 32. Bundles only where the factor's rows (L and U, on average) fit the lanes: longer rows
   (27-point stencils, ILU(1)) are not measured yet, and 32 is then kept */
static int RefactAutoLanes(PCSubtreeILUCUDAPlan p)
{
  const double width = (double)p->ntickets / (double)PetscMax(p->tdepth, 1), warps = 32.0 * p->nsm;
  const double row   = p->icc ? 2.0 * p->nz / PetscMax(p->n, 1) - 1.0 : (double)p->nz / PetscMax(p->n, 1); /* ICC stores U only */

  if (width >= 1.5 * warps && row <= 8.0) return 8;
  if (width >= 0.5 * warps && row <= 16.0) return 16;
  return 32;
}

/* for -pc_view: the lanes per chain of the last GPU refactorization (0: none has run) and whether they were chosen
   automatically */
PETSC_INTERN PetscErrorCode PCSubtreeILUCUDAGetRefactLanes_Private(PC_SubtreeILU *st, PetscInt *lanes, PetscBool *automatic)
{
  PCSubtreeILUCUDAPlan p = st->cudaplan;

  PetscFunctionBegin;
  *lanes     = p && p->lanesasked >= 0 ? p->lanes : 0;
  *automatic = (PetscBool)(p && p->lanesasked == 0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the kernel for ICC or ILU and a number of lanes per chain */
typedef void (*RefactKernelFn)(RefactArgs);
static RefactKernelFn RefactKernelOf(int icc, int lanes)
{
  if (icc) return lanes == 8 ? RefactKernel<true, 8> : lanes == 16 ? RefactKernel<true, 16> : RefactKernel<true, 32>;
  return lanes == 8 ? RefactKernel<false, 8> : lanes == 16 ? RefactKernel<false, 16> : RefactKernel<false, 32>;
}

/* the lanes per chain (RefactLanes()) and, below 32, the bundles of the level order (uploaded): after
   RefactTicketLists() has made that order */
static PetscErrorCode RefactBundles(PC_SubtreeILU *st)
{
  PCSubtreeILUCUDAPlan p = st->cudaplan;
  PetscInt            *bptr;

  PetscFunctionBegin;
  p->lanesasked = RefactLanes(st);
  p->lanes      = p->lanesasked ? p->lanesasked : RefactAutoLanes(p);
  p->nbundles   = 0;
  if (p->lanes == 32) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck(p->tbylevel && p->horder && p->hlevptr, PETSC_COMM_SELF, PETSC_ERR_PLIB, "The GPU refactorization's bundles need the tickets' level order");
  PetscCall(PetscMalloc1(p->ntickets + 1, &bptr));
  p->nbundles = PCSubtreeILUPlanTicketBundles_Private(p->tdepth, p->hlevptr, 32 / p->lanes, bptr);
  if (!p->tbptr) PetscCallCUDA(cudaMalloc((void **)&p->tbptr, (p->ntickets + 1) * sizeof(PetscInt)));
  PetscCallCUDA(cudaMemcpy(p->tbptr, bptr, (p->nbundles + 1) * sizeof(PetscInt), cudaMemcpyHostToDevice));
  PetscCall(PetscLogCpuToGpu((p->nbundles + 1) * sizeof(PetscInt)));
  PetscCall(PetscFree(bptr));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Copies the plan (st->plan) to the device; needs the cuda backend set up (st->cuda) */
PETSC_INTERN PetscErrorCode PCSubtreeILUCUDAPlanSetUp_Private(PC_SubtreeILU *st)
{
  PCSubtreeILUPlan     *hp = st->plan;
  PCSubtreeILUCUDAPlan  p;
  PetscInt             *tmpL, *tmpU, *tmpd, *ttptr, *truns, nseg = 0;
  const PCSubtreeILUTri *Ld, *Ud;
  PetscSparseGPUSegment seg[24];
  PetscInt              nsm;

  PetscFunctionBegin;
  PetscCall(PCSubtreeILUCUDAPlanDestroy_Private(&st->cudaplan));
  if (!hp || !st->cuda) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck((PetscInt64)hp->nz < 2147483647 && (PetscInt64)hp->annz < 2147483647, PETSC_COMM_SELF, PETSC_ERR_SUP, "The GPU refactorization needs fewer than 2^31 nonzeros");
  PetscCheck((PetscInt64)hp->nruns < 1073741823, PETSC_COMM_SELF, PETSC_ERR_SUP, "The GPU refactorization needs fewer than 2^30 runs of rows");
  PetscCall(PetscNew(&p));
  st->cudaplan = p;
  p->n         = hp->n;
  p->nz        = hp->nz;
  p->annz      = hp->annz;
  p->ntickets  = hp->ntickets;
  p->icc       = hp->icc ? 1 : 0;
  p->shifttype = (int)hp->shifttype;
  p->zeropivot = hp->zeropivot;
  p->Lnnz      = st->L.borrowed ? 0 : st->L.nnz; /* ICC: L's values are U's, gathered once */
  Ld           = SolveTri(st, 1); /* (the device's numbering: level-sorted or the factor's) */
  Ud           = SolveTri(st, 0);
  p->Unnz      = st->U.nnz;
  /* the plan's arrays (about 40 bytes per factor entry) in one staged upload: threads fill pinned buffers
     (PetscSparseGPUStagedUpload()), where the driver copies pageable memory from one thread at about 5-7 GB/s */
  PetscCall(UploadSegment(&p->lptr, hp->lptr, hp->n + 1, seg, &nseg));
  PetscCall(UploadSegment(&p->ub, hp->ub, hp->n, seg, &nseg));
  PetscCall(UploadSegment(&p->ud, hp->ud, hp->n, seg, &nseg));
  PetscCall(UploadSegment(&p->bj, hp->bj, hp->nz, seg, &nseg));
  PetscCall(UploadSegment(&p->aptr, hp->aptr, hp->n + 1, seg, &nseg));
  PetscCall(UploadSegment(&p->asrc, hp->asrc, hp->aptr[hp->n], seg, &nseg));
  PetscCall(UploadSegment(&p->adst, hp->adst, hp->aptr[hp->n], seg, &nseg));
  if (hp->icc) {
    PetscCall(UploadSegment(&p->cptr, hp->cptr, hp->n + 1, seg, &nseg));
    PetscCall(UploadSegment(&p->cpos, hp->cpos, hp->cptr[hp->n], seg, &nseg));
    PetscCall(UploadSegment(&p->crow, hp->crow, hp->cptr[hp->n], seg, &nseg));
    PetscCallCUDA(cudaMalloc((void **)&p->ubar, PetscMax(hp->nz, 1) * sizeof(PetscScalar)));
  }
  PetscCall(RefactTicketLists(st, &ttptr, &truns));
  PetscCall(UploadSegment(&p->ttptr, (const PetscInt *)ttptr, hp->ntickets + 1, seg, &nseg));
  PetscCall(UploadSegment(&p->truns, (const PetscInt *)truns, 2 * hp->nruns, seg, &nseg));
  {
    PetscInt nsteps = hp->icc ? hp->cptr[hp->n] : hp->lptr[hp->n];

    PetscCall(UploadSegment(&p->mptr, hp->mptr, nsteps + 1, seg, &nseg));
    PetscCall(UploadSegment(&p->map, hp->map, hp->mptr[nsteps], seg, &nseg));
    PetscCall(UploadSegment(&p->msrc, hp->msrc, hp->mptr[nsteps], seg, &nseg));
  }
  PetscCall(UploadSegment(&p->Lsrc, Ld->src, p->Lnnz, seg, &nseg));
  PetscCall(UploadSegment(&p->Usrc, Ud->src, Ud->nnz, seg, &nseg));
  PetscCall(PetscMalloc3(PetscMax(p->Lnnz, 1), &tmpL, PetscMax(Ud->nnz, 1), &tmpU, hp->n, &tmpd));
  PetscCall(PCSubtreeILUGather_Private(st->setupthreads, p->Lnnz, Ld->src, Ld->csc2csr, tmpL)); /* (on the setup threads) */
  PetscCall(PCSubtreeILUGather_Private(st->setupthreads, Ud->nnz, Ud->src, Ud->csc2csr, tmpU));
  if (st->cuda->sperm[0]) PetscCall(PCSubtreeILUGather_Private(st->setupthreads, hp->n, st->dsrc, st->cuda->sperm[0], tmpd)); /* (the pivots in U's numbering) */
  else PetscCall(PetscArraycpy(tmpd, st->dsrc, hp->n));
  PetscCall(UploadSegment(&p->Lcsrc, (const PetscInt *)tmpL, p->Lnnz, seg, &nseg));
  PetscCall(UploadSegment(&p->Ucsrc, (const PetscInt *)tmpU, Ud->nnz, seg, &nseg));
  PetscCall(UploadSegment(&p->dsrc, (const PetscInt *)tmpd, hp->n, seg, &nseg));
  PetscCall(UploadSegments(seg, nseg, st->setupthreads));
  PetscCall(PetscFree2(ttptr, truns));
  PetscCall(PetscFree3(tmpL, tmpU, tmpd));
  PetscCallCUDA(cudaMalloc((void **)&p->fa, PetscMax(hp->nz, 1) * sizeof(PetscScalar)));
  PetscCallCUDA(cudaMalloc((void **)&p->work, PetscMax(hp->nz, 1) * sizeof(PetscScalar)));
  PetscCallCUDA(cudaMalloc((void **)&p->ticket, sizeof(int)));
  PetscCallCUDA(cudaMalloc((void **)&p->status, 2 * sizeof(int)));
  PetscCall(PCSubtreeILUCUDAGetMultiprocessors_Private(&nsm));
  p->nsm        = (int)nsm;
  p->bufcap     = -1; /* the shared memory sizes are made at the first refactorization */
  p->lanesasked = -1; /* and the lanes (RefactBundles()) */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The kernel's shared memory, made to measure: the largest values, steps and map entries among the runs that fit the
  caps (-pc_subtree_ilu_refactor_buffer values, SUBTREEILU_REFACT_STEPS, SUBTREEILU_REFACT_MAP), so that a matrix with
  small rows (stencils) gets small buffers and more resident warps; then the persistent grid from the occupancy.
*/
static PetscErrorCode RefactSharedSizes(PC_SubtreeILU *st)
{
  PCSubtreeILUPlan    *hp = st->plan;
  PCSubtreeILUCUDAPlan p  = st->cudaplan;
  const PetscInt       bufcap = PetscMin(hp->bufcap, (PetscInt)SUBTREEILU_REFACT_BUF);
  PetscInt             mv = 0, ms = 0, mm = 0;
  int                  perSM = 0, maxsmem = 0, dev;
  char                 order[64];

  PetscFunctionBegin;
  for (PetscInt t = 0; t < hp->nruns; t++) {
    PetscInt r0 = hp->runptr[t], r1 = hp->runptr[t + 1];
    PetscInt Lb = hp->icc ? 0 : hp->lptr[r0], Le = hp->icc ? 0 : hp->lptr[r1], Ub = hp->icc ? hp->ub[r0] : hp->ub[r1 - 1], Ue = hp->icc ? hp->ud[r1 - 1] : hp->ud[r0];
    PetscInt S0 = hp->icc ? hp->cptr[r0] : hp->lptr[r0], S1 = hp->icc ? hp->cptr[r1] : hp->lptr[r1];
    PetscInt nv = (Le - Lb) + (Ue - Ub + 1), ns = S1 - S0, nm = hp->mptr[S1] - hp->mptr[S0];

    if (nv <= bufcap && ns <= SUBTREEILU_REFACT_STEPS && nm <= SUBTREEILU_REFACT_MAP) {
      mv = PetscMax(mv, nv);
      ms = PetscMax(ms, ns);
      mm = PetscMax(mm, nm);
    }
  }
  p->bufcap   = (int)bufcap;
  p->capval   = mv ? (int)mv : 0; /* no run fits: every run takes the general path (the caps are then 0) */
  p->capsteps = mv ? (int)PetscMax(ms, 1) : 0;
  p->capmap   = mv ? (int)PetscMax(mm, 1) : 0;
  PetscCallCUDA(cudaGetDevice(&dev));
  PetscCallCUDA(cudaDeviceGetAttribute(&maxsmem, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  p->rkwarps = SUBTREEILU_RK_WARPS;
  if (p->lanes < 32) { /* the block of 4, 2 or 1 warps that keeps the most chains resident: a chain's caches fill the
                          shared memory 32/lanes times faster than a warp's, and a smaller block wastes less of it */
    const size_t chain = RefactWarpDoubles(hp->icc ? true : false, p->capval, p->capsteps, p->capmap, p->lanes) * sizeof(double);
    const size_t most  = PetscMin((size_t)SUBTREEILU_RK_WARPS * (32 / p->lanes) * chain, (size_t)maxsmem);
    int          best = 0, bestw = 0;

    if (most > 48 * 1024) PetscCallCUDA(cudaFuncSetAttribute((const void *)RefactKernelOf(p->icc, p->lanes), cudaFuncAttributeMaxDynamicSharedMemorySize, (int)most));
    for (int w = SUBTREEILU_RK_WARPS; w >= 1; w /= 2) {
      const size_t sm = (size_t)w * (32 / p->lanes) * chain;

      if (sm > (size_t)maxsmem) continue;
      PetscCallCUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, (const void *)RefactKernelOf(p->icc, p->lanes), w * 32, sm));
      if (perSM * w * (32 / p->lanes) > best) best = perSM * w * (32 / p->lanes), bestw = w;
    }
    if (best) p->rkwarps = bestw;
    else {
      PetscCall(PetscInfo(NULL, "PCSUBTREEILU GPU refactorization: %d chains a warp need %zu bytes of shared memory, the device offers %d per block: a warp a chain\n", 32 / p->lanes, (32 / p->lanes) * chain, maxsmem));
      p->lanes = 32;
    }
  }
  p->smem = (size_t)p->rkwarps * (32 / p->lanes) * RefactWarpDoubles(hp->icc ? true : false, p->capval, p->capsteps, p->capmap, p->lanes) * sizeof(double);
  PetscCheck(p->smem <= (size_t)maxsmem, PETSC_COMM_SELF, PETSC_ERR_PLIB, "Refactorization kernel needs %zu bytes of shared memory per block, the device offers %d", p->smem, maxsmem);
  if (p->smem > 48 * 1024) PetscCallCUDA(cudaFuncSetAttribute((const void *)RefactKernelOf(p->icc, p->lanes), cudaFuncAttributeMaxDynamicSharedMemorySize, (int)p->smem));
  PetscCallCUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, (const void *)RefactKernelOf(p->icc, p->lanes), p->rkwarps * 32, p->smem));
  p->perSM = PetscMax(1, perSM);
  if (p->tbylevel) PetscCall(PetscSNPrintf(order, sizeof(order), "in %" PetscInt_FMT " levels (taken by level)", p->tdepth));
  else PetscCall(PetscStrncpy(order, "(taken in index order)", sizeof(order)));
  PetscCall(PetscInfo(NULL, "PCSUBTREEILU GPU refactorization: %" PetscInt_FMT " tickets %s, %" PetscInt_FMT " runs; %d lanes a chain%s (%" PetscInt_FMT " bundles); shared memory per chain %d values, %d steps, %d map entries; %" PetscInt_FMT " blocks of %d warps\n", hp->ntickets, order, hp->nruns, p->lanes, p->lanesasked ? "" : " (automatic)", p->lanes < 32 ? p->nbundles : hp->ntickets, p->capval, p->capsteps, p->capmap, PersistentBlocks(p->perSM, p->nsm, (int)st->cudablockspersm), p->rkwarps));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The numeric refactorization on the GPU: aa = A's values in the plan's CSR order (device: a device pointer, else a
  host pointer, uploaded once), results written into the cuda backend's solve structures. *failrow: the first row
  PETSc's pivot check would not accept unchanged, or -1 (then the device values are garbage: the caller must run
  PETSc's factorization and copy its values); *badpivot (ICC): the first negative pivot, or -1.
*/
PETSC_INTERN PetscErrorCode PCSubtreeILUCUDARefactor_Private(PC_SubtreeILU *st, const PetscScalar *aa, PetscBool device, PetscInt *failrow, PetscInt *badpivot)
{
  PCSubtreeILUCUDAPlan p = st->cudaplan;
  PCSubtreeILUCUDA     c = st->cuda;
  RefactArgs           a;
  int                  status[2];
  PetscInt             nb;
  SparseGPUCUDATrace   tr;

  PetscFunctionBegin;
  PetscCheck(p && c, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The GPU refactorization is not set up");
  *failrow  = -1;
  *badpivot = -1;
  if (!p->n) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(SparseGPUCUDATraceStart(&tr));
  if (!device) {
    if (!p->aa) PetscCallCUDA(cudaMalloc((void **)&p->aa, PetscMax(p->annz, 1) * sizeof(PetscScalar)));
    PetscCallCUDA(cudaMemcpyAsync(p->aa, aa, p->annz * sizeof(PetscScalar), cudaMemcpyHostToDevice, PetscDefaultCudaStream));
    PetscCall(PetscLogCpuToGpu(p->annz * sizeof(PetscScalar)));
    aa = p->aa;
    PetscCall(SparseGPUCUDATraceStage(&tr, "upload"));
  }
  PetscCallCUDA(cudaMemsetAsync(p->ticket, 0, sizeof(int), PetscDefaultCudaStream));
  PetscCallCUDA(cudaMemsetAsync(p->status, 0x7f, 2 * sizeof(int), PetscDefaultCudaStream));
  if (p->tbylevel != (st->cudarefactorder ? 1 : 0)) { /* -pc_subtree_ilu_cuda_refactor_level_order changed since the plan's upload */
    PCSubtreeILUPlan *hp = st->plan;
    PetscInt         *ttptr, *truns;

    PetscCall(RefactTicketLists(st, &ttptr, &truns));
    PetscCallCUDA(cudaMemcpy(p->ttptr, ttptr, (hp->ntickets + 1) * sizeof(PetscInt), cudaMemcpyHostToDevice));
    PetscCallCUDA(cudaMemcpy(p->truns, truns, 2 * hp->nruns * sizeof(PetscInt), cudaMemcpyHostToDevice));
    PetscCall(PetscLogCpuToGpu((hp->ntickets + 1 + 2 * hp->nruns) * sizeof(PetscInt)));
    PetscCall(PetscFree2(ttptr, truns));
  }
  if (p->lanesasked != RefactLanes(st)) { /* first refactorization, or an option changed */
    PetscCall(RefactBundles(st));
    p->bufcap = -1; /* the shared memory sizes depend on the lanes */
  }
  if (p->bufcap != (int)PetscMin(st->plan->bufcap, (PetscInt)SUBTREEILU_REFACT_BUF)) PetscCall(RefactSharedSizes(st));
  a.ntickets  = p->ntickets;
  a.nbundles  = p->nbundles;
  a.tbptr     = p->tbptr;
  a.capval    = p->capval;
  a.capsteps  = p->capsteps;
  a.capmap    = p->capmap;
  a.shifttype = p->shifttype;
  a.zeropivot = p->zeropivot;
  a.backoff   = (unsigned)st->cudabackoff;
  a.lptr      = p->lptr;
  a.ub        = p->ub;
  a.ud        = p->ud;
  a.bj        = p->bj;
  a.aptr      = p->aptr;
  a.asrc      = p->asrc;
  a.adst      = p->adst;
  a.cptr      = p->cptr;
  a.cpos      = p->cpos;
  a.crow      = p->crow;
  a.ttptr     = p->ttptr;
  a.truns     = p->truns;
  a.mptr      = p->mptr;
  a.map       = p->map;
  a.msrc      = p->msrc;
  a.aa        = aa;
  a.fa        = p->fa;
  a.ubar      = p->ubar;
  a.work      = p->work;
  a.ticket    = p->ticket;
  a.status    = p->status;
  nb          = PetscMin(PersistentBlocks(p->perSM, p->nsm, (int)st->cudablockspersm), ((p->lanes < 32 ? p->nbundles : p->ntickets) + p->rkwarps - 1) / p->rkwarps);
  PetscCall(PetscLogGpuTimeBegin());
  SentinelKernel<<<NumBlocks(p->nz, 256), 256, 0, PetscDefaultCudaStream>>>(p->nz, p->fa, p->icc ? p->ubar : NULL);
  PetscCallCUDA(cudaGetLastError());
  PetscCall(SparseGPUCUDATraceStage(&tr, "sentinel"));
  RefactKernelOf(p->icc, p->lanes)<<<(unsigned int)PetscMax(nb, 1), (unsigned int)p->rkwarps * 32, p->smem, PetscDefaultCudaStream>>>(a);
  PetscCallCUDA(cudaGetLastError());
  PetscCall(SparseGPUCUDATraceStage(&tr, "factor"));
  GatherKernel<<<NumBlocks(PetscMax(PetscMax(p->Lnnz, p->Unnz), p->n), 256), 256, 0, PetscDefaultCudaStream>>>(p->Lnnz, p->Unnz, p->n, p->icc ? -1.0 : 1.0, p->Lsrc, p->Lcsrc, p->Usrc, p->Ucsrc, p->dsrc, p->fa, c->L.val, c->L.cval, c->U.val, c->U.cval, c->dinv, p->icc ? c->sqrtdinv : NULL);
  PetscCallCUDA(cudaGetLastError());
  PetscCall(PetscLogGpuTimeEnd());
  PetscCall(SparseGPUCUDATraceStage(&tr, "gather"));
  PetscCallCUDA(cudaMemcpyAsync(status, p->status, 2 * sizeof(int), cudaMemcpyDeviceToHost, PetscDefaultCudaStream));
  PetscCallCUDA(cudaStreamSynchronize(PetscDefaultCudaStream));
  PetscCall(SparseGPUCUDATraceStage(&tr, "status"));
  PetscCall(SparseGPUCUDATraceReport(&tr, "PCSUBTREEILU GPU refactorization"));
  PetscCall(PetscLogGpuToCpu(2 * sizeof(int)));
  if (status[0] != SUBTREEILU_NOROW) *failrow = status[0];
  if (status[1] != SUBTREEILU_NOROW) *badpivot = status[1];
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* fa = the factor values of the last GPU refactorization (host array of PETSc's factor) */
PETSC_INTERN PetscErrorCode PCSubtreeILUCUDAPlanDownload_Private(PC_SubtreeILU *st, PetscScalar *fa)
{
  PCSubtreeILUCUDAPlan p = st->cudaplan;

  PetscFunctionBegin;
  PetscCheck(p, PETSC_COMM_SELF, PETSC_ERR_ARG_WRONGSTATE, "The GPU refactorization is not set up");
  if (p->nz) {
    PetscCallCUDA(cudaMemcpy(fa, p->fa, p->nz * sizeof(PetscScalar), cudaMemcpyDeviceToHost));
    PetscCall(PetscLogGpuToCpu(p->nz * sizeof(PetscScalar)));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}
