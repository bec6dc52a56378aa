/*
  CUDA backend of MATORDERINGGPURCM: the graph is built (or uploaded) and ordered on the GPU; only the
  permutation comes back.

  1. Graph: a structurally symmetric CSR without inodes (checked on the GPU) is the graph itself, as in the
     threads backend; otherwise PETSc's symmetrized lower triangle (MatToSymmetricIJ_SeqAIJ semantics: for each row r the
     entries c <= r up to the first c > r; (r,c) and (c,r) for c < r, (r,r) for a stored diagonal), or
     with inodes PETSc's inode-compressed symmetric graph (MatGetRowIJ_SeqAIJ_Inode_Symmetric's scan of
     each inode's first row, emulated exactly), is built by sorting 64-bit keys row * n + col (only the bits below n^2); rows of
     both are ascending on the host too, so the sorted keys are PETSc's graph. (The threads backend builds
     the same graphs with the same scan and -mat_gpurcm_check_graph compares them with MatGetRowIJ().)
  2. Components: hooking/compression labels every node with the smallest index of its component.
     Components are numbered in order of that index, so each one's segment of the permutation is an
     exclusive scan of the component sizes and components are independent.
  3. Small components (<= GPURCM_CUDA_SMALL nodes): one thread each runs the serial SPARSEPACK code.
  4. Large components, one at a time: SPARSEPACK fnroot (rootls passes, same candidate and return rule)
     and the Cuthill-McKee numbering, then reversal. The numbering is level by level (GPURCMLevelsNumberKernel) or a
     BFS by the speculative batch kernel below (-mat_gpurcm_cuda_number); a child list longer than GPURCM_SORT_SHORT is
     sorted by the whole block (GPURCMBlockSortLong); the rootls passes are level-synchronous BFS
     (GPURCMLevelsBFSKernel: levels only), a pass being repeated by the batch kernel, in queue order, when its last
     level holds several nodes of minimum degree (-mat_gpurcm_cuda_rootfind ordered: every pass by the batch kernel).
     With -mat_gpurcm_speculate (default) the pass from each candidate root is the numbering from it (same levels; its
     last level gives the next candidate when one node has the smallest degree): when fnroot returns that candidate,
     the numbering is kept.

  Batch kernel (persistent; grid = co-resident blocks from the occupancy calculator): a block takes batch
  tickets in order; batch b = up to GPURCM_BLOCK consecutive queue positions (one parent per thread).
  Discover (atomicMin of the key of the parent position on each neighbour; the neighbours whose key it
  lowered are candidates), chain "discovered" after batch b-1, validate (children = candidates whose key
  is still this parent's), stable insertion sort by
  degree (numbering only), publish the tail after batch b-1's (before writing), write. A block waits
  only on smaller tickets, which were taken by blocks already running: no block ever waits on one that
  is not scheduled, so the kernel cannot deadlock whatever the residency.
*/
#include <petscdevice_cuda.h>
#include <cub/cub.cuh>
#include <thread>
#include <type_traits>
#include <string.h>
#include "gpurcmimpl.h"
#include <sparsegpucudatrace.h>

#if !defined(GPURCM_BLOCK)
  #define GPURCM_BLOCK 512 /* parents per batch (one thread each): fewer, larger batches shorten the signalling chain */
#endif
#define GPURCM_CHUNK      8   /* neighbours (candidates) whose loads and atomics a thread has in flight at once */
#define GPURCM_SORT_SHORT 32  /* child lists up to this long are sorted by their thread (insertion), longer ones by the block */
#define GPURCM_HOOK_LONG  256 /* rows longer than this are hooked by a block, not by one thread */
#define GPURCM_CUDA_SMALL 64
#define GPURCM_POS_BITS   40
#define GPURCM_EPOCH_MAX  (1ULL << 22)

typedef unsigned long long GKey;

struct GPURCMCtl {
  PetscInt ticket, pubtail, npub, done;
  PetscInt cc, nlvl, laststart, candnode;
  GKey     cand;
  int      changed;
};

struct GPURCMDev {
  PetscInt        n, nbcap;
  const PetscInt *ia, *ja;
  GKey           *owner;
  PetscInt       *ls, *cm, *lev, *scratch, *bend, *btail;
  GKey           *sortkey; /* 2 * nnz keys for sorting long child lists (NULL: no row is longer than GPURCM_SORT_SHORT) */
  int            *bdisc;
  GPURCMCtl      *ctl;
};

template <typename T>
__device__ __forceinline__ T VLoad(const T *p)
{
  return *(const volatile T *)p;
}
template <typename T>
__device__ __forceinline__ void VStore(T *p, T v)
{
  *(volatile T *)p = v;
}
__device__ __forceinline__ PetscInt AtomicAddIdx(PetscInt *p, PetscInt v)
{
#if defined(PETSC_USE_64BIT_INDICES)
  return (PetscInt)atomicAdd((unsigned long long *)p, (unsigned long long)v);
#else
  return atomicAdd(p, v);
#endif
}
__device__ __forceinline__ PetscInt RowLen(const PetscInt *ia, PetscInt v)
{
  return ia[v + 1] - ia[v];
}

/* Stable insertion sort of a node's children buf[0, c) by degree (their row length), the order SPARSEPACK's rcm gives
   them; for short lists (GPURCMBlockSortLong() sorts the longer ones) */
__device__ void GPURCMSortChildren(const PetscInt *ia, PetscInt *buf, PetscInt c)
{
  for (PetscInt i = 1; i < c; i++) { /* stable: move only past strictly larger degrees */
    const PetscInt v = buf[i], dv = RowLen(ia, v);
    PetscInt       l = i - 1;
    while (l >= 0 && RowLen(ia, buf[l]) > dv) {
      buf[l + 1] = buf[l];
      l--;
    }
    buf[l + 1] = v;
  }
}

/* Whether a child list of c entries is sorted by the block (GPURCMBlockSortLong()) rather than by its thread */
__device__ __forceinline__ int GPURCMLongList(PetscInt c, const GKey *sortkey)
{
  return sortkey && c > GPURCM_SORT_SHORT && (unsigned long long)c < (1ULL << 32);
}

/* Every thread of the block calls it (sortkey: the keys of the long lists, NULL when no row is long). The child lists
   of the threads that pass their key space tmp[0, 2c) (buf[0, c); NULL: none to sort) are sorted stably by degree one after the
   other, each by the whole block: a hub's list sorted by insertion in one thread took minutes on a power-law graph (a
   hub of 67,069 neighbours, session 49). Keys degree << 32 | position; bottom-up merging, each key placed by a binary
   search in the run it merges with (keys are distinct); then the nodes are gathered in key order. */
__device__ void GPURCMBlockSortLong(const PetscInt *ia, const GKey *sortkey, PetscInt *buf, PetscInt c, GKey *tmp)
{
  int                  mine = tmp != NULL;
  __shared__ unsigned  s_who;
  __shared__ PetscInt *s_buf, s_c;
  __shared__ GKey     *s_tmp;
  const unsigned       t = threadIdx.x, nt = blockDim.x;

  if (!sortkey || !__syncthreads_or(mine)) return; /* sortkey is the same in every thread: no row is long, no barrier */
  for (;;) {
    if (t == 0) s_who = ~0u;
    __syncthreads();
    if (mine) atomicMin(&s_who, t);
    __syncthreads();
    if (s_who == ~0u) break;
    if (t == s_who) {
      s_buf = buf;
      s_c   = c;
      s_tmp = tmp;
      mine  = 0;
    }
    __syncthreads();
    {
      PetscInt *const lst = s_buf;
      const PetscInt  n   = s_c;
      GKey           *A = s_tmp, *B = s_tmp + n;

      for (PetscInt i = t; i < n; i += nt) A[i] = (GKey)RowLen(ia, lst[i]) << 32 | (GKey)i;
      __syncthreads();
      for (PetscInt w = 1; w < n; w *= 2) { /* runs of w in A merged pairwise into B */
        for (PetscInt i = t; i < n; i += nt) {
          const GKey     x = A[i];
          const PetscInt lo = i - i % w, plo = (lo / w) % 2 ? lo - w : lo + w, phi = PetscMin(plo + w, n);
          PetscInt       l = plo, h = phi; /* first key of the partner run [plo, phi) that is larger than x */

          if (plo >= n) {
            B[i] = x;
            continue;
          }
          while (l < h) {
            const PetscInt m = (l + h) / 2;
            if (A[m] < x) l = m + 1;
            else h = m;
          }
          B[PetscMin(lo, plo) + (i - lo) + (l - plo)] = x;
        }
        __syncthreads();
        GKey *sw = A;
        A        = B;
        B        = sw;
      }
      {
        PetscInt *nodes = (PetscInt *)B; /* B holds n keys: room for the n nodes */
        for (PetscInt i = t; i < n; i += nt) nodes[i] = lst[(PetscInt)(A[i] & 0xffffffffULL)];
        __syncthreads();
        for (PetscInt i = t; i < n; i += nt) lst[i] = nodes[i];
      }
    }
    __syncthreads();
  }
}

/* ---------------------------------------------------------------------------------------------- batch BFS */
__global__ void __launch_bounds__(GPURCM_BLOCK) GPURCMBatchKernel(GPURCMDev d, PetscInt *q, int numbering, GKey hi)
{
  typedef cub::BlockScan<PetscInt, GPURCM_BLOCK> Scan;
  __shared__ typename Scan::TempStorage scan;
  __shared__ PetscInt                   s_b, s_start, s_end, s_base, s_total;
  __shared__ int                        s_exit;
  GPURCMCtl                            *ctl = d.ctl;
  const int                             t   = threadIdx.x;

  for (;;) {
    if (t == 0) {
      s_exit = 0;
      if (VLoad(&ctl->done)) s_exit = 1;
      else {
        const PetscInt b = AtomicAddIdx(&ctl->ticket, 1);
        PetscInt       start = 0;
        if (b >= d.nbcap) s_exit = 1;
        else if (b > 0) {
          for (;;) { /* both loads in flight at once: one memory round trip per poll */
            start = VLoad(&d.bend[b - 1]);
            const PetscInt dn = VLoad(&ctl->done);
            if (start >= 0) break;
            if (dn) {
              s_exit = 1;
              break;
            }
          }
        }
        if (!s_exit) {
          for (;;) {
            const PetscInt np = VLoad(&ctl->npub), dn = VLoad(&ctl->done);
            __threadfence();
            const PetscInt pt = VLoad(&ctl->pubtail);
            if (pt > start) {
              s_end = start + GPURCM_BLOCK < pt ? start + GPURCM_BLOCK : pt;
              break;
            }
            if (np == b) { /* all earlier batches published, nothing left: BFS complete */
              VStore(&ctl->done, (PetscInt)1);
              __threadfence();
              s_exit = 1;
              break;
            }
            if (dn) {
              s_exit = 1;
              break;
            }
          }
        }
        if (!s_exit) {
          s_b     = b;
          s_start = start;
          VStore(&d.bend[b], s_end);
          __threadfence();
        }
      }
    }
    __syncthreads();
    if (s_exit) return;
    {
      const PetscInt b = s_b, p = s_start + t, end = s_end;
      const GKey     key = hi | (GKey)(p + 1);
      PetscInt       u = -1, c = 0, lp = 0, off;

      /* wait for the parent, then discover */
      if (p < end) {
        for (;;) {
          u = VLoad(&q[p]);
          const PetscInt dn = VLoad(&ctl->done);
          if (u >= 0 || dn) break;
        }
        __threadfence();
        if (u >= 0) lp = VLoad(&d.lev[p]); /* levels are tracked in both modes: a numbering may be a root-finder pass */
        if (u >= 0) { /* candidates: the neighbours whose key this parent lowered, in row order, in its scratch segment */
          const PetscInt kend = d.ia[u + 1];
          PetscInt      *buf  = d.scratch + d.ia[u];
          for (PetscInt k0 = d.ia[u]; k0 < kend; k0 += GPURCM_CHUNK) { /* independent loads, then independent atomics */
            PetscInt v[GPURCM_CHUNK];
            GKey     old[GPURCM_CHUNK];
#pragma unroll
            for (int j = 0; j < GPURCM_CHUNK; j++) v[j] = k0 + j < kend ? d.ja[k0 + j] : -1;
#pragma unroll
            for (int j = 0; j < GPURCM_CHUNK; j++) old[j] = v[j] >= 0 ? atomicMin(&d.owner[v[j]], key) : 0;
#pragma unroll
            for (int j = 0; j < GPURCM_CHUNK; j++)
              if (v[j] >= 0 && old[j] > key) buf[c++] = v[j];
          }
        }
      }
      __threadfence();
      __syncthreads();
      if (t == 0) {
        if (b > 0)
          for (;;) {
            const int      ds = VLoad(&d.bdisc[b - 1]);
            const PetscInt dn = VLoad(&ctl->done);
            if (ds || dn) break;
          }
        __threadfence();
        VStore(&d.bdisc[b], 1);
      }
      __syncthreads();
      /* validate: the children of p are its candidates that still carry its key (final now) */
      int longlist = 0;
      if (p < end && u >= 0) {
        PetscInt *buf = d.scratch + d.ia[u], ncand = c;
        c             = 0;
        for (PetscInt i0 = 0; i0 < ncand; i0 += GPURCM_CHUNK) { /* independent loads (compaction in place: c <= i) */
          PetscInt v[GPURCM_CHUNK];
          GKey     o[GPURCM_CHUNK];
#pragma unroll
          for (int j = 0; j < GPURCM_CHUNK; j++) v[j] = i0 + j < ncand ? buf[i0 + j] : -1;
#pragma unroll
          for (int j = 0; j < GPURCM_CHUNK; j++) o[j] = v[j] >= 0 ? VLoad(&d.owner[v[j]]) : 0;
#pragma unroll
          for (int j = 0; j < GPURCM_CHUNK; j++)
            if (v[j] >= 0 && o[j] == key) buf[c++] = v[j];
        }
        if (numbering) {
          longlist = GPURCMLongList(c, d.sortkey);
          if (!longlist) GPURCMSortChildren(d.ia, buf, c);
        }
      }
      if (numbering) GPURCMBlockSortLong(d.ia, d.sortkey, longlist ? d.scratch + d.ia[u] : NULL, c, longlist ? d.sortkey + 2 * d.ia[u] : NULL);
      Scan(scan).ExclusiveSum(c, off);
      if (t == GPURCM_BLOCK - 1) s_total = off + c;
      __syncthreads();
      if (t == 0) { /* early signal: the tail after this batch, before writing */
        PetscInt base = 1;
        if (b > 0)
          for (;;) {
            base = VLoad(&d.btail[b - 1]);
            const PetscInt dn = VLoad(&ctl->done);
            if (base >= 0 || dn) break;
          }
        VStore(&ctl->pubtail, base + s_total);
        __threadfence();
        VStore(&ctl->npub, b + 1);
        __threadfence();
        VStore(&d.btail[b], base + s_total);
        s_base = base;
      }
      __syncthreads();
      if (c > 0) {
        const PetscInt *buf = d.scratch + d.ia[u], o = s_base + off;
        for (PetscInt i = 0; i < c; i++) d.lev[o + i] = lp + 1;
        __threadfence();
        for (PetscInt i = 0; i < c; i++) VStore(&q[o + i], buf[i]);
      }
      __syncthreads();
    }
  }
}

__global__ void GPURCMStartKernel(GPURCMDev d, PetscInt *q, PetscInt root, GKey hi)
{
  GPURCMCtl *c = d.ctl;
  c->ticket    = 0;
  c->pubtail   = 1;
  c->npub      = 0;
  c->done      = 0;
  c->cand      = ~0ULL;
  d.owner[root] = hi;
  d.lev[0]      = 0;
  q[0]          = root;
}

/* after a rootls pass: size, number of levels, start of the last level (levels are nondecreasing along the queue) */
__global__ void GPURCMLevelsKernel(GPURCMDev d)
{
  GPURCMCtl     *c  = d.ctl;
  const PetscInt cc = c->pubtail, nl = d.lev[cc - 1] + 1;
  PetscInt       lo = 0, hi = cc - 1;
  while (lo < hi) {
    const PetscInt mid = lo + (hi - lo) / 2;
    if (d.lev[mid] < nl - 1) lo = mid + 1;
    else hi = mid;
  }
  c->cc        = cc;
  c->nlvl      = nl;
  c->laststart = lo;
}

/* SPARSEPACK's candidate: first node of the last level with the smallest min(degree, ccsize) */
__global__ void GPURCMCandidateKernel(GPURCMDev d)
{
  GPURCMCtl     *c = d.ctl;
  const PetscInt cc = c->cc;
  for (PetscInt j = c->laststart + blockIdx.x * blockDim.x + threadIdx.x; j < cc; j += gridDim.x * blockDim.x) {
    PetscInt dg = RowLen(d.ia, d.ls[j]);
    if (dg > cc) dg = cc;
    atomicMin(&c->cand, ((GKey)dg << 32) | (GKey)j);
  }
}

__global__ void GPURCMCandidateNodeKernel(GPURCMDev d)
{
  d.ctl->candnode = d.ls[d.ctl->cand & 0xffffffffULL];
}

/* Last level q[beg, end) of a numbering (in Cuthill-McKee order, not rootls order): the smallest min(degree, cc) with
   the first position having it, and how many nodes have it. With a single such node it is SPARSEPACK's candidate
   whatever the order within the level; with several, rootls's queue order decides (a pass in queue order). */
struct GPURCMLastStat {
  GKey               minkey; /* min(degree, cc) << 32 | position in the level */
  unsigned long long count;
};

template <typename T>
__global__ void GPURCMLastLevelMinKernel(const PetscInt *ia, const T *q, PetscInt beg, PetscInt end, PetscInt cc, GPURCMLastStat *st)
{
  for (PetscInt j = beg + blockIdx.x * blockDim.x + threadIdx.x; j < end; j += gridDim.x * blockDim.x) {
    const PetscInt u = (PetscInt)q[j], dg = PetscMin(RowLen(ia, u), cc);
    atomicMin(&st->minkey, ((GKey)dg << 32) | (GKey)(j - beg));
  }
}

template <typename T>
__global__ void GPURCMLastLevelCountKernel(const PetscInt *ia, const T *q, PetscInt beg, PetscInt end, PetscInt cc, GPURCMLastStat *st)
{
  const PetscInt     md  = (PetscInt)(VLoad(&st->minkey) >> 32);
  unsigned long long cnt = 0;
  for (PetscInt j = beg + blockIdx.x * blockDim.x + threadIdx.x; j < end; j += gridDim.x * blockDim.x) {
    const PetscInt u = (PetscInt)q[j];
    if (PetscMin(RowLen(ia, u), cc) == md) cnt++;
  }
  if (cnt) atomicAdd(&st->count, cnt);
}

/* clear the queue and the batch records of the last job; with perm, write the reversed numbering to perm[0..cc) */
__global__ void GPURCMResetKernel(GPURCMDev d, PetscInt *q, PetscInt *perm)
{
  const PetscInt cc = d.ctl->pubtail;
  PetscInt       nb = d.ctl->ticket;
  if (nb > d.nbcap) nb = d.nbcap;
  for (PetscInt k = blockIdx.x * blockDim.x + threadIdx.x; k < cc || k < nb; k += gridDim.x * blockDim.x) {
    if (k < cc) {
      if (perm) perm[cc - 1 - k] = q[k];
      q[k] = -1;
    }
    if (k < nb) {
      d.bend[k]  = -1;
      d.btail[k] = -1;
      d.bdisc[k] = 0;
    }
  }
}

/* ---------------------------------------------------------------------------------------------- level BFS */
/*
  Level-synchronous BFS of the root finder (-mat_gpurcm_cuda_rootfind levels): it computes the levels, not
  SPARSEPACK's order within them. One cooperative launch per pass; all blocks are co-resident (grid from the
  occupancy calculator, cudaLaunchCooperativeKernel), so the grid barrier below cannot deadlock.
  L[] lists the reached nodes level by level (the root at 0); vis[v] == stamp marks v reached in this pass
  (claimed by atomicMax: exactly one thread sees an older stamp and appends v).
  - a level of at most `narrow` nodes is expanded by block 0 alone, levels in shared memory, __syncthreads()
    between levels; the other blocks wait in the grid barrier meanwhile;
  - a wider level is expanded by all blocks (a contiguous share each, appended at the shared tail of L), then a
    counting grid barrier: each block arrives with how many nodes it appended and advances the state by their sum.
  Block 0 hands the result of a narrow stretch over through the p* fields; the last block to arrive at the barrier
  after it (all others are waiting, none reads the state) installs it and publishes it.
  Then the last level: its smallest min(degree, cc), how many nodes have it and (if one) which.
  Node indices and counts are 32-bit here (the caller guarantees n < 2^31 and fewer than 2^32 graph entries).
*/
#if defined(GPURCM_PROFILE)
/* developer diagnostic (build with -DGPURCM_PROFILE): block 0's cycles and counts of its levels by size (64 nodes a
   bin, the last bin larger): the shared-table numbering levels, the root finder's narrow BFS levels */
__device__ unsigned long long gpurcmProfNm[2][17], gpurcmProfBfs[2][17];

__device__ void GPURCMProfPrintBins(const char *what, unsigned long long (*p)[17])
{
  for (int q = 0; q < 17; q++) {
    if (p[1][q]) printf("GPURCM_PROFILE %s levels of %d-%d nodes: %llu, %.0f cycles each\n", what, 64 * q, q < 16 ? 64 * q + 63 : 4096, p[1][q], (double)p[0][q] / p[1][q]);
    p[0][q] = p[1][q] = 0;
  }
}
#endif
#define GPURCM_LV_BLOCK 1024                   /* threads per block */
#define GPURCM_LV_CAP   GPURCM_CUDA_NARROW_MAX /* shared level buffers: nodes per level */
#define GPURCM_LV_LIGHT 8                      /* a thread expands a node of at most this degree itself */
/* the packed ELL copy of a graph whose rows all have at most GPURCM_LV_LIGHT entries and fewer than 2^24 - 1 nodes: entry
   j of node u's row is its j-th neighbour v | degree(v) << 24, or GPURCM_ELL_NONE past the row's end */
#define GPURCM_ELL_NONE 0xffffffffu
#define GPURCM_ELL_NODE 0x00ffffffu

typedef cub::BlockScan<unsigned, GPURCM_LV_BLOCK, cub::BLOCK_SCAN_WARP_SCANS> GPURCMLvScan;

