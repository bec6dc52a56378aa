/*
  MATORDERINGGPURCM ("gpurcm"): Reverse Cuthill-McKee ordering by speculative parallel batches
  (Mlakar, Winter, Parger, Steinberger, IPDPS 2021) on CPU threads or on the GPU, identical to PETSc's
  MATORDERINGRCM (SPARSEPACK genrcm on the graph of MatGetRowIJ(mat, symmetric, inode-compressed)).

  Backends: serial (exact port of SPARSEPACK genrcm/fnroot/rootls/rcm/degree, 0-based),
            threads (POSIX threads + C11 atomics), cuda (gpurcm.cu).
*/
#if !defined(_GNU_SOURCE)
  #define _GNU_SOURCE 1 /* pthread_barrier_*, sysconf(_SC_NPROCESSORS_ONLN), sched_getaffinity under strict -std=c99 */
#endif
#include <petscsparsegpu.h> /*I "petscsparsegpu.h" I*/
#include <petsc/private/matimpl.h>
#include "gpurcmimpl.h"

#if defined(PETSC_HAVE_PTHREAD) && defined(PETSC_HAVE_STDATOMIC_H) && !defined(__STDC_NO_ATOMICS__)
  #define GPURCM_HAVE_THREADS 1
  #include <pthread.h>
  #include <sched.h>
  #include <time.h>
  #include <stdatomic.h>
  #include <stdint.h>
  #include <stdlib.h>
  #include <unistd.h>
#endif

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

/* ------------------------------------------------------------------------------------------------
   Serial reference: SPARSEPACK genrcm, 0-based. mask[v] != 0 means v is not yet numbered.
   ------------------------------------------------------------------------------------------------ */