struct GPURCMLvCtl {
  unsigned arrive;                              /* grid barrier: blocks arrived (the last one resets it) */
  unsigned tail;                                /* the level BFS's wide levels: end of L, where the next node is appended */
  unsigned lbeg, lend, nlvl, done;              /* current level [lbeg, lend) of L, number of levels so far, BFS complete */
  unsigned pbeg;                                /* start of the previous level in L (the previous level is [pbeg, lbeg)) */
  unsigned plbeg, plend, pnlvl, pdone;          /* block 0's state after a narrow stretch */
  unsigned ppbeg;
  unsigned mindeg, nmin, pick, maxwidth; /* results: last level's smallest min(degree, cc), count, node; widest level */
  unsigned long long arrcnt;             /* GPURCMLvCountBarrier(): arrivals << 32 | the sum of their counts */
  unsigned long long tag[4];             /* what a barrier published: generation << 32 | lbeg (or the count), lend, nlvl | done << 31, pbeg */
};

struct GPURCMLvShared {
  GPURCMLvScan::TempStorage scan;
  unsigned                  buf[2][GPURCM_LV_CAP]; /* levels of a narrow stretch */
  unsigned                  hoff[GPURCM_LV_BLOCK]; /* heavy nodes: exclusive scan of their degrees */
  PetscInt                  hrow[GPURCM_LV_BLOCK]; /* heavy nodes: start of their row */
  unsigned                  cnt[3];                /* next-level counters of a narrow stretch (rotating) */
  unsigned                  pbeg, lbeg, lend, nlvl, done, mindeg;
  unsigned                  gen;  /* grid barriers passed (GPURCMLvBarrier(), GPURCMLvCountBarrier(); thread 0's) */
  unsigned                  bcnt; /* nodes this block appended during a wide level */
};
static_assert(sizeof(GPURCMLvShared) <= 48 * 1024, "the level BFS's shared memory must stay static (48 KiB)");