/* rootls: level structure rooted at root among masked nodes; xls[0..nlvl] level starts (xls[nlvl] = size) */
static void GPURCMRootls(PetscInt root, const PetscInt *ia, const PetscInt *ja, PetscInt *mask, PetscInt *nlvl, PetscInt *xls, PetscInt *ls)
{
  PetscInt nl = 0, lvlend = 0, cc = 1, lbegin;

  mask[root] = 0;
  ls[0]      = root;
  do {
    lbegin      = lvlend;
    lvlend      = cc;
    xls[nl++]   = lbegin;
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
  xls[nl] = lvlend;
  for (PetscInt i = 0; i < cc; i++) mask[ls[i]] = 1;
  *nlvl = nl;
}

/* Number of masked neighbours of node (SPARSEPACK's degree in the section graph) */
static inline PetscInt GPURCMMaskedDegree(PetscInt node, const PetscInt *ia, const PetscInt *ja, const PetscInt *mask)
{
  PetscInt d = 0;
  for (PetscInt k = ia[node]; k < ia[node + 1]; k++) d += (mask[ja[k]] > 0);
  return d;
}

/* fnroot's next root: the first node of list[0..n) (a last level in rootls's order) of smallest masked degree (mask NULL:
   the row length, the masked degree in a graph known symmetric, whose component is all unmasked); *tie: another node
   has that degree too. (SPARSEPACK starts from the bound ccsize and keeps list[0] unless a degree is smaller; a degree
   never exceeds ccsize, so the first minimum is the same node.) */
static inline PetscInt GPURCMFirstMinDegree(PetscInt n, const PetscInt *list, const PetscInt *ia, const PetscInt *ja, const PetscInt *mask, PetscBool *tie)
{
  PetscInt best = list[0], mindeg = mask ? GPURCMMaskedDegree(list[0], ia, ja, mask) : ia[list[0] + 1] - ia[list[0]];

  *tie = PETSC_FALSE;
  for (PetscInt j = 1; j < n; j++) {
    const PetscInt d = mask ? GPURCMMaskedDegree(list[j], ia, ja, mask) : ia[list[j] + 1] - ia[list[j]];
    if (d < mindeg) {
      best   = list[j];
      mindeg = d;
      *tie   = PETSC_FALSE;
    } else if (d == mindeg) *tie = PETSC_TRUE;
  }
  return best;
}

/* fnroot: pseudo-peripheral node of the component of root; SPARSEPACK's return rule */
static void GPURCMFnroot(PetscInt *root, const PetscInt *ia, const PetscInt *ja, PetscInt *mask, PetscInt *xls, PetscInt *ls)
{
  PetscInt nlvl, nunlvl, cc;

  GPURCMRootls(*root, ia, ja, mask, &nlvl, xls, ls);
  cc = xls[nlvl];
  if (nlvl == 1 || nlvl == cc) return;
  for (;;) {
    PetscBool tie;

    *root = GPURCMFirstMinDegree(cc - xls[nlvl - 1], ls + xls[nlvl - 1], ia, ja, mask, &tie);
    GPURCMRootls(*root, ia, ja, mask, &nunlvl, xls, ls);
    if (nunlvl <= nlvl) return;
    nlvl = nunlvl;
    if (nlvl >= cc) return;
  }
}

/* The sort key of node v: key[v] when a key array is given, else v's row length in the graph (its degree there) */
static inline PetscInt GPURCMSortKey(const PetscInt *key, const PetscInt *ia, PetscInt v)
{
  return key ? key[v] : ia[v + 1] - ia[v];
}

/* Stable sort of a[0..n) by GPURCMSortKey() (insertion for short runs or without tmp, merge sort with tmp otherwise) */
static void GPURCMStableSort(PetscInt n, PetscInt *a, const PetscInt *key, const PetscInt *ia, PetscInt *tmp)
{
  if (n < 2) return;
  if (n <= 24 || !tmp) {
    for (PetscInt k = 1; k < n; k++) {
      const PetscInt v = a[k], kv = GPURCMSortKey(key, ia, v);
      PetscInt       l = k - 1;
      while (l >= 0 && GPURCMSortKey(key, ia, a[l]) > kv) {
        a[l + 1] = a[l];
        l--;
      }
      a[l + 1] = v;
    }
    return;
  }
  {
    const PetscInt h = n / 2;
    PetscInt       i = 0, j = h, o = 0;

    GPURCMStableSort(h, a, key, ia, tmp);
    GPURCMStableSort(n - h, a + h, key, ia, tmp);
    if (GPURCMSortKey(key, ia, a[h - 1]) <= GPURCMSortKey(key, ia, a[h])) return;
    while (i < h && j < n) tmp[o++] = (GPURCMSortKey(key, ia, a[j]) < GPURCMSortKey(key, ia, a[i])) ? a[j++] : a[i++];
    while (i < h) tmp[o++] = a[i++];
    while (j < n) tmp[o++] = a[j++];
    for (i = 0; i < n; i++) a[i] = tmp[i];
  }
}

/* Cuthill-McKee from root, not reversed: perm[0..cc) level by level, FIFO, each node's unnumbered neighbours in
   adjacency order stably sorted by deg[] (NULL: the row length, the degree in a graph known symmetric); *nlvl
   levels, the last from perm[*last]; the numbered nodes' mask entries are left 0 */
static void GPURCMCuthillMcKee(PetscInt root, const PetscInt *ia, const PetscInt *ja, PetscInt *mask, const PetscInt *deg, PetscInt *perm, PetscInt *ccsize, PetscInt *nlvl, PetscInt *last, PetscInt *tmp)
{
  PetscInt tail = 1, lbeg = 0, nl = 0;

  perm[0]    = root;
  mask[root] = 0;
  while (lbeg < tail) { /* (runs at least once: *last is set) */
    const PetscInt lend = tail;

    nl++;
    *last = lbeg;
    for (PetscInt i = lbeg; i < lend; i++) {
      const PetscInt node = perm[i], fnbr = tail;
      for (PetscInt j = ia[node]; j < ia[node + 1]; j++) {
        const PetscInt nbr = ja[j];
        if (!mask[nbr]) continue;
        mask[nbr]    = 0;
        perm[tail++] = nbr;
      }
      GPURCMStableSort(tail - fnbr, perm + fnbr, deg, ia, tmp);
    }
    lbeg = lend;
  }
  *ccsize = tail;
  *nlvl   = nl;
}

static inline void GPURCMReverse(PetscInt n, PetscInt *perm)
{
  for (PetscInt i = 0, l = n - 1; i < l; i++, l--) {
    const PetscInt t = perm[i];
    perm[i]          = perm[l];
    perm[l]          = t;
  }
}

/*
  SPARSEPACK's fnroot then rcm on a symmetric graph (the same permutation), with every candidate root's pass (after the
  first) run as the Cuthill-McKee numbering from it, whose levels are rootls's: when fnroot returns that candidate
  the numbering is kept, which saves the pass the numbering would repeat (as -mat_gpurcm_speculate in the parallel
  backends). A rejected candidate's last level is needed in rootls's order only where several of its nodes share the
  smallest degree (fnroot takes the first): then rootls runs for it. perm: the component's RCM order; ls = perm as
  workspace.
*/
static void GPURCMFnrootRcmSpeculative(PetscInt root, const PetscInt *ia, const PetscInt *ja, PetscInt *mask, PetscInt *xls, PetscInt *perm, PetscInt *ccsize, PetscInt *tmp)
{
  PetscInt  nlvl, nunlvl, cc, cand = root, last;
  PetscBool tie;

  GPURCMRootls(root, ia, ja, mask, &nlvl, xls, perm);
  cc = xls[nlvl];
  if (nlvl > 1 && nlvl < cc) {
    cand = GPURCMFirstMinDegree(cc - xls[nlvl - 1], perm + xls[nlvl - 1], ia, ja, NULL, &tie);
    for (;;) {
      GPURCMCuthillMcKee(cand, ia, ja, mask, NULL, perm, &cc, &nunlvl, &last, tmp);
      if (nunlvl <= nlvl || nunlvl >= cc) break; /* fnroot returns cand: its numbering is kept */
      nlvl = nunlvl;
      for (PetscInt k = 0; k < cc; k++) mask[perm[k]] = 1; /* dropped */
      root = cand;
      cand = GPURCMFirstMinDegree(cc - last, perm + last, ia, ja, NULL, &tie);
      if (tie) { /* fnroot takes the first of equals in rootls's order of the last level */
        GPURCMRootls(root, ia, ja, mask, &nunlvl, xls, perm);
        cand = GPURCMFirstMinDegree(cc - xls[nunlvl - 1], perm + xls[nunlvl - 1], ia, ja, NULL, &tie);
      }
    }
  } else GPURCMCuthillMcKee(root, ia, ja, mask, NULL, perm, &cc, &nunlvl, &last, tmp); /* fnroot returns root */
  GPURCMReverse(cc, perm);
  *ccsize = cc;
}

/* rcm: numbers the component of root (Cuthill-McKee then reversed) into perm[0..cc); deg/mark are work arrays (mark
   zero on entry and exit). symmetric: the graph is known symmetric, so a node's SPARSEPACK degree (its masked
   neighbours: the whole component is unnumbered and no edge leaves it) is its row length, and the degree pass (a
   BFS of its own over the component, about a fifth of the serial ordering) is skipped */
static void GPURCMRcm(PetscInt root, const PetscInt *ia, const PetscInt *ja, PetscInt *mask, PetscInt *perm, PetscInt *ccsize, PetscInt *deg, PetscInt *mark, PetscInt *tmp, PetscBool symmetric)
{
  PetscInt cc = 1, cm, nlvl, last;

  if (!symmetric) {
    /* SPARSEPACK degree: degrees in the section graph, component listed level by level into perm */
    perm[0]    = root;
    mark[root] = 1;
    for (PetscInt i = 0; i < cc; i++) {
      const PetscInt node = perm[i];
      PetscInt       ideg = 0;
      for (PetscInt j = ia[node]; j < ia[node + 1]; j++) {
        const PetscInt nbr = ja[j];
        if (!mask[nbr]) continue;
        ideg++;
        if (mark[nbr]) continue;
        mark[nbr]  = 1;
        perm[cc++] = nbr;
      }
      deg[node] = ideg;
    }
    for (PetscInt i = 0; i < cc; i++) mark[perm[i]] = 0;
  } else deg = NULL;
  GPURCMCuthillMcKee(root, ia, ja, mask, deg, perm, &cm, &nlvl, &last, tmp);
  if (symmetric) cc = cm; /* else SPARSEPACK's count, as rcm reverses */
  *ccsize = cc;
  GPURCMReverse(cc, perm);
}

/* one component, from its first node root: fnroot then rcm, speculative where allowed (a symmetric graph) */
static void GPURCMOrderComponent(PetscInt root, const PetscInt *ia, const PetscInt *ja, PetscInt *mask, PetscInt *xls, PetscInt *perm, PetscInt *ccsize, PetscInt *deg, PetscInt *mark, PetscInt *tmp, PetscBool symmetric, PetscBool speculate)
{
  if (symmetric && speculate) GPURCMFnrootRcmSpeculative(root, ia, ja, mask, xls, perm, ccsize, tmp);
  else {
    GPURCMFnroot(&root, ia, ja, mask, xls, perm);
    GPURCMRcm(root, ia, ja, mask, perm, ccsize, deg, mark, tmp, symmetric);
  }
}

/* Is the CSR (n rows, 0-based) structurally symmetric with strictly ascending rows? One pass in row order: the
   entries (r, c) above the diagonal, met in ascending r, must be the entries below the diagonal of each row c in their
   stored order, matched through a cursor per row (cur[], n entries of workspace); equal totals then leave none
   unmatched. O(nnz); a binary search per entry instead took 1.7x the time of PETSc's symmetrization on 27-point meshes. */
static PetscBool GPURCMCSRIsSymmetric(PetscInt n, const PetscInt *ia, const PetscInt *ja, PetscInt *cur)
{
  PetscInt64 nlow = 0, nup = 0;

  for (PetscInt r = 0; r < n; r++) cur[r] = ia[r];
  for (PetscInt r = 0; r < n; r++) {
    PetscInt prev = -1;

    for (PetscInt k = ia[r]; k < ia[r + 1]; k++) {
      const PetscInt c = ja[k];

      if (c <= prev || c >= n) return PETSC_FALSE;
      prev = c;
      if (c < r) nlow++;
      else if (c > r) {
        if (cur[c] == ia[c + 1] || ja[cur[c]] != r) return PETSC_FALSE;
        cur[c]++;
        nup++;
      }
    }
  }
  return (PetscBool)(nlow == nup);
}

PetscErrorCode MatGPURCMSerial_Private(PetscInt n, const PetscInt ia[], const PetscInt ja[], PetscBool symmetric, PetscBool speculate, PetscInt perm[])
{
  PetscInt *mask, *xls, *deg, *mark, *tmp, num = 0;

  PetscFunctionBegin;
  if (n == 0) PetscFunctionReturn(PETSC_SUCCESS);
  if (n == 1) {
    perm[0] = 0;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscMalloc5(n, &mask, n + 1, &xls, n, &deg, n, &mark, n, &tmp));
  for (PetscInt i = 0; i < n; i++) mask[i] = 1, mark[i] = 0;
  for (PetscInt i = 0; i < n && num < n; i++) {
    PetscInt cc;
    if (!mask[i]) continue;
    GPURCMOrderComponent(i, ia, ja, mask, xls, perm + num, &cc, deg, mark, tmp, symmetric, speculate);
    num += cc;
  }
  PetscCall(PetscFree5(mask, xls, deg, mark, tmp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

#if defined(GPURCM_HAVE_THREADS)
/* ------------------------------------------------------------------------------------------------
   Threads backend: speculative parallel batches.

   One BFS "job" (a rootls pass of the root finder, or the Cuthill-McKee numbering) fills a queue q[]
   with q[0] = root. A batch is a contiguous range of already-enqueued parents; workers take batch
   tickets in order. Batch b:
     1. range: start = end of batch b-1; end = min(start + chunk, latest published tail) with chunk between
        B and 16 B parents (the queued work shared among the threads); if the queue is exhausted (all
        earlier batches published and tail == start) the job is done;
     2. waits until its parents are written (q[p] >= 0);
     3. discovers speculatively: owner[v] = min(owner[v], key(p)) for every neighbour v of parent p; the
        neighbours whose key p lowered are its candidates (in row order; repeated entries once);
     4. signal "discovered" along the chain (after batch b-1's), so every earlier parent's claim is in;
     5. validates: the children of p are its candidates with owner[v] == key(p) (final now), in row
        order, stably sorted by degree for the numbering;
     6. signal the count: tail(b) = tail(b-1) + count (early, before writing);
     7. writes its children at [tail(b-1), tail(b)) with release stores.
   A batch only waits on earlier tickets, which are held by running threads: no deadlock. The result
   is the serial FIFO order since every node's parent is its earliest neighbour in the queue.
   Keys: (epoch part) << 40 | (pos + 1); the root gets (epoch part) | 0. A new job uses a smaller
   epoch part, so old keys never hide new claims. Valid for symmetric graphs (checked by the caller).
   ------------------------------------------------------------------------------------------------ */
typedef int64_t GPURCMKey;
/* fine blocks of rows per thread in the graph's construction (receivers take runs of them) */
  #define GPURCM_BUILD_FINE 8
  #define GPURCM_POS_BITS  40
  #define GPURCM_EPOCH_MAX ((GPURCMKey)1 << 22)
/* keys of the narrow level numbering (job 13) inside the 40 position bits: level % 4 << 38 | thread << 28 | index in
   the thread's list of the level */
  #define GPURCM_LEVEL_SHIFT   38
  #define GPURCM_LOCAL_BITS    28
  #define GPURCM_LEVEL_THREADS 1024
/* job 13: a child with a longer row than this (a hub) has its parent noted in owner[v] by the first parent that scans
   its row, with this bit set (the rest then tells the pass; INT64_MAX, owner[]'s initial value, has the bit too and is
   no note): the other parents read the note instead of scanning the row again (deg^2 steps when they share the hub) */
  #define GPURCM_LEVEL_SCAN_MAX 64
  #define GPURCM_PARENT_NOTE    ((GPURCMKey)1 << 62)

typedef struct {
  PetscInt  cap, *child, *tmp;
  PetscInt *cnt;
  PetscInt  nlow, nup; /* job 9: entries below/above the diagonal in the thread's rows */
  PetscInt  nroots;    /* job 16: components whose root (smallest node) is in the thread's range */
  int       asym;      /* job 9: the thread found an unsorted row, a column out of range or an entry without mirror */
  /* job 10 (level BFS, owner computes): the thread's nodes of the current and the next level (at most its range's
     size each), its outboxes (nodes of the next level owned by thread d, parity p of the level: ob[p * nthreads + d]),
     and per level parity the smallest degree of its nodes of that level, how many have it and the first of them */
  PetscInt *lvcur, *lvnxt;
  PetscInt **ob, *obn, *obcap;
  PetscInt  stmin[2], stcnt[2], stnode[2];
  /* job 12 (level numbering): children per parent of the thread's share of the level, their total */
  PetscInt *lvc, lvccap;
  _Alignas(64) PetscInt lvtot;
  /* job 13 (narrow level numbering): the thread's children of the levels of parity 0 and 1 in rank order, their count */
  PetscInt *lvch[2], lvchcap[2];
  PetscInt  lvcnt[2];
#if defined(GPURCM_PROFILE)
  /* developer diagnostic (build with -DGPURCM_PROFILE): the level barriers seen by this thread, in TSC ticks, apart
     for the root finder's BFS (job 10: [0]) and the numberings ([1]): work (from its last barrier of the job to the
     next one), wait (entry to exit), the wait after the last arrival; its arrival time (read by the last arriver) and
     its last exit */
  uint64_t pfbars[2], pfwork[2], pfwait[2], pfafter[2], pfarrive, pfexit;
#endif
} GPURCMThreadWork;

typedef struct _GPURCMThreads {
  PetscInt        n, nthreads, B, Bmax;
  const PetscInt *ia, *ja;
  _Atomic GPURCMKey *owner;
  _Atomic PetscInt  *ls, *cm; /* queues of the root finder and of the numbering (-1 = not yet written) */
  PetscInt          *lev;     /* level of the node at each position of the current job's queue */
  _Atomic PetscInt  *bend, *btail;
  _Atomic int       *bdisc;
  PetscInt           nbatchcap;
  /* current job */
  _Atomic PetscInt *q;
  PetscBool         numbering;
  PetscBool         speculate; /* the root finder's candidate passes are numberings (-mat_gpurcm_speculate) */
  int               lvjob;     /* the current component's numbering: 0 by batches, 12 level by level, 13 narrow levels */
  PetscInt          lvmode;    /* -mat_gpurcm_threads_number: MatGPURCMThreadsNumber */
  GPURCMKey         hi;
  PetscInt          epoch;
  _Atomic PetscInt  ticket, pubtail, npub;
  _Atomic int       done, failed;
  int               maysleep; /* spin-waits may sleep (GPURCMPause()) */
  int               job; /* job: 0 batch BFS, 1 initialize, 2 clear the root finder's queue, 3 write the reversed numbering, 11 clear the numbering's queue, 12 level numbering, 19 copy perm */
  PetscInt          jobn, jobout; /* size of a parallel-for job, output offset of job 3 */
  PetscInt         *perm, *mask, *mark;
  PetscInt         *permcopy; /* job 19: the column IS's array, a copy of perm made by the threads */
  /* parallel construction of PETSc's symmetrized lower-triangle graph from a raw CSR (ai, aj), without atomics: each
     thread scans the graph rows of its range and sends the mirror (c, r) of each of their entries c < r, as a pair, to
     the bucket of the fine block of rows (GPURCM_BUILD_FINE per thread) that holds row c; then each thread takes a run
     of fine blocks (chosen to balance entries and mirrors: on random columns the first rows get most mirrors), counts
     and places the mirrors of its rows itself. Buckets are laid out by fine block, senders in ascending order, and
     each sender scans its rows in ascending order: a receiver reads each row's pairs in ascending r, the order of
     PETSc's row-by-row construction, so no row needs sorting. (The former version placed mirrors with an atomic cursor
     per row: on random columns every atomic waited for the previous entry's cache-missing store, and 2 threads built
     the graph of powerlaw:256k:16 in 118 ms, 4.5 times PETSc's serial MatGetRowIJ().) */
  const PetscInt   *ai, *aj, *tns, *tvc; /* tns/tvc: inode starts and column-to-inode map (NULL: no inodes) */
  PetscInt         *gia, *gja, *rowlow, *tsum, *ucnt;
  PetscInt          nfine;   /* fine blocks of rows: nfine = GPURCM_BUILD_FINE * nthreads, thread t scans blocks [8t, 8t + 8) */
  double            fscale;  /* nfine / n: a first guess of the fine block of a row */
  PetscInt          bstride; /* row length of bcnt (a multiple of 16: each sender's counts in their own cache lines) */
  PetscInt         *bcnt;    /* bcnt[sender * bstride + fine block]: the bucket's size, then its write cursor */
  PetscInt         *flo;     /* nfine + 1: the fine blocks' first rows (GPURCMForJob()'s ranges split in GPURCM_BUILD_FINE) */
  PetscInt         *fown;    /* nfine: entries the rows of each fine block take themselves */
  PetscInt         *fbeg;    /* nfine + 1: where each fine block's buckets start in pairs[] (in pairs) */
  PetscInt         *fobeg;   /* nfine + 1: where each fine block's rows' own entries start in ownbuf[] */
  PetscInt         *ownbuf;  /* with inodes, the rows' own entries in row order (the scan is not made a third time) */
  PetscInt         *qfb;     /* nthreads + 1: the receivers' first fine blocks (receiver s: rows flo[qfb[s]] to flo[qfb[s + 1]]) */
  PetscInt         *pairs;   /* (c, r) of each mirror, 2 entries a mirror */
  /* components after the first (-mat_gpurcm_threads_components): labelled by a lock-free union-find (each tree's root
     its smallest node), those of at most cmax nodes ordered by SPARSEPACK's serial code, a thread each, at their
     offsets in perm, the larger ones by all threads after them */
  PetscBool         components;
  _Atomic PetscInt *cpar, *csize;       /* union-find parents, then each node's component (its root); sizes by root */
  PetscInt         *croots, *coff;      /* the components' roots in ascending order, their offsets in perm */
  PetscInt          ncomp, cmax;        /* components, the largest ordered by one thread */
  _Atomic PetscInt  cticket;
  _Atomic int       cfailed;             /* job 18: 1 a size changed (graph not symmetric), 2 out of memory */
  struct _GPURCMPool *pool; /* the threads, their barrier and the node arrays */
  GPURCMThreadWork   *work;
  /* level-synchronous BFS of the root finder (job 10) from lvroot: vis[v] == stamp marks v reached in the current
     pass (set by v's owner thread only); results of the pass: number of levels,
     size of the last level, nodes reached */
  _Atomic PetscInt *vis;
  PetscInt          stamp, lsnlvl, lslast, lscc, lsmaxw, lvroot;
  PetscInt          ownblocks, ownR; /* job 10: node v belongs to thread (v / ownR) % nthreads, ownblocks blocks of ownR nodes per thread */
  uint16_t         *own;             /* job 10: the owner thread of each node */
  PetscLogDouble    ttouch[2];        /* -info: when the first touch of the node arrays began and ended */
  _Atomic uint64_t *inmask; /* job 10: per level parity and receiving thread, the bits of the threads that sent it nodes (rows of GPURCM_INMASK_STRIDE(nthreads) words) */
  /* spin barrier of job 10, which also sums one count per thread: arrivals << 40 | sum so far (its own cache line),
     and the generation with the last sum (another line, the one the waiting threads poll) */
  _Alignas(64) _Atomic uint64_t sbcount;
  _Alignas(64) _Atomic unsigned sbgen;
  PetscInt                      sbsum;
#if defined(GPURCM_PROFILE)
  uint64_t pflast, pfskew[2]; /* the last arrival of the current barrier; the sum over barriers of last - first arrival */
  uint64_t ttsc[2];        /* the ticks at the ordering's start and end, beside PetscTime()'s: ticks to ns */
#endif
} GPURCMThreads;

/* 64-bit words of one receiver's sender bits, padded to a cache line */
  #define GPURCM_INMASK_STRIDE(nt) (8 * (((nt) + 511) / 512))

/* A spin-wait step: a pause hint, the core yielded every 256 steps and, once the wait has taken
   GPURCM_SPIN_SLEEP_AFTER steps, at every step (the count stays there). When the pool's threads share cores (maysleep:
   more of them, with the node's other runnable threads, than cores; -mat_gpurcm_threads_wait), once one wait has
   taken GPURCM_SPIN_SLEEP_AFTER steps (about 0.1 ms) the thread it waits for is probably not running, and each
   further step sleeps GPURCM_SPIN_SLEEP_NS instead: sched_yield() does not hand the core to a thread queued on
   another core, so spinning threads could hold every core while the one they wait for waits for a time slice, at
   every level and batch (bench_order, 4 threads on 2 cores of which one busy: 2D 300^2 702 -> 27 ms, 27-point 40^3
   176 -> 21 ms). With a core each they only spin: a thread preempted for a moment would otherwise put the others to
   sleep, each hand-off along the batch chain would then wait for a sleeper to wake, the waits would stay long and
   the sleeping would feed itself (16 threads on the H100 machine's 16 cores: 2D 1000^2 median 600 ms, min 29 ms,
   session 39). Each wait starts its count at 0. */
  #define GPURCM_SPIN_SLEEP_AFTER 4096
  #define GPURCM_SPIN_SLEEP_NS    20000
static inline void GPURCMPause(int *spins, int maysleep)
{
  if (*spins < GPURCM_SPIN_SLEEP_AFTER) ++(*spins);
  if (maysleep && *spins >= GPURCM_SPIN_SLEEP_AFTER) {
    const struct timespec ts = {0, GPURCM_SPIN_SLEEP_NS};
    (void)nanosleep(&ts, NULL);
  } else if (!(*spins & 255)) sched_yield();
  else {
  #if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
  #elif defined(__aarch64__)
    __asm__ __volatile__("yield");
  #endif
  }
}

#if defined(GPURCM_PROFILE)
  #if defined(__x86_64__) || defined(__i386__)
    #define GPURCMTicks() __builtin_ia32_rdtsc() /* invariant TSC: one clock for every core */
  #else
    #define GPURCMTicks() ((uint64_t)0) /* (no profile line is printed) */
  #endif
  #define GPURCMProfileKind(t) ((t)->job == 10 ? 0 : 1) /* the root finder's level BFS, or a numbering */
/* the barrier's diagnostic (-DGPURCM_PROFILE): the thread arrives (its arrival is published by the barrier's atomic add) */
static inline uint64_t GPURCMProfileArrive(GPURCMThreads *t, PetscInt tid)
{
  GPURCMThreadWork *w     = &t->work[tid];
  const uint64_t    enter = GPURCMTicks();

  if (w->pfexit) w->pfwork[GPURCMProfileKind(t)] += enter - w->pfexit;
  w->pfarrive = enter;
  return enter;
}

/* the last arriver, before it releases the others: the barrier's arrival skew and last arrival */
static inline void GPURCMProfileLast(GPURCMThreads *t, uint64_t enter)
{
  uint64_t first = enter;

  for (PetscInt i = 0; i < t->nthreads; i++) first = PetscMin(first, t->work[i].pfarrive);
  t->pfskew[GPURCMProfileKind(t)] += enter - first;
  t->pflast = enter;
}

/* the thread leaves the barrier */
static inline void GPURCMProfileExit(GPURCMThreads *t, PetscInt tid, uint64_t enter)
{
  GPURCMThreadWork *w = &t->work[tid];
  const int         k = GPURCMProfileKind(t);

  w->pfexit = GPURCMTicks();
  w->pfbars[k]++;
  w->pfwait[k] += w->pfexit - enter;
  w->pfafter[k] += w->pfexit - t->pflast;
}
#endif

/* Spinning barrier of the level-synchronous BFS (levels are short: a futex barrier would cost more than a level) that
   returns the sum of the threads' contributions (0 <= contrib < 2^40): one atomic add per thread carries both its
   arrival and its count. tid is used only by the -DGPURCM_PROFILE diagnostic. */
static PetscInt GPURCMSpinBarrierSum(GPURCMThreads *t, PetscInt tid, PetscInt contrib)
{
#if defined(GPURCM_PROFILE)
  const uint64_t enter = GPURCMProfileArrive(t, tid);
#else
  (void)tid;
#endif
  const unsigned gen = atomic_load_explicit(&t->sbgen, memory_order_acquire);
  const uint64_t old = atomic_fetch_add_explicit(&t->sbcount, ((uint64_t)1 << 40) | (uint64_t)contrib, memory_order_acq_rel);
  PetscInt       sum;

  if ((old >> 40) == (uint64_t)t->nthreads - 1) {
#if defined(GPURCM_PROFILE)
    GPURCMProfileLast(t, enter);
#endif
    sum = (PetscInt)((old & (((uint64_t)1 << 40) - 1)) + (uint64_t)contrib);
    atomic_store_explicit(&t->sbcount, 0, memory_order_relaxed);
    t->sbsum = sum;
    atomic_fetch_add_explicit(&t->sbgen, 1, memory_order_release);
  } else {
    int spins = 0;
    while (atomic_load_explicit(&t->sbgen, memory_order_acquire) == gen) GPURCMPause(&spins, t->maysleep);
    sum = t->sbsum;
  }
#if defined(GPURCM_PROFILE)
  GPURCMProfileExit(t, tid, enter);
#endif
  return sum;
}

static inline PetscInt GPURCMRowLen(const GPURCMThreads *t, PetscInt v)
{
  return t->ia[v + 1] - t->ia[v];
}

static int GPURCMWorkReserve(GPURCMThreadWork *w, PetscInt need)
{
  if (need <= w->cap) return 0;
  {
    PetscInt  cap   = PetscMax(2 * w->cap, need);
    PetscInt *child = (PetscInt *)realloc(w->child, (size_t)cap * sizeof(PetscInt));
    PetscInt *tmp;
    if (!child) return 1;
    w->child = child;
    tmp      = (PetscInt *)realloc(w->tmp, (size_t)cap * sizeof(PetscInt));
    if (!tmp) return 1;
    w->tmp = tmp;
    w->cap = cap;
  }
  return 0;
}

/* Claims of parent u with key: lowers owner[v] of each neighbour v to key where key is smaller; the neighbours it lowered
   (candidate children: a final child must have been lowered to this key by this parent) are appended to child[] at
   *count, in row order. The caller has reserved room for the row. */
static inline void GPURCMClaimNeighbours(GPURCMThreads *t, PetscInt u, GPURCMKey key, PetscInt *child, PetscInt *count)
{
  const PetscInt *ia = t->ia, *ja = t->ja;

  for (PetscInt k = ia[u]; k < ia[u + 1]; k++) {
    const PetscInt     v   = ja[k];
    _Atomic GPURCMKey *o   = &t->owner[v];
    GPURCMKey          cur = atomic_load_explicit(o, memory_order_relaxed);
    while (key < cur) {
      if (atomic_compare_exchange_weak_explicit(o, &cur, key, memory_order_relaxed, memory_order_relaxed)) {
        child[(*count)++] = v;
        break;
      }
    }
  }
}

/* Once every claim is made: keeps those of the ncand candidates cand[] that still carry key (in order) at child[*c] */
static inline void GPURCMKeepChildren(GPURCMThreads *t, GPURCMKey key, const PetscInt *cand, PetscInt ncand, PetscInt *child, PetscInt *c)
{
  for (PetscInt i = 0; i < ncand; i++) {
    const PetscInt v = cand[i];
    if (atomic_load_explicit(&t->owner[v], memory_order_relaxed) == key) child[(*c)++] = v;
  }
}

/* *list holds at least need entries: grown to at least twice its capacity and at least `least` entries (the smallest
   list worth allocating). Plain C (a worker thread's): 1 if out of memory */
static int GPURCMListReserve(PetscInt **list, PetscInt *cap, PetscInt need, PetscInt least)
{
  PetscInt *b;
  PetscInt  c;

  if (need <= *cap) return 0;
  c = PetscMax(PetscMax(2 * *cap, need), least);
  b = (PetscInt *)realloc(*list, (size_t)c * sizeof(PetscInt));
  if (!b) return 1;
  *list = b;
  *cap  = c;
  return 0;
}

/* The batch worker of one job (every thread, including the caller, runs it) */
static void GPURCMBatchWorker(GPURCMThreads *t, PetscInt tid)
{
  GPURCMThreadWork *w  = &t->work[tid];
  const PetscInt   *ia = t->ia;
  const GPURCMKey   hi = t->hi;
  _Atomic PetscInt *q  = t->q;

  for (;;) {
    PetscInt start, end, count = 0, base;
    int      spins = 0;
    PetscInt b;

    if (atomic_load_explicit(&t->done, memory_order_acquire)) return;
    b = atomic_fetch_add_explicit(&t->ticket, 1, memory_order_relaxed);
    if (b >= t->nbatchcap) return; /* cannot happen: a batch has at least one parent */
    /* 1. range */
    if (b == 0) start = 0;
    else {
      spins = 0;
      while ((start = atomic_load_explicit(&t->bend[b - 1], memory_order_acquire) - 1) < 0) { /* (stored + 1: 0 unset) */
        if (atomic_load_explicit(&t->done, memory_order_acquire)) return;
        GPURCMPause(&spins, t->maysleep);
      }
    }
    spins = 0;
    for (;;) {
      const PetscInt np = atomic_load_explicit(&t->npub, memory_order_acquire);
      const PetscInt pt = atomic_load_explicit(&t->pubtail, memory_order_acquire);
      if (pt > start) { /* batch size adapts to the queued work: at least B, at most Bmax parents */
        const PetscInt chunk = PetscMax(t->B, PetscMin(t->Bmax, (pt - start) / t->nthreads));
        end                  = PetscMin(start + chunk, pt);
        break;
      }
      if (np == b) { /* every earlier batch has published and nothing is left: the BFS is complete */
        atomic_store_explicit(&t->done, 1, memory_order_release);
        return;
      }
      if (atomic_load_explicit(&t->done, memory_order_acquire)) return;
      GPURCMPause(&spins, t->maysleep);
    }
    atomic_store_explicit(&t->bend[b], end + 1, memory_order_release);
    /* 2.+3. wait for each parent, then claim its neighbours speculatively; a neighbour whose key this parent
       lowered is a candidate child (a final child must have been lowered to this key by this parent) */
    for (PetscInt p = start; p < end; p++) {
      PetscInt        u, c0 = count;
      const GPURCMKey key = hi | (GPURCMKey)(p + 1);
      spins = 0;
      while ((u = atomic_load_explicit(&q[p], memory_order_acquire)) < 0) {
        if (atomic_load_explicit(&t->done, memory_order_acquire)) return;
        GPURCMPause(&spins, t->maysleep);
      }
      if (GPURCMWorkReserve(w, count + GPURCMRowLen(t, u))) {
        atomic_store(&t->failed, 1);
        atomic_store(&t->done, 1);
        return;
      }
      GPURCMClaimNeighbours(t, u, key, w->child, &count);
      w->cnt[p - start] = count - c0;
    }
    /* 4. discovered: after all earlier batches */
    if (b > 0) {
      spins = 0;
      while (!atomic_load_explicit(&t->bdisc[b - 1], memory_order_acquire)) {
        if (atomic_load_explicit(&t->done, memory_order_acquire)) return;
        GPURCMPause(&spins, t->maysleep);
      }
    }
    atomic_store_explicit(&t->bdisc[b], 1, memory_order_release);
    /* 5. validate: the children of p are its candidates that still carry its key (final now), in row order;
          for the numbering, stably sorted by degree */
    {
      PetscInt in = 0;
      count = 0;
      for (PetscInt p = start; p < end; p++) {
        const GPURCMKey key = hi | (GPURCMKey)(p + 1);
        const PetscInt  c0 = count, ncand = w->cnt[p - start];
        GPURCMKeepChildren(t, key, w->child + in, ncand, w->child, &count); /* in place: count <= in */
        in += ncand;
        if (t->numbering) GPURCMStableSort(count - c0, w->child + c0, NULL, ia, w->tmp);
        w->cnt[p - start] = count - c0;
      }
    }
    /* 6. publish the tail (early signal: before writing) */
    if (b == 0) base = 1;
    else {
      spins = 0;
      while ((base = atomic_load_explicit(&t->btail[b - 1], memory_order_acquire) - 1) < 0) {
        if (atomic_load_explicit(&t->done, memory_order_acquire)) return;
        GPURCMPause(&spins, t->maysleep);
      }
    }
    atomic_store_explicit(&t->pubtail, base + count, memory_order_relaxed);
    atomic_store_explicit(&t->npub, b + 1, memory_order_release);
    atomic_store_explicit(&t->btail[b], base + count + 1, memory_order_release);
    /* 7. write the children (levels first, then the release store of the node) */
    {
      PetscInt o = 0;
      for (PetscInt p = start; p < end; p++) {
        const PetscInt c = w->cnt[p - start], l = t->lev[p] + 1; /* levels in both modes: a numbering may be a root-finder pass */
        for (PetscInt i = 0; i < c; i++, o++) {
          t->lev[base + o] = l;
          atomic_store_explicit(&q[base + o], w->child[o], memory_order_release);
        }
      }
    }
  }
}

typedef struct {
  struct _GPURCMPool *pool;
  PetscInt            tid;
} GPURCMThreadArg;

/* The threads backend's pool: its threads (the caller is thread 0), parked in the barrier between jobs and between
   orderings, and the node arrays of an ordering (ws). Kept for the next ordering with the same thread count
   (-mat_gpurcm_threads_keep): on the H200 host's 16 cores (session 61, job 1) starting 15 threads took 2.1-2.3 ms and
   stopping them 0.4-0.6 ms of a 20 ms ordering of 1M nodes, and the fresh node arrays of 4M nodes 6 ms of page faults
   and 11 ms of frees of a 100 ms ordering. */
#define GPURCM_WS_PARTS 11
typedef struct _GPURCMPool {
  PetscInt          requested, nthreads; /* threads asked for and started */
  pthread_t        *threads;
  GPURCMThreadArg  *args;
  pthread_barrier_t barrier;
  _Atomic int       started;
  int               exit, hasbarrier;
  GPURCMThreads    *cur; /* the ordering the threads work for */
  PetscBool         busy;
  char             *ws; /* the node arrays (GPURCMPoolWorkspace()) of the kept pool, in one block */
  size_t            wsbytes;
  char             *part[GPURCM_WS_PARTS]; /* those of another pool, each on its own (see GPURCMPoolWorkspace()) */
} GPURCMPool;

/* The fine block of rows that holds row c */
static inline PetscInt GPURCMFineBlockOf(const GPURCMThreads *t, PetscInt c)
{
  PetscInt k = (PetscInt)((double)c * t->fscale);

  if (k >= t->nfine) k = t->nfine - 1;
  while (k > 0 && t->flo[k] > c) k--;
  while (t->flo[k + 1] <= c) k++;
  return k;
}

/* One entry c of graph row r, scanned by thread tid: mode 0 counts it (and its mirror in the receiving fine block's
   bucket), mode 1 writes its mirror's pair and, with inodes, the entry itself into ownbuf[*o] */
static inline void GPURCMEmit(GPURCMThreads *t, PetscInt tid, PetscInt r, PetscInt c, int mode, PetscInt *o)
{
  if (mode && t->ownbuf) t->ownbuf[*o] = c;
  (*o)++;
  if (c != r) {
    PetscInt *b = t->bcnt + tid * t->bstride + GPURCMFineBlockOf(t, c);

    if (mode) {
      t->pairs[2 * *b]     = c;
      t->pairs[2 * *b + 1] = r;
    }
    (*b)++;
  }
}

/*
  The entries graph row r takes itself in PETSc's symmetrized graph, in PETSc's order:
  - no inodes (MatToSymmetricIJ_SeqAIJ): the columns c <= r of matrix row r, up to the first c > r (the first
    rowlow[r] entries of the row);
  - inodes (MatGetRowIJ_SeqAIJ_Inode_Symmetric): PETSc's scan of the first row of inode r, which takes
    the inodes i2 < r it meets (one per inode) and r itself if the scan reaches it, exactly as PETSc's loop
    (including its stop when the row is exhausted).
  Mode 0 counts them into rowlow[r] and their mirrors into the thread's buckets; mode 1 writes the mirrors' pairs and,
  with inodes, the entries from ownbuf[o] on. Returns o plus the number of entries.
*/
static PetscInt GPURCMScanRow(GPURCMThreads *t, PetscInt tid, PetscInt r, int mode, PetscInt o)
{
  const PetscInt *ai = t->ai, *aj = t->aj;
  const PetscInt  o0 = o;

  if (!t->tns) {
    for (PetscInt k = ai[r]; k < ai[r + 1]; k++) {
      const PetscInt c = aj[k];
      if (c > r) break;
      GPURCMEmit(t, tid, r, c, mode, &o);
    }
  } else {
    const PetscInt row = t->tns[r], jmax = ai[row + 1];
    PetscInt       j = ai[row], col, i2;
    if (j < jmax) {
      col = aj[j++];
      i2  = t->tvc[col];
      while (i2 < r && j < jmax) {
        GPURCMEmit(t, tid, r, i2, mode, &o);
        i2++;
        while (j < jmax && (col = aj[j]) < t->tns[i2]) ++j;
        i2 = t->tvc[col];
      }
      if (i2 == r) GPURCMEmit(t, tid, r, r, mode, &o);
    }
  }
  if (!mode) t->rowlow[r] = o - o0;
  return o;
}

/* Job 10: v, owned by the calling thread, reached in this pass: marked and listed for the next level unless it was already */
static inline void GPURCMLevelClaim(GPURCMThreads *t, PetscInt v, PetscInt stamp, PetscInt *nxt, PetscInt *nnxt)
{
  if (atomic_load_explicit(&t->vis[v], memory_order_relaxed) == stamp) return;
  atomic_store_explicit(&t->vis[v], stamp, memory_order_relaxed);
  nxt[(*nnxt)++] = v;
}

/* Jobs 6-7: receiver tid's rows [*qlo, *qhi) (its run of fine blocks) and the pairs [*p, *pe) sent to them */
static inline void GPURCMReceiverSpan(const GPURCMThreads *t, PetscInt tid, PetscInt *qlo, PetscInt *qhi, const PetscInt **p, const PetscInt **pe)
{
  const PetscInt kb = t->qfb[tid], ke = t->qfb[tid + 1];

  *qlo = t->flo[kb];
  *qhi = t->flo[ke];
  *p   = t->pairs + 2 * t->fbeg[kb];
  *pe  = t->pairs + 2 * t->fbeg[ke];
}

/* Union-find of jobs 15-16: the root of v's tree (parents always point to smaller nodes: no cycles) */
static inline PetscInt GPURCMFindRoot(_Atomic PetscInt *par, PetscInt v)
{
  PetscInt p;

  while ((p = atomic_load_explicit(&par[v], memory_order_relaxed)) != v) v = p;
  return v;
}

/* Joins the trees of a and b: the larger root is hooked under the smaller one, retried if another thread hooked it first */
static inline void GPURCMUnion(_Atomic PetscInt *par, PetscInt a, PetscInt b)
{
  for (;;) {
    PetscInt lo, hi;

    a = GPURCMFindRoot(par, a);
    b = GPURCMFindRoot(par, b);
    if (a == b) return;
    lo = PetscMin(a, b);
    hi = PetscMax(a, b);
    if (atomic_compare_exchange_strong_explicit(&par[hi], &hi, lo, memory_order_relaxed, memory_order_relaxed)) return;
  }
}

/* Parallel-for jobs over [0, jobn) split in contiguous pieces */
static void GPURCMForJob(GPURCMThreads *t, PetscInt tid)
{
  const PetscInt n = t->jobn, lo = (PetscInt)(((PetscInt64)n * tid) / t->nthreads), hi = (PetscInt)(((PetscInt64)n * (tid + 1)) / t->nthreads);

#if defined(GPURCM_PROFILE)
  t->work[tid].pfexit = 0; /* the work before a job's first barrier is not a level's */
#endif
  switch (t->job) {
  case 1:
    for (PetscInt i = lo; i < hi; i++) {
      t->mask[i] = 1;
      t->mark[i] = 0;
      atomic_init(&t->owner[i], INT64_MAX);
      atomic_init(&t->cm[i], -1);
      atomic_init(&t->vis[i], 0);
      t->own[i] = (uint16_t)((i / t->ownR) % t->nthreads);
    }
    break;
  case 2:
    for (PetscInt i = lo; i < hi; i++) atomic_store_explicit(&t->ls[i], -1, memory_order_relaxed);
    break;
  case 11:
    for (PetscInt i = lo; i < hi; i++) atomic_store_explicit(&t->cm[i], -1, memory_order_relaxed);
    break;
  case 3:
    for (PetscInt k = lo; k < hi; k++) {
      const PetscInt v = atomic_load_explicit(&t->cm[k], memory_order_relaxed);
      t->perm[t->jobout + n - 1 - k] = v;
      t->mask[v]                     = 0;
      atomic_store_explicit(&t->cm[k], -1, memory_order_relaxed);
    }
    break;
  case 19: /* perm copied for the column IS, where ISCreateGeneral(PETSC_COPY_VALUES) copied it on one thread (2-vCPU
              machine, 1M nodes: 0.3-0.4 ms, about 3 ms on fresh memory; session 64's iscopy.c) */
    if (hi > lo) memcpy(t->permcopy + lo, t->perm + lo, (size_t)(hi - lo) * sizeof(PetscInt));
    break;
  case 4: /* the entries each graph row of the range takes itself (in all per fine block), and the mirrors this thread
             sends to each fine block */
    for (PetscInt k = GPURCM_BUILD_FINE * tid; k < GPURCM_BUILD_FINE * (tid + 1); k++) {
      PetscInt own = 0;

      for (PetscInt r = t->flo[k]; r < t->flo[k + 1]; r++) own = GPURCMScanRow(t, tid, r, 0, own);
      t->fown[k] = own;
    }
    break;
  case 5: { /* the mirrors' pairs into this thread's buckets (bcnt: their write cursors); with inodes the rows' own
               entries into ownbuf (in row order from fobeg[] of the thread's first fine block) */
    PetscInt o = t->fobeg[GPURCM_BUILD_FINE * tid];

    for (PetscInt r = lo; r < hi; r++) o = GPURCMScanRow(t, tid, r, 1, o);
  } break;
  case 6: { /* the mirrors of the receiver's rows, counted from their buckets, and the receiver's entries in all */
    PetscInt        qlo, qhi, sum = 0;
    const PetscInt *p, *pe;

    GPURCMReceiverSpan(t, tid, &qlo, &qhi, &p, &pe);
    for (PetscInt r = qlo; r < qhi; r++) t->ucnt[r] = 0;
    for (; p < pe; p += 2) t->ucnt[p[0]]++;
    for (PetscInt r = qlo; r < qhi; r++) sum += t->rowlow[r] + t->ucnt[r];
    t->tsum[tid] = sum;
  } break;
  case 7: { /* row pointers; each row's own entries in scan order, then its mirrors in the order received (ascending) */
    PetscInt        qlo, qhi, o = t->tsum[tid];
    const PetscInt *p, *pe;

    GPURCMReceiverSpan(t, tid, &qlo, &qhi, &p, &pe);
    for (PetscInt r = qlo; r < qhi; r++) {
      t->gia[r] = o;
      o += t->rowlow[r] + t->ucnt[r];
      t->ucnt[r] = t->gia[r] + t->rowlow[r]; /* the mirrors' cursor */
    }
    if (tid == t->nthreads - 1) t->gia[n] = o;
    if (t->ownbuf) {
      const PetscInt *src = t->ownbuf + t->fobeg[t->qfb[tid]];

      for (PetscInt r = qlo; r < qhi; src += t->rowlow[r], r++) memcpy(t->gja + t->gia[r], src, (size_t)t->rowlow[r] * sizeof(PetscInt));
    } else
      for (PetscInt r = qlo; r < qhi; r++) memcpy(t->gja + t->gia[r], t->aj + t->ai[r], (size_t)t->rowlow[r] * sizeof(PetscInt));
    for (; p < pe; p += 2) t->gja[t->ucnt[p[0]]++] = p[1];
  } break;
  case 9: { /* raw CSR structurally symmetric? (GPURCMRowUnmirrored) */
    GPURCMThreadWork *w    = &t->work[tid];
    PetscInt64        nlow = 0, nup = 0;
    int               asym = 0;
    for (PetscInt r = lo; r < hi && !asym; r++) asym = GPURCMRowUnmirrored(n, r, t->ai, t->aj, &nlow, &nup);
    w->nlow = (PetscInt)nlow;
    w->nup  = (PetscInt)nup;
    w->asym = asym;
  } break;
  case 10: { /* level-synchronous BFS from t->lvroot (stamped by the caller), owner computes: thread tid owns the nodes
                of its blocks (own[v] == tid: ownblocks blocks of ownR consecutive nodes, dealt in turn to the threads)
                and is the only one to mark them reached (vis[v] = stamp) and list them. A neighbour it owns is listed at
                once for the next level; one of another thread goes to the outbox for that thread, which drops repeats
                and takes its inboxes in at the start of the next level. Mesh orderings keep most neighbours in the same
                block, so a level's work stays in the core's cache and the threads exchange only their blocks' borders
                (the shared level lists of before moved every level between the cores: 9 us a level at 16 threads on 2D
                meshes); several blocks per thread spread each level over the threads. One barrier per level, which
                also sums the level's size (one atomic add per thread: at 16 threads the barriers bound the thin levels
                of 2D meshes), and the outboxes written in level parity: a sender writes parity p again two levels
                later, after its receivers took it in, and sets its bit in the mask of each receiver it wrote to.
                Each thread also records the smallest degree among its nodes of every level (SPARSEPACK's candidate). */
    GPURCMThreadWork *w  = &t->work[tid];
    const PetscInt   *ia = t->ia, *ja = t->ja, stamp = t->stamp, nt = t->nthreads, mstride = GPURCM_INMASK_STRIDE(nt);
    const uint16_t   *own = t->own;
    PetscInt         *cur = w->lvcur, *nxt = w->lvnxt, ncur = 0, nnxt = 0, nlvl = 0, cc = 0, last = 0, maxw = 0;
    int               failed = 0;

    if (own[t->lvroot] == tid) nxt[nnxt++] = t->lvroot;
    for (PetscInt l = 0;; l++) {
      const int p = (int)(l & 1), q = 1 - p;
      PetscInt  dmin = PETSC_INT_MAX, dcnt = 0, dnode = -1, tot;

      if (l > 0) { /* inboxes: the nodes of this level that the others found in our range during the last level */
        for (PetscInt wd = 0; wd < (nt + 63) / 64; wd++) {
          uint64_t bits = atomic_exchange_explicit(&t->inmask[(q * nt + tid) * mstride + wd], 0, memory_order_relaxed);
          while (bits) {
            const PetscInt   src = 64 * wd + __builtin_ctzll(bits);
            const PetscInt  *in  = t->work[src].ob[q * nt + tid];
            const PetscInt   m   = t->work[src].obn[q * nt + tid];
            bits &= bits - 1;
            for (PetscInt i = 0; i < m; i++) GPURCMLevelClaim(t, in[i], stamp, nxt, &nnxt);
          }
        }
      }
      { /* the next level becomes the current one */
        PetscInt *tmp = cur;
        cur           = nxt;
        nxt           = tmp;
        ncur          = nnxt;
        nnxt          = 0;
      }
      for (PetscInt d = 0; d < nt; d++) w->obn[p * nt + d] = 0;
      for (PetscInt i = 0; i < ncur && !failed; i++) {
        const PetscInt u = cur[i], deg = ia[u + 1] - ia[u];
        if (deg < dmin) {
          dmin  = deg;
          dcnt  = 1;
          dnode = u;
        } else if (deg == dmin) dcnt++;
        for (PetscInt k = ia[u]; k < ia[u + 1]; k++) {
          const PetscInt v = ja[k];
          const PetscInt d = own[v];
          if (d == tid) GPURCMLevelClaim(t, v, stamp, nxt, &nnxt);
          else { /* no look at v's mark: reading the owner's cache lines would cost more than a repeat */
            const PetscInt slot = p * nt + d;
            if (GPURCMListReserve(&w->ob[slot], &w->obcap[slot], w->obn[slot] + 1, 256)) {
              failed = 1; /* keep taking part in the barriers; the caller reports the error */
              atomic_store(&t->failed, 1);
              break;
            }
            w->ob[slot][w->obn[slot]++] = v;
          }
        }
      }
      w->stmin[p]  = dmin;
      w->stcnt[p]  = dcnt;
      w->stnode[p] = dnode;
      for (PetscInt d = 0; d < nt; d++)
        if (w->obn[p * nt + d]) atomic_fetch_or_explicit(&t->inmask[(p * nt + d) * mstride + tid / 64], (uint64_t)1 << (tid % 64), memory_order_relaxed);
      tot = GPURCMSpinBarrierSum(t, tid, ncur); /* release/acquire: the level's lists, outboxes and statistics are complete */
      if (tot == 0) break; /* every thread sees the same total */
      nlvl++;
      cc += tot;
      last = tot;
      if (tot > maxw) maxw = tot;
    }
    if (tid == 0) {
      t->lsnlvl = nlvl;
      t->lslast = last; /* the size of the last level */
      t->lsmaxw = maxw; /* the widest level */
      t->lscc   = cc;
    }
  } break;
  case 12: { /* level-synchronous Cuthill-McKee numbering into t->cm from cm[0] (set, with its key and level, by the
                caller): the same keys and rules as the batch engine, level by level. Thread tid takes a contiguous share
                of the level in rank order: A. each parent lowers owner[v] of its neighbours to its key (queue position);
                B. after a barrier, its children are the neighbours that still carry its key, sorted stably by degree;
                C. after a barrier that sums the counts, the threads' children go after those of the threads before
                them. Three barriers a level and no signalling chain between batches. */
    GPURCMThreadWork *w  = &t->work[tid];
    const PetscInt   *ia = t->ia, nt = t->nthreads;
    const GPURCMKey   hi = t->hi;
    _Atomic PetscInt *q  = t->cm;
    PetscInt          lbeg = 0, lend = 1, nlvl = 0;
    int               failed = 0;

    for (;;) {
      const PetscInt size = lend - lbeg, lo = lbeg + (PetscInt)(((PetscInt64)size * tid) / nt), hi2 = lbeg + (PetscInt)(((PetscInt64)size * (tid + 1)) / nt);
      PetscInt       count = 0, tot, base;

      if (!failed && hi2 - lo > w->lvccap) {
        PetscInt *b = (PetscInt *)realloc(w->lvc, (size_t)(hi2 - lo) * sizeof(PetscInt));
        if (b) {
          w->lvc    = b;
          w->lvccap = hi2 - lo;
        } else failed = 1;
      }
      for (PetscInt p = lo; p < hi2 && !failed; p++) { /* A. claims, as the batch engine's discovery */
        const PetscInt  u = atomic_load_explicit(&q[p], memory_order_relaxed), c0 = count;
        const GPURCMKey key = hi | (GPURCMKey)(p + 1);
        if (GPURCMWorkReserve(w, count + GPURCMRowLen(t, u))) {
          failed = 1;
          break;
        }
        GPURCMClaimNeighbours(t, u, key, w->child, &count);
        w->lvc[p - lo] = count - c0;
      }
      (void)GPURCMSpinBarrierSum(t, tid, 0); /* the claims are final */
      if (!failed) { /* B. validate and sort, in place */
        PetscInt in = 0, c = 0;
        for (PetscInt p = lo; p < hi2; p++) {
          const GPURCMKey key = hi | (GPURCMKey)(p + 1);
          const PetscInt  c0 = c, ncand = w->lvc[p - lo];
          GPURCMKeepChildren(t, key, w->child + in, ncand, w->child, &c); /* in place: c <= in */
          in += ncand;
          GPURCMStableSort(c - c0, w->child + c0, NULL, ia, w->tmp);
        }
        count = c;
      }
      w->lvtot = count;
      tot      = GPURCMSpinBarrierSum(t, tid, count); /* every thread's count is in */
      base     = lend;
      for (PetscInt d = 0; d < tid; d++) base += t->work[d].lvtot;
      for (PetscInt i = 0; i < count; i++) { /* C. write */
        t->lev[base + i] = nlvl + 1;
        atomic_store_explicit(&q[base + i], w->child[i], memory_order_relaxed);
      }
      if (failed) atomic_store(&t->failed, 1);
      (void)GPURCMSpinBarrierSum(t, tid, 0); /* the next level is written (and every lvtot read) */
      if (tot == 0 || atomic_load_explicit(&t->failed, memory_order_relaxed)) break; /* the same decision in every thread */
      lbeg = lend;
      lend += tot;
      nlvl++;
    }
    if (tid == 0) atomic_store_explicit(&t->pubtail, lend, memory_order_relaxed); /* the component's size, as the batch engine's */
  } break;
  case 13: { /* narrow levels: level-synchronous Cuthill-McKee numbering into t->cm from cm[0] (set, with its key and level,
                by the caller), with one barrier a level (job 12 takes three, which bound it on the thin levels of 2D
                meshes). Thread tid takes a contiguous share of level k in rank order (from the threads' child lists of
                level k, in thread order). A neighbour w of a parent u is its child if w carries no key of this pass (so
                w is in level k + 1) and no neighbour of w in level k ranks before u (read, not claimed: no barrier
                between discovery and validation; costlier than job 12's claims where levels are wide). The children of
                u, stably sorted by degree, get the key hi | (k + 1) % 4 << 38 | tid << 28 | their index in the thread's
                list: within a level the keys order as the ranks (the threads' shares are in rank order), and a neighbour
                of a level-k node lies in level k - 1, k or k + 1, so the level modulo 4 tells level k from k + 1. After
                the level's barrier (which sums the counts) each thread writes its children into the queue after those
                of the threads before it, while the others may already read them as parents from its list. */
    GPURCMThreadWork *w  = &t->work[tid];
    const PetscInt   *ia = t->ia, *ja = t->ja, nt = t->nthreads;
    const GPURCMKey   hi = t->hi, pass = hi + ((GPURCMKey)1 << GPURCM_POS_BITS);
    _Atomic PetscInt *q  = t->cm;
    _Atomic GPURCMKey *owner = t->owner;
    PetscInt          lend = 1, size = 1, k = 0;
    int               failed = 0;

    w->lvcnt[0] = tid == 0 ? 1 : 0; /* level 0: the root, in thread 0's list */
    if (tid == 0) {
      failed = GPURCMListReserve(&w->lvch[0], &w->lvchcap[0], 1, 64);
      if (!failed) w->lvch[0][0] = atomic_load_explicit(&q[0], memory_order_relaxed);
    }
    if (failed) atomic_store(&t->failed, 1);
    (void)GPURCMSpinBarrierSum(t, tid, 0); /* level 0 is listed */
    while (!atomic_load_explicit(&t->failed, memory_order_relaxed)) {
      const int       par = (int)(k & 1), nxp = 1 - par;
      const PetscInt  lo = (PetscInt)(((PetscInt64)size * tid) / nt), hi2 = (PetscInt)(((PetscInt64)size * (tid + 1)) / nt);
      const GPURCMKey lvk = hi | ((GPURCMKey)(k & 3) << GPURCM_LEVEL_SHIFT), lvn = hi | ((GPURCMKey)((k + 1) & 3) << GPURCM_LEVEL_SHIFT);
      PetscInt        count = 0, tot, base, d = 0, dbeg = 0;

      for (PetscInt p = lo; p < hi2 && !failed; p++) {
        PetscInt        u, c0 = count;
        GPURCMKey       ku;
        const PetscInt *row;
        PetscInt        len;
        while (p - dbeg >= t->work[d].lvcnt[par]) dbeg += t->work[d++].lvcnt[par]; /* the list holding rank p */
        u   = t->work[d].lvch[par][p - dbeg];
        ku  = atomic_load_explicit(&owner[u], memory_order_relaxed);
        row = ja + ia[u];
        len = ia[u + 1] - ia[u];
        if (GPURCMListReserve(&w->lvch[nxp], &w->lvchcap[nxp], count + len, 64) || GPURCMWorkReserve(w, len)) { /* (the sort's tmp) */
          failed = 1; /* keep taking part in the barriers; the caller reports the error */
          break;
        }
        for (PetscInt j = 0; j < len; j++) {
          const PetscInt v    = row[j];
          GPURCMKey      kv   = atomic_load_explicit(&owner[v], memory_order_relaxed);
          PetscBool      mine = PETSC_TRUE;
          if (kv < pass) continue; /* numbered, or another parent's child */
          if (ia[v + 1] - ia[v] <= GPURCM_LEVEL_SCAN_MAX) {
            for (PetscInt e = ia[v]; e < ia[v + 1]; e++) { /* an earlier parent of v in level k? */
              const GPURCMKey kx = atomic_load_explicit(&owner[ja[e]], memory_order_relaxed);
              if (kx >= lvk && kx < ku) {
                mine = PETSC_FALSE;
                break;
              }
            }
          } else { /* a long row (a hub): its parent is found once, by the first parent to look, and noted in owner[v] */
            GPURCMKey m;
            if (kv != INT64_MAX && (kv & GPURCM_PARENT_NOTE) && (kv & ~GPURCM_PARENT_NOTE) < pass) m = kv & ~GPURCM_PARENT_NOTE;
            else {
              m = ku;
              for (PetscInt e = ia[v]; e < ia[v + 1]; e++) {
                const GPURCMKey kx = atomic_load_explicit(&owner[ja[e]], memory_order_relaxed);
                if (kx >= lvk && kx < m) m = kx;
              }
              (void)atomic_compare_exchange_strong_explicit(&owner[v], &kv, m | GPURCM_PARENT_NOTE, memory_order_relaxed, memory_order_relaxed); /* fails if v has a key or a note now */
            }
            mine = (PetscBool)(m == ku);
          }
          if (mine) w->lvch[nxp][count++] = v;
        }
        GPURCMStableSort(count - c0, w->lvch[nxp] + c0, NULL, ia, w->tmp);
        for (PetscInt i = c0; i < count; i++) atomic_store_explicit(&owner[w->lvch[nxp][i]], lvn | ((GPURCMKey)tid << GPURCM_LOCAL_BITS) | (GPURCMKey)i, memory_order_relaxed);
      }
      if (failed) atomic_store(&t->failed, 1);
      w->lvcnt[nxp] = failed ? 0 : count;
      tot           = GPURCMSpinBarrierSum(t, tid, w->lvcnt[nxp]); /* level k + 1 is listed and keyed */
      if (tot == 0 || atomic_load_explicit(&t->failed, memory_order_relaxed)) break; /* the same decision in every thread */
      base = lend;
      for (PetscInt e = 0; e < tid; e++) base += t->work[e].lvcnt[nxp];
      for (PetscInt i = 0; i < count; i++) {
        t->lev[base + i] = k + 1;
        atomic_store_explicit(&q[base + i], w->lvch[nxp][i], memory_order_relaxed);
      }
      lend += tot;
      size = tot;
      k++;
    }
    if (tid == 0) atomic_store_explicit(&t->pubtail, lend, memory_order_relaxed); /* the component's size, as the batch engine's */
  } break;
  case 14: /* the nodes not yet numbered start as trees of their own */
    for (PetscInt v = lo; v < hi; v++)
      if (t->mask[v]) {
        atomic_store_explicit(&t->cpar[v], v, memory_order_relaxed);
        atomic_store_explicit(&t->csize[v], 0, memory_order_relaxed);
      }
    break;
  case 15: /* each edge joins the trees of its ends (a component not numbered has no edge to a numbered node) */
    for (PetscInt r = lo; r < hi; r++) {
      if (!t->mask[r]) continue;
      for (PetscInt k = t->ia[r]; k < t->ia[r + 1]; k++) {
        const PetscInt c = t->ja[k];

        if (c < r && t->mask[c]) GPURCMUnion(t->cpar, r, c); /* (mask: always, on the symmetric graphs ordered here) */
      }
    }
    break;
  case 16: { /* each node's component (its root) and the components' sizes: one atomic add per run of equal roots */
    PetscInt run = -1, len = 0, nroots = 0;

    for (PetscInt v = lo; v < hi; v++) {
      PetscInt root;

      if (!t->mask[v]) continue;
      root = GPURCMFindRoot(t->cpar, v);
      atomic_store_explicit(&t->cpar[v], root, memory_order_relaxed);
      nroots += (root == v);
      if (root != run) {
        if (len) atomic_fetch_add_explicit(&t->csize[run], len, memory_order_relaxed);
        run = root;
        len = 0;
      }
      len++;
    }
    if (len) atomic_fetch_add_explicit(&t->csize[run], len, memory_order_relaxed);
    t->work[tid].nroots = nroots;
  } break;
  case 17: { /* the roots of the range, in order, from the thread's offset in croots[] (work[].nroots, made an offset by the caller) */
    PetscInt o = t->work[tid].nroots;

    for (PetscInt v = lo; v < hi; v++)
      if (t->mask[v] && atomic_load_explicit(&t->cpar[v], memory_order_relaxed) == v) t->croots[o++] = v;
  } break;
  case 18: { /* the components of at most cmax nodes, a thread each (SPARSEPACK's serial code on the symmetric graph; the
                thread's child and tmp lists as its level starts and sort scratch, grown to its largest component) */
    GPURCMThreadWork *w = &t->work[tid];

    for (;;) {
      const PetscInt k = atomic_fetch_add_explicit(&t->cticket, 1, memory_order_relaxed);
      PetscInt       root, size, cc;

      if (k >= t->ncomp) break;
      root = t->croots[k];
      size = atomic_load_explicit(&t->csize[root], memory_order_relaxed);
      if (size > t->cmax) continue;
      if (GPURCMWorkReserve(w, size + 1)) {
        atomic_store_explicit(&t->cfailed, 2, memory_order_relaxed);
        break;
      }
      GPURCMOrderComponent(root, t->ia, t->ja, t->mask, w->child, t->perm + t->coff[k], &cc, NULL, NULL, w->tmp, PETSC_TRUE, t->speculate);
      if (cc != size) atomic_store_explicit(&t->cfailed, 1, memory_order_relaxed);
    }
  } break;
  default:
    GPURCMBatchWorker(t, tid);
  }
}

static void *GPURCMThreadLoop(void *arg)
{
  GPURCMThreadArg *a = (GPURCMThreadArg *)arg;
  GPURCMPool      *p = a->pool;
  int              spins = 0;

  while (!atomic_load(&p->started)) GPURCMPause(&spins, 1); /* the barrier is initialized once all threads exist */
  if (p->exit) return NULL;                                 /* it could not be */
  for (;;) {
    pthread_barrier_wait(&p->barrier);
    if (p->exit) break;
    GPURCMForJob(p->cur, a->tid);
    pthread_barrier_wait(&p->barrier);
  }
  return NULL;
}

/* Runs a parallel-for job on all threads (the caller is thread 0) */
static void GPURCMRunFor(GPURCMThreads *t, int job, PetscInt n, PetscInt out)
{
  t->job    = job;
  t->jobn   = n;
  t->jobout = out;
  pthread_barrier_wait(&t->pool->barrier);
  GPURCMForJob(t, 0);
  pthread_barrier_wait(&t->pool->barrier);
}

static GPURCMPool *GPURCMKeptPool    = NULL;
static PetscBool   GPURCMPoolRegistered = PETSC_FALSE;

/* Stops the pool's threads and frees it */
static void GPURCMPoolStop(GPURCMPool *p)
{
  if (!p) return;
  p->exit = 1;
  if (p->hasbarrier) {
    pthread_barrier_wait(&p->barrier);
    for (PetscInt i = 1; i < p->nthreads; i++) pthread_join(p->threads[i], NULL);
    pthread_barrier_destroy(&p->barrier);
  }
  free(p->threads);
  free(p->args);
  free(p->ws);
  for (int i = 0; i < GPURCM_WS_PARTS; i++) free(p->part[i]);
  free(p);
}

/* A child of fork() has none of the pool's threads: it must not wait for them (its memory is left to it) */
static void GPURCMPoolForgetInChild(void)
{
  GPURCMKeptPool = NULL;
}

static PetscErrorCode GPURCMPoolFinalize(void)
{
  PetscFunctionBegin;
  GPURCMPoolStop(GPURCMKeptPool);
  GPURCMKeptPool       = NULL;
  GPURCMPoolRegistered = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Starts nthreads - 1 threads; if the system refuses one, the pool runs with those created so far */
static PetscErrorCode GPURCMPoolStart(PetscInt nthreads, GPURCMPool **pool)
{
  GPURCMPool *p = (GPURCMPool *)calloc(1, sizeof(*p));
  int         err;

  PetscFunctionBegin;
  *pool = NULL;
  PetscCheck(p, PETSC_COMM_SELF, PETSC_ERR_MEM, "gpurcm: out of memory");
  p->threads = (pthread_t *)malloc((size_t)nthreads * sizeof(*p->threads));
  p->args    = (GPURCMThreadArg *)malloc((size_t)nthreads * sizeof(*p->args));
  if (!p->threads || !p->args) {
    GPURCMPoolStop(p);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_MEM, "gpurcm: out of memory");
  }
  p->requested = p->nthreads = nthreads;
  for (PetscInt i = 1; i < nthreads; i++) {
    p->args[i].pool = p;
    p->args[i].tid  = i;
    if (pthread_create(&p->threads[i], NULL, GPURCMThreadLoop, &p->args[i])) {
      PetscCall(PetscInfo(NULL, "gpurcm: could create only %" PetscInt_FMT " of %" PetscInt_FMT " threads\n", i, nthreads));
      p->nthreads = i;
      break;
    }
  }
  err = pthread_barrier_init(&p->barrier, NULL, (unsigned)p->nthreads);
  if (err) p->exit = 1; /* the threads return at the start */
  else p->hasbarrier = 1;
  atomic_store(&p->started, 1);
  if (err) {
    for (PetscInt i = 1; i < p->nthreads; i++) pthread_join(p->threads[i], NULL);
    GPURCMPoolStop(p);
    SETERRQ(PETSC_COMM_SELF, PETSC_ERR_SYS, "gpurcm: pthread_barrier_init failed");
  }
  *pool = p;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A pool of nthreads threads for one ordering: the kept one (keep) when it has that many and is free, else a new one,
   kept for the next ordering with keep (the kept one of another thread count is stopped, its node arrays taken over);
   *reused: the kept pool was taken */
static PetscErrorCode GPURCMPoolGet(PetscInt nthreads, PetscBool keep, GPURCMPool **pool, PetscBool *reused)
{
  GPURCMPool *k = GPURCMKeptPool;
  char       *ws      = NULL;
  size_t      wsbytes = 0;

  PetscFunctionBegin;
  *reused = PETSC_FALSE;
  if (keep && k && !k->busy && k->requested == nthreads) {
    k->busy = PETSC_TRUE;
    *pool   = k;
    *reused = PETSC_TRUE;
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  if (k && !k->busy) { /* another thread count, or nothing kept any more */
    if (keep) {
      ws      = k->ws;
      wsbytes = k->wsbytes;
      k->ws   = NULL;
    }
    GPURCMPoolStop(k);
    GPURCMKeptPool = k = NULL;
  }
  PetscCall(GPURCMPoolStart(nthreads, pool));
  (*pool)->ws      = ws;
  (*pool)->wsbytes = wsbytes;
  (*pool)->busy    = PETSC_TRUE;
  if (keep && !k) {
    static PetscBool forkhandler = PETSC_FALSE;
    GPURCMKeptPool = *pool;
    if (!GPURCMPoolRegistered) PetscCall(PetscRegisterFinalize(GPURCMPoolFinalize));
    GPURCMPoolRegistered = PETSC_TRUE;
    if (!forkhandler) forkhandler = pthread_atfork(NULL, NULL, GPURCMPoolForgetInChild) ? PETSC_FALSE : PETSC_TRUE;
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The ordering is done with the pool: the kept one waits for the next ordering, another one is stopped */
static void GPURCMPoolPut(GPURCMPool *p)
{
  if (p == GPURCMKeptPool) p->busy = PETSC_FALSE;
  else GPURCMPoolStop(p);
}

static inline size_t GPURCMAlign64(size_t b)
{
  return (b + 63) & ~(size_t)63;
}

/* The node arrays of an ordering of n nodes (not initialized: job 1 sets those that need it) and each thread's two level
   lists of job 10 (lvlen entries each). The kept pool carves them from one block of its memory, grown when too small.
   Another pool allocates each apart and frees it when it stops, as the ordering did before the pool was kept: glibc
   then reuses arrays up to 32 MiB from its heap at the next ordering, where one block of 48 MiB (1M nodes) was mapped
   afresh and unmapped each time (1M nodes, 16 threads: 2.5-3 ms more of page faults and unmapping, session 61 job 2) */
static PetscErrorCode GPURCMPoolWorkspace(GPURCMPool *p, GPURCMThreads *t, PetscInt lvlen, PetscInt **mask, PetscInt **xls, PetscInt **deg, PetscInt **mark, PetscInt **tmp)
{
  const size_t n = (size_t)t->n, ib = sizeof(PetscInt), lvb = GPURCMAlign64((size_t)lvlen * ib);
  const size_t sz[GPURCM_WS_PARTS] = {n * ib, (n + 1) * ib, n * ib, n * ib, n * ib, n * sizeof(GPURCMKey), n * ib, n * ib, n * ib, n * sizeof(uint16_t), 2 * (size_t)t->nthreads * lvb};
  char        *base[GPURCM_WS_PARTS];
  size_t       total = 0;

  PetscFunctionBegin;
  for (int i = 0; i < GPURCM_WS_PARTS; i++) total += GPURCMAlign64(sz[i]);
  if (p == GPURCMKeptPool) {
    if (p->wsbytes < total) {
      free(p->ws);
      p->wsbytes = 0;
      p->ws      = (char *)aligned_alloc(64, total);
      PetscCheck(p->ws, PETSC_COMM_SELF, PETSC_ERR_MEM, "gpurcm: out of memory for %" PetscInt_FMT " nodes", t->n);
      p->wsbytes = total;
    }
    base[0] = p->ws;
    for (int i = 1; i < GPURCM_WS_PARTS; i++) base[i] = base[i - 1] + GPURCMAlign64(sz[i - 1]);
  } else {
    for (int i = 0; i < GPURCM_WS_PARTS; i++) {
      base[i] = p->part[i] = (char *)malloc(sz[i]); /* (not aligned_alloc(): its larger request is mapped afresh each time) */
      PetscCheck(base[i], PETSC_COMM_SELF, PETSC_ERR_MEM, "gpurcm: out of memory for %" PetscInt_FMT " nodes", t->n);
    }
  }
  *mask    = (PetscInt *)base[0];
  *xls     = (PetscInt *)base[1];
  *deg     = (PetscInt *)base[2];
  *mark    = (PetscInt *)base[3];
  *tmp     = (PetscInt *)base[4];
  t->owner = (_Atomic GPURCMKey *)base[5];
  t->cm    = (_Atomic PetscInt *)base[6];
  t->vis   = (_Atomic PetscInt *)base[7];
  t->lev   = (PetscInt *)base[8];
  t->own   = (uint16_t *)base[9];
  for (PetscInt i = 0; i < t->nthreads; i++) {
    t->work[i].lvcur = (PetscInt *)(base[10] + (size_t)(2 * i) * lvb);
    t->work[i].lvnxt = (PetscInt *)(base[10] + (size_t)(2 * i + 1) * lvb);
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* The batch engine's root-finder queue and batch slots, made for its first job: the level root finder and the level
   numberings use neither, and an ordering zeroed the slots on the calling thread (n + 1 each, 20 bytes a node: calloc()
   clears memory freed by an earlier ordering; 2 threads on the CI machine, 12 orderings of 2D 1000^2 and 3D 160^3:
   GPURCMSetup 0.27-0.29 -> 0.23-0.24 s). Zero is "unset" in the slots
   (bend and btail hold their value + 1); calloc()'s fresh pages are mapped only where batches write: slots are taken
   in order, one per batch, and a batch usually holds up to 64-1024 parents. */
static PetscErrorCode GPURCMBatchState(GPURCMThreads *t)
{
  PetscFunctionBegin;
  if (t->bend) PetscFunctionReturn(PETSC_SUCCESS);
  t->bend  = (_Atomic PetscInt *)calloc((size_t)t->nbatchcap, sizeof(*t->bend));
  t->btail = (_Atomic PetscInt *)calloc((size_t)t->nbatchcap, sizeof(*t->btail));
  t->bdisc = (_Atomic int *)calloc((size_t)t->nbatchcap, sizeof(*t->bdisc));
  t->ls    = (_Atomic PetscInt *)malloc((size_t)t->n * sizeof(*t->ls));
  PetscCheck(t->bend && t->btail && t->bdisc && t->ls, PETSC_COMM_SELF, PETSC_ERR_MEM, "gpurcm: out of memory for %" PetscInt_FMT " nodes", t->n);
  GPURCMRunFor(t, 2, t->n, 0); /* the queue's entries -1 (not yet written) */
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Runs one BFS job from root on all threads; returns the number of nodes reached */
static PetscErrorCode GPURCMRunJob(GPURCMThreads *t, PetscInt root, PetscBool numbering, PetscInt *size)
{
  const int         job = numbering ? t->lvjob : 0;
  _Atomic PetscInt *q;
  PetscInt          nb, cc;

  PetscFunctionBegin;
  if (job == 0) PetscCall(GPURCMBatchState(t));
  q = numbering ? t->cm : t->ls;
  if (++t->epoch >= GPURCM_EPOCH_MAX) { /* keys would wrap: start again from the largest epoch part */
    for (PetscInt i = 0; i < t->n; i++) atomic_store_explicit(&t->owner[i], INT64_MAX, memory_order_relaxed);
    t->epoch = 1;
  }
  t->hi        = (GPURCM_EPOCH_MAX - t->epoch) << GPURCM_POS_BITS;
  t->q         = q;
  t->numbering = numbering;
  atomic_store(&t->ticket, 0);
  atomic_store(&t->pubtail, 1);
  atomic_store(&t->npub, 0);
  atomic_store(&t->done, 0);
  atomic_store(&t->failed, 0);
  atomic_store(&t->owner[root], t->hi);
  t->lev[0]     = 0;
  atomic_store(&q[0], root);
  GPURCMRunFor(t, job, 0, 0);
  PetscCheck(!atomic_load(&t->failed), PETSC_COMM_SELF, PETSC_ERR_MEM, "gpurcm: out of memory in a worker thread");
  cc = atomic_load(&t->pubtail);
  nb = PetscMin(atomic_load(&t->ticket), t->nbatchcap);
  for (PetscInt b = 0; b < nb; b++) {
    atomic_store_explicit(&t->bend[b], 0, memory_order_relaxed);
    atomic_store_explicit(&t->btail[b], 0, memory_order_relaxed);
    atomic_store_explicit(&t->bdisc[b], 0, memory_order_relaxed);
  }
  *size = cc;
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode GPURCMResetQueue(GPURCMThreads *t, PetscInt cc)
{
  PetscFunctionBegin;
  if (cc < 65536)
    for (PetscInt i = 0; i < cc; i++) atomic_store_explicit(&t->ls[i], -1, memory_order_relaxed);
  else GPURCMRunFor(t, 2, cc, 0);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A BFS by the batch engine (rootls in queue order into t->ls, or with numbering the Cuthill-McKee numbering into
   t->cm): number of levels and the start of the last level in that queue */
static PetscErrorCode GPURCMBatchPassThreads(GPURCMThreads *t, PetscInt root, PetscBool numbering, PetscInt *nlvl, PetscInt *lastlevel, PetscInt *cc)
{
  PetscInt last;

  PetscFunctionBegin;
  PetscCall(GPURCMRunJob(t, root, numbering, cc));
  *nlvl = t->lev[*cc - 1] + 1;
  last  = *cc - 1;
  while (last > 0 && t->lev[last - 1] == *nlvl - 1) last--;
  *lastlevel = last;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Level structure of root by the level-synchronous BFS: number of levels, component size and, if the last
   level determines SPARSEPACK's next root without its order (one node, or a unique node of minimum degree
   below cc), that node (*pick, *unique = PETSC_TRUE) */
static PetscErrorCode GPURCMLevelsThreads(GPURCMThreads *t, PetscInt root, PetscInt *nlvl, PetscInt *cc, PetscInt *pick, PetscBool *unique)
{
  PetscInt mindeg = PETSC_INT_MAX, nmin = 0, slot;

  PetscFunctionBegin;
  if (t->stamp == PETSC_INT_MAX) { /* stamps would wrap */
    for (PetscInt i = 0; i < t->n; i++) atomic_store_explicit(&t->vis[i], 0, memory_order_relaxed);
    t->stamp = 0;
  }
  t->stamp++;
  atomic_store(&t->failed, 0);
  atomic_store_explicit(&t->vis[root], t->stamp, memory_order_relaxed);
  t->lvroot = root;
  GPURCMRunFor(t, 10, 0, 0);
  PetscCheck(!atomic_load(&t->failed), PETSC_COMM_SELF, PETSC_ERR_MEM, "gpurcm: out of memory in a worker thread");
  *nlvl = t->lsnlvl;
  *cc   = t->lscc;
  /* the last level from the threads' statistics of its level parity: SPARSEPACK's candidate is the first node of
     smallest degree below cc in the level's order, which the level BFS does not keep: unique only if one node has it */
  slot  = (t->lsnlvl - 1) & 1;
  *pick = -1;
  for (PetscInt i = 0; i < t->nthreads; i++) {
    const GPURCMThreadWork *w = &t->work[i];
    if (!w->stcnt[slot]) continue;
    if (w->stmin[slot] < mindeg) {
      mindeg = w->stmin[slot];
      nmin   = w->stcnt[slot];
      *pick  = w->stnode[slot];
    } else if (w->stmin[slot] == mindeg) nmin += w->stcnt[slot];
  }
  PetscCheck(*pick >= 0, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpurcm: level BFS found no last level");
  *unique = (PetscBool)(t->lslast == 1 || (mindeg < t->lscc && nmin == 1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Cuthill-McKee numbering from root by the batch engine into t->cm as a root-finder pass: number of levels, component
   size and, as GPURCMLevelsThreads(), the next root when the last level determines it without rootls's order */
static PetscErrorCode GPURCMNumberPassThreads(GPURCMThreads *t, PetscInt root, PetscInt *nlvl, PetscInt *cc, PetscInt *pick, PetscBool *unique)
{
  PetscInt last = 0, mindeg = PETSC_INT_MAX, nmin = 0;

  PetscFunctionBegin;
  PetscCall(GPURCMBatchPassThreads(t, root, PETSC_TRUE, nlvl, &last, cc));
  *pick = -1;
  for (PetscInt j = last; j < *cc; j++) {
    const PetscInt v = atomic_load_explicit(&t->cm[j], memory_order_relaxed), dg = GPURCMRowLen(t, v);
    if (dg < mindeg) {
      mindeg = dg;
      nmin   = 1;
      *pick  = v;
    } else if (dg == mindeg) nmin++;
  }
  *unique = (PetscBool)(*cc - last == 1 || (mindeg < *cc && nmin == 1));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Parallel fnroot, with SPARSEPACK's candidate and return rules (degree = row length, symmetric graph). The passes
   run level-synchronously; a pass whose last level holds several nodes of minimum degree is repeated by the batch
   engine, whose queue has SPARSEPACK's order, to take the first of them. With t->speculate the pass from each
   candidate is the Cuthill-McKee numbering from it (the same levels): *numbered says that the returned root's
   numbering is in t->cm already. */
static PetscErrorCode GPURCMFnrootThreads(GPURCMThreads *t, PetscInt *root, PetscInt *ccsize, PetscBool *numbered)
{
  PetscInt  nlvl = 0, nunlvl = 0, cc = 0, cc2 = 0, pick;
  PetscBool unique;

  PetscFunctionBegin;
  *numbered = PETSC_FALSE;
  PetscCall(GPURCMLevelsThreads(t, *root, &nlvl, &cc, &pick, &unique));
  *ccsize = cc;
  /* auto: level by level when the levels are wide enough to share among the threads (session 15 job 8, 16 threads:
     faster on the 3D meshes, whose levels reach 7500-19000 nodes); narrow levels, with one barrier a level, down to
     32 nodes a thread (session 60 jobs 5-6, 16 threads: 2D 1000^2 1.4x faster than by batches, 2D 2000^2 about even;
     on the 3D meshes even with job 12, and on 2 threads 15-25% slower than job 12 on 3D meshes and a power-law graph);
     batches below (thin levels) */
  if (t->lvmode == MAT_GPURCM_THREADS_NUMBER_AUTO) t->lvjob = t->lsmaxw > GPURCM_THREADS_LEVEL_WIDTH * t->nthreads ? 12 : (t->lsmaxw > GPURCM_THREADS_NARROW_WIDTH * t->nthreads ? 13 : 0);
  else t->lvjob = t->lvmode == MAT_GPURCM_THREADS_NUMBER_LEVELS ? 12 : (t->lvmode == MAT_GPURCM_THREADS_NUMBER_NARROW ? 13 : 0);
  if (t->lvjob == 13 && (t->nthreads > GPURCM_LEVEL_THREADS || t->n >= ((PetscInt64)1 << GPURCM_LOCAL_BITS))) { /* its keys would not fit */
    t->lvjob = t->lvmode == MAT_GPURCM_THREADS_NUMBER_AUTO ? 0 : 12;
    PetscCall(PetscInfo(NULL, "gpurcm: no narrow level numbering with more than %d threads or 2^%d nodes\n", GPURCM_LEVEL_THREADS, GPURCM_LOCAL_BITS));
  }
  PetscCall(PetscInfo(NULL, "gpurcm: numbering %s (widest level of the first pass: %" PetscInt_FMT " nodes, %" PetscInt_FMT " threads)\n", t->lvjob == 12 ? "level by level" : (t->lvjob == 13 ? "level by level, narrow levels" : "by batches"), t->lsmaxw, t->nthreads));
  if (nlvl == 1 || nlvl == cc) PetscFunctionReturn(PETSC_SUCCESS);
  for (;;) {
    if (unique) *root = pick;
    else {
      PetscInt mindeg = cc, jstrt = 0, nl2 = 0;

      PetscCall(PetscInfo(NULL, "gpurcm: several nodes of minimum degree in the last level: pass repeated in queue order\n"));

      PetscCall(GPURCMBatchPassThreads(t, *root, PETSC_FALSE, &nl2, &jstrt, &cc2));
      PetscCheck(cc2 == cc && nl2 == nlvl, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpurcm: level structures of the two BFS engines differ");
      *root = atomic_load_explicit(&t->ls[jstrt], memory_order_relaxed);
      for (PetscInt j = jstrt; j < cc; j++) {
        const PetscInt node = atomic_load_explicit(&t->ls[j], memory_order_relaxed), ndeg = GPURCMRowLen(t, node);
        if (ndeg < mindeg) {
          *root  = node;
          mindeg = ndeg;
        }
      }
      PetscCall(GPURCMResetQueue(t, cc));
    }
    if (t->speculate) {
      PetscCall(PetscLogEventEnd(MAT_GPURCM_RootFind, 0, 0, 0, 0));
      PetscCall(PetscLogEventBegin(MAT_GPURCM_Number, 0, 0, 0, 0));
      PetscCall(GPURCMNumberPassThreads(t, *root, &nunlvl, &cc2, &pick, &unique));
      PetscCall(PetscLogEventEnd(MAT_GPURCM_Number, 0, 0, 0, 0));
      PetscCall(PetscLogEventBegin(MAT_GPURCM_RootFind, 0, 0, 0, 0));
      *numbered = PETSC_TRUE;
    } else PetscCall(GPURCMLevelsThreads(t, *root, &nunlvl, &cc2, &pick, &unique));
    PetscCheck(cc2 == cc, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpurcm: component size changed between passes (graph not symmetric)");
    if (nunlvl <= nlvl || nunlvl >= cc) break;
    nlvl = nunlvl;
    if (*numbered) { /* not the root: drop the numbering */
      GPURCMRunFor(t, 11, cc, 0);
      *numbered = PETSC_FALSE;
      PetscCall(PetscInfo(NULL, "gpurcm: speculative numbering dropped (the root finder goes on)\n"));
    }
  }
  if (*numbered) PetscCall(PetscInfo(NULL, "gpurcm: speculative numbering kept (the root finder returned its root)\n"));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Serial level structure from root limited to cap nodes; returns PETSC_TRUE if the component fits. Leaves mask unchanged. */
static PetscBool GPURCMComponentIsSmall(PetscInt root, const PetscInt *ia, const PetscInt *ja, PetscInt *mask, PetscInt *ls, PetscInt cap)
{
  PetscInt  cc = 1;
  PetscBool small = PETSC_TRUE;

  mask[root] = 0;
  ls[0]      = root;
  for (PetscInt i = 0; i < cc && small; i++) {
    const PetscInt node = ls[i];
    for (PetscInt j = ia[node]; j < ia[node + 1]; j++) {
      const PetscInt nbr = ja[j];
      if (!mask[nbr]) continue;
      if (cc == cap) {
        small = PETSC_FALSE;
        break;
      }
      ls[cc++]  = nbr;
      mask[nbr] = 0;
    }
  }
  for (PetscInt i = 0; i < cc; i++) mask[ls[i]] = 1;
  return small;
}

/* The component of node first (its smallest node) by all threads: root finder and numbering, reversed into perm[num, num + cc) */
static PetscErrorCode GPURCMOrderComponentThreads(GPURCMThreads *t, PetscInt first, PetscInt num, PetscInt *cc)
{
  PetscInt  root = first, cc2;
  PetscBool numbered;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MAT_GPURCM_RootFind, 0, 0, 0, 0));
  PetscCall(GPURCMFnrootThreads(t, &root, cc, &numbered));
  PetscCall(PetscLogEventEnd(MAT_GPURCM_RootFind, 0, 0, 0, 0));
  PetscCall(PetscLogEventBegin(MAT_GPURCM_Number, 0, 0, 0, 0));
  if (!numbered) {
    PetscCall(GPURCMRunJob(t, root, PETSC_TRUE, &cc2));
    PetscCheck(cc2 == *cc, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpurcm: component size changed between passes (graph not symmetric)");
  }
  GPURCMRunFor(t, 3, *cc, num); /* reversed into perm[num, num + cc), marked numbered, queue cleared */
  PetscCall(PetscLogEventEnd(MAT_GPURCM_Number, 0, 0, 0, 0));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  The components left after the first one ordered by all threads (nodes from `from` on; num numbered before them):
  labelled together (jobs 14-17), each one's segment of perm known from the sizes of those with smaller roots; the
  components of at most max(small, left / nthreads) nodes are ordered a thread each, in parallel (job 18: a graph of
  many independent blocks, where all threads on one block at a time wait at every level), the larger ones afterwards
  by all threads, one at a time.
*/
static PetscErrorCode GPURCMOrderComponentsThreads(GPURCMThreads *t, PetscInt from, PetscInt num, PetscInt small)
{
  const PetscInt nt = t->nthreads, n = t->n;
  PetscInt       left = n - num, nlarge = 0, o;
  PetscLogDouble t0, t1, t2;

  PetscFunctionBegin;
  PetscCall(PetscLogEventBegin(MAT_GPURCM_Number, 0, 0, 0, 0));
  PetscCall(PetscTime(&t0));
  t->cpar  = (_Atomic PetscInt *)malloc((size_t)n * sizeof(*t->cpar));
  t->csize = (_Atomic PetscInt *)malloc((size_t)n * sizeof(*t->csize));
  PetscCheck(t->cpar && t->csize, PETSC_COMM_SELF, PETSC_ERR_MEM, "gpurcm: out of memory for the components of %" PetscInt_FMT " nodes", n);
  GPURCMRunFor(t, 14, n, 0);
  GPURCMRunFor(t, 15, n, 0);
  GPURCMRunFor(t, 16, n, 0);
  t->ncomp = 0;
  for (PetscInt i = 0; i < nt; i++) { /* each thread's offset in the list of roots */
    const PetscInt c = t->work[i].nroots;
    t->work[i].nroots = t->ncomp;
    t->ncomp += c;
  }
  PetscCall(PetscMalloc2(t->ncomp, &t->croots, t->ncomp, &t->coff));
  GPURCMRunFor(t, 17, n, 0);
  t->cmax = PetscMax(small, left / nt);
  o       = num;
  for (PetscInt k = 0; k < t->ncomp; k++) {
    const PetscInt size = atomic_load_explicit(&t->csize[t->croots[k]], memory_order_relaxed);

    t->coff[k] = o;
    o += size;
    nlarge += (size > t->cmax);
  }
  PetscCheck(o == n && (t->ncomp == 0 || t->croots[0] >= from), PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpurcm: the components' sizes add up to %" PetscInt_FMT ", not %" PetscInt_FMT, o, n);
  atomic_store(&t->cticket, 0);
  atomic_store(&t->cfailed, 0);
  PetscCall(PetscTime(&t1));
  GPURCMRunFor(t, 18, n, 0);
  PetscCheck(atomic_load(&t->cfailed) != 2, PETSC_COMM_SELF, PETSC_ERR_MEM, "gpurcm: out of memory for the threads' workspace");
  PetscCheck(!atomic_load(&t->cfailed), PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpurcm: a component's size changed between its labelling and its ordering (graph not symmetric)");
  PetscCall(PetscTime(&t2));
  PetscCall(PetscLogEventEnd(MAT_GPURCM_Number, 0, 0, 0, 0));
  for (PetscInt k = 0; k < t->ncomp; k++) {
    const PetscInt root = t->croots[k];
    PetscInt       cc;

    if (atomic_load_explicit(&t->csize[root], memory_order_relaxed) <= t->cmax) continue;
    PetscCall(GPURCMOrderComponentThreads(t, root, t->coff[k], &cc));
    PetscCheck(cc == atomic_load_explicit(&t->csize[root], memory_order_relaxed), PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpurcm: a component's size changed between its labelling and its ordering (graph not symmetric)");
  }
  PetscCall(PetscInfo(NULL, "gpurcm threads: %" PetscInt_FMT " more components (%" PetscInt_FMT " nodes) after the first: labelled in %.3g ms; %" PetscInt_FMT " of up to %" PetscInt_FMT " nodes ordered a thread each in %.3g ms, %" PetscInt_FMT " larger by all threads (-mat_gpurcm_threads_components)\n", t->ncomp, left, 1e3 * (t1 - t0), t->ncomp - nlarge, t->cmax, 1e3 * (t2 - t1), nlarge));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Graph construction (with build) and ordering of all components on the started pool */
static PetscErrorCode GPURCMThreadsOrder(GPURCMThreads *t, PetscBool build, PetscBool flagged, const PetscInt *cia, const PetscInt *cja, PetscInt small, PetscInt *xls, PetscInt *deg, PetscInt *tmp, PetscBool *ordered)
{
  const PetscInt *ia = t->ia, *ja = t->ja;
  PetscInt        n = t->n, num = 0, *perm = t->perm, *mask = t->mask, *mark = t->mark;

  PetscFunctionBegin;
  if (build && !t->tns) {
    /* without inodes, PETSc's symmetrized lower-triangle graph of a structurally symmetric matrix with strictly
       ascending rows is its CSR itself (each row: its entries c <= r, then the mirrors r' > r in ascending order) */
    PetscInt  nlow = 0, nup = 0;
    PetscBool sym = PETSC_TRUE;
    PetscCall(PetscLogEventBegin(MAT_GPURCM_Graph, 0, 0, 0, 0));
    t->ai = ia;
    t->aj = ja;
    GPURCMRunFor(t, 9, n, 0);
    for (PetscInt i = 0; i < t->nthreads; i++) {
      nlow += t->work[i].nlow;
      nup += t->work[i].nup;
      if (t->work[i].asym) sym = PETSC_FALSE;
    }
    if (nlow != nup) sym = PETSC_FALSE;
    PetscCall(PetscLogEventEnd(MAT_GPURCM_Graph, 0, 0, 0, 0));
    if (sym) build = PETSC_FALSE;
    PetscCall(PetscInfo(NULL, "gpurcm: the matrix is %sstructurally symmetric%s\n", sym ? "" : "not ", sym ? ": its CSR is the graph" : (flagged ? " (though flagged so): not ordered by the threads" : ": graph built by the threads")));
    if (!sym && flagged) { /* a wrong flag: PETSc's graph is this raw, unsymmetric CSR (SPARSEPACK's passes) */
      *ordered = PETSC_FALSE;
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  if (build) {
    const PetscInt nt = t->nthreads, nfine = GPURCM_BUILD_FINE * nt;
    PetscInt       off = 0;
    PetscInt64     npairs = 0, work = 0, done = 0;

    PetscCall(PetscLogEventBegin(MAT_GPURCM_Graph, 0, 0, 0, 0));
    t->ai      = ia;
    t->aj      = ja;
    t->nfine   = nfine;
    t->fscale  = (double)nfine / (double)n;
    t->bstride = 16 * ((nfine + 15) / 16);
    PetscCall(PetscMalloc4(n + 1, &t->gia, n, &t->rowlow, n, &t->ucnt, nt, &t->tsum));
    PetscCall(PetscMalloc5(nfine + 1, &t->flo, nfine, &t->fown, nfine + 1, &t->fbeg, nfine + 1, &t->fobeg, nt + 1, &t->qfb));
    PetscCall(PetscCalloc1(nt * t->bstride, &t->bcnt));
    for (PetscInt k = 0; k <= nfine; k++) t->flo[k] = (PetscInt)(((PetscInt64)n * k) / nfine); /* GPURCMForJob()'s ranges, split */
    GPURCMRunFor(t, 4, n, 0);
    t->fobeg[0] = 0;
    for (PetscInt k = 0; k < nfine; k++) { /* buckets by fine block, then sender; the counts become write cursors */
      t->fobeg[k + 1] = t->fobeg[k] + t->fown[k];
      t->fbeg[k]      = (PetscInt)npairs;
      for (PetscInt u = 0; u < nt; u++) {
        const PetscInt c = t->bcnt[u * t->bstride + k];

        t->bcnt[u * t->bstride + k] = (PetscInt)npairs;
        npairs += c;
      }
    }
    /* the graph's entries (own and mirrors) and the pairs array (2 a mirror) are indexed with PetscInt */
    PetscCheck((PetscInt64)t->fobeg[nfine] + 2 * npairs < PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_SUP, "gpurcm: the symmetrized graph has %" PetscInt64_FMT " entries, too many for %d-bit indices: configure PETSc --with-64-bit-indices", (PetscInt64)t->fobeg[nfine] + npairs, (int)(8 * sizeof(PetscInt)));
    t->fbeg[nfine] = (PetscInt)npairs;
    /* receiver s takes the fine blocks from where s / nt of the work is done; a fine block's work: its rows' own entries
       (copied) and twice its mirrors (each counted, then placed at random) */
    work = t->fobeg[nfine] + 2 * npairs;
    for (PetscInt s = 0, k = 0; s <= nt; s++) {
      while (s > 0 && k < nfine) {
        const PetscInt64 w = t->fown[k] + 2 * (PetscInt64)(t->fbeg[k + 1] - t->fbeg[k]);

        if (done + w / 2 >= (work * s) / nt) break;
        done += w;
        k++;
      }
      if (s == nt) k = nfine;
      t->qfb[s] = k;
    }
    PetscCall(PetscMalloc1(2 * npairs + 1, &t->pairs));
    if (t->tns) PetscCall(PetscMalloc1(t->fobeg[nfine] + 1, &t->ownbuf));
    GPURCMRunFor(t, 5, n, 0);
    GPURCMRunFor(t, 6, n, 0);
    for (PetscInt i = 0; i < nt; i++) {
      const PetscInt s = t->tsum[i];
      t->tsum[i]       = off;
      off += s;
    }
    PetscCall(PetscMalloc1(off + 1, &t->gja));
    GPURCMRunFor(t, 7, n, 0);
    PetscCall(PetscFree(t->pairs));
    PetscCall(PetscFree(t->ownbuf));
    ia = t->ia = t->gia;
    ja = t->ja = t->gja;
    PetscCall(PetscLogEventEnd(MAT_GPURCM_Graph, 0, 0, 0, 0));
  }
  if (cia) {
    for (PetscInt r = 0; r <= n; r++) PetscCheck(cia[r] == ia[r], PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpurcm: graph built by the threads differs from MatGetRowIJ() at row pointer %" PetscInt_FMT, r);
    for (PetscInt k = 0; k < ia[n]; k++) PetscCheck(cja[k] == ja[k], PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpurcm: graph built by the threads differs from MatGetRowIJ() at entry %" PetscInt_FMT, k);
  }
  PetscCall(PetscLogEventBegin(MAT_GPURCM_Setup, 0, 0, 0, 0));
  PetscCall(PetscTime(&t->ttouch[0]));
  GPURCMRunFor(t, 1, n, 0); /* the node arrays' first touch, by ranges */
  PetscCall(PetscTime(&t->ttouch[1]));
  PetscCall(PetscLogEventEnd(MAT_GPURCM_Setup, 0, 0, 0, 0));
  /* Components in order of their smallest node. With -mat_gpurcm_threads_components, once many nodes are left after a
     component ordered by all threads, or after two small ones in a row, the rest are ordered together: nothing is
     done for a mesh's single component (or a few isolated nodes before or after it) */
  for (PetscInt i = 0, nsmall = 0; i < n && num < n; i++) {
    PetscInt cc;
    if (!mask[i]) continue;
    if (small > 0 && GPURCMComponentIsSmall(i, ia, ja, mask, xls, small)) {
      GPURCMOrderComponent(i, ia, ja, mask, xls, perm + num, &cc, deg, mark, tmp, PETSC_TRUE, t->speculate); /* the threads backend's graphs are symmetric */
      num += cc;
      if (t->components && ++nsmall >= 2 && n - num > 2 * small) {
        PetscCall(GPURCMOrderComponentsThreads(t, i + 1, num, small));
        break;
      }
      continue;
    }
    nsmall = 0;
    PetscCall(GPURCMOrderComponentThreads(t, i, num, &cc));
    num += cc;
    if (t->components && n - num > 2 * small) {
      PetscCall(GPURCMOrderComponentsThreads(t, i + 1, num, small));
      break;
    }
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*
  Threads backend. With build, (ia, ja) is the raw CSR of a SeqAIJ matrix and PETSc's graph is built here in
  parallel: n graph nodes, with inodes tns/tvc give the inode starts and the column-to-inode map. With build and
  flagged (no inodes), the matrix is flagged structurally symmetric and its graph is the raw CSR: ordered only if the
  threads' check finds it symmetric, else *ordered is PETSC_FALSE (the caller orders it with SPARSEPACK's passes).
  Otherwise (ia, ja) is the graph from MatGetRowIJ(). cia/cja (optional): PETSc's graph, compared with the built one
  (-mat_gpurcm_check_graph). permcopy (optional, n entries): where ordered, it gets a copy of the permutation (the
  column IS's array, GPURCMPermutationIS()), made by the threads.
*/
static PetscErrorCode MatGPURCMThreads_Private(PetscInt n, const PetscInt ia[], const PetscInt ja[], PetscBool build, PetscBool flagged, const PetscInt tns[], const PetscInt tvc[], const PetscInt cia[], const PetscInt cja[], PetscInt nthreads, PetscInt batch, PetscInt small, PetscInt ownblocks, PetscBool speculate, MatGPURCMThreadsNumber lvmode, MatGPURCMThreadsWait wait, PetscBool keep, PetscBool components, PetscInt perm[], PetscInt permcopy[], PetscBool *ordered)
{
  GPURCMThreads  t;
  GPURCMPool    *pool;
  PetscInt      *mask = NULL, *xls = NULL, *deg = NULL, *mark = NULL, *tmp = NULL;
  PetscLogDouble tw[6]; /* the setup's parts, for -info */
  PetscBool      reused, kept;
  char           keptnote[96] = "";
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscCheck(!build || nthreads > 1, PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpurcm: graph construction needs threads");
  PetscCheck(!flagged || (build && !tns), PETSC_COMM_SELF, PETSC_ERR_PLIB, "gpurcm: only a raw CSR without inodes is ordered as flagged");
  *ordered = PETSC_TRUE;
  if (n <= 1 || nthreads <= 1) {
    PetscCall(PetscLogEventBegin(MAT_GPURCM_Number, 0, 0, 0, 0));
    PetscCall(MatGPURCMSerial_Private(n, ia, ja, PETSC_TRUE, speculate, perm));
    if (permcopy) PetscCall(PetscArraycpy(permcopy, perm, n));
    PetscCall(PetscLogEventEnd(MAT_GPURCM_Number, 0, 0, 0, 0));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(PetscLogEventBegin(MAT_GPURCM_Setup, 0, 0, 0, 0)); /* the pool and the workspace */
  PetscCall(PetscTime(&tw[0]));
  PetscCall(GPURCMPoolGet(nthreads, keep, &pool, &reused));
  nthreads = pool->nthreads; /* those started */
  PetscCall(PetscTime(&tw[1]));
  PetscCall(PetscMemzero(&t, sizeof(t)));
  t.n         = n;
  t.ia        = ia;
  t.ja        = ja;
  t.tns       = tns;
  t.tvc       = tvc;
  t.nthreads  = nthreads;
  t.pool      = pool;
  t.B         = batch;
  t.Bmax      = 16 * batch;
  t.speculate = speculate;
  t.components = components;
  t.lvmode    = lvmode;
  t.maysleep  = wait == MAT_GPURCM_THREADS_WAIT_SLEEP || (wait == MAT_GPURCM_THREADS_WAIT_AUTO && PetscSparseGPUCoresShared(nthreads));
  PetscCall(PetscInfo(NULL, "gpurcm threads: %" PetscInt_FMT " of them, waits %s (-mat_gpurcm_threads_wait %s)\n", nthreads, t.maysleep ? "sleep after about 0.1 ms" : "spin", MatGPURCMThreadsWaits[wait]));
  t.nbatchcap = n + 1;
  /* the level BFS's ownership: a thread's lists hold at most its blocks' nodes */
  t.ownblocks = ownblocks;
  t.ownR      = PetscMax((n + nthreads * ownblocks - 1) / (nthreads * ownblocks), 1);
  ierr        = PetscCalloc1(nthreads, &t.work);
  if (!ierr) ierr = GPURCMPoolWorkspace(pool, &t, ownblocks * t.ownR + 1, &mask, &xls, &deg, &mark, &tmp);
  for (PetscInt i = 0; i < nthreads && !ierr && t.work; i++) {
    ierr = PetscMalloc1(t.Bmax, &t.work[i].cnt);
    if (!ierr && GPURCMWorkReserve(&t.work[i], 4096)) ierr = PETSC_ERR_MEM;
    if (!ierr) ierr = PetscCalloc3(2 * nthreads, &t.work[i].ob, 2 * nthreads, &t.work[i].obn, 2 * nthreads, &t.work[i].obcap);
  }
  if (!ierr) {
    t.inmask = (_Atomic uint64_t *)calloc((size_t)(2 * nthreads * GPURCM_INMASK_STRIDE(nthreads)), sizeof(*t.inmask));
    if (!t.inmask) ierr = PETSC_ERR_MEM;
  }
  t.perm = perm;
  t.mask = mask;
  t.mark = mark;
  pool->cur = &t;
  PetscCall(PetscTime(&tw[2]));
  PetscCall(PetscLogEventEnd(MAT_GPURCM_Setup, 0, 0, 0, 0));
  /* the work itself; on error the pool is still given back and everything freed */
#if defined(GPURCM_PROFILE)
  t.ttsc[0] = GPURCMTicks();
#endif
  if (!ierr) ierr = GPURCMThreadsOrder(&t, build, flagged, cia, cja, small, xls, deg, tmp, ordered);
  if (!ierr && *ordered && permcopy) {
    t.permcopy = permcopy;
    GPURCMRunFor(&t, 19, n, 0);
  }
#if defined(GPURCM_PROFILE)
  t.ttsc[1] = GPURCMTicks();
#endif
  PetscCall(PetscLogEventBegin(MAT_GPURCM_Setup, 0, 0, 0, 0));
  PetscCall(PetscTime(&tw[3]));
  pool->cur = NULL;
  kept      = (PetscBool)(pool == GPURCMKeptPool);
  if (kept) PetscCall(PetscSNPrintf(keptnote, sizeof(keptnote), "; %.1f MiB of node arrays kept (-mat_gpurcm_threads_keep)", pool->wsbytes / 1048576.0));
  GPURCMPoolPut(pool);
  PetscCall(PetscTime(&tw[4]));
#if defined(GPURCM_PROFILE)
  for (int k = 0; k < 2 && t.work && t.ttsc[1] > t.ttsc[0]; k++) { /* means over the threads of each barrier's parts, in TSC ticks and ns */
    const double ns = 1e9 * (tw[3] - tw[2]) / (double)(t.ttsc[1] - t.ttsc[0]), bars = (double)t.work[0].pfbars[k];
    double       work = 0, wait = 0, after = 0;

    if (!bars) continue;
    for (PetscInt i = 0; i < nthreads; i++) {
      work += (double)t.work[i].pfwork[k] / nthreads;
      wait += (double)t.work[i].pfwait[k] / nthreads;
      after += (double)t.work[i].pfafter[k] / nthreads;
    }
    printf("GPURCM_PROFILE threads %" PetscInt_FMT " %s: %.0f level barriers, %.2f of the ordering's %.2f ms; per barrier and thread: work %.0f ns, wait %.0f ns (arrival skew %.0f ns, after the last arrival %.0f ns)\n", nthreads, k ? "numbering" : "root finder", bars, 1e-6 * ns * (work + wait), 1e3 * (tw[3] - tw[2]), ns * work / bars, ns * wait / bars, ns * (double)t.pfskew[k] / bars, ns * after / bars);
  }
#endif
  for (PetscInt i = 0; i < nthreads && t.work; i++) {
    free(t.work[i].child);
    free(t.work[i].tmp);
    free(t.work[i].lvc);
    free(t.work[i].lvch[0]);
    free(t.work[i].lvch[1]);
    PetscCall(PetscFree(t.work[i].cnt));
    if (t.work[i].ob)
      for (PetscInt j = 0; j < 2 * nthreads; j++) free(t.work[i].ob[j]);
    PetscCall(PetscFree3(t.work[i].ob, t.work[i].obn, t.work[i].obcap));
  }
  free(t.inmask);
  PetscCall(PetscFree(t.work));
  free(t.cpar);
  free(t.csize);
  PetscCall(PetscFree2(t.croots, t.coff));
  PetscCall(PetscFree4(t.gia, t.rowlow, t.ucnt, t.tsum));
  PetscCall(PetscFree5(t.flo, t.fown, t.fbeg, t.fobeg, t.qfb));
  PetscCall(PetscFree(t.bcnt));
  PetscCall(PetscFree(t.pairs));
  PetscCall(PetscFree(t.ownbuf));
  PetscCall(PetscFree(t.gja));
  free(t.ls);
  free(t.bend);
  free(t.btail);
  free(t.bdisc);
  PetscCall(PetscTime(&tw[5]));
  PetscCall(PetscLogEventEnd(MAT_GPURCM_Setup, 0, 0, 0, 0));
  PetscCall(PetscInfo(NULL, "gpurcm threads: setup %.3g ms of %.3g ms: pool %.3g (%s), workspace %.3g, first touch %.3g, pool %s %.3g, frees %.3g ms%s\n", 1e3 * (tw[2] - tw[0] + t.ttouch[1] - t.ttouch[0] + tw[5] - tw[3]), 1e3 * (tw[5] - tw[0]), 1e3 * (tw[1] - tw[0]), reused ? "kept" : "started", 1e3 * (tw[2] - tw[1]), 1e3 * (t.ttouch[1] - t.ttouch[0]), kept ? "kept" : "stopped", 1e3 * (tw[4] - tw[3]), 1e3 * (tw[5] - tw[4]), keptnote));
  PetscCheck(ierr != PETSC_ERR_MEM, PETSC_COMM_SELF, PETSC_ERR_MEM, "gpurcm: out of memory for the threads' workspace");
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}
#endif

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