__device__ __forceinline__ unsigned GPURCMAtomicAddAcqRel(unsigned *p, unsigned v)
{
  unsigned o;
  asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], %2;" : "=r"(o) : "l"(p), "r"(v) : "memory");
  return o;
}
__device__ __forceinline__ unsigned long long GPURCMAtomicAddAcqRel64(unsigned long long *p, unsigned long long v)
{
  unsigned long long o;
  asm volatile("atom.acq_rel.gpu.global.add.u64 %0, [%1], %2;" : "=l"(o) : "l"(p), "l"(v) : "memory");
  return o;
}
__device__ __forceinline__ unsigned long long GPURCMLoadRelaxed(const unsigned long long *p)
{
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void GPURCMStoreRelaxed(unsigned long long *p, unsigned long long v)
{
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ void GPURCMFenceAcqRel(void)
{
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
}

/* thread 0 at a kernel's start: the generation of the last barrier of the previous launch on c (nobody publishes a
   new one before every block has arrived at the first barrier, so all blocks read the same) */
template <class Shared>
__device__ __forceinline__ void GPURCMLvBarrierStart(GPURCMLvCtl *c, Shared &s)
{
  s.gen = (unsigned)(GPURCMLoadRelaxed(&c->tag[0]) >> 32);
}

/* Grid barrier (all blocks co-resident). With update, the last block to arrive installs block 0's state after a
   narrow stretch (the p* fields; nobody reads them while it does). Every block then has the state in s. The last
   block publishes it in four 64-bit words tagged with the barrier's generation, which the others poll: the poll that
   ends the wait brings the state (where a flag and then the fields took two round trips and a generation load a
   third; session 67). Without update the state is not changed and only the first word's tag is waited for. */
#if !defined(GPURCM_BARRIER_SLEEP)
  /* longest sleep (ns) between polls of a waiting block; 0: spin (session 68, H100: spinning 1.5-2% faster on 2D
     2000^2 and 3000^2 than sleeping up to 256 ns, even on 2D 1000^2, whose 131 other blocks wait out all its levels) */
  #define GPURCM_BARRIER_SLEEP 0
#endif

/* between two polls of a waiting block: sleep ns, doubled up to GPURCM_BARRIER_SLEEP for the next time (nothing if 0) */
__device__ __forceinline__ void GPURCMBackoff(unsigned &ns)
{
#if GPURCM_BARRIER_SLEEP > 0
  __nanosleep(ns);
  ns = ns < GPURCM_BARRIER_SLEEP ? 2 * ns : GPURCM_BARRIER_SLEEP;
#else
  (void)ns;
#endif
}

/* the word at p once it carries the tag of gt (generation << 32), polled */
__device__ __forceinline__ unsigned long long GPURCMWaitTagged(const unsigned long long *p, unsigned long long gt)
{
  for (unsigned ns = 32;; GPURCMBackoff(ns)) {
    const unsigned long long w = GPURCMLoadRelaxed(p);
    if ((w ^ gt) >> 32 == 0) return w;
  }
}

/* the level state of s into c, for the host (the pass's result): by the block that holds it last at a barrier */
template <class Shared>
__device__ __forceinline__ void GPURCMLvStateToCtl(GPURCMLvCtl *c, const Shared &s)
{
  VStore(&c->pbeg, s.pbeg);
  VStore(&c->lbeg, s.lbeg);
  VStore(&c->lend, s.lend);
  VStore(&c->nlvl, s.nlvl);
  VStore(&c->done, s.done);
}
template <class Shared>
__device__ void GPURCMLvBarrier(GPURCMLvCtl *c, int update, Shared &s)
{
  __syncthreads();
  if (threadIdx.x == 0) {
    const unsigned           g  = s.gen + 1;
    const unsigned long long gt = (unsigned long long)g << 32;
    unsigned long long       w0, w1 = 0, w2 = 0, w3 = 0;

    if (GPURCMAtomicAddAcqRel(&c->arrive, 1u) == gridDim.x - 1) { /* last: everybody else's writes are seen (acquire) */
      c->arrive = 0;                                                /* released below, before anybody arrives again */
      if (update) { /* every field loaded at once: one round trip, where a load between stores costs one each */
        const unsigned pbeg = VLoad(&c->ppbeg), lbeg = VLoad(&c->plbeg), lend = VLoad(&c->plend), nlvl = VLoad(&c->pnlvl), done = VLoad(&c->pdone);
        s.pbeg = pbeg;
        s.lbeg = lbeg;
        s.lend = lend;
        s.nlvl = nlvl;
        s.done = done;
        GPURCMLvStateToCtl(c, s);
        VStore(&c->tail, lend); /* the level BFS's next wide level appends from here */
        w1 = gt | lend;
        w2 = gt | nlvl | done << 31;
        w3 = gt | pbeg;
      }
      w0 = gt | s.lbeg;
      GPURCMFenceAcqRel(); /* release: all of the above and everything the blocks wrote before arriving */
      GPURCMStoreRelaxed(&c->tag[0], w0);
      if (update) {
        GPURCMStoreRelaxed(&c->tag[1], w1);
        GPURCMStoreRelaxed(&c->tag[2], w2);
        GPURCMStoreRelaxed(&c->tag[3], w3);
      }
    } else {
      if (!update) (void)GPURCMWaitTagged(&c->tag[0], gt);
      else
        for (unsigned ns = 32;; GPURCMBackoff(ns)) { /* the four words: one round trip a poll */
          w0 = GPURCMLoadRelaxed(&c->tag[0]);
          w1 = GPURCMLoadRelaxed(&c->tag[1]);
          w2 = GPURCMLoadRelaxed(&c->tag[2]);
          w3 = GPURCMLoadRelaxed(&c->tag[3]);
          if (((w0 ^ gt) | (w1 ^ gt) | (w2 ^ gt) | (w3 ^ gt)) >> 32 == 0) break;
        }
      GPURCMFenceAcqRel(); /* acquire: what the last block published */
      if (update) {
        s.lbeg = (unsigned)w0;
        s.lend = (unsigned)w1;
        s.nlvl = (unsigned)w2 & 0x7fffffffu;
        s.done = (unsigned)(w2 >> 31) & 1u;
        s.pbeg = (unsigned)w3;
      }
    }
    s.gen = g;
  }
  __syncthreads();
}

/* The grid barrier at the end of a wide level: each block's count of the next level rides on its arrival (one 64-bit
   atomic: arrivals in the high half, counts in the low half), the last block publishes the total in c->tag[0] with
   the barrier's generation, and every block advances the state by it itself (no loads by the last block, one word
   polled). Session 67 (H100): an all-gather of tagged per-block words instead cost 3.5 us a barrier on 132 blocks in
   a micro-benchmark; session 68 (H100, job 4): this barrier against it, 2D 2000^2 55.5 against 57.7 ms. Block 0
   keeps the pass's result in c for the host. x: the block's count (the same in all threads), or with xs the count in
   shared memory, read and zeroed by thread 0 (nobody adds to it before the end). Every thread of the block calls it. */
template <class Shared>
__device__ void GPURCMLvCountBarrier(GPURCMLvCtl *c, unsigned x, unsigned *xs, Shared &s)
{
  __syncthreads();
  if (threadIdx.x == 0) {
    const unsigned           g  = s.gen + 1;
    const unsigned long long gt = (unsigned long long)g << 32;
    unsigned long long       old;
    unsigned                 tot;

    if (xs) {
      x   = *xs;
      *xs = 0;
    }
    old = GPURCMAtomicAddAcqRel64(&c->arrcnt, 1ull << 32 | x);
    if ((unsigned)(old >> 32) == gridDim.x - 1) { /* last: everybody else's writes are seen (acquire) */
      tot = (unsigned)old + x;                     /* fewer than 2^31 nodes: no carry into the arrivals */
      VStore(&c->arrcnt, 0ull);                    /* released below, before anybody arrives again */
      GPURCMFenceAcqRel();
      GPURCMStoreRelaxed(&c->tag[0], gt | tot);
    } else {
      tot = (unsigned)GPURCMWaitTagged(&c->tag[0], gt);
      GPURCMFenceAcqRel(); /* acquire: what the last block published */
    }
    if (!tot) s.done = 1;
    else {
      s.pbeg = s.lbeg;
      s.lbeg = s.lend;
      s.lend += tot;
      s.nlvl++;
    }
    s.gen = g;
    if (blockIdx.x == 0) {
      GPURCMLvStateToCtl(c, s);
      atomicMax(&c->maxwidth, tot); /* no wait for a load; block 0 writes it otherwise only in its narrow stretches */
    }
  }
  __syncthreads();
}

/* Every block's count of a wide level, exchanged without a grid barrier: block b publishes x (its count) in word b of
   slot, tagged with the generation gen of the grid barrier before (the same in every block, and a grid barrier comes
   between two exchanges, so no block publishes the next count while another still waits for this one); thread t <
   gridDim.x polls word t until it has the tag and returns block t's count (0 for the other threads). Nothing but the
   counts passes (no fence): the numbering's first barrier of a wide level only collected them (session 67). The words
   must start with tag 0 (gen >= 1 here). Every thread of the block calls it. */
__device__ __forceinline__ unsigned GPURCMGatherCounts(unsigned long long *slot, unsigned x, unsigned gen)
{
  const unsigned long long gt = (unsigned long long)gen << 32;

  if (threadIdx.x == 0) GPURCMStoreRelaxed(&slot[blockIdx.x], gt | x);
  return threadIdx.x < gridDim.x ? (unsigned)GPURCMWaitTagged(&slot[threadIdx.x], gt) : 0u;
}

/* Inclusive sum of x over the lanes of the calling warp (all 32 lanes call it). */
__device__ __forceinline__ unsigned GPURCMWarpInclusiveSum(unsigned x)
{
  const unsigned lane = threadIdx.x & 31;

#pragma unroll
  for (unsigned o = 1; o < 32; o <<= 1) {
    const unsigned y = __shfl_up_sync(0xffffffffu, x, o);
    if (lane >= o) x += y;
  }
  return x;
}

/* Appends the nodes v[j] with bit j of won to the next level: out[p] (and sout[p] if p < GPURCM_LV_CAP) with
   positions p from *cnt (shared or global), one atomic per warp; the warp's count added to *bcnt (shared) too if given.
   Every thread of the block calls it. */
template <int K = GPURCM_LV_LIGHT>
__device__ __forceinline__ void GPURCMLvAppend(unsigned won, const unsigned *v, unsigned *cnt, unsigned *bcnt, unsigned *out, unsigned *sout)
{
  const unsigned lane = threadIdx.x & 31, mine = __popc(won), incl = GPURCMWarpInclusiveSum(mine);
  unsigned       tot, base = 0, p;

  tot = __shfl_sync(0xffffffffu, incl, 31);
  if (lane == 31 && tot) {
    base = atomicAdd(cnt, tot);
    if (bcnt) atomicAdd(bcnt, tot);
  }
  base = __shfl_sync(0xffffffffu, base, 31);
  p    = base + incl - mine;
#pragma unroll
  for (int j = 0; j < K; j++) {
    if (won >> j & 1u) {
      out[p] = v[j];
      if (sout && p < GPURCM_LV_CAP) sout[p] = v[j];
      p++;
    }
  }
}

/* Block barriers that warps may reach from different places in the code: PTX's non-.aligned barrier.sync and
   barrier.red (__syncthreads() and __syncthreads_or() are .aligned: every thread of the block at the same instruction).
   The numbering's narrow levels use them where the warps holding none of the level's nodes wait in
   GPURCMNmIdleLevel() instead of in the level's own code. */
__device__ __forceinline__ void GPURCMBarrierAnyPC(void)
{
  __barrier_sync(0);
}

__device__ __forceinline__ unsigned GPURCMBarrierAnyPCOr(unsigned x)
{
  unsigned r;

  asm volatile("{\n\t.reg .pred p, q;\n\tsetp.ne.u32 p, %1, 0;\n\tbarrier.red.or.pred q, 0, p;\n\tselp.u32 %0, 1, 0, q;\n\t}" : "=r"(r) : "r"(x) : "memory");
  return r;
}

/* Exclusive sum of x over the threads of the block's first nw warps, and the total *tot in every thread; the other
   warps only pass the one barrier (their x is taken as 0). wsum: 32 words of shared memory, not written again before
   the caller's next barrier. Every thread of the block calls it. */
__device__ __forceinline__ unsigned GPURCMActiveExclusiveSum(unsigned x, unsigned nw, unsigned *wsum, unsigned *tot)
{
  const unsigned lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  unsigned       incl = x, sw;

  if (w < nw) {
    incl = GPURCMWarpInclusiveSum(x);
    if (lane == 31) wsum[w] = incl;
  }
  GPURCMBarrierAnyPC();
  sw   = lane < nw ? wsum[lane] : 0;
  *tot = __reduce_add_sync(0xffffffffu, sw);
  return w < nw ? __reduce_add_sync(0xffffffffu, lane < w ? sw : 0u) + incl - x : 0u;
}

/* Level tables (-mat_gpurcm_cuda_level_tables), block 0's shared-memory record of the last levels where the bitmap of all
   n nodes does not fit (about 1.2M nodes and more): a BFS or numbering level meets only nodes of the previous, the
   current and the next level, so four open-addressing hash tables of wslots slots (a power of 2), level j in table
   j % 4, hold all a narrow level needs: it looks its neighbours up in the previous and the current level's tables,
   enters the next level's nodes in the third, and empties the fourth (two levels old) for the level after, with no
   barrier of its own. Table j is complete (bit j of the block's word ok) when every node of its level is in it: a
   level whose previous or current table is not (a node found no slot within GPURCM_WIN_PROBES probes, or the level
   before was wide) claims in global memory, and still enters its winners into the next table. */
#define GPURCM_WIN_EMPTY  0xffffffffu
#define GPURCM_WIN_PROBES 32

/* The level tables in the kernel's dynamic shared memory (which every extern __shared__ array of a kernel starts at):
   from word base, four tables of wslots words, then the word ok. Addressed from this array, so the compiler emits
   shared-memory instructions (through pointers in a struct it may use generic ones, see GPURCMNmTables). */
extern __shared__ unsigned gpurcmWinDyn[];

struct GPURCMWin {
  unsigned wslots; /* slots a table (a power of 2); 0: no tables */
  unsigned base;   /* first word of the tables in gpurcmWinDyn */
  unsigned cur;    /* the current level's number */
  unsigned use;    /* the previous and the current level's tables are complete: the level claims in the tables */

  __device__ __forceinline__ unsigned  slot(unsigned lvl, unsigned h) const { return base + (lvl & 3u) * wslots + h; }
  __device__ __forceinline__ unsigned *ok() const { return &gpurcmWinDyn[base + 4 * wslots]; }
  __device__ __forceinline__ unsigned  hash(unsigned v) const { return (v * 0x9E3779B1u) >> (33 - (unsigned)__ffs((int)wslots)); }
  /* v is in the table of level lvl (if that table is complete) */
  __device__ __forceinline__ bool find(unsigned lvl, unsigned v) const
  {
    unsigned h = hash(v);
    for (int p = 0; p < GPURCM_WIN_PROBES; p++, h = (h + 1) & (wslots - 1)) {
      const unsigned x = *(volatile unsigned *)&gpurcmWinDyn[slot(lvl, h)];
      if (x == v) return true;
      if (x == GPURCM_WIN_EMPTY) return false;
    }
    return false;
  }
  /* enters v in the table of level lvl: 1 if this call entered it, 0 if it was there; -1 if no slot within the probes,
     the same for every caller with this v during the level (a filled slot is never emptied during it) */
  __device__ __forceinline__ int insert(unsigned lvl, unsigned v) const
  {
    unsigned h = hash(v);
    for (int p = 0; p < GPURCM_WIN_PROBES; p++, h = (h + 1) & (wslots - 1)) {
      unsigned x = *(volatile unsigned *)&gpurcmWinDyn[slot(lvl, h)];
      if (x == GPURCM_WIN_EMPTY) x = atomicCAS(&gpurcmWinDyn[slot(lvl, h)], GPURCM_WIN_EMPTY, v);
      if (x == GPURCM_WIN_EMPTY) return 1;
      if (x == v) return 0;
    }
    return -1;
  }
  __device__ __forceinline__ void incomplete(unsigned lvl) const { atomicAnd(ok(), ~(1u << (lvl & 3u))); }
  /* enters v, which no other thread enters, in the next level's table */
  __device__ __forceinline__ void add_next(unsigned v) const
  {
    if (insert(cur + 1, v) < 0) incomplete(cur + 1);
  }
  /* the table two levels ahead emptied and marked complete, by every thread of the block during the current level
     (nobody reads or writes that table during it) */
  __device__ __forceinline__ void empty_ahead() const
  {
    for (unsigned h = threadIdx.x; h < wslots; h += blockDim.x) gpurcmWinDyn[slot(cur + 2, h)] = GPURCM_WIN_EMPTY;
    if (threadIdx.x == 0) atomicOr(ok(), 1u << ((cur + 2) & 3u));
  }
  /* whether the current level can claim in the tables (called after the barrier that ended the previous level) */
  __device__ __forceinline__ unsigned usable() const
  {
    const unsigned w = *(volatile unsigned *)ok();
    return (w >> ((cur - 1) & 3u) & 1u) & (w >> (cur & 3u) & 1u);
  }
};

/* The level numbering's functions take GPURCMWinFor<WIN> by value: without the tables an empty struct, so that their
   code (registers, spills) is the one without them */
struct GPURCMNoWin { };
template <bool WIN>
using GPURCMWinFor = typename std::conditional<WIN, GPURCMWin, GPURCMNoWin>::type;

/* Block 0 entering a narrow stretch after wide levels (or at the root, with L[0] the root): all four tables emptied,
   then the previous level L[pbeg, lbeg) and the current L[lbeg, lend) entered (a table too full for its level stays
   incomplete). w.cur: the current level's number. Every thread of the block calls it; it ends with a barrier. */
__device__ void GPURCMWinEnter(const GPURCMWin &w, const unsigned *L, unsigned pbeg, unsigned lbeg, unsigned lend)
{
  for (unsigned h = threadIdx.x; h < 4 * w.wslots; h += blockDim.x) gpurcmWinDyn[w.base + h] = GPURCM_WIN_EMPTY;
  if (threadIdx.x == 0) *w.ok() = 0xfu;
  __syncthreads();
  for (unsigned j = pbeg + threadIdx.x; j < lend; j += blockDim.x) {
    const unsigned lvl = j < lbeg ? w.cur - 1 : w.cur;
    if (w.insert(lvl, __ldcg(L + j)) < 0) w.incomplete(lvl);
  }
  __syncthreads();
}

/* Claims v for the next level: true for exactly one caller. With bits (block 0's narrow stretches: a bitmap in
   shared memory holding the previous and the current level and what the stretch has reached) the claim is a
   shared-memory atomic, and vis[v] is stored for the wide levels that may follow; with the level tables (WIN) the
   claim is an entry in the next level's table when the previous and the current level's are complete (w.use), else
   (and for a node that finds no slot) an atomicMax on vis[v], whose winner still enters the next table; else an
   atomicMax on vis[v]. */
template <bool WIN>
__device__ __forceinline__ bool GPURCMLvClaim(unsigned *vis, unsigned stamp, unsigned *bits, const GPURCMWin &w, unsigned v)
{
  if (!WIN && bits) {
    const unsigned m = 1u << (v & 31);
    if ((bits[v >> 5] & m) || (atomicOr(&bits[v >> 5], m) & m)) return false;
    vis[v] = stamp;
    return true;
  }
  if (WIN) {
    if (w.use) {
      int r;
      if (w.find(w.cur - 1, v) || w.find(w.cur, v)) return false;
      r = w.insert(w.cur + 1, v);
      if (r >= 0) {
        if (r) vis[v] = stamp;
        return r > 0;
      }
      w.incomplete(w.cur + 1); /* every claimant of v gets here: the global claim decides */
      return atomicMax(&vis[v], stamp) < stamp;
    }
    if (atomicMax(&vis[v], stamp) < stamp) {
      w.add_next(v);
      return true;
    }
    return false;
  }
  return atomicMax(&vis[v], stamp) < stamp;
}

/* Expands the nodes cur[i0 .. min(i0 + GPURCM_LV_BLOCK, i1)) (cur: shared, or L in global memory, read through L2):
   a node of small degree by its thread, the others (heavy) by the whole block, their edges spread evenly.
   Every thread of the block calls it. */
template <bool WIN>
__device__ void GPURCMLvRound(const PetscInt *ia, const PetscInt *ja, unsigned *vis, unsigned stamp, unsigned *bits, const GPURCMWin &w, GPURCMLvShared &s, const unsigned *cur, int curshared, unsigned i0, unsigned i1, unsigned *cnt, unsigned *bcnt, unsigned *out, unsigned *sout, int fit)
{
  const unsigned t = threadIdx.x, i = i0 + t;
  unsigned       v[GPURCM_LV_LIGHT], won = 0, hd = 0;
  PetscInt       k0 = 0, k1 = 0;

#pragma unroll
  for (int j = 0; j < GPURCM_LV_LIGHT; j++) v[j] = 0;
  if (!fit || i0 + (t & ~31u) < i1) { /* with fit, a warp with no node of the round skips to the barrier */
    if (i < i1) {
      const unsigned u = curshared ? cur[i] : __ldcg(cur + i);
      k0               = ia[u];
      k1               = ia[u + 1];
      if (k1 - k0 > GPURCM_LV_LIGHT) hd = (unsigned)(k1 - k0);
      else {
#pragma unroll
        for (int j = 0; j < GPURCM_LV_LIGHT; j++)
          if (k0 + j < k1) v[j] = (unsigned)ja[k0 + j];
#pragma unroll
        for (int j = 0; j < GPURCM_LV_LIGHT; j++)
          if (k0 + j < k1 && GPURCMLvClaim<WIN>(vis, stamp, bits, w, v[j])) won |= 1u << j;
      }
    }
    GPURCMLvAppend(won, v, cnt, bcnt, out, sout);
  }
  if (__syncthreads_or(hd > 0)) { /* heavy nodes: edge e of the round's heavy edges goes to thread e % block */
    unsigned off, htot;
    GPURCMLvScan(s.scan).ExclusiveSum(hd, off, htot);
    s.hoff[t] = off;
    s.hrow[t] = k0;
    __syncthreads();
    for (unsigned e0 = 0; e0 < htot; e0 += GPURCM_LV_BLOCK * GPURCM_LV_LIGHT) {
      unsigned x[GPURCM_LV_LIGHT], won2 = 0;
#pragma unroll
      for (int j = 0; j < GPURCM_LV_LIGHT; j++) {
        const unsigned e = e0 + j * GPURCM_LV_BLOCK + t;
        x[j]             = 0;
        if (e < htot) { /* the last r with hoff[r] <= e: a heavy node (positive degree) whose edges cover e */
          unsigned lo = 0, hi = GPURCM_LV_BLOCK;
          while (hi - lo > 1) {
            const unsigned mid = (lo + hi) / 2;
            if (s.hoff[mid] <= e) lo = mid;
            else hi = mid;
          }
          x[j] = (unsigned)ja[s.hrow[lo] + (e - s.hoff[lo])];
        }
      }
#pragma unroll
      for (int j = 0; j < GPURCM_LV_LIGHT; j++)
        if (e0 + j * GPURCM_LV_BLOCK + t < htot && GPURCMLvClaim<WIN>(vis, stamp, bits, w, x[j])) won2 |= 1u << j;
      GPURCMLvAppend(won2, x, cnt, bcnt, out, sout);
    }
    __syncthreads(); /* s.scan, s.hoff and s.hrow are reused by the next round */
  }
}

/* A narrow round with the bitmap and the level BFS's row copy (rows: every node's neighbours besides itself in one
   uint4, GPURCMBfsRowsKernel()): one 16-byte load a node instead of its row pointers and then its columns, and its
   four claims issued together (no heavy nodes, so no heavy-node test and its barrier). Session 69's levelcost.cu
   measured this form at 1.03 us a level of 2D 1000^2 against 1.74 us with the CSR and claims one by one (H100, one
   block). Every thread of the block calls it. */
__device__ __forceinline__ void GPURCMLvRoundRows(const uint4 *__restrict__ rows, unsigned *vis, unsigned stamp, unsigned *bits, const unsigned *cur, unsigned i0, unsigned i1, unsigned *cnt, unsigned *out, unsigned *sout)
{
  const unsigned i = i0 + threadIdx.x;
  unsigned       v[4] = {GPURCM_ELL_NONE, GPURCM_ELL_NONE, GPURCM_ELL_NONE, GPURCM_ELL_NONE}, won = 0;

  if (i < i1) {
    const uint4 r = __ldg(rows + cur[i]);
    unsigned    old[4];

    v[0] = r.x, v[1] = r.y, v[2] = r.z, v[3] = r.w;
#pragma unroll
    for (int j = 0; j < 4; j++) old[j] = v[j] != GPURCM_ELL_NONE ? atomicOr(&bits[v[j] >> 5], 1u << (v[j] & 31)) : ~0u;
#pragma unroll
    for (int j = 0; j < 4; j++)
      if (!(old[j] >> (v[j] & 31) & 1u)) {
        won |= 1u << j;
        vis[v[j]] = stamp;
      }
  }
  GPURCMLvAppend<4>(won, v, cnt, NULL, out, sout);
}

/* Block 0 only, from the state in s (current level not empty): expands levels of at most narrow nodes one after the
   other; stops when the BFS is complete or the current level is wider; hands the state over (the p* fields, installed
   at the next grid barrier). With fromL the current level is loaded from L, else it is already in s.buf[0]. With
   bits, the claims go to the bitmap: after wide levels (fromL) the previous and the current level are entered first
   (a BFS meets nothing older); so they are with the level tables (WIN), which the kernel's start set up for the root.
   rows (with bits only): the row copy, read by GPURCMLvRoundRows(). */
template <bool WIN>
__device__ void GPURCMLvNarrow(const PetscInt *ia, const PetscInt *ja, const uint4 *rows, unsigned *vis, unsigned *L, GPURCMLvCtl *c, unsigned stamp, unsigned narrow, unsigned *bits, GPURCMWin w, GPURCMLvShared &s, int fromL, int fit)
{
  const unsigned t = threadIdx.x;
  unsigned       pbeg = s.pbeg, lbeg = s.lbeg, lend = s.lend, nlvl = s.nlvl, done = 0, maxw = 0, cb = 0;

  if (lend - lbeg <= narrow) {
    if (fromL)
      for (unsigned j = t; j < lend - lbeg; j += GPURCM_LV_BLOCK) s.buf[0][j] = __ldcg(L + lbeg + j);
    if (fromL && bits)
      for (unsigned j = pbeg + t; j < lend; j += GPURCM_LV_BLOCK) {
        const unsigned v = __ldcg(L + j);
        atomicOr(&bits[v >> 5], 1u << (v & 31));
      }
    if (t < 3) s.cnt[t] = 0;
    if (WIN && fromL) {
      w.cur = nlvl - 1;
      GPURCMWinEnter(w, L, pbeg, lbeg, lend);
    }
    __syncthreads();
    for (unsigned lvl = 0;; lvl++) {
      const unsigned size = lend - lbeg;
      unsigned      *cnt  = &s.cnt[lvl % 3], nn;

#if defined(GPURCM_PROFILE)
      const long long prof00_ = clock64();
#endif
      if (t == 0) s.cnt[(lvl + 1) % 3] = 0; /* the next level's counter, last read two levels ago */
      if (WIN) {
        w.cur = nlvl - 1;
        w.use = w.usable();
        w.empty_ahead();
      }
      if (!WIN && rows)
        for (unsigned r0 = 0; r0 < size; r0 += GPURCM_LV_BLOCK) GPURCMLvRoundRows(rows, vis, stamp, bits, s.buf[cb], r0, size, cnt, L + lend, s.buf[1 - cb]);
      else
        for (unsigned r0 = 0; r0 < size; r0 += GPURCM_LV_BLOCK) GPURCMLvRound<WIN>(ia, ja, vis, stamp, bits, w, s, s.buf[cb], 1, r0, size, cnt, NULL, L + lend, s.buf[1 - cb], fit);
      __syncthreads();
      nn = *(volatile unsigned *)cnt;
#if defined(GPURCM_PROFILE)
      if (t == 0) {
        const unsigned bin = size >> 6 < 16 ? size >> 6 : 16;
        gpurcmProfBfs[0][bin] += (unsigned long long)(clock64() - prof00_);
        gpurcmProfBfs[1][bin]++;
      }
#endif
      if (!nn) {
        done = 1;
        break;
      }
      pbeg = lbeg;
      lbeg = lend;
      lend += nn;
      nlvl++;
      cb = 1 - cb;
      if (nn > maxw) maxw = nn;
      if (nn > narrow) break;
    }
  }
  if (t == 0) {
    VStore(&c->ppbeg, pbeg);
    VStore(&c->plbeg, lbeg);
    VStore(&c->plend, lend);
    VStore(&c->pnlvl, nlvl);
    VStore(&c->pdone, done);
    if (maxw > VLoad(&c->maxwidth)) VStore(&c->maxwidth, maxw); /* only block 0 writes it (here and in GPURCMLvCountBarrier()) */
  }
}

/* nbitwords > 0: block 0's narrow stretches claim in a bitmap of the n nodes in dynamic shared memory (nbitwords words);
   WIN: in the level tables of wslots slots instead (4 wslots + 1 words of dynamic shared memory). rows (not NULL with
   the bitmap only): the row copy of GPURCMBfsRowsKernel(), used unless *rowsbad (a node has more than 4 neighbours). */
template <bool WIN>
__global__ void __launch_bounds__(GPURCM_LV_BLOCK, 1) GPURCMLevelsBFSKernel(const PetscInt *ia, const PetscInt *ja, const uint4 *rows, const unsigned *rowsbad, unsigned *vis, unsigned *L, GPURCMLvCtl *c, unsigned root, unsigned stamp, unsigned narrow, unsigned nbitwords, unsigned wslots, int fit)
{
  __shared__ GPURCMLvShared s;
  extern __shared__ unsigned gpurcmLvBits[];
  const unsigned             t = threadIdx.x, lane = t & 31, nthr = gridDim.x * GPURCM_LV_BLOCK;
  unsigned                   lbeg, lend, cc, md, cnt = 0, pick = 0, lmin = ~0u;
  unsigned                  *bits = !WIN && nbitwords ? gpurcmLvBits : NULL;
  const GPURCMWin            win  = {WIN ? wslots : 0u, 0, 0, 0};
  const uint4               *rw   = bits && rows && !*rowsbad ? rows : NULL;

  if (t == 0) {
    GPURCMLvBarrierStart(c, s);
    s.bcnt = 0;
  }
  if (blockIdx.x == 0) { /* the root level; nobody else touches the state before the first barrier */
    if (bits) {
      for (unsigned w = t; w < nbitwords; w += GPURCM_LV_BLOCK) bits[w] = 0;
      __syncthreads();
      if (t == 0) bits[root >> 5] = 1u << (root & 31);
    }
    if (t == 0) {
      L[0] = root;
      (void)atomicMax(&vis[root], stamp);
      VStore(&c->mindeg, ~0u);
      VStore(&c->nmin, 0u);
      VStore(&c->pick, root);
      VStore(&c->maxwidth, 1u);
      s.buf[0][0] = root;
      s.pbeg      = 0;
      s.lbeg      = 0;
      s.lend      = 1;
      s.nlvl      = 1;
    }
    __syncthreads();
    if (WIN) GPURCMWinEnter(win, L, 0, 0, 1); /* level 0 = {root} in table 0, level -1 (table 3) empty */
    GPURCMLvNarrow<WIN>(ia, ja, rw, vis, L, c, stamp, narrow, bits, win, s, 0, fit);
  }
  GPURCMLvBarrier(c, 1, s);
  for (;;) {
    lbeg = s.lbeg;
    lend = s.lend;
    if (s.done) break; /* the same state for all blocks: all leave together */
    if (lend - lbeg <= narrow) {
      if (blockIdx.x == 0) GPURCMLvNarrow<WIN>(ia, ja, rw, vis, L, c, stamp, narrow, bits, win, s, 1, fit);
      GPURCMLvBarrier(c, 1, s);
    } else { /* wide: block b expands its contiguous share of the level, appending at c->tail (= lend here) */
      const unsigned size = lend - lbeg, per = (size + gridDim.x - 1) / gridDim.x, lo = lbeg + blockIdx.x * per, hi = lo + per < lend ? lo + per : lend;
      for (unsigned r0 = lo; r0 < hi; r0 += GPURCM_LV_BLOCK) GPURCMLvRound<false>(ia, ja, vis, stamp, NULL, GPURCMWin{0, 0, 0, 0}, s, L, 0, r0, hi, &c->tail, &s.bcnt, L, NULL, fit);
      GPURCMLvCountBarrier(c, 0, &s.bcnt, s);
    }
  }
  /* the last level [lbeg, lend): smallest min(degree, cc) (SPARSEPACK starts mindeg at cc and takes only smaller) */
  cc = lend;
  for (unsigned j = lbeg + blockIdx.x * GPURCM_LV_BLOCK + t; j < lend; j += nthr) {
    const unsigned u = __ldcg(L + j), dg = (unsigned)PetscMin(ia[u + 1] - ia[u], (PetscInt)cc);
    lmin             = dg < lmin ? dg : lmin;
  }
  lmin = __reduce_min_sync(0xffffffffu, lmin);
  if (lane == 0 && lmin != ~0u) atomicMin(&c->mindeg, lmin);
  GPURCMLvBarrier(c, 0, s);
  if (t == 0) s.mindeg = VLoad(&c->mindeg);
  __syncthreads();
  md = s.mindeg;
  for (unsigned j = lbeg + blockIdx.x * GPURCM_LV_BLOCK + t; j < lend; j += nthr) {
    const unsigned u = __ldcg(L + j), dg = (unsigned)PetscMin(ia[u + 1] - ia[u], (PetscInt)cc);
    if (dg == md) {
      cnt++;
      pick = u;
    }
  }
  if (cnt) VStore(&c->pick, pick); /* meaningful when a single node has it */
  cnt = __reduce_add_sync(0xffffffffu, cnt);
  if (lane == 0 && cnt) atomicAdd(&c->nmin, cnt);
#if defined(GPURCM_PROFILE)
  if (blockIdx.x == 0 && t == 0) GPURCMProfPrintBins("BFS (root finder)", gpurcmProfBfs);
#endif
}

/* ---------------------------------------------------------------------------------------------- level numbering */
/*
  Level-synchronous Cuthill-McKee numbering (-mat_gpurcm_cuda_number levels), the "level form" of SPARSEPACK rcm:
  level k+1 in CM order = the children of level k's nodes taken in rank order, each node's children sorted stably
  by degree (row order among equal degrees); a node's parent is its neighbour of smallest rank in level k (the first
  to meet it in rcm's FIFO), and its position in the parent's row orders equal degrees. L[] holds the CM order.
  key[v] = (rank of the parent + 1) << 32 | position of v in the parent's row; the root has key 0. Per level:
    A. claims: every node u of level k (rank i) does atomicMin(key[v], (i + 1) << 32 | j) on its neighbours v; a
       node of a level <= k keeps its smaller key (its parent's rank is smaller than any rank of level k);
    B. each node u collects its children (neighbours v with key[v] == its key for them), sorts them by (degree,
       position), and the children are written in rank order after an exclusive scan of the counts.
  Each node is numbered once in the whole ordering, so key[] (all ~0 at first) is never reset. Same narrow/wide
  scheme, barriers and state hand-over as the level BFS above. A wide level exchanges its blocks' counts (tagged
  words, no barrier) and ends in one counting grid barrier, as the nodes it writes make the next level's claims at once
  (A. for the next level without a barrier of its own); the first wide level after a narrow stretch, or after a level
  whose children fell unevenly to the blocks (hubs), makes its own claims first, behind a grid barrier.
*/
struct GPURCMNmShared {
  GPURCMLvScan::TempStorage scan;
  unsigned                  buf[2][GPURCM_LV_CAP]; /* levels of a narrow stretch */
  unsigned                  hoff[GPURCM_LV_BLOCK]; /* heavy nodes of the claims: exclusive scan of their degrees */
  PetscInt                  hrow[GPURCM_LV_BLOCK]; /* heavy nodes of the claims: start of their row */
  unsigned                  wsum[32]; /* GPURCMActiveExclusiveSum() */
  unsigned                  pbeg, lbeg, lend, nlvl, done, base, nn;
  unsigned                  gen; /* grid barriers passed (GPURCMLvBarrier(), GPURCMLvCountBarrier(); thread 0's) */
  int                       overflow; /* a claim found no free slot in the shared table */
};
static_assert(sizeof(GPURCMNmShared) <= 48 * 1024, "the level numbering's shared memory must stay static (48 KiB)");

__device__ __forceinline__ GKey GPURCMNmKey(unsigned rank, PetscInt pos)
{
  return ((GKey)(rank + 1) << 32) | (GKey)pos;
}

/* A. claims by the nodes cur[i0 .. min(i0 + GPURCM_LV_BLOCK, i1)) of ranks rankoff + i (heavy nodes by the whole
   block, their edges spread evenly). Every thread of the block calls it. */
__device__ void GPURCMNmClaimRound(const PetscInt *ia, const PetscInt *ja, GKey *key, GPURCMNmShared &s, const unsigned *cur, int curshared, unsigned i0, unsigned i1, unsigned rankoff)
{
  const unsigned t = threadIdx.x, i = i0 + t;
  unsigned       hd = 0;
  PetscInt       k0 = 0, k1 = 0;

  if (i < i1) {
    const unsigned u = curshared ? cur[i] : __ldcg(cur + i);
    k0               = ia[u];
    k1               = ia[u + 1];
    if (k1 - k0 > GPURCM_LV_LIGHT) hd = (unsigned)(k1 - k0);
    else {
      PetscInt v[GPURCM_LV_LIGHT];
#pragma unroll
      for (int j = 0; j < GPURCM_LV_LIGHT; j++) v[j] = k0 + j < k1 ? ja[k0 + j] : -1;
#pragma unroll
      for (int j = 0; j < GPURCM_LV_LIGHT; j++)
        if (v[j] >= 0) (void)atomicMin(&key[v[j]], GPURCMNmKey(rankoff + i, j));
    }
  }
  if (__syncthreads_or(hd > 0)) {
    unsigned off, htot;
    GPURCMLvScan(s.scan).ExclusiveSum(hd, off, htot);
    s.hoff[t] = off;
    s.hrow[t] = k0;
    __syncthreads();
    for (unsigned e0 = 0; e0 < htot; e0 += GPURCM_LV_BLOCK * GPURCM_LV_LIGHT) {
      PetscInt v[GPURCM_LV_LIGHT];
      GKey     kv[GPURCM_LV_LIGHT];
#pragma unroll
      for (int j = 0; j < GPURCM_LV_LIGHT; j++) {
        const unsigned e = e0 + j * GPURCM_LV_BLOCK + t;
        v[j]             = -1;
        kv[j]            = 0;
        if (e < htot) { /* the last r with hoff[r] <= e: the heavy node whose edges cover e (thread r of the round) */
          unsigned lo = 0, hi = GPURCM_LV_BLOCK;
          while (hi - lo > 1) {
            const unsigned mid = (lo + hi) / 2;
            if (s.hoff[mid] <= e) lo = mid;
            else hi = mid;
          }
          v[j]  = ja[s.hrow[lo] + (e - s.hoff[lo])];
          kv[j] = GPURCMNmKey(rankoff + i0 + lo, e - s.hoff[lo]);
        }
      }
#pragma unroll
      for (int j = 0; j < GPURCM_LV_LIGHT; j++)
        if (v[j] >= 0) (void)atomicMin(&key[v[j]], kv[j]);
    }
    __syncthreads(); /* s.scan, s.hoff and s.hrow are reused */
  }
}

/* Batcher's odd-even merge sort of 8 elements (19 comparators), as compare-exchange CE(x, y) steps; with distinct keys
   the order is the stable one */
#define GPURCM_BATCHER8(CE) \
  do { \
    CE(0, 1); \
    CE(2, 3); \
    CE(4, 5); \
    CE(6, 7); \
    CE(0, 2); \
    CE(1, 3); \
    CE(4, 6); \
    CE(5, 7); \
    CE(1, 2); \
    CE(5, 6); \
    CE(0, 4); \
    CE(1, 5); \
    CE(2, 6); \
    CE(3, 7); \
    CE(2, 4); \
    CE(3, 5); \
    CE(1, 2); \
    CE(3, 4); \
    CE(5, 6); \
  } while (0)

/* compare-exchange of the sort keys sk[] (any unsigned type) carrying the nodes v[] and their row starts a[] */
#define GPURCM_CE_KVA(x, y) \
  do { \
    if (sk[y] < sk[x]) { \
      const auto     tk = sk[x]; \
      const PetscInt tv = v[x], ta = a[x]; \
      sk[x]             = sk[y]; \
      v[x]              = v[y]; \
      a[x]              = a[y]; \
      sk[y]             = tk; \
      v[y]              = tv; \
      a[y]              = ta; \
    } \
  } while (0)

/* B. node u of rank `rank`: its children in CM order. A row of at most GPURCM_LV_LIGHT entries is handled in
   registers (sorting network on (degree, position)) and the children are returned in cv[]; a longer row puts its
   children in buf[] (its segment of the scratch array), sorted unless GPURCMLongList(): then the caller has the block
   sort them (GPURCMBlockSortLong()) before using them. Returns the number of children. */
__device__ PetscInt GPURCMNmCollect(const PetscInt *ia, const PetscInt *ja, const GKey *key, GKey *sortkey, unsigned u, unsigned rank, PetscInt *buf, PetscInt *cv)
{
  const PetscInt k0 = ia[u], k1 = ia[u + 1];
  PetscInt       c  = 0;

  if (k1 - k0 <= GPURCM_LV_LIGHT) {
    PetscInt v[GPURCM_LV_LIGHT];
    GKey     sk[GPURCM_LV_LIGHT];
#pragma unroll
    for (int j = 0; j < GPURCM_LV_LIGHT; j++) v[j] = k0 + j < k1 ? ja[k0 + j] : -1;
#pragma unroll
    for (int j = 0; j < GPURCM_LV_LIGHT; j++) sk[j] = v[j] >= 0 ? __ldcg(key + v[j]) : 0;
#pragma unroll
    for (int j = 0; j < GPURCM_LV_LIGHT; j++) { /* sort key: degree, then position; ~0 for the non-children */
      const int child = v[j] >= 0 && sk[j] == GPURCMNmKey(rank, j);
      sk[j]           = child ? ((GKey)(ia[v[j] + 1] - ia[v[j]]) << 8) | (GKey)j : ~0ULL;
      c += child;
    }
#define GPURCM_CE(a, b) \
  do { \
    if (sk[b] < sk[a]) { \
      const GKey     tk = sk[a]; \
      const PetscInt tv = v[a]; \
      sk[a]             = sk[b]; \
      v[a]              = v[b]; \
      sk[b]             = tk; \
      v[b]              = tv; \
    } \
  } while (0)
    /* keys are distinct, so the order is the stable one */
    GPURCM_BATCHER8(GPURCM_CE);
#undef GPURCM_CE
#pragma unroll
    for (int j = 0; j < GPURCM_LV_LIGHT; j++) cv[j] = v[j];
  } else {
    for (PetscInt kk = k0; kk < k1; kk += GPURCM_LV_LIGHT) {
      PetscInt v[GPURCM_LV_LIGHT];
      GKey     kv[GPURCM_LV_LIGHT];
#pragma unroll
      for (int j = 0; j < GPURCM_LV_LIGHT; j++) v[j] = kk + j < k1 ? ja[kk + j] : -1;
#pragma unroll
      for (int j = 0; j < GPURCM_LV_LIGHT; j++) kv[j] = v[j] >= 0 ? __ldcg(key + v[j]) : 0;
#pragma unroll
      for (int j = 0; j < GPURCM_LV_LIGHT; j++)
        if (v[j] >= 0 && kv[j] == GPURCMNmKey(rank, kk + j - k0)) buf[c++] = v[j];
    }
    if (!GPURCMLongList(c, sortkey)) GPURCMSortChildren(ia, buf, c); /* else the block sorts it (GPURCMBlockSortLong()) */
  }
  return c;
}

/* Thread t's node of a narrow level (cur[t], t < size): its neighbours v[] (-1 past the row) from its row [k0, k1) of
   ja, or with ELL from the packed ELL copy, which gives their degrees dg[] too */
template <bool ELL>
__device__ __forceinline__ void GPURCMNmLoadRow(const PetscInt *ja, const unsigned *ell, unsigned ellw, const unsigned *cur, unsigned size, PetscInt k0, PetscInt k1, PetscInt *v, unsigned *dg)
{
  const unsigned t = threadIdx.x;

  if (ELL) {
    const unsigned *e = ell + (size_t)(t < size ? cur[t] : 0) * ellw;
#pragma unroll
    for (int j = 0; j < GPURCM_LV_LIGHT; j++) {
      const unsigned x = t < size && (unsigned)j < ellw ? e[j] : GPURCM_ELL_NONE;
      v[j]             = x != GPURCM_ELL_NONE ? (PetscInt)(x & GPURCM_ELL_NODE) : -1;
      dg[j]            = x >> 24;
    }
  } else {
#pragma unroll
    for (int j = 0; j < GPURCM_LV_LIGHT; j++) v[j] = t < size && k0 + j < k1 ? ja[k0 + j] : -1;
  }
}

/* Block 0's shared-memory state of the level numbering (dynamic shared memory; NULL tables: not used): a bitmap of the
   numbered nodes (all n; it holds the previous and the current level, which is all a level's claims can meet) and an
   open-addressing table of the claims of the next level (node, smallest claim), emptied after each level. A claim is
   32 bits, thread (the claimant's rank within the level, < GPURCM_LV_BLOCK) << 3 | position in its row (< 8): all
   claimants of a level share its first rank, so this orders them as the global keys do. The tables are found from
   hslots alone (a value, kept in a register or the kernel's parameters), and their addresses come from the __shared__
   array itself, so the accesses are shared-memory instructions and no pointer takes registers: with pointers in a
   struct, the compiler spilled them to local memory at 64 registers a thread, reloaded them at every access and
   reached the tables through generic loads and atomics (Nsight Compute, session 57). Session 58 (H200, one job):
   numbering of 2D 1000^2 1.14x faster, 3D meshes within 4%. */
extern __shared__ unsigned gpurcmNmDyn[]; /* the level numbering's dynamic shared memory: hkey, hnode, bits */

struct GPURCMNmTables {
  unsigned hslots; /* slots of the claim table (a power of 2); 0: no tables */

  __device__ __forceinline__ unsigned *hkey() const { return gpurcmNmDyn; }
  __device__ __forceinline__ unsigned *hnode() const { return gpurcmNmDyn + hslots; }
  __device__ __forceinline__ unsigned *bits() const { return gpurcmNmDyn + 2 * hslots; }
  __device__ __forceinline__ unsigned  hmask() const { return hslots - 1; }
  __device__ __forceinline__ unsigned  hshift() const { return 33 - (unsigned)__ffs((int)hslots); }
};

#define GPURCM_NM_EMPTY    0xffffffffu
#define GPURCM_NM_OVERFLOW 0xffffffffu
#define GPURCM_NM_PROBES   32

/* The part in a narrow level of a warp holding none of its nodes (-mat_gpurcm_cuda_fit_warps; never warp 0): the barriers
   of GPURCMNmFastLevel() (no tables) or GPURCMNmSharedLevel(), in the same order, and what they return (all three use
   the barriers that may be reached from different instructions, GPURCMBarrierAnyPC()). compute-sanitizer's synccheck
   still reports 32 barrier errors with the option on (session 58, H200), so it stays off by default: "Divergent
   thread(s) in block" for warp 0 of block 0 at one barrier of this kernel, none in the BFS kernel's (session 59, H100).
   A template on the level tables, so that each instantiation of the kernel has its own: called from both, it took the
   kernel's shared state through a generic pointer, and the kernel without the tables spilled 264/376 bytes at 64
   registers instead of 188/200 (2D 1000^2 3-4.5% slower, session 66 jobs 2-3). */
template <bool WIN>
__device__ __noinline__ unsigned GPURCMNmIdleLevel(GPURCMNmShared &s, GPURCMNmTables tb, unsigned nw, unsigned *rows)
{
  unsigned tot, heavy;

  GPURCMBarrierAnyPC(); /* the claims are final */
  if (tb.hslots && s.overflow) { /* as the working warps: empty the table with them */
    for (unsigned h = threadIdx.x; h <= tb.hmask(); h += GPURCM_LV_BLOCK) {
      tb.hnode()[h] = GPURCM_NM_EMPTY;
      tb.hkey()[h]  = ~0u;
    }
    GPURCMBarrierAnyPC();
    GPURCMBarrierAnyPC();
    return GPURCM_NM_OVERFLOW;
  }
  (void)GPURCMActiveExclusiveSum(0, nw, s.wsum, &tot);
  heavy = GPURCMBarrierAnyPCOr(0);
  *rows = tot <= GPURCM_LV_BLOCK && !heavy;
  return tot;
}

/* One narrow level of at most GPURCM_LV_BLOCK light nodes (row length <= GPURCM_LV_LIGHT), thread t handling node t
   whose row is [k0, k1): claims, __syncthreads(), children with their rows, sorting network, scan, write. The
   neighbours stay in registers between the claims and the collection, and each child's row (its degree is loaded for
   the sort anyway) is kept in s.hrow/s.hoff for the next level, so a level costs the loads of the rows' entries, of
   the claimed keys and of the children's row pointers. Returns the size of the next level; *rows says whether
   s.hrow/s.hoff now hold the rows of all its nodes (at most GPURCM_LV_BLOCK of them, all light). With ELL the rows
   come from the packed copy and the children's degrees with them (s.hrow is then not used). With the level tables
   (WIN) the children are entered in the next level's. Every thread calls it. */
template <bool ELL, bool WIN>
__device__ unsigned GPURCMNmFastLevel(const PetscInt *ia, const PetscInt *ja, const unsigned *ell, unsigned ellw, GKey *key, unsigned *L, GPURCMNmShared &s, GPURCMWinFor<WIN> w, unsigned cb, unsigned lbeg, unsigned lend, unsigned size, PetscInt k0, PetscInt k1, unsigned *rows, int fit)
{
  const unsigned t = threadIdx.x, nw = fit ? (size + 31) / 32 : GPURCM_LV_BLOCK / 32;
  PetscInt       v[GPURCM_LV_LIGHT], a[GPURCM_LV_LIGHT];
  unsigned       dg[ELL ? GPURCM_LV_LIGHT : 1];
  GKey           sk[GPURCM_LV_LIGHT];
  unsigned       cnt = 0, off, tot, heavy = 0;

  if (t >> 5 >= nw) return GPURCMNmIdleLevel<WIN>(s, GPURCMNmTables{0}, nw, rows);
  GPURCMNmLoadRow<ELL>(ja, ell, ellw, s.buf[cb], size, k0, k1, v, dg);
#pragma unroll
  for (int j = 0; j < GPURCM_LV_LIGHT; j++)
    if (v[j] >= 0) (void)atomicMin(&key[v[j]], GPURCMNmKey(lbeg + t, j));
  GPURCMBarrierAnyPC(); /* the claims are final */
#pragma unroll
  for (int j = 0; j < GPURCM_LV_LIGHT; j++) sk[j] = v[j] >= 0 ? __ldcg(key + v[j]) : 0;
#pragma unroll
  for (int j = 0; j < GPURCM_LV_LIGHT; j++) { /* sort key: degree, then position; ~0 for the non-children */
    const int child = v[j] >= 0 && sk[j] == GPURCMNmKey(lbeg + t, j);
    a[j]            = child && !ELL ? ia[v[j]] : 0;
    sk[j]           = child ? ((GKey)(ELL ? (PetscInt)dg[j] : ia[v[j] + 1] - a[j]) << 8) | (GKey)j : ~0ULL;
    cnt += child;
  }
  GPURCM_BATCHER8(GPURCM_CE_KVA);
  off = GPURCMActiveExclusiveSum(cnt, nw, s.wsum, &tot);
#pragma unroll
  for (int q = 0; q < GPURCM_LV_LIGHT; q++) {
    if ((unsigned)q < cnt) {
      const unsigned p = off + q, len = (unsigned)(sk[q] >> 8);
      L[lend + p] = (unsigned)v[q];
      if constexpr (WIN) w.add_next((unsigned)v[q]);
      if (p < GPURCM_LV_CAP) s.buf[1 - cb][p] = (unsigned)v[q];
      if (p < GPURCM_LV_BLOCK) {
        s.hrow[p] = a[q];
        s.hoff[p] = len;
      }
      if (len > GPURCM_LV_LIGHT) heavy = 1;
    }
  }
  heavy = GPURCMBarrierAnyPCOr(heavy); /* also: s.scan, s.buf, s.hrow and s.hoff are complete */
  *rows = tot <= GPURCM_LV_BLOCK && !heavy;
  return tot;
}

/* As GPURCMNmFastLevel(), with the claims in the shared table instead of global memory: numbered neighbours are
   skipped by the bitmap (WIN: found in the level tables of the previous or the current level), the others claimed by
   an atomicMin in their slot; the children are those whose slot holds
   the claimant's key. A level then costs the loads of the rows' entries and of the children's row pointers. Each
   child's key is stored in key[] as well (wide levels may follow). Returns GPURCM_NM_OVERFLOW, with no effect, when a
   claim finds no slot within GPURCM_NM_PROBES probes (the caller numbers the level in global memory). */
#if defined(GPURCM_PROFILE)
/* developer diagnostic (build with -DGPURCM_PROFILE): thread 0's clock between the steps of the shared-table levels */
__device__ unsigned long long gpurcmProf[9];
  #define GPURCM_PROF_MARK(k) \
    do { \
      if (threadIdx.x == 0) { \
        const long long now_ = clock64(); \
        gpurcmProf[k] += (unsigned long long)(now_ - prof0_); \
        prof0_ = now_; \
      } \
    } while (0)
#else
  #define GPURCM_PROF_MARK(k) \
    do { \
    } while (0)
#endif

/* whether v is numbered: in the bitmap, or (WIN) in the previous or the current level's table */
template <bool WIN>
__device__ __forceinline__ bool GPURCMNmNumbered(GPURCMNmTables tb, const GPURCMWinFor<WIN> &w, unsigned v)
{
  if constexpr (WIN) return w.find(w.cur - 1, v) || w.find(w.cur, v);
  else return tb.bits()[v >> 5] & (1u << (v & 31));
}

template <bool ELL, bool WIN>
__device__ unsigned GPURCMNmSharedLevel(const PetscInt *ia, const PetscInt *ja, const unsigned *ell, unsigned ellw, GKey *key, unsigned *L, GPURCMNmShared &s, GPURCMNmTables tb, GPURCMWinFor<WIN> w, unsigned cb, unsigned lbeg, unsigned lend, unsigned size, PetscInt k0, PetscInt k1, unsigned *rows, int fit)
{
  const unsigned t = threadIdx.x, nw = fit ? (size + 31) / 32 : GPURCM_LV_BLOCK / 32;
#if defined(GPURCM_PROFILE)
  long long prof0_ = clock64(), prof00_ = prof0_;
#endif
  PetscInt       v[GPURCM_LV_LIGHT], a[GPURCM_LV_LIGHT];
  unsigned       dg[ELL ? GPURCM_LV_LIGHT : 1];
  unsigned       slot[GPURCM_LV_LIGHT], own = 0, cnt = 0, off, tot, heavy = 0;
  unsigned       sk[GPURCM_LV_LIGHT]; /* degree << 8 | position: 32 bits suffice, the tables exist only for n < 2^24 */

  if (t >> 5 >= nw) return GPURCMNmIdleLevel<WIN>(s, tb, nw, rows);
  GPURCMNmLoadRow<ELL>(ja, ell, ellw, s.buf[cb], size, k0, k1, v, dg);
#pragma unroll
  for (int j = 0; j < GPURCM_LV_LIGHT; j++) {
    slot[j] = GPURCM_NM_EMPTY;
    if (v[j] >= 0 && !GPURCMNmNumbered<WIN>(tb, w, (unsigned)v[j])) { /* not numbered: claim it */
      unsigned h = ((unsigned)v[j] * 0x9E3779B1u) >> tb.hshift();
      for (int p = 0; p < GPURCM_NM_PROBES; p++, h = (h + 1) & tb.hmask()) {
        const unsigned cur = atomicCAS(&tb.hnode()[h], GPURCM_NM_EMPTY, (unsigned)v[j]);
        if (cur == GPURCM_NM_EMPTY || cur == (unsigned)v[j]) {
          (void)atomicMin(&tb.hkey()[h], t << 3 | (unsigned)j);
          slot[j] = h;
          if (cur == GPURCM_NM_EMPTY) own |= 1u << j; /* this thread empties the slot after the level */
          break;
        }
      }
      if (slot[j] == GPURCM_NM_EMPTY) s.overflow = 1;
    }
  }
  GPURCM_PROF_MARK(0);
  GPURCMBarrierAnyPC(); /* the claims are final */
  GPURCM_PROF_MARK(1);
  if (s.overflow) { /* undo: empty the whole table; the caller numbers this level in global memory */
    for (unsigned h = t; h <= tb.hmask(); h += GPURCM_LV_BLOCK) {
      tb.hnode()[h] = GPURCM_NM_EMPTY;
      tb.hkey()[h]  = ~0u;
    }
    GPURCMBarrierAnyPC();
    if (t == 0) s.overflow = 0;
    GPURCMBarrierAnyPC();
    return GPURCM_NM_OVERFLOW;
  }
#pragma unroll
  for (int j = 0; j < GPURCM_LV_LIGHT; j++) { /* sort key: degree, then position; ~0 for the non-children */
    const int child = slot[j] != GPURCM_NM_EMPTY && tb.hkey()[slot[j]] == (t << 3 | (unsigned)j);
    a[j]            = child && !ELL ? ia[v[j]] : 0;
    sk[j]           = child ? (ELL ? dg[j] : (unsigned)(ia[v[j] + 1] - a[j])) << 8 | (unsigned)j : ~0u;
    cnt += child;
  }
  GPURCM_PROF_MARK(2);
  if (__any_sync(0xffffffffu, cnt > 1)) { /* a warp whose nodes have at most one child each only moves it to the front */
    GPURCM_BATCHER8(GPURCM_CE_KVA);
  } else {
#pragma unroll
    for (int q = GPURCM_LV_LIGHT - 1; q > 0; q--)
      if (sk[q] != ~0u) {
        sk[0] = sk[q];
        v[0]  = v[q];
        a[0]  = a[q];
      }
  }
  GPURCM_PROF_MARK(3);
  off = GPURCMActiveExclusiveSum(cnt, nw, s.wsum, &tot); /* its barrier: every thread has read the table */
  GPURCM_PROF_MARK(4);
#pragma unroll
  for (int j = 0; j < GPURCM_LV_LIGHT; j++)
    if (own >> j & 1u) {
      tb.hnode()[slot[j]] = GPURCM_NM_EMPTY;
      tb.hkey()[slot[j]]  = ~0u;
    }
#pragma unroll
  for (int q = 0; q < GPURCM_LV_LIGHT; q++) {
    if ((unsigned)q < cnt) {
      const unsigned p = off + q, len = (unsigned)(sk[q] >> 8), x = (unsigned)v[q];
      L[lend + p] = x;
      key[x]      = GPURCMNmKey(lbeg + t, (PetscInt)(sk[q] & 0xff));
      if constexpr (WIN) w.add_next(x);
      else atomicOr(&tb.bits()[x >> 5], 1u << (x & 31));
      if (p < GPURCM_LV_CAP) s.buf[1 - cb][p] = x;
      if (p < GPURCM_LV_BLOCK) {
        s.hrow[p] = a[q];
        s.hoff[p] = len;
      }
      if (len > GPURCM_LV_LIGHT) heavy = 1;
    }
  }
  GPURCM_PROF_MARK(5);
  heavy = GPURCMBarrierAnyPCOr(heavy); /* also: the table is empty again, s.buf, s.hrow, s.hoff and the bitmap are complete */
  GPURCM_PROF_MARK(6);
#if defined(GPURCM_PROFILE)
  if (t == 0) {
    const unsigned bin = size >> 6 < 16 ? size >> 6 : 16;
    gpurcmProf[8]++;
    gpurcmProfNm[0][bin] += (unsigned long long)(clock64() - prof00_);
    gpurcmProfNm[1][bin]++;
  }
#endif
  *rows = tot <= GPURCM_LV_BLOCK && !heavy;
  return tot;
}

/* Block 0 only: numbers levels of at most narrow nodes one after the other (claims, __syncthreads(), collection,
   scan, write); stops when the numbering is complete or a level is wider; hands the state over (the p* fields) */
template <bool WIN>
__device__ void GPURCMNmNarrow(const PetscInt *ia, const PetscInt *ja, const unsigned *ell, unsigned ellw, GKey *key, PetscInt *scratch, GKey *sortkey, unsigned *L, GPURCMLvCtl *c, unsigned narrow, GPURCMNmTables tb, GPURCMWinFor<WIN> w, GPURCMNmShared &s, int fromL, int fit)
{
  const unsigned t = threadIdx.x;
  unsigned       pbeg = s.pbeg, lbeg = s.lbeg, lend = s.lend, nlvl = s.nlvl, done = 0, cb = 0, rows = 0;

  if (lend - lbeg <= narrow) {
    if (fromL)
      for (unsigned j = t; j < lend - lbeg; j += GPURCM_LV_BLOCK) s.buf[0][j] = __ldcg(L + lbeg + j);
    if (!WIN && fromL && tb.hslots) /* after wide levels: the previous and the current level into the bitmap */
      for (unsigned j = pbeg + t; j < lend; j += GPURCM_LV_BLOCK) {
        const unsigned x = __ldcg(L + j);
        atomicOr(&tb.bits()[x >> 5], 1u << (x & 31));
      }
    if constexpr (WIN)
      if (fromL) { /* or into the level tables */
        w.cur = nlvl - 1;
        GPURCMWinEnter(w, L, pbeg, lbeg, lend);
      }
    __syncthreads();
    for (;;) {
      const unsigned size = lend - lbeg;
      unsigned       nn   = 0; /* children written so far (the same in every thread) */
      int            fast = 0, shared = tb.hslots > 0;
      PetscInt       k0 = 0, k1 = 0;

      if constexpr (WIN) { /* the shared claim table needs the previous and the current level's tables complete */
        w.cur  = nlvl - 1;
        w.use  = w.usable();
        shared = w.use;
        w.empty_ahead();
      }

      if (size <= GPURCM_LV_BLOCK && ell) fast = 1; /* every row light, read from the ELL copy */
      else if (size <= GPURCM_LV_BLOCK) { /* one node per thread: the fast form if all its nodes are light */
        if (t < size) {
          if (rows) {
            k0 = s.hrow[t];
            k1 = k0 + s.hoff[t];
          } else {
            const unsigned u = s.buf[cb][t];
            k0               = ia[u];
            k1               = ia[u + 1];
          }
        }
        fast = rows || !__syncthreads_or(t < size && k1 - k0 > GPURCM_LV_LIGHT); /* rows is the same in all threads */
      }
      if (fast) {
        if (ell) nn = shared ? GPURCMNmSharedLevel<true, WIN>(ia, ja, ell, ellw, key, L, s, tb, w, cb, lbeg, lend, size, k0, k1, &rows, fit) : GPURCMNmFastLevel<true, WIN>(ia, ja, ell, ellw, key, L, s, w, cb, lbeg, lend, size, k0, k1, &rows, fit);
        else nn = shared ? GPURCMNmSharedLevel<false, WIN>(ia, ja, NULL, 0, key, L, s, tb, w, cb, lbeg, lend, size, k0, k1, &rows, fit) : GPURCMNmFastLevel<false, WIN>(ia, ja, NULL, 0, key, L, s, w, cb, lbeg, lend, size, k0, k1, &rows, fit);
        if (nn != GPURCM_NM_OVERFLOW) {
          if (!nn) {
            done = 1;
            break;
          }
          pbeg = lbeg;
          lbeg = lend;
          lend += nn;
          nlvl++;
          cb = 1 - cb;
          if (nn > narrow) break;
          continue;
        }
        nn = 0; /* the shared table overflowed: this level in global memory */
      }
      rows = 0;
      for (unsigned r0 = 0; r0 < size; r0 += GPURCM_LV_BLOCK) GPURCMNmClaimRound(ia, ja, key, s, s.buf[cb], 1, r0, size, lbeg);
      __syncthreads(); /* the claims are final */
      for (unsigned r0 = 0; r0 < size; r0 += GPURCM_LV_BLOCK) {
        const unsigned i = r0 + t;
        PetscInt       cnt = 0, cv[GPURCM_LV_LIGHT], *buf = NULL;
        unsigned       off, tot, u = 0;

        if (i < size) {
          u   = s.buf[cb][i];
          buf = scratch + ia[u];
          cnt = GPURCMNmCollect(ia, ja, key, sortkey, u, lbeg + i, buf, cv);
        }
        GPURCMBlockSortLong(ia, sortkey, buf, cnt, GPURCMLongList(cnt, sortkey) ? sortkey + 2 * ia[u] : NULL);
        GPURCMLvScan(s.scan).ExclusiveSum((unsigned)cnt, off, tot);
        if (cnt) {
          const unsigned p0    = nn + off;
          const int      inreg = ia[u + 1] - ia[u] <= GPURCM_LV_LIGHT;
          if (inreg) {
#pragma unroll
            for (int q = 0; q < GPURCM_LV_LIGHT; q++) {
              if (q < cnt) {
                L[lend + p0 + q] = (unsigned)cv[q];
                if (p0 + q < GPURCM_LV_CAP) s.buf[1 - cb][p0 + q] = (unsigned)cv[q];
                if constexpr (WIN) w.add_next((unsigned)cv[q]);
                else if (tb.hslots) atomicOr(&tb.bits()[cv[q] >> 5], 1u << (cv[q] & 31));
              }
            }
          } else {
            for (PetscInt q = 0; q < cnt; q++) {
              L[lend + p0 + q] = (unsigned)buf[q];
              if (p0 + q < GPURCM_LV_CAP) s.buf[1 - cb][p0 + q] = (unsigned)buf[q];
              if constexpr (WIN) w.add_next((unsigned)buf[q]);
              else if (tb.hslots) atomicOr(&tb.bits()[buf[q] >> 5], 1u << (buf[q] & 31));
            }
          }
        }
        nn += tot;
        __syncthreads(); /* s.scan is reused */
      }
      if (!nn) {
        done = 1;
        break;
      }
      pbeg = lbeg;
      lbeg = lend;
      lend += nn;
      nlvl++;
      cb = 1 - cb;
      if (nn > narrow) break;
    }
  }
  if (t == 0) {
    VStore(&c->ppbeg, pbeg);
    VStore(&c->plbeg, lbeg);
    VStore(&c->plend, lend);
    VStore(&c->pnlvl, nlvl);
    VStore(&c->pdone, done);
  }
}

/* GPURCMNmNarrow() with the level tables, out of line: inlined in the kernel its level loop spilled 344/1012 bytes
   (stores/loads) at 64 registers; out of line 40/24 here and 60/40 in the kernel (session 66 job 3 measured an earlier
   out-of-line form). Without the tables it stays inlined, as before them. */
__device__ __noinline__ void GPURCMNmNarrowTables(const PetscInt *ia, const PetscInt *ja, const unsigned *ell, unsigned ellw, GKey *key, PetscInt *scratch, GKey *sortkey, unsigned *L, GPURCMLvCtl *c, unsigned narrow, GPURCMNmTables tb, GPURCMWin w, GPURCMNmShared &s, int fromL, int fit)
{
  GPURCMNmNarrow<true>(ia, ja, ell, ellw, key, scratch, sortkey, L, c, narrow, tb, w, s, fromL, fit);
}

/* The CM order of the component of root into L[0, cc); poff/pcnt (n entries) and bsum (gridDim.x entries) are work arrays of the wide levels */
/* hslots > 0 (a power of 2): block 0's narrow levels claim in shared tables (dynamic shared memory: hslots claims, hslots
   nodes, then the bitmap of nbitwords words, or with WIN the level tables of wslots slots, 4 wslots + 1 words) */
template <bool WIN>
__global__ void __launch_bounds__(GPURCM_LV_BLOCK, 1) GPURCMLevelsNumberKernel(const PetscInt *ia, const PetscInt *ja, const unsigned *ell, unsigned ellw, GKey *key, PetscInt *scratch, GKey *sortkey, unsigned *L, unsigned *poff, unsigned *pcnt, unsigned long long *bsum, GPURCMLvCtl *c, unsigned root, unsigned narrow, unsigned hslots, unsigned nbitwords, unsigned wslots, int fit)
{
  __shared__ GPURCMNmShared s;
  const unsigned             t = threadIdx.x, b = blockIdx.x;
  unsigned                   lbeg, lend;
  const GPURCMNmTables       tb  = {hslots};
  GPURCMWinFor<WIN>          win{};

  if (t == 0) GPURCMLvBarrierStart(c, s);
  if (b == 0) {
    if (hslots) {
      for (unsigned h = t; h < hslots; h += GPURCM_LV_BLOCK) {
        tb.hkey()[h]  = ~0u;
        tb.hnode()[h] = GPURCM_NM_EMPTY;
      }
      for (unsigned w = t; w < nbitwords; w += GPURCM_LV_BLOCK) tb.bits()[w] = 0;
      __syncthreads();
      if (t == 0 && !WIN) tb.bits()[root >> 5] = 1u << (root & 31);
    }
    if (t == 0) {
      L[0]      = root;
      key[root] = 0;
      s.overflow  = 0;
      s.buf[0][0] = root;
      s.pbeg      = 0;
      s.lbeg      = 0;
      s.lend      = 1;
      s.nlvl      = 1;
    }
    __syncthreads();
    if constexpr (WIN) {
      win = GPURCMWin{wslots, 2 * hslots, 0, 0};
      GPURCMWinEnter(win, L, 0, 0, 1); /* level 0 = {root} in table 0, level -1 (table 3) empty */
      GPURCMNmNarrowTables(ia, ja, ell, ellw, key, scratch, sortkey, L, c, narrow, tb, win, s, 0, fit);
    } else GPURCMNmNarrow<false>(ia, ja, ell, ellw, key, scratch, sortkey, L, c, narrow, tb, win, s, 0, fit);
  }
  GPURCMLvBarrier(c, 1, s);
  for (int claimed = 0;;) { /* claimed: the level's claims were made when it was written (the same in all blocks) */
    lbeg = s.lbeg;
    lend = s.lend;
    if (s.done) break; /* the same state for all blocks: all leave together */
    if (lend - lbeg <= narrow) {
      if (b == 0) {
        if constexpr (WIN) GPURCMNmNarrowTables(ia, ja, ell, ellw, key, scratch, sortkey, L, c, narrow, tb, win, s, 1, fit);
        else GPURCMNmNarrow<false>(ia, ja, ell, ellw, key, scratch, sortkey, L, c, narrow, tb, win, s, 1, fit);
      }
      claimed = 0;
      GPURCMLvBarrier(c, 1, s);
    } else { /* wide: block b handles its contiguous share [lo, hi) of the level (ranks = positions in L) */
      const unsigned size = lend - lbeg, per = (size + gridDim.x - 1) / gridDim.x, lo = lbeg + b * per, hi = lo + per < lend ? lo + per : lend;
      unsigned       carry = 0;
      int            claimnow;

      if (!claimed) { /* after a narrow stretch, or a level whose children fell unevenly to the blocks */
        for (unsigned r0 = lo; r0 < hi; r0 += GPURCM_LV_BLOCK) GPURCMNmClaimRound(ia, ja, key, s, L, 0, r0, hi, 0);
        GPURCMLvBarrier(c, 0, s); /* the claims are final */
      }
      for (unsigned r0 = lo; r0 < hi; r0 += GPURCM_LV_BLOCK) {
        const unsigned i = r0 + t;
        PetscInt       cnt = 0, cv[GPURCM_LV_LIGHT], *buf = NULL;
        GKey          *tmp = NULL;
        unsigned       off, tot;

        if (i < hi) {
          const unsigned u = __ldcg(L + i);
          buf              = scratch + ia[u];
          cnt              = GPURCMNmCollect(ia, ja, key, sortkey, u, i, buf, cv);
          if (ia[u + 1] - ia[u] <= GPURCM_LV_LIGHT)
#pragma unroll
            for (int q = 0; q < GPURCM_LV_LIGHT; q++)
              if (q < cnt) buf[q] = cv[q];
          pcnt[i] = (unsigned)cnt;
          if (GPURCMLongList(cnt, sortkey)) tmp = sortkey + 2 * ia[u];
        }
        GPURCMBlockSortLong(ia, sortkey, buf, cnt, tmp);
        GPURCMLvScan(s.scan).ExclusiveSum((unsigned)cnt, off, tot);
        if (i < hi) poff[i] = carry + off;
        carry += tot;
        __syncthreads(); /* s.scan is reused */
      }
      {
        const unsigned x = GPURCMGatherCounts(bsum, carry, s.gen), R = GPURCM_LV_BLOCK;
        unsigned       pre, all;
        GPURCMLvScan(s.scan).ExclusiveSum(x, pre, all);
        if (t == b) s.base = pre; /* b < gridDim.x <= GPURCM_LV_BLOCK */
        if (t == 0) s.nn = all;
        /* the next level's claims as it is written only where no block writes more rounds of nodes than an even share
           of that level would take (a hub's children all fall to its block: then the next level claims by shares) */
        claimnow = !__syncthreads_or((x + R - 1) / R > ((all + gridDim.x - 1) / gridDim.x + R - 1) / R);
      }
      for (unsigned r0 = lo; r0 < hi; r0 += GPURCM_LV_BLOCK) {
        const unsigned i = r0 + t;
        if (i < hi) {
          const unsigned  u = __ldcg(L + i), cnt = pcnt[i], p0 = lend + s.base + poff[i];
          const PetscInt *buf = scratch + ia[u];
          for (unsigned q = 0; q < cnt; q++) L[p0 + q] = (unsigned)buf[q];
        }
      }
      /* The next level's claims by the nodes just written, with their ranks, which saves the next level a grid barrier
         between its claims and its collection. They only lower keys of the level after it: every other neighbour
         already holds a smaller key (its parent's rank is below any rank of the next level) */
      if (claimnow) {
        const unsigned w0 = lend + s.base, w1 = w0 + carry;

        __syncthreads(); /* the block's writes to L are seen by its threads */
        for (unsigned r0 = w0; r0 < w1; r0 += GPURCM_LV_BLOCK) GPURCMNmClaimRound(ia, ja, key, s, L, 0, r0, w1, 0);
      }
      claimed = claimnow;
      GPURCMLvCountBarrier(c, carry, NULL, s); /* the blocks' counts sum to s.nn */
    }
  }
#if defined(GPURCM_PROFILE)
  if (b == 0 && t == 0 && gpurcmProf[8]) {
    printf("GPURCM_PROFILE shared levels %llu, cycles per level: claims %.0f barrier %.0f children %.0f sort %.0f scan %.0f write %.0f end %.0f\n", gpurcmProf[8], (double)gpurcmProf[0] / gpurcmProf[8], (double)gpurcmProf[1] / gpurcmProf[8], (double)gpurcmProf[2] / gpurcmProf[8], (double)gpurcmProf[3] / gpurcmProf[8], (double)gpurcmProf[4] / gpurcmProf[8], (double)gpurcmProf[5] / gpurcmProf[8], (double)gpurcmProf[6] / gpurcmProf[8]);
    for (int q = 0; q < 9; q++) gpurcmProf[q] = 0;
  }
  if (b == 0 && t == 0) GPURCMProfPrintBins("numbering (shared tables)", gpurcmProfNm);
#endif
}

/* The packed ELL copy of a graph whose rows have at most w <= GPURCM_LV_LIGHT entries (n < 2^24 - 1): the numbering's
   narrow levels read a node's row from it at (u * w), and each child's degree with the child, where the children's
   row pointers were loaded for their degrees. (The level BFS read it too in session 56's job 3: its pass on 2D 1000^2
   took 7.4 instead of 5.7 ms, so it reads the CSR.) */
__global__ void GPURCMEllKernel(PetscInt n, const PetscInt *ia, const PetscInt *ja, unsigned w, unsigned *ell)
{
  for (PetscInt u = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; u < n; u += (PetscInt)gridDim.x * blockDim.x) {
    const PetscInt k0 = ia[u], len = ia[u + 1] - k0;

    for (unsigned j = 0; j < w; j++) {
      unsigned x = GPURCM_ELL_NONE;
      if ((PetscInt)j < len) {
        const PetscInt v = ja[k0 + j];
        x                = (unsigned)v | (unsigned)(ia[v + 1] - ia[v]) << 24;
      }
      ell[(size_t)u * w + j] = x;
    }
  }
}

/* The level BFS's row copy: node u's neighbours besides itself in rows[u] (GPURCM_ELL_NONE past the end), for graphs
   whose nodes have at most 4 (2D 5-point meshes, with or without their diagonal); *bad is set if one has more. A BFS
   never claims the node it expands, so a self-loop can be left out. */
__global__ void GPURCMBfsRowsKernel(PetscInt n, const PetscInt *ia, const PetscInt *ja, uint4 *rows, unsigned *bad)
{
  for (PetscInt u = blockIdx.x * (PetscInt)blockDim.x + threadIdx.x; u < n; u += (PetscInt)gridDim.x * blockDim.x) {
    unsigned x[4] = {GPURCM_ELL_NONE, GPURCM_ELL_NONE, GPURCM_ELL_NONE, GPURCM_ELL_NONE}, k = 0;

    for (PetscInt e = ia[u]; e < ia[u + 1]; e++) {
      const PetscInt v = ja[e];
      if (v == u) continue;
      if (k == 4) {
        *bad = 1;
        break;
      }
      x[k++] = (unsigned)v;
    }
    rows[u] = make_uint4(x[0], x[1], x[2], x[3]);
  }
}

/* perm[cc - 1 - k] = L[k]: the reversed numbering into the component's segment */
__global__ void GPURCMLevelsReverseKernel(PetscInt cc, const unsigned *L, PetscInt *perm)
{
  for (PetscInt k = blockIdx.x * blockDim.x + threadIdx.x; k < cc; k += gridDim.x * blockDim.x) perm[cc - 1 - k] = (PetscInt)L[k];
}

/* ---------------------------------------------------------------------------------------------- components */
__device__ __forceinline__ PetscInt FindRoot(PetscInt *parent, PetscInt v)
{
  PetscInt p = VLoad(&parent[v]);
  while (p != v) {
    v = p;
    p = VLoad(&parent[v]);
  }
  return v;
}

/* Hooks the components of u and v: the larger root below the smaller one */
__device__ __forceinline__ void GPURCMHook(PetscInt *parent, PetscInt u, PetscInt v, GPURCMCtl *ctl)
{
  PetscInt ru = FindRoot(parent, u), rv = FindRoot(parent, v);
  while (ru != rv) {
    const PetscInt hi = ru > rv ? ru : rv, lo = ru > rv ? rv : ru;
#if defined(PETSC_USE_64BIT_INDICES)
    const PetscInt old = (PetscInt)atomicCAS((unsigned long long *)&parent[hi], (unsigned long long)hi, (unsigned long long)lo);
#else
    const PetscInt old = atomicCAS(&parent[hi], hi, lo);
#endif
    if (old == hi) {
      ctl->changed = 1;
      break;
    }
    ru = FindRoot(parent, hi);
    rv = FindRoot(parent, lo);
  }
}

/* A thread hooks the edges of its node; a row longer than GPURCM_HOOK_LONG is left to GPURCMHookLongKernel() (one
   thread would hold up the pass: a hub of a power-law graph took 120 ms, session 49) */
__global__ void GPURCMHookKernel(PetscInt n, const PetscInt *ia, const PetscInt *ja, PetscInt *parent, GPURCMCtl *ctl)
{
  for (PetscInt u = blockIdx.x * blockDim.x + threadIdx.x; u < n; u += gridDim.x * blockDim.x) {
    const PetscInt k1 = ia[u + 1];
    if (k1 - ia[u] > GPURCM_HOOK_LONG) continue;
    for (PetscInt k = ia[u]; k < k1; k++) GPURCMHook(parent, u, ja[k], ctl);
  }
}

/* The nodes whose rows are longer than GPURCM_HOOK_LONG: list[0, *nlist) */
__global__ void GPURCMLongRowsKernel(PetscInt n, const PetscInt *ia, PetscInt *list, unsigned long long *nlist)
{
  for (PetscInt u = blockIdx.x * blockDim.x + threadIdx.x; u < n; u += gridDim.x * blockDim.x)
    if (ia[u + 1] - ia[u] > GPURCM_HOOK_LONG) list[atomicAdd(nlist, 1ULL)] = u;
}

/* A block hooks the edges of each long row, its threads spread along the row */
__global__ void GPURCMHookLongKernel(const PetscInt *ia, const PetscInt *ja, const PetscInt *list, const unsigned long long *nlist, PetscInt *parent, GPURCMCtl *ctl)
{
  const unsigned long long nl = *nlist;
  for (unsigned long long h = blockIdx.x; h < nl; h += gridDim.x) {
    const PetscInt u = list[h], k1 = ia[u + 1];
    for (PetscInt k = ia[u] + threadIdx.x; k < k1; k += blockDim.x) GPURCMHook(parent, u, ja[k], ctl);
  }
}

__global__ void GPURCMCompressKernel(PetscInt n, PetscInt *parent, PetscInt *size)
{
  for (PetscInt v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
    const PetscInt r = FindRoot(parent, v);
    parent[v]        = r;
    if (size) AtomicAddIdx(&size[r], 1);
  }
}

/* one thread per small component: serial SPARSEPACK fnroot + rcm into its segment; large ones are listed */
__device__ void SerialRootls(PetscInt root, const PetscInt *ia, const PetscInt *ja, int *mask, PetscInt *ls, PetscInt *nlvl, PetscInt *laststart, PetscInt *ccsize)
{
  PetscInt nl = 0, lvlend = 0, cc = 1, lbegin = 0;
  mask[root] = 0;
  ls[0]      = root;
  do {
    lbegin = lvlend;
    lvlend = cc;
    nl++;
    for (PetscInt i = lbegin; i < lvlend; i++) {
      const PetscInt node = ls[i];
      for (PetscInt j = ia[node]; j < ia[node + 1]; j++) {
        const PetscInt nbr = ja[j];
        if (!mask[nbr]) continue;
        ls[cc++]  = nbr;
        mask[nbr] = 0;
      }
    }
  } while (cc > lvlend);
  for (PetscInt i = 0; i < cc; i++) mask[ls[i]] = 1;
  *nlvl      = nl;
  *laststart = lbegin;
  *ccsize    = cc;
}

__global__ void GPURCMSmallComponentsKernel(PetscInt n, const PetscInt *ia, const PetscInt *ja, const PetscInt *parent, const PetscInt *size, const PetscInt *offset, int *mask, PetscInt *ls, PetscInt *perm, PetscInt *large, PetscInt *nlarge)
{
  for (PetscInt v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
    if (parent[v] != v) continue;
    const PetscInt cc = size[v], off = offset[v];
    if (cc > GPURCM_CUDA_SMALL) {
      large[AtomicAddIdx(nlarge, 1)] = v;
      continue;
    }
    PetscInt *lq = ls + off, *pm = perm + off, root = v, nlvl, last, c2, nun;
    SerialRootls(root, ia, ja, mask, lq, &nlvl, &last, &c2);
    if (!(nlvl == 1 || nlvl == cc)) {
      for (;;) {
        PetscInt mindeg = cc;
        root            = lq[last];
        for (PetscInt j = last; j < cc; j++) {
          const PetscInt node = lq[j], dg = RowLen(ia, node);
          if (dg < mindeg) {
            root   = node;
            mindeg = dg;
          }
        }
        SerialRootls(root, ia, ja, mask, lq, &nun, &last, &c2);
        if (nun <= nlvl) break;
        nlvl = nun;
        if (nlvl >= cc) break;
      }
    }
    /* Cuthill-McKee from root, then reversal */
    PetscInt tail = 1;
    pm[0]      = root;
    mask[root] = 0;
    for (PetscInt i = 0; i < tail; i++) {
      const PetscInt node = pm[i], fnbr = tail;
      for (PetscInt j = ia[node]; j < ia[node + 1]; j++) {
        const PetscInt nbr = ja[j];
        if (!mask[nbr]) continue;
        mask[nbr]  = 0;
        pm[tail++] = nbr;
      }
      for (PetscInt k = fnbr + 1; k < tail; k++) {
        const PetscInt w = pm[k], dw = RowLen(ia, w);
        PetscInt       l = k - 1;
        while (l >= fnbr && RowLen(ia, pm[l]) > dw) {
          pm[l + 1] = pm[l];
          l--;
        }
        pm[l + 1] = w;
      }
    }
    for (PetscInt i = 0, l = cc - 1; i < l; i++, l--) {
      const PetscInt w = pm[i];
      pm[i]            = pm[l];
      pm[l]            = w;
    }
  }
}

/* ---------------------------------------------------------------------------------------------- graph */
/*
  The entries graph row r takes itself in PETSc's symmetrized graph (same as GPURCMScanRow() in gpurcmthreads.c):
  - no inodes (tns == NULL, MatToSymmetricIJ_SeqAIJ): the columns c <= r of row r up to the first c > r;
  - inodes (MatGetRowIJ_SeqAIJ_Inode_Symmetric): PETSc's scan of the first row of inode r.
  Mode 0 returns the number of keys (2 per off-diagonal entry, 1 for r itself); mode 1 writes the keys
  r * n + c and c * n + r from keys[o] on and counts the row lengths.
*/
template <int MODE>
__device__ PetscInt GPURCMScanRowDev(PetscInt n, PetscInt r, const PetscInt *ai, const PetscInt *aj, const PetscInt *tns, const PetscInt *tvc, GKey *keys, PetscInt o, PetscInt *rowcnt)
{
  PetscInt nk = 0;
  auto     emit = [&](PetscInt c) {
    if (MODE) {
      keys[o++] = (GKey)r * (GKey)n + (GKey)c;
      AtomicAddIdx(&rowcnt[r], 1);
      if (c != r) {
        keys[o++] = (GKey)c * (GKey)n + (GKey)r;
        AtomicAddIdx(&rowcnt[c], 1);
      }
    }
    nk += (c == r) ? 1 : 2;
  };
  if (!tns) {
    for (PetscInt k = ai[r]; k < ai[r + 1]; k++) {
      const PetscInt c = aj[k];
      if (c > r) break;
      emit(c);
    }
  } else {
    const PetscInt row = tns[r], jmax = ai[row + 1];
    PetscInt       j = ai[row], col, i2;
    if (j < jmax) {
      col = aj[j++];
      i2  = tvc[col];
      while (i2 < r && j < jmax) {
        emit(i2);
        i2++;
        while (j < jmax && (col = aj[j]) < tns[i2]) ++j;
        i2 = tvc[col];
      }
      if (i2 == r) emit(r);
    }
  }
  return nk;
}

__global__ void GPURCMLowerCountKernel(PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscInt *tns, const PetscInt *tvc, PetscInt *nkeys)
{
  for (PetscInt r = blockIdx.x * blockDim.x + threadIdx.x; r < n; r += gridDim.x * blockDim.x) nkeys[r] = GPURCMScanRowDev<0>(n, r, ai, aj, tns, tvc, NULL, 0, NULL);
}

__global__ void GPURCMLowerEmitKernel(PetscInt n, const PetscInt *ai, const PetscInt *aj, const PetscInt *tns, const PetscInt *tvc, const PetscInt *koff, GKey *keys, PetscInt *rowcnt)
{
  for (PetscInt r = blockIdx.x * blockDim.x + threadIdx.x; r < n; r += gridDim.x * blockDim.x) (void)GPURCMScanRowDev<1>(n, r, ai, aj, tns, tvc, keys, koff[r], rowcnt);
}

/* Is the CSR (no inodes) structurally symmetric with strictly ascending rows (GPURCMRowUnmirrored)? Then PETSc's
   symmetrized lower-triangle graph is the CSR itself (each row: its entries c <= r, then the mirrors r' > r in
   ascending order), as in the threads backend. acc[0], acc[1]: entries below, above the diagonal; acc[2] != 0: a
   row that fails the check. */
__global__ void GPURCMSymCheckKernel(PetscInt n, const PetscInt *ai, const PetscInt *aj, unsigned long long *acc)
{
  PetscInt64         nl = 0, nu = 0;
  unsigned long long nlow, nup, asym = 0;

  for (PetscInt r = blockIdx.x * blockDim.x + threadIdx.x; r < n && !asym; r += gridDim.x * blockDim.x) asym = (unsigned long long)GPURCMRowUnmirrored(n, r, ai, aj, &nl, &nu);
  nlow = (unsigned long long)nl;
  nup  = (unsigned long long)nu;
  for (int off = 16; off > 0; off >>= 1) {
    nlow += __shfl_down_sync(0xffffffffu, nlow, off);
    nup += __shfl_down_sync(0xffffffffu, nup, off);
    asym |= __shfl_down_sync(0xffffffffu, asym, off);
  }
  if ((threadIdx.x & 31) == 0) {
    if (nlow) atomicAdd(acc, nlow);
    if (nup) atomicAdd(acc + 1, nup);
    if (asym) atomicOr(acc + 2, asym);
  }
}

/* column-to-inode map from the inode starts */
__global__ void GPURCMInodeMapKernel(PetscInt nnodes, const PetscInt *tns, PetscInt *tvc)
{
  for (PetscInt i = blockIdx.x * blockDim.x + threadIdx.x; i < nnodes; i += gridDim.x * blockDim.x)
    for (PetscInt k = tns[i]; k < tns[i + 1]; k++) tvc[k] = i;
}

__global__ void GPURCMKeysToColsKernel(PetscInt n, PetscInt nnz, const GKey *keys, PetscInt *ja)
{
  for (PetscInt k = blockIdx.x * blockDim.x + threadIdx.x; k < nnz; k += gridDim.x * blockDim.x) ja[k] = (PetscInt)(keys[k] % (GKey)n);
}

/* *mx = max(*mx, the longest row of ia[0..n]) */
__global__ void GPURCMMaxRowLenKernel(PetscInt n, const PetscInt *ia, unsigned long long *mx)
{
  unsigned long long m = 0;
  for (PetscInt v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) m = PetscMax(m, (unsigned long long)(ia[v + 1] - ia[v]));
  m = __reduce_max_sync(0xffffffffu, (unsigned)PetscMin(m, 0xffffffffULL));
  if ((threadIdx.x & 31) == 0 && m) atomicMax(mx, m);
}
__global__ void GPURCMFillKernel(PetscInt n, PetscInt *a, PetscInt v)
{
  for (PetscInt k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x) a[k] = v;
}
__global__ void GPURCMFillIotaKernel(PetscInt n, PetscInt *a)
{
  for (PetscInt k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x) a[k] = k;
}
__global__ void GPURCMFillKeyKernel(PetscInt n, GKey *a)
{
  for (PetscInt k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x) a[k] = ~0ULL;
}
__global__ void GPURCMFillIntKernel(PetscInt n, int *a, int v)
{
  for (PetscInt k = blockIdx.x * blockDim.x + threadIdx.x; k < n; k += gridDim.x * blockDim.x) a[k] = v;
}

static inline int GPURCMGrid(PetscInt n)
{
  PetscInt g = (n + 255) / 256;
  return (int)(g < 1 ? 1 : (g > 65535 ? 65535 : g));
}

/* exclusive scan of in[0..n) into out[0..n] (out[n] = total) */
static PetscErrorCode GPURCMExclusiveScan(const PetscInt *in, PetscInt *out, PetscInt n)
{
  void  *tmp   = NULL;
  size_t bytes = 0;

  PetscFunctionBegin;
  PetscCallCUDA(cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, (int)(n + 1)));
  PetscCallCUDA(cudaMallocAsync(&tmp, bytes, 0));
  PetscCallCUDA(cub::DeviceScan::ExclusiveSum(tmp, bytes, in, out, (int)(n + 1)));
  PetscCallCUDA(cudaFreeAsync(tmp, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ---------------------------------------------------------------------------------------------- driver */
static inline GKey GPURCMNextEpoch(PetscInt n, GKey *owner, PetscInt *epoch)
{
  if (++*epoch >= (PetscInt)GPURCM_EPOCH_MAX) { /* keys would wrap: start again from the largest epoch part */
    GPURCMFillKeyKernel<<<GPURCMGrid(n), 256>>>(n, owner);
    *epoch = 1;
  }
  return (GPURCM_EPOCH_MAX - (GKey)*epoch) << GPURCM_POS_BITS;
}

static void GPURCMCopyRange(void *ctx, PetscInt t, PetscInt begin, PetscInt end)
{
  PetscInt *const *a = (PetscInt *const *)ctx; /* a[1] = a[0] */

  (void)t;
  memcpy(a[1] + begin, a[0] + begin, (size_t)(end - begin) * sizeof(PetscInt));
}

/* perm (host) = d_perm (n entries), and perm2 too unless NULL: from 1 MiB on through the staging buffers of the uploads
   (the DMA overlapping the copies out of them into both arrays), else (or without them) the driver's copy into perm,
   then perm2 copied from it by threads */
static PetscErrorCode GPURCMDownload(PetscInt *perm, PetscInt *perm2, const PetscInt *d_perm, PetscInt n, const MatGPURCMCUDAOptions *opt)
{
  const size_t bytes  = (size_t)n * sizeof(PetscInt);
  PetscBool    staged = PETSC_FALSE;

  PetscFunctionBegin;
  if (bytes >= ((size_t)1 << 20)) PetscCall(PetscSparseGPUStagedDownload(perm, perm2, d_perm, bytes, opt->uploadthreads, &staged));
  if (!staged) {
    PetscCallCUDA(cudaMemcpy(perm, d_perm, bytes, cudaMemcpyDeviceToHost));
    if (perm2) {
      PetscInt *a[2] = {perm, perm2};

      PetscCall(PetscSparseGPUParallelFor(opt->uploadthreads, n, (PetscInt)1 << 18, GPURCMCopyRange, a));
    }
  }
  PetscCall(PetscLogGpuToCpu(bytes)); /* (each chunk crosses once) */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* one step of the caller's host work (if any is left), while the kernels just launched run */
static PetscErrorCode GPURCMHostWorkStep(GPURCMHostWork *hw)
{
  PetscFunctionBegin;
  if (hw && hw->more) PetscCall(hw->step(hw->ctx, &hw->more));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* One rootls pass in queue order (batch kernel) from root over a component of cc nodes: h->cc, h->nlvl and SPARSEPACK's
   candidate h->candnode (first node of the last level, in queue order, with the smallest min(degree, cc)) */
static PetscErrorCode GPURCMOrderedPass(GPURCMDev *d, PetscInt root, PetscInt cc, PetscInt blocks, PetscInt *epoch, GPURCMHostWork *hw, GPURCMCtl *h)
{
  const GKey hi = GPURCMNextEpoch(d->n, d->owner, epoch);

  PetscFunctionBegin;
  GPURCMStartKernel<<<1, 1>>>(*d, d->ls, root, hi);
  GPURCMBatchKernel<<<(int)blocks, GPURCM_BLOCK>>>(*d, d->ls, 0, hi);
  GPURCMLevelsKernel<<<1, 1>>>(*d);
  GPURCMCandidateKernel<<<GPURCMGrid(cc), 256>>>(*d);
  GPURCMCandidateNodeKernel<<<1, 1>>>(*d);
  GPURCMResetKernel<<<GPURCMGrid(cc), 256>>>(*d, d->ls, NULL);
  PetscCallCUDA(cudaGetLastError());
  PetscCall(GPURCMHostWorkStep(hw));
  PetscCallCUDA(cudaMemcpy(h, d->ctl, sizeof(*h), cudaMemcpyDeviceToHost));
  PetscCheck(h->cc == cc, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpurcm cuda: BFS reached %" PetscInt_FMT " of %" PetscInt_FMT " nodes", h->cc, cc);
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  const PetscInt *ia, *ja;
  unsigned       *ell, ellw;         /* the numbering's packed ELL copy (GPURCMEllKernel()) of width ellw (0: none), made at its first use */
  uint4          *rows;              /* the level BFS's row copy (GPURCMBfsRowsKernel()), made at its first pass when userows */
  unsigned       *rowsbad;           /* set on the device when a node has more than 4 neighbours (the copy is then not read) */
  PetscBool       userows;
  unsigned       *vis, *L, stamp, narrow;
  unsigned        nbitwords;         /* > 0: the level BFS's narrow stretches claim in a shared-memory bitmap of this many words */
  unsigned        wslots;            /* else > 0: in level tables of this many slots */
  unsigned        hslots, nmbitwords; /* > 0: the level numbering's narrow levels claim in a shared table of hslots slots */
  unsigned        nmwslots;           /* hslots > 0 and no bitmap (nmbitwords = 0): the numbering's level tables' slots */
  int             fit;               /* a level's warps with none of its nodes only pass its barriers (-mat_gpurcm_cuda_fit_warps) */
  GPURCMLvCtl    *ctl;
  PetscInt        n, maxgrid;
  GPURCMHostWork *hw; /* the caller's host work, a step at each pass's wait */
} GPURCMLv;

/* Bytes of dynamic shared memory of level tables of ws slots: the four tables and the word of their complete flags */
static inline size_t GPURCMLevelTablesBytes(unsigned ws)
{
  return (4 * (size_t)ws + 1) * sizeof(unsigned);
}

/* One level-synchronous rootls pass from root over a component of cc nodes (cooperative launch: all blocks co-resident);
   cc = 0: the component's size is not known (h->lend gives it), the grid is sized for all n nodes */
static PetscErrorCode GPURCMLevelsPass(GPURCMLv *lv, PetscInt root, PetscInt cc, GPURCMLvCtl *h)
{
  const int grid = (int)PetscMax(1, PetscMin(lv->maxgrid, ((cc ? cc : lv->n) + GPURCM_LV_BLOCK - 1) / GPURCM_LV_BLOCK));
  unsigned  r    = (unsigned)root, st, nw = lv->narrow;
  void     *args[] = {(void *)&lv->ia, (void *)&lv->ja, (void *)&lv->rows, (void *)&lv->rowsbad, (void *)&lv->vis, (void *)&lv->L, (void *)&lv->ctl, (void *)&r, (void *)&st, (void *)&nw, (void *)&lv->nbitwords, (void *)&lv->wslots, (void *)&lv->fit};
  const size_t dyn = lv->nbitwords ? (size_t)lv->nbitwords * sizeof(unsigned) : (lv->wslots ? GPURCMLevelTablesBytes(lv->wslots) : 0);

  PetscFunctionBegin;
  if (lv->stamp >= UINT_MAX - 1) { /* stamps would wrap */
    PetscCallCUDA(cudaMemset(lv->vis, 0, lv->n * sizeof(unsigned)));
    lv->stamp = 0;
  }
  st = ++lv->stamp;
  if (lv->userows && !lv->rows) { /* the kernel reads *rowsbad itself: no wait here */
    PetscCallCUDA(cudaMallocAsync((void **)&lv->rows, (size_t)lv->n * sizeof(uint4), 0));
    PetscCallCUDA(cudaMallocAsync((void **)&lv->rowsbad, sizeof(unsigned), 0));
    PetscCallCUDA(cudaMemsetAsync(lv->rowsbad, 0, sizeof(unsigned), 0));
    GPURCMBfsRowsKernel<<<GPURCMGrid(lv->n), 256>>>(lv->n, lv->ia, lv->ja, lv->rows, lv->rowsbad);
    PetscCallCUDA(cudaGetLastError());
    PetscCall(PetscInfo(NULL, "gpurcm cuda: the level BFS's narrow levels read rows from a copy of 4 neighbours a node (%.1f MiB), unless a node has more\n", (double)lv->n * sizeof(uint4) / 1048576.0));
  }
  PetscCallCUDA(cudaLaunchCooperativeKernel(lv->wslots ? (void *)GPURCMLevelsBFSKernel<true> : (void *)GPURCMLevelsBFSKernel<false>, dim3(grid), dim3(GPURCM_LV_BLOCK), args, dyn, NULL));
  PetscCallCUDA(cudaGetLastError());
  PetscCall(GPURCMHostWorkStep(lv->hw));
  PetscCallCUDA(cudaMemcpy(h, lv->ctl, sizeof(*h), cudaMemcpyDeviceToHost));
  PetscCheck(cc == 0 || (PetscInt)h->lend == cc, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpurcm cuda: level BFS reached %u of %" PetscInt_FMT " nodes", h->lend, cc);
  PetscCheck(h->nmin >= 1 && h->nlvl >= 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpurcm cuda: level BFS found no last level");
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Level-synchronous Cuthill-McKee numbering of the component (cc nodes) of root into lv->L[0, cc) (cooperative launch) */
static PetscErrorCode GPURCMLevelsNumber(GPURCMLv *lv, GKey *key, PetscInt *scratch, GKey *sortkey, unsigned *poff, unsigned *pcnt, unsigned long long *bsum, PetscInt root, PetscInt cc, GPURCMLvCtl *h)
{
  const int grid = (int)PetscMax(1, PetscMin(lv->maxgrid, (cc + GPURCM_LV_BLOCK - 1) / GPURCM_LV_BLOCK));
  unsigned  r = (unsigned)root, nw = lv->narrow;
  void     *args[] = {(void *)&lv->ia, (void *)&lv->ja, (void *)&lv->ell, (void *)&lv->ellw, (void *)&key, (void *)&scratch, (void *)&sortkey, (void *)&lv->L, (void *)&poff, (void *)&pcnt, (void *)&bsum, (void *)&lv->ctl, (void *)&r, (void *)&nw, (void *)&lv->hslots, (void *)&lv->nmbitwords, (void *)&lv->nmwslots, (void *)&lv->fit};
  const size_t dyn = lv->hslots ? (size_t)lv->hslots * 2 * sizeof(unsigned) + (lv->nmbitwords ? (size_t)lv->nmbitwords * sizeof(unsigned) : GPURCMLevelTablesBytes(lv->nmwslots)) : 0;

  PetscFunctionBegin;
  if (lv->ellw && !lv->ell) {
    PetscCallCUDA(cudaMallocAsync((void **)&lv->ell, (size_t)lv->n * lv->ellw * sizeof(unsigned), 0));
    GPURCMEllKernel<<<GPURCMGrid(lv->n), 256>>>(lv->n, lv->ia, lv->ja, lv->ellw, lv->ell);
    PetscCallCUDA(cudaGetLastError());
    PetscCall(PetscInfo(NULL, "gpurcm cuda: the numbering's narrow levels read rows from a packed ELL copy of width %u (%.1f MiB)\n", lv->ellw, (double)lv->n * lv->ellw * sizeof(unsigned) / 1048576.0));
  }
  PetscCallCUDA(cudaLaunchCooperativeKernel(lv->nmwslots ? (void *)GPURCMLevelsNumberKernel<true> : (void *)GPURCMLevelsNumberKernel<false>, dim3(grid), dim3(GPURCM_LV_BLOCK), args, dyn, NULL));
  PetscCallCUDA(cudaGetLastError());
  PetscCall(GPURCMHostWorkStep(lv->hw));
  PetscCallCUDA(cudaMemcpy(h, lv->ctl, sizeof(*h), cudaMemcpyDeviceToHost));
  PetscCheck((PetscInt)h->lend == cc, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpurcm cuda: level numbering reached %u of %" PetscInt_FMT " nodes", h->lend, cc);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* What a root-finder pass tells fnroot: its number of levels and its last level's candidate (nmin nodes have the
   smallest min(degree, cc); with nmin = 1, pick is SPARSEPACK's candidate) */
typedef struct {
  PetscInt nlvl, nmin, pick;
} GPURCMPassInfo;

/* nmin and pick of the last level q[beg, end) of a numbering (device queue) */
template <typename T>
static PetscErrorCode GPURCMLastLevelStat(const PetscInt *ia, const T *q, PetscInt beg, PetscInt end, PetscInt cc, GPURCMLastStat *d_st, GPURCMPassInfo *info)
{
  GPURCMLastStat st = {~0ULL, 0};
  T              pick;

  PetscFunctionBegin;
  PetscCheck(beg < end, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpurcm cuda: empty last level");
  PetscCallCUDA(cudaMemcpy(d_st, &st, sizeof(st), cudaMemcpyHostToDevice));
  GPURCMLastLevelMinKernel<T><<<GPURCMGrid(end - beg), 256>>>(ia, q, beg, end, cc, d_st);
  GPURCMLastLevelCountKernel<T><<<GPURCMGrid(end - beg), 256>>>(ia, q, beg, end, cc, d_st);
  PetscCallCUDA(cudaGetLastError());
  PetscCallCUDA(cudaMemcpy(&st, d_st, sizeof(st), cudaMemcpyDeviceToHost));
  PetscCallCUDA(cudaMemcpy(&pick, q + beg + (PetscInt)(st.minkey & 0xffffffffULL), sizeof(T), cudaMemcpyDeviceToHost));
  PetscCheck(st.count >= 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpurcm cuda: no node of minimum degree in the last level");
  info->nmin = (PetscInt)st.count;
  info->pick = (PetscInt)pick;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Cuthill-McKee numbering from root by the batch kernel into d->cm[0, cc); with info also its level count and last
   level (a root-finder pass). GPURCMResetKernel() then writes it reversed into the permutation or drops it. */
static PetscErrorCode GPURCMBatchNumber(GPURCMDev *d, PetscInt root, PetscInt cc, PetscInt nblocks, PetscInt *epoch, GPURCMHostWork *hw, GPURCMLastStat *d_st, GPURCMPassInfo *info)
{
  const GKey hi = GPURCMNextEpoch(d->n, d->owner, epoch);
  GPURCMCtl  h;

  PetscFunctionBegin;
  GPURCMStartKernel<<<1, 1>>>(*d, d->cm, root, hi);
  GPURCMBatchKernel<<<(int)nblocks, GPURCM_BLOCK>>>(*d, d->cm, 1, hi);
  PetscCallCUDA(cudaGetLastError());
  PetscCall(GPURCMHostWorkStep(hw));
  if (info) {
    GPURCMLevelsKernel<<<1, 1>>>(*d);
    PetscCallCUDA(cudaGetLastError());
    PetscCallCUDA(cudaMemcpy(&h, d->ctl, sizeof(h), cudaMemcpyDeviceToHost));
    PetscCheck(h.cc == cc, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpurcm cuda: numbering reached %" PetscInt_FMT " of %" PetscInt_FMT " nodes", h.cc, cc);
    info->nlvl = h.nlvl;
    PetscCall(GPURCMLastLevelStat(d->ia, d->cm, h.laststart, cc, cc, d_st, info));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Components labelled by their smallest node (parent), their sizes and offsets; the small ones (at most GPURCM_CUDA_SMALL
   nodes) are ordered at once into perm, one thread each; the others are listed in large[0 .. *nlarge) */
static PetscErrorCode GPURCMLabelComponents(PetscInt n, const PetscInt *d_ia, const PetscInt *d_ja, int grid, GPURCMDev *d, PetscInt *d_parent, PetscInt *d_size, PetscInt *d_offset, int *d_mask, PetscInt *d_perm, PetscInt *d_large, PetscInt *d_nlarge, PetscInt *nlarge)
{
  unsigned long long *d_nlong; /* the long rows are listed in the scratch array (unused until the numbering) */

  PetscFunctionBegin;
  PetscCallCUDA(cudaMallocAsync((void **)&d_nlong, sizeof(*d_nlong), 0));
  PetscCallCUDA(cudaMemsetAsync(d_nlong, 0, sizeof(*d_nlong), 0));
  GPURCMLongRowsKernel<<<grid, 256>>>(n, d_ia, d->scratch, d_nlong);
  for (;;) {
    int changed;
    PetscCallCUDA(cudaMemset(&d->ctl->changed, 0, sizeof(int)));
    GPURCMHookKernel<<<grid, 256>>>(n, d_ia, d_ja, d_parent, d->ctl);
    GPURCMHookLongKernel<<<grid, 256>>>(d_ia, d_ja, d->scratch, d_nlong, d_parent, d->ctl);
    GPURCMCompressKernel<<<grid, 256>>>(n, d_parent, NULL);
    PetscCallCUDA(cudaGetLastError());
    PetscCallCUDA(cudaMemcpy(&changed, &d->ctl->changed, sizeof(int), cudaMemcpyDeviceToHost));
    if (!changed) break;
  }
  PetscCallCUDA(cudaFreeAsync(d_nlong, 0));
  GPURCMCompressKernel<<<grid, 256>>>(n, d_parent, d_size);
  PetscCallCUDA(cudaGetLastError());
  PetscCall(GPURCMExclusiveScan(d_size, d_offset, n));
  /* the level array is the scratch of the small components (the batch queues must stay -1) */
  GPURCMSmallComponentsKernel<<<grid, 256>>>(n, d_ia, d_ja, d_parent, d_size, d_offset, d_mask, d->lev, d_perm, d_large, d_nlarge);
  PetscCallCUDA(cudaGetLastError());
  PetscCallCUDA(cudaMemcpy(nlarge, d_nlarge, sizeof(PetscInt), cudaMemcpyDeviceToHost));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Blocks of the batch numbering: only parents already in the queue can be batched; with the widest level known (level
   passes), blocks beyond about two levels' worth of batches would only poll the chain, so the grid is limited to that
   (-mat_gpurcm_cuda_batch_blocks overrides) */
static inline PetscInt GPURCMNumberBlocks(PetscInt blocks, PetscInt width, const MatGPURCMCUDAOptions *opt)
{
  if (opt->batchblocks > 0) return PetscMin(blocks, opt->batchblocks);
  if (width > 0) return PetscMin(blocks, 4 + 4 * ((width + GPURCM_BLOCK - 1) / GPURCM_BLOCK));
  return blocks;
}

/* Whether kernel (blocks of GPURCM_LV_BLOCK threads) can take bytes of dynamic shared memory beside its static shared
   memory and still have a block per SM (the level kernels' co-residency); if so, the kernel is set up for that much */
static PetscErrorCode GPURCMDynamicSharedFits(const void *kernel, size_t bytes, int dev, PetscBool *fits)
{
  int                optin = 0, perSM = 0;
  cudaFuncAttributes fa;

  PetscFunctionBegin;
  *fits = PETSC_FALSE;
  PetscCallCUDA(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  PetscCallCUDA(cudaFuncGetAttributes(&fa, kernel));
  if (bytes + fa.sharedSizeBytes > (size_t)optin) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallCUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes));
  PetscCallCUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, kernel, GPURCM_LV_BLOCK, bytes));
  *fits = (PetscBool)(perSM >= 1);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The level tables that kernel can take beside other bytes of dynamic shared memory, for narrow levels of up to narrow
   nodes: *ws slots a table, twice the next power of 2 above narrow (half full at most), halved while they do not fit,
   down to narrow; 0 if none fits. The kernel is left set up for the tables found. */
static PetscErrorCode GPURCMLevelTablesFit(const void *kernel, size_t other, PetscInt narrow, int dev, unsigned *ws)
{
  unsigned w = 64;

  PetscFunctionBegin;
  *ws = 0;
  while (w < 2 * (unsigned)narrow) w *= 2;
  for (; w >= 64 && w >= (unsigned)narrow; w /= 2) {
    PetscBool fits;

    PetscCall(GPURCMDynamicSharedFits(kernel, other + GPURCMLevelTablesBytes(w), dev, &fits));
    if (fits) {
      *ws = w;
      break;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Orders the graph (d_ia, d_ja) on the device into perm (host), and into perm2 too unless it is NULL; hw: the caller's
   host work, done while the kernels run; tr: the -info stage trace, started by the caller */
static PetscErrorCode GPURCMOrderDeviceGraph(PetscInt n, const PetscInt *d_ia, const PetscInt *d_ja, PetscInt nnz, const MatGPURCMCUDAOptions *opt, GPURCMHostWork *hw, PetscInt perm[], PetscInt perm2[], SparseGPUCUDATrace *tr, PetscBool *declined)
{
  GPURCMDev   d;
  GPURCMCtl   h;
  GPURCMLv    lv;
  GPURCMLvCtl lh;
  PetscInt   *d_parent, *d_size, *d_offset, *d_perm, *d_large, *d_nlarge, nlarge, *large, *offs, *sizes, nrepeat = 0;
  GPURCMLastStat *d_st;
  unsigned long long maxrow = 0; /* the longest row */
  int        *d_mask, sms = 0, perSM = 0, dev, grid, coop = 0, lvperSM = 0, nmperSM = 0;
  PetscInt    epoch     = 0;
  PetscBool   uselevels = (PetscBool)(opt->rootfind == MAT_GPURCM_CUDA_ROOTFIND_LEVELS), usenumber = (PetscBool)(opt->number != MAT_GPURCM_CUDA_NUMBER_BATCH); /* the level numbering may run */
  PetscBool   probed = PETSC_FALSE, connected = PETSC_FALSE;
  GPURCMLvCtl lprobe;
  GKey       *nm_key = NULL;
  unsigned   *nm_poff = NULL, *nm_pcnt = NULL;
  unsigned long long *nm_bsum = NULL;

  PetscFunctionBegin;
  if (declined) *declined = PETSC_FALSE;
  if (n == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCheck((unsigned long long)n < (1ULL << 32) && (unsigned long long)nnz < (1ULL << GPURCM_POS_BITS), PETSC_COMM_SELF, PETSC_ERR_SUP, "gpurcm cuda: graph too large (%" PetscInt_FMT " nodes)", n);
  PetscCall(PetscMemzero(&d, sizeof(d)));
  PetscCall(PetscMemzero(&lv, sizeof(lv)));
  lv.hw   = hw;
  d.n     = n;
  d.ia    = d_ia;
  d.ja    = d_ja;
  d.nbcap = n + 1;
  PetscCallCUDA(cudaGetDevice(&dev));
  PetscCallCUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  PetscCallCUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, GPURCMBatchKernel, GPURCM_BLOCK, 0));
  if (perSM < 1) perSM = 1;
  if (uselevels || usenumber) { /* the level kernels need co-resident blocks (cooperative launch) and 32-bit node indices and counts */
    PetscCallCUDA(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
    PetscCallCUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&lvperSM, GPURCMLevelsBFSKernel<false>, GPURCM_LV_BLOCK, 0));
    PetscCallCUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nmperSM, GPURCMLevelsNumberKernel<false>, GPURCM_LV_BLOCK, 0));
    if (!coop || lvperSM < 1 || nmperSM < 1 || (unsigned long long)n >= (1ULL << 31) || (unsigned long long)nnz >= (1ULL << 32)) {
      PetscCall(PetscInfo(NULL, "gpurcm cuda: level-synchronous kernels not usable (cooperative launch %d, blocks per SM %d and %d, n %" PetscInt_FMT ", nnz %" PetscInt_FMT "): root finder and numbering in queue order\n", coop, lvperSM, nmperSM, n, nnz));
      uselevels = PETSC_FALSE;
      usenumber = PETSC_FALSE;
    }
  }
  PetscCall(PetscInfo(NULL, "gpurcm cuda: root finder %s, numbering %s, narrow levels up to %" PetscInt_FMT " nodes, %d SMs\n", uselevels ? "levels" : "ordered", usenumber ? MatGPURCMCUDANumbers[opt->number] : "batch", opt->narrow, sms));
  PetscCallCUDA(cudaMallocAsync((void **)&d.owner, n * sizeof(GKey), 0));
  PetscCallCUDA(cudaMallocAsync((void **)&d.ls, n * sizeof(PetscInt), 0));
  PetscCallCUDA(cudaMallocAsync((void **)&d.cm, n * sizeof(PetscInt), 0));
  PetscCallCUDA(cudaMallocAsync((void **)&d.lev, n * sizeof(PetscInt), 0));
  PetscCallCUDA(cudaMallocAsync((void **)&d.scratch, (nnz > 0 ? nnz : 1) * sizeof(PetscInt), 0));
  { /* a row longer than GPURCM_SORT_SHORT may give a long child list: keys to merge-sort it (2 per graph entry) */
    unsigned long long *d_mx, &mx = maxrow;

    PetscCallCUDA(cudaMallocAsync((void **)&d_mx, sizeof(*d_mx), 0));
    PetscCallCUDA(cudaMemsetAsync(d_mx, 0, sizeof(*d_mx), 0));
    GPURCMMaxRowLenKernel<<<GPURCMGrid(n), 256>>>(n, d_ia, d_mx);
    PetscCallCUDA(cudaGetLastError());
    PetscCallCUDA(cudaMemcpy(&mx, d_mx, sizeof(mx), cudaMemcpyDeviceToHost));
    PetscCallCUDA(cudaFreeAsync(d_mx, 0));
    if (mx > GPURCM_SORT_SHORT) {
      PetscCallCUDA(cudaMallocAsync((void **)&d.sortkey, 2 * nnz * sizeof(GKey), 0));
      PetscCall(PetscInfo(NULL, "gpurcm cuda: rows of up to %llu entries: long child lists are merge-sorted (%.1f MiB of keys)\n", mx, 2.0 * nnz * sizeof(GKey) / 1048576.0));
    }
  }
  PetscCallCUDA(cudaMallocAsync((void **)&d.bend, d.nbcap * sizeof(PetscInt), 0));
  PetscCallCUDA(cudaMallocAsync((void **)&d.btail, d.nbcap * sizeof(PetscInt), 0));
  PetscCallCUDA(cudaMallocAsync((void **)&d.bdisc, d.nbcap * sizeof(int), 0));
  PetscCallCUDA(cudaMallocAsync((void **)&d.ctl, sizeof(GPURCMCtl), 0));
  PetscCallCUDA(cudaMallocAsync((void **)&d_parent, n * sizeof(PetscInt), 0));
  PetscCallCUDA(cudaMallocAsync((void **)&d_size, (n + 1) * sizeof(PetscInt), 0));
  PetscCallCUDA(cudaMallocAsync((void **)&d_offset, (n + 1) * sizeof(PetscInt), 0));
  PetscCallCUDA(cudaMallocAsync((void **)&d_perm, n * sizeof(PetscInt), 0));
  PetscCallCUDA(cudaMallocAsync((void **)&d_large, n * sizeof(PetscInt), 0));
  PetscCallCUDA(cudaMallocAsync((void **)&d_nlarge, sizeof(PetscInt), 0));
  PetscCallCUDA(cudaMallocAsync((void **)&d_mask, n * sizeof(int), 0));
  PetscCallCUDA(cudaMallocAsync((void **)&d_st, sizeof(GPURCMLastStat), 0));
  PetscCallCUDA(cudaMemset(d.ctl, 0, sizeof(GPURCMCtl)));
  PetscCallCUDA(cudaMemset(d_size, 0, (n + 1) * sizeof(PetscInt)));
  PetscCallCUDA(cudaMemset(d_nlarge, 0, sizeof(PetscInt)));
  if (uselevels || usenumber) {
    lv.ia      = d_ia;
    lv.ja      = d_ja;
    lv.n       = n;
    lv.narrow  = (unsigned)opt->narrow;
    lv.fit     = opt->fitwarps ? 1 : 0;
    lv.maxgrid = PetscMin(sms, GPURCM_LV_BLOCK); /* one block per SM: co-resident since lvperSM, nmperSM >= 1 */
    if (opt->narrow > 0) { /* the narrow stretches' bitmap of all n nodes if it fits beside the static shared memory, else the level tables */
      PetscBool fits = PETSC_FALSE;

      if (opt->bitmap) PetscCall(GPURCMDynamicSharedFits((const void *)GPURCMLevelsBFSKernel<false>, (size_t)((n + 31) / 32) * sizeof(unsigned), dev, &fits));
      if (fits) lv.nbitwords = (unsigned)((n + 31) / 32);
      else if (opt->leveltables) PetscCall(GPURCMLevelTablesFit((const void *)GPURCMLevelsBFSKernel<true>, 0, opt->narrow, dev, &lv.wslots));
      PetscCall(PetscInfo(NULL, "gpurcm cuda: narrow levels claim in %s (%u slots a level)\n", lv.nbitwords ? "a shared-memory bitmap" : (lv.wslots ? "shared-memory level tables" : "global memory"), lv.wslots));
    }
    /* every row light (meshes): the numbering's narrow levels read rows and the children's degrees from a packed ELL
       copy, made at the first level numbering (GPURCMLevelsNumber()) */
    if (opt->ell && opt->narrow > 0 && maxrow <= GPURCM_LV_LIGHT && maxrow > 0 && (unsigned long long)n < GPURCM_ELL_NODE) lv.ellw = (unsigned)maxrow;
    /* rows of at most 5 entries (2D 5-point meshes, diagonal or not) and the bitmap: the level BFS's narrow levels read
       a node's neighbours from a copy of 4 a node (GPURCMLvRoundRows()) */
    lv.userows = opt->ell && lv.nbitwords && maxrow <= 5 && maxrow > 0 ? PETSC_TRUE : PETSC_FALSE;
    PetscCallCUDA(cudaMallocAsync((void **)&lv.vis, n * sizeof(unsigned), 0));
    PetscCallCUDA(cudaMallocAsync((void **)&lv.L, n * sizeof(unsigned), 0));
    PetscCallCUDA(cudaMallocAsync((void **)&lv.ctl, sizeof(GPURCMLvCtl), 0));
    PetscCallCUDA(cudaMemset(lv.vis, 0, n * sizeof(unsigned)));
    PetscCallCUDA(cudaMemset(lv.ctl, 0, sizeof(GPURCMLvCtl)));
  }
  if (usenumber) { /* every node is numbered once: the parent keys start at ~0 and are reset only for a dropped numbering */
    if (opt->narrow > 0) { /* block 0's claim table and bitmap of numbered nodes in shared memory, if they fit */
      const size_t bm = (size_t)((n + 31) / 32) * sizeof(unsigned);

      for (unsigned slots = (unsigned)opt->claimslots; opt->bitmap && slots >= 64 && slots >= (unsigned)opt->claimslots / 2 && !lv.hslots; slots /= 2) {
        PetscBool fits;

        PetscCall(GPURCMDynamicSharedFits((const void *)GPURCMLevelsNumberKernel<false>, (size_t)slots * 2 * sizeof(unsigned) + bm, dev, &fits));
        if (fits) {
          lv.hslots     = slots;
          lv.nmbitwords = (unsigned)((n + 31) / 32);
        }
      }
      /* else the numbered nodes that a level can meet (the previous and the current level) in the level tables */
      for (unsigned slots = (unsigned)opt->claimslots; opt->leveltables && slots >= 64 && slots >= (unsigned)opt->claimslots / 2 && !lv.hslots; slots /= 2) {
        unsigned ws;

        PetscCall(GPURCMLevelTablesFit((const void *)GPURCMLevelsNumberKernel<true>, (size_t)slots * 2 * sizeof(unsigned), opt->narrow, dev, &ws));
        if (ws) {
          lv.hslots   = slots;
          lv.nmwslots = ws;
        }
      }
      PetscCall(PetscInfo(NULL, "gpurcm cuda: the level numbering's narrow levels claim in %s\n", lv.hslots ? (lv.nmbitwords ? "shared memory (numbered nodes in a bitmap)" : "shared memory (numbered nodes in level tables)") : "global memory (the tables do not fit)"));
    }
    PetscCallCUDA(cudaMallocAsync((void **)&nm_key, n * sizeof(GKey), 0));
    PetscCallCUDA(cudaMallocAsync((void **)&nm_poff, n * sizeof(unsigned), 0));
    PetscCallCUDA(cudaMallocAsync((void **)&nm_pcnt, n * sizeof(unsigned), 0));
    PetscCallCUDA(cudaMallocAsync((void **)&nm_bsum, GPURCM_LV_BLOCK * sizeof(unsigned long long), 0));
    PetscCallCUDA(cudaMemsetAsync(nm_bsum, 0, GPURCM_LV_BLOCK * sizeof(unsigned long long), 0)); /* tag 0: no count yet (GPURCMGatherCounts()) */
    PetscCallCUDA(cudaMemset(nm_key, 0xff, n * sizeof(GKey)));
  }
  grid = GPURCMGrid(n);
  GPURCMFillKeyKernel<<<grid, 256>>>(n, d.owner);
  GPURCMFillKernel<<<grid, 256>>>(n, d.ls, -1);
  GPURCMFillKernel<<<grid, 256>>>(n, d.cm, -1);
  GPURCMFillKernel<<<GPURCMGrid(d.nbcap), 256>>>(d.nbcap, d.bend, -1);
  GPURCMFillKernel<<<GPURCMGrid(d.nbcap), 256>>>(d.nbcap, d.btail, -1);
  GPURCMFillIntKernel<<<GPURCMGrid(d.nbcap), 256>>>(d.nbcap, d.bdisc, 0);
  GPURCMFillIntKernel<<<grid, 256>>>(n, d_mask, 1);
  GPURCMFillIotaKernel<<<grid, 256>>>(n, d_parent);
  PetscCallCUDA(cudaGetLastError());
  PetscCall(SparseGPUCUDATraceStage(tr, "alloc"));

  PetscCall(PetscLogEventBegin(MAT_GPURCM_RootFind, 0, 0, 0, 0));
  /* fnroot starts with a pass from node 0, the smallest node of its component: made first, it also says whether the
     graph is connected (it reaches all n nodes), the common case, which needs no component labelling */
  if (uselevels && n > GPURCM_CUDA_SMALL) {
    PetscCall(GPURCMLevelsPass(&lv, 0, 0, &lprobe));
    probed    = PETSC_TRUE;
    connected = (PetscBool)((PetscInt)lprobe.lend == n);
    PetscCall(SparseGPUCUDATraceStage(tr, "rootfind"));
  }
  if (connected) {
    nlarge = 1;
    PetscCall(PetscInfo(NULL, "gpurcm cuda: the graph is connected (the first pass reached all %" PetscInt_FMT " nodes): no component labelling\n", n));
  } else PetscCall(GPURCMLabelComponents(n, d_ia, d_ja, grid, &d, d_parent, d_size, d_offset, d_mask, d_perm, d_large, d_nlarge, &nlarge));
  PetscCall(PetscLogEventEnd(MAT_GPURCM_RootFind, 0, 0, 0, 0));
  PetscCall(SparseGPUCUDATraceStage(tr, "components"));

  PetscCall(PetscMalloc3(nlarge, &large, nlarge, &offs, nlarge, &sizes));
  if (connected) { /* one component: node 0's, all n nodes */
    large[0] = 0;
    offs[0]  = 0;
    sizes[0] = n;
  } else {
    /* with the backend auto, many components are left to the host (before their roots, offsets and sizes are copied
       back): each costs the GPU a fixed ~1.5 ms of passes and synchronizations (session 62, H100: a block-diagonal
       matrix of 75 blocks of 5,600 nodes took 125 ms, rcm 83 ms, the threads backend 27 ms) */
    if (declined && opt->maxcomponents > 0 && nlarge > opt->maxcomponents) {
      PetscCall(PetscInfo(NULL, "gpurcm cuda: %" PetscInt_FMT " components of more than %d nodes, more than %" PetscInt_FMT " (-mat_gpurcm_cuda_max_components): left to the host\n", nlarge, GPURCM_CUDA_SMALL, opt->maxcomponents));
      *declined = PETSC_TRUE;
      nlarge    = 0;
    }
    if (nlarge) PetscCallCUDA(cudaMemcpy(large, d_large, nlarge * sizeof(PetscInt), cudaMemcpyDeviceToHost));
    for (PetscInt c = 0; c < nlarge; c++) {
      PetscCallCUDA(cudaMemcpy(&offs[c], d_offset + large[c], sizeof(PetscInt), cudaMemcpyDeviceToHost));
      PetscCallCUDA(cudaMemcpy(&sizes[c], d_size + large[c], sizeof(PetscInt), cudaMemcpyDeviceToHost));
    }
  }
  for (PetscInt c = 0; c < nlarge; c++) {
    const PetscInt cc = sizes[c];
    PetscInt       root = large[c], nlvl = 0, width = 0, rootnlvl;
    PetscInt       blocks = PetscMin((PetscInt)sms * perSM, cc / GPURCM_BLOCK + 1), nblocks;
    PetscBool      numbered = PETSC_FALSE; /* a candidate pass was the numbering and fnroot returned its root */
    PetscBool      lvnum    = (PetscBool)(usenumber && opt->number == MAT_GPURCM_CUDA_NUMBER_LEVELS); /* this component's numbering */
    GPURCMPassInfo pi;

    /* fnroot: rootls passes with SPARSEPACK's candidate and return rules */
    PetscCall(PetscLogEventBegin(MAT_GPURCM_RootFind, 0, 0, 0, 0));
    if (uselevels) {
      /* level-synchronous passes; a pass whose last level holds several nodes of the smallest min(degree, cc) is
         repeated in queue order to take the first of them (SPARSEPACK's choice). With speculation every candidate's
         pass is the Cuthill-McKee numbering from it (same levels as rootls from it): when fnroot returns that
         candidate, the numbering is done; otherwise it is dropped and the search goes on from its last level. */
      if (probed && root == 0) lh = lprobe; /* component 0's first pass was the probe */
      else PetscCall(GPURCMLevelsPass(&lv, root, cc, &lh));
      nlvl    = lh.nlvl;
      width   = lh.maxwidth;
      /* auto: the level numbering when every level of the first pass was narrow and the claims fit in shared memory
         (latency-bound: one block, no grid barrier), or when the levels are wide on average (at least 2 * GPURCM_LV_BLOCK
         nodes: 3D meshes, power-law graphs, where it was 5-12% faster than the batches, and as fast on the other
         irregular graphs, sessions 48-49); with the level tables (graphs too large for the bitmap) also when the widest
         level holds at most 3 narrow levels' worth of nodes (session 66 job 2, H100, levels against batches: 2D 1500^2
         42.2 against 50.1 ms, 2000^2 66.4 against 73.5, 3000^2 113.8 against 118.8, but 4000^2 166.0 against 161.5);
         else the batches */
      if (usenumber && opt->number == MAT_GPURCM_CUDA_NUMBER_AUTO) {
        lvnum = (PetscBool)((lv.hslots && (width <= opt->narrow || (lv.nmwslots && width <= 3 * opt->narrow))) || (nlvl > 0 && cc / nlvl >= 2 * GPURCM_LV_BLOCK));
        PetscCall(PetscInfo(NULL, "gpurcm cuda: auto takes the %s numbering (component of %" PetscInt_FMT " nodes, first pass: %" PetscInt_FMT " levels, the widest %" PetscInt_FMT ")\n", lvnum ? "level" : "batch", cc, nlvl, width));
      }
      pi.nlvl = nlvl;
      pi.nmin = lh.nmin;
      pi.pick = lh.pick;
      if (!(nlvl == 1 || nlvl == cc)) {
        for (;;) {
          if (pi.nmin == 1) root = pi.pick;
          else {
            PetscCall(PetscInfo(NULL, "gpurcm cuda: %" PetscInt_FMT " nodes of minimum degree in the last level: pass repeated in queue order\n", pi.nmin));
            PetscCall(GPURCMOrderedPass(&d, root, cc, blocks, &epoch, hw, &h));
            PetscCheck(h.nlvl == nlvl, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpurcm cuda: level structures of the two BFS engines differ (%" PetscInt_FMT " and %" PetscInt_FMT " levels)", h.nlvl, nlvl);
            root = h.candnode;
            nrepeat++;
          }
          if (opt->speculate) {
            PetscCall(PetscLogEventEnd(MAT_GPURCM_RootFind, 0, 0, 0, 0));
            PetscCall(SparseGPUCUDATraceStage(tr, "rootfind"));
            PetscCall(PetscLogEventBegin(MAT_GPURCM_Number, 0, 0, 0, 0));
            if (lvnum) {
              GPURCMLvCtl nh;
              PetscCall(GPURCMLevelsNumber(&lv, nm_key, d.scratch, d.sortkey, nm_poff, nm_pcnt, nm_bsum, root, cc, &nh));
              pi.nlvl = (PetscInt)nh.nlvl;
              PetscCall(GPURCMLastLevelStat(d_ia, lv.L, (PetscInt)nh.lbeg, (PetscInt)nh.lend, cc, d_st, &pi));
            } else PetscCall(GPURCMBatchNumber(&d, root, cc, GPURCMNumberBlocks(blocks, width, opt), &epoch, hw, d_st, &pi));
            numbered = PETSC_TRUE;
            PetscCall(PetscLogEventEnd(MAT_GPURCM_Number, 0, 0, 0, 0));
            PetscCall(SparseGPUCUDATraceStage(tr, "number"));
            PetscCall(PetscLogEventBegin(MAT_GPURCM_RootFind, 0, 0, 0, 0));
          } else {
            PetscCall(GPURCMLevelsPass(&lv, root, cc, &lh));
            width   = lh.maxwidth;
            pi.nlvl = lh.nlvl;
            pi.nmin = lh.nmin;
            pi.pick = lh.pick;
          }
          if (pi.nlvl <= nlvl || pi.nlvl >= cc) break; /* SPARSEPACK returns this candidate */
          nlvl = pi.nlvl;
          if (numbered) { /* not the root: drop the numbering */
            if (lvnum) PetscCallCUDA(cudaMemset(nm_key, 0xff, n * sizeof(GKey)));
            else {
              GPURCMResetKernel<<<GPURCMGrid(cc), 256>>>(d, d.cm, NULL);
              PetscCallCUDA(cudaGetLastError());
            }
            numbered = PETSC_FALSE;
            PetscCall(PetscInfo(NULL, "gpurcm cuda: speculative numbering dropped (the root finder goes on)\n"));
          }
        }
      }
      rootnlvl = pi.nlvl; /* levels of the final root's structure */
    } else {
      for (PetscInt pass = 0;; pass++) {
        PetscCall(GPURCMOrderedPass(&d, root, cc, blocks, &epoch, hw, &h));
        if (pass == 0) {
          if (h.nlvl == 1 || h.nlvl == cc) break;
          nlvl = h.nlvl;
        } else {
          if (h.nlvl <= nlvl) break; /* SPARSEPACK returns this candidate */
          nlvl = h.nlvl;
          if (nlvl >= cc) break;
        }
        root = h.candnode;
      }
      rootnlvl = h.nlvl;
    }
    PetscCall(PetscLogEventEnd(MAT_GPURCM_RootFind, 0, 0, 0, 0));
    PetscCall(SparseGPUCUDATraceStage(tr, "rootfind"));
    /* numbering from root (unless a candidate's pass already was), reversed into the component's segment */
    nblocks = GPURCMNumberBlocks(blocks, width, opt);
    PetscCall(PetscLogEventBegin(MAT_GPURCM_Number, 0, 0, 0, 0));
    if (lvnum) {
      if (!numbered) {
        GPURCMLvCtl nh;
        PetscCall(GPURCMLevelsNumber(&lv, nm_key, d.scratch, d.sortkey, nm_poff, nm_pcnt, nm_bsum, root, cc, &nh));
        PetscCheck((PetscInt)nh.nlvl == rootnlvl, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpurcm cuda: level numbering found %u levels, the root finder %" PetscInt_FMT, nh.nlvl, rootnlvl);
      }
      GPURCMLevelsReverseKernel<<<GPURCMGrid(cc), 256>>>(cc, lv.L, d_perm + offs[c]);
      PetscCallCUDA(cudaGetLastError());
    } else {
      if (!numbered) PetscCall(GPURCMBatchNumber(&d, root, cc, nblocks, &epoch, hw, NULL, NULL));
      GPURCMResetKernel<<<GPURCMGrid(cc), 256>>>(d, d.cm, d_perm + offs[c]);
      PetscCallCUDA(cudaGetLastError());
    }
    if (numbered) {
      PetscCall(PetscInfo(NULL, "gpurcm cuda: speculative numbering kept (the root finder returned its root)\n"));
    }
    PetscCall(PetscLogEventEnd(MAT_GPURCM_Number, 0, 0, 0, 0));
    PetscCall(SparseGPUCUDATraceStage(tr, "number"));
  }
  if (nrepeat) PetscCall(PetscInfo(NULL, "gpurcm cuda: %" PetscInt_FMT " root-finder passes repeated in queue order (ties in the last level)\n", nrepeat));
  if (!declined || !*declined) {
    while (hw && hw->more) PetscCall(GPURCMHostWorkStep(hw)); /* what no wait took: before perm is written */
    PetscCall(GPURCMDownload(perm, perm2, d_perm, n, opt));
  }
  PetscCall(PetscFree3(large, offs, sizes));
  PetscCall(SparseGPUCUDATraceStage(tr, "download"));
  if (usenumber) {
    PetscCallCUDA(cudaFreeAsync(nm_key, 0));
    PetscCallCUDA(cudaFreeAsync(nm_poff, 0));
    PetscCallCUDA(cudaFreeAsync(nm_pcnt, 0));
    PetscCallCUDA(cudaFreeAsync(nm_bsum, 0));
  }
  if (uselevels || usenumber) {
    PetscCallCUDA(cudaFreeAsync(lv.vis, 0));
    PetscCallCUDA(cudaFreeAsync(lv.L, 0));
    PetscCallCUDA(cudaFreeAsync(lv.ctl, 0));
    if (lv.ell) PetscCallCUDA(cudaFreeAsync(lv.ell, 0));
    if (lv.rows) PetscCallCUDA(cudaFreeAsync(lv.rows, 0));
    if (lv.rowsbad) PetscCallCUDA(cudaFreeAsync(lv.rowsbad, 0));
  }
  PetscCallCUDA(cudaFreeAsync(d.owner, 0));
  PetscCallCUDA(cudaFreeAsync(d.ls, 0));
  PetscCallCUDA(cudaFreeAsync(d.cm, 0));
  PetscCallCUDA(cudaFreeAsync(d.lev, 0));
  PetscCallCUDA(cudaFreeAsync(d.scratch, 0));
  if (d.sortkey) PetscCallCUDA(cudaFreeAsync(d.sortkey, 0));
  PetscCallCUDA(cudaFreeAsync(d.bend, 0));
  PetscCallCUDA(cudaFreeAsync(d.btail, 0));
  PetscCallCUDA(cudaFreeAsync(d.bdisc, 0));
  PetscCallCUDA(cudaFreeAsync(d.ctl, 0));
  PetscCallCUDA(cudaFreeAsync(d_parent, 0));
  PetscCallCUDA(cudaFreeAsync(d_size, 0));
  PetscCallCUDA(cudaFreeAsync(d_offset, 0));
  PetscCallCUDA(cudaFreeAsync(d_perm, 0));
  PetscCallCUDA(cudaFreeAsync(d_large, 0));
  PetscCallCUDA(cudaFreeAsync(d_nlarge, 0));
  PetscCallCUDA(cudaFreeAsync(d_mask, 0));
  PetscCallCUDA(cudaFreeAsync(d_st, 0));
  PetscCall(SparseGPUCUDATraceStage(tr, "free"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GPURCMTraceReport(SparseGPUCUDATrace *tr, PetscInt n, PetscInt nnz)
{
  char what[128];

  PetscFunctionBegin;
  if (!tr->on) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscSNPrintf(what, sizeof(what), "gpurcm cuda (%" PetscInt_FMT " nodes, %" PetscInt_FMT " graph entries)", n, nnz));
  PetscCall(SparseGPUCUDATraceReport(tr, what));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatGPURCMCUDAAvailable_Private(PetscBool *avail)
{
  int         count = 0;
  cudaError_t err;

  PetscFunctionBegin;
  err    = cudaGetDeviceCount(&count);
  *avail = (err == cudaSuccess && count > 0) ? PETSC_TRUE : PETSC_FALSE;
  if (err != cudaSuccess) (void)cudaGetLastError(); /* clear the (non-sticky) error */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Uploads of host arrays (a host matrix's CSR): the driver's pageable copy, "staged" (PetscSparseGPUStagedUpload(),
   src/sys/utils/sparsegpustage.cu: threads filling pinned buffers) or "pinned" (the array page-locked in place with
   cudaHostRegister(), undone after the copy; a refused registration falls back to the pageable copy). */
/* dst (device) = src (host), bytes, complete on return */
static PetscErrorCode GPURCMUpload(void *dst, const void *src, size_t bytes, const MatGPURCMCUDAOptions *opt)
{
  PetscFunctionBegin;
  if (!bytes) PetscFunctionReturn(PETSC_SUCCESS);
  if (opt->upload == MAT_GPURCM_CUDA_UPLOAD_STAGED) { /* under 64 KiB: the driver's copy */
    const PetscSparseGPUSegment seg = {dst, src, bytes};
    PetscCall(PetscSparseGPUUpload(&seg, 1, opt->uploadthreads, (size_t)64 << 10));
  } else if (opt->upload == MAT_GPURCM_CUDA_UPLOAD_PINNED) {
    PetscBool   pinned = PETSC_FALSE;
    cudaError_t err    = cudaHostRegister((void *)src, bytes, cudaHostRegisterDefault);

    if (err == cudaSuccess) pinned = PETSC_TRUE;
    else {
      (void)cudaGetLastError(); /* not sticky: clear it */
      PetscCall(PetscInfo(NULL, "gpurcm cuda: cudaHostRegister() of %zu bytes refused (%s): pageable copy\n", bytes, cudaGetErrorString(err)));
    }
    PetscCallCUDA(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
    if (pinned) PetscCallCUDA(cudaHostUnregister((void *)src));
  } else PetscCallCUDA(cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* a host CSR's row pointers (n + 1) and columns (nnz) to the device: staged together (one set of copying threads) */
static PetscErrorCode GPURCMUploadCSR(PetscInt *d_ia, const PetscInt *ia, PetscInt n, PetscInt *d_ja, const PetscInt *ja, PetscInt nnz, const MatGPURCMCUDAOptions *opt)
{
  const size_t iab = (size_t)(n + 1) * sizeof(PetscInt), jab = (size_t)nnz * sizeof(PetscInt);

  PetscFunctionBegin;
  if (opt->upload == MAT_GPURCM_CUDA_UPLOAD_STAGED) { /* under 64 KiB in all: the driver's copies */
    const PetscSparseGPUSegment seg[2] = {
      {d_ia, ia, iab},
      {d_ja, ja, jab}
    };
    PetscCall(PetscSparseGPUUpload(seg, 2, opt->uploadthreads, (size_t)64 << 10));
  } else {
    PetscCall(GPURCMUpload(d_ia, ia, iab, opt));
    PetscCall(GPURCMUpload(d_ja, ja, jab, opt));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* PETSc's CUDA device context, initialized once, makes the stream-ordered pool keep freed memory (release threshold
   UINT64_MAX): the temporaries of an ordering then cost no cudaMalloc() and their frees no device synchronization */
static PetscErrorCode GPURCMUsePETScPool(void)
{
  PetscDeviceContext dctx;

  PetscFunctionBegin;
  PetscCall(PetscDeviceContextGetCurrentContext(&dctx));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatGPURCMCUDAOrderGraph_Private(PetscInt n, const PetscInt ia[], const PetscInt ja[], PetscMemType mtype, const MatGPURCMCUDAOptions *opt, PetscInt perm[])
{
  PetscInt          *d_ia = NULL, *d_ja = NULL, nnz;
  SparseGPUCUDATrace tr;

  PetscFunctionBegin;
  if (n == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(GPURCMUsePETScPool());
  PetscCall(SparseGPUCUDATraceStart(&tr));
  if (PetscMemTypeHost(mtype)) {
    nnz = ia[n];
    PetscCallCUDA(cudaMallocAsync((void **)&d_ia, (n + 1) * sizeof(PetscInt), 0));
    PetscCallCUDA(cudaMallocAsync((void **)&d_ja, (nnz > 0 ? nnz : 1) * sizeof(PetscInt), 0));
    PetscCall(GPURCMUploadCSR(d_ia, ia, n, d_ja, ja, nnz, opt));
    PetscCall(PetscLogCpuToGpu((n + 1 + nnz) * sizeof(PetscInt)));
    PetscCall(SparseGPUCUDATraceStage(&tr, "upload"));
    PetscCall(GPURCMOrderDeviceGraph(n, d_ia, d_ja, nnz, opt, NULL, perm, NULL, &tr, NULL));
    PetscCallCUDA(cudaFreeAsync(d_ia, 0));
    PetscCallCUDA(cudaFreeAsync(d_ja, 0));
    PetscCall(SparseGPUCUDATraceStage(&tr, "free"));
  } else {
    PetscCallCUDA(cudaMemcpy(&nnz, ia + n, sizeof(PetscInt), cudaMemcpyDeviceToHost));
    PetscCall(GPURCMOrderDeviceGraph(n, ia, ja, nnz, opt, NULL, perm, NULL, &tr, NULL));
  }
  PetscCall(GPURCMTraceReport(&tr, n, nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

PetscErrorCode MatGPURCMCUDAOrderCSR_Private(PetscInt m, const PetscInt ai[], const PetscInt aj[], PetscMemType mtype, PetscInt nnodes, const PetscInt sizes[], PetscBool flagged, const MatGPURCMCUDAOptions *opt, GPURCMHostWork *hw, PetscInt perm[], PetscInt perm2[], PetscBool *ordered, PetscBool *declined)
{
  const PetscInt *d_ai = ai, *d_aj = aj;
  PetscInt       *u_ai = NULL, *u_aj = NULL, *d_nkeys, *d_koff, *d_rowcnt, *d_gia, *d_gja, *d_tns = NULL, *d_tvc = NULL, *d_sizes = NULL, annz, nkeys;
  const PetscInt  n = sizes ? nnodes : m; /* graph nodes */
  GKey           *keys, *keys2;
  void           *tmp   = NULL;
  size_t          bytes = 0;
  int             grid  = GPURCMGrid(n);
  SparseGPUCUDATrace tr;

  PetscFunctionBegin;
  PetscCheck(!flagged || !sizes, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpurcm cuda: PETSc symmetrizes an inode-compressed graph, flagged or not");
  *ordered  = PETSC_TRUE;
  *declined = PETSC_FALSE;
  if (n == 0) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(GPURCMUsePETScPool());
  PetscCall(SparseGPUCUDATraceStart(&tr));
  PetscCheck((unsigned long long)m < (1ULL << 31), PETSC_COMM_SELF, PETSC_ERR_SUP, "gpurcm cuda: %" PetscInt_FMT " rows: too many for the GPU graph keys (2^31)", m);
  PetscCall(PetscLogEventBegin(MAT_GPURCM_Graph, 0, 0, 0, 0));
  if (PetscMemTypeHost(mtype)) { /* upload the CSR of a host matrix */
    annz = ai[m];
    PetscCallCUDA(cudaMallocAsync((void **)&u_ai, (m + 1) * sizeof(PetscInt), 0));
    PetscCallCUDA(cudaMallocAsync((void **)&u_aj, (annz > 0 ? annz : 1) * sizeof(PetscInt), 0));
    PetscCall(GPURCMUploadCSR(u_ai, ai, m, u_aj, aj, annz, opt));
    PetscCall(PetscLogCpuToGpu((m + 1 + annz) * sizeof(PetscInt)));
    d_ai = u_ai;
    d_aj = u_aj;
  } else PetscCallCUDA(cudaDeviceSynchronize()); /* the matrix's device CSR may still be in flight on PETSc's stream */
  PetscCall(SparseGPUCUDATraceStage(&tr, "upload"));
  if (!sizes) { /* a structurally symmetric CSR is the graph: no symmetrization, no sort */
    unsigned long long *d_acc, acc[3];
    PetscBool           symmetric;

    PetscCallCUDA(cudaMallocAsync((void **)&d_acc, 3 * sizeof(unsigned long long), 0));
    PetscCallCUDA(cudaMemsetAsync(d_acc, 0, 3 * sizeof(unsigned long long), 0));
    GPURCMSymCheckKernel<<<grid, 256>>>(m, d_ai, d_aj, d_acc);
    PetscCallCUDA(cudaGetLastError());
    PetscCallCUDA(cudaMemcpy(acc, d_acc, 3 * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    PetscCallCUDA(cudaFreeAsync(d_acc, 0));
    PetscCall(SparseGPUCUDATraceStage(&tr, "symcheck"));
    symmetric = (PetscBool)(!acc[2] && acc[0] == acc[1]);
    PetscCall(PetscInfo(NULL, "gpurcm cuda: the matrix is %sstructurally symmetric%s\n", symmetric ? "" : "not ", symmetric ? ": its CSR is the graph" : (flagged ? " (though flagged so): not ordered on the GPU" : ": graph built by sorting")));
    if (flagged && !symmetric) { /* a wrong flag: PETSc's graph is this raw, unsymmetric CSR */
      if (u_ai) PetscCallCUDA(cudaFreeAsync(u_ai, 0));
      if (u_aj) PetscCallCUDA(cudaFreeAsync(u_aj, 0));
      PetscCall(PetscLogEventEnd(MAT_GPURCM_Graph, 0, 0, 0, 0));
      *ordered = PETSC_FALSE;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
    if (symmetric) {
      PetscCallCUDA(cudaMemcpy(&nkeys, d_ai + m, sizeof(PetscInt), cudaMemcpyDeviceToHost));
      PetscCall(PetscLogEventEnd(MAT_GPURCM_Graph, 0, 0, 0, 0));
      PetscCall(SparseGPUCUDATraceStage(&tr, "graph"));
      PetscCall(GPURCMOrderDeviceGraph(n, d_ai, d_aj, nkeys, opt, hw, perm, perm2, &tr, declined));
      if (*declined) *ordered = PETSC_FALSE;
      if (u_ai) PetscCallCUDA(cudaFreeAsync(u_ai, 0));
      if (u_aj) PetscCallCUDA(cudaFreeAsync(u_aj, 0));
      PetscCall(SparseGPUCUDATraceStage(&tr, "free"));
      PetscCall(GPURCMTraceReport(&tr, n, nkeys));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  if (sizes) { /* inode starts and column-to-inode map, from the inode sizes (nnodes integers) */
    PetscCallCUDA(cudaMallocAsync((void **)&d_sizes, (n + 1) * sizeof(PetscInt), 0));
    PetscCallCUDA(cudaMallocAsync((void **)&d_tns, (n + 1) * sizeof(PetscInt), 0));
    PetscCallCUDA(cudaMallocAsync((void **)&d_tvc, m * sizeof(PetscInt), 0));
    PetscCallCUDA(cudaMemset(d_sizes, 0, (n + 1) * sizeof(PetscInt)));
    PetscCallCUDA(cudaMemcpy(d_sizes, sizes, n * sizeof(PetscInt), cudaMemcpyHostToDevice));
    PetscCall(GPURCMExclusiveScan(d_sizes, d_tns, n));
    GPURCMInodeMapKernel<<<grid, 256>>>(n, d_tns, d_tvc);
    PetscCallCUDA(cudaGetLastError());
  }
  PetscCallCUDA(cudaMallocAsync((void **)&d_nkeys, (n + 1) * sizeof(PetscInt), 0));
  PetscCallCUDA(cudaMallocAsync((void **)&d_koff, (n + 1) * sizeof(PetscInt), 0));
  PetscCallCUDA(cudaMallocAsync((void **)&d_rowcnt, (n + 1) * sizeof(PetscInt), 0));
  PetscCallCUDA(cudaMallocAsync((void **)&d_gia, (n + 1) * sizeof(PetscInt), 0));
  PetscCallCUDA(cudaMemset(d_nkeys, 0, (n + 1) * sizeof(PetscInt)));
  PetscCallCUDA(cudaMemset(d_rowcnt, 0, (n + 1) * sizeof(PetscInt)));
  GPURCMLowerCountKernel<<<grid, 256>>>(n, d_ai, d_aj, d_tns, d_tvc, d_nkeys);
  PetscCallCUDA(cudaGetLastError());
  PetscCall(GPURCMExclusiveScan(d_nkeys, d_koff, n));
  PetscCallCUDA(cudaMemcpy(&nkeys, d_koff + n, sizeof(PetscInt), cudaMemcpyDeviceToHost));
  PetscCheck((unsigned long long)nkeys < (1ULL << 31), PETSC_COMM_SELF, PETSC_ERR_SUP, "gpurcm cuda: the symmetrized graph has %" PetscInt_FMT " entries, more than the GPU sort handles (2^31)", nkeys);
  PetscCallCUDA(cudaMallocAsync((void **)&keys, (nkeys > 0 ? nkeys : 1) * sizeof(GKey), 0));
  PetscCallCUDA(cudaMallocAsync((void **)&keys2, (nkeys > 0 ? nkeys : 1) * sizeof(GKey), 0));
  PetscCallCUDA(cudaMallocAsync((void **)&d_gja, (nkeys > 0 ? nkeys : 1) * sizeof(PetscInt), 0));
  GPURCMLowerEmitKernel<<<grid, 256>>>(n, d_ai, d_aj, d_tns, d_tvc, d_koff, keys, d_rowcnt);
  PetscCallCUDA(cudaGetLastError());
  if (nkeys > 0) { /* rows of PETSc's graph are ascending: sorting the keys (row, column) gives it */
    int endbit = 1;
    while (endbit < 64 && ((GKey)1 << endbit) < (GKey)n * (GKey)n) endbit++; /* keys row * n + col < n^2: sort only those bits */
    PetscCallCUDA(cub::DeviceRadixSort::SortKeys(tmp, bytes, keys, keys2, (int)nkeys, 0, endbit));
    PetscCallCUDA(cudaMallocAsync(&tmp, bytes, 0));
    PetscCallCUDA(cub::DeviceRadixSort::SortKeys(tmp, bytes, keys, keys2, (int)nkeys, 0, endbit));
    PetscCallCUDA(cudaFreeAsync(tmp, 0));
    GPURCMKeysToColsKernel<<<GPURCMGrid(nkeys), 256>>>(n, nkeys, keys2, d_gja);
    PetscCallCUDA(cudaGetLastError());
  }
  PetscCall(GPURCMExclusiveScan(d_rowcnt, d_gia, n));
  PetscCallCUDA(cudaFreeAsync(keys, 0));
  PetscCallCUDA(cudaFreeAsync(keys2, 0));
  PetscCallCUDA(cudaFreeAsync(d_nkeys, 0));
  PetscCallCUDA(cudaFreeAsync(d_koff, 0));
  PetscCallCUDA(cudaFreeAsync(d_rowcnt, 0));
  if (u_ai) PetscCallCUDA(cudaFreeAsync(u_ai, 0));
  if (u_aj) PetscCallCUDA(cudaFreeAsync(u_aj, 0));
  if (d_sizes) PetscCallCUDA(cudaFreeAsync(d_sizes, 0));
  if (d_tns) PetscCallCUDA(cudaFreeAsync(d_tns, 0));
  if (d_tvc) PetscCallCUDA(cudaFreeAsync(d_tvc, 0));
  PetscCall(PetscLogEventEnd(MAT_GPURCM_Graph, 0, 0, 0, 0));
  PetscCall(SparseGPUCUDATraceStage(&tr, "graph"));
  PetscCall(GPURCMOrderDeviceGraph(n, d_gia, d_gja, nkeys, opt, hw, perm, perm2, &tr, declined));
  if (*declined) *ordered = PETSC_FALSE;
  PetscCallCUDA(cudaFreeAsync(d_gia, 0));
  PetscCallCUDA(cudaFreeAsync(d_gja, 0));
  PetscCall(SparseGPUCUDATraceStage(&tr, "free"));
  PetscCall(GPURCMTraceReport(&tr, n, nkeys));
  PetscFunctionReturn(PETSC_SUCCESS);
}
