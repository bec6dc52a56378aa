/*
  gpurcm's threads backend: speculative parallel batches (Mlakar et al., IPDPS 2021) and level-synchronous passes on
  POSIX threads with C11 atomics; the graph built by the threads from the raw CSR; a pool of threads kept between
  orderings. MatGPURCMThreads_Private() is called by MatGetOrdering_GPURCM() (gpurcm.c).
*/
#if !defined(_GNU_SOURCE)
  #define _GNU_SOURCE 1 /* pthread_barrier_*, sysconf(_SC_NPROCESSORS_ONLN), sched_getaffinity under strict -std=c99 */
#endif
#include "gpurcmhost.h"
#include "gpurcmsort.h"

#if defined(GPURCM_HAVE_THREADS)
  #include <pthread.h>
  #include <sched.h>
  #include <time.h>
  #include <stdatomic.h>
  #include <stdint.h>
  #include <stdlib.h>
  #include <unistd.h>

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
PetscErrorCode MatGPURCMThreads_Private(PetscInt n, const PetscInt ia[], const PetscInt ja[], PetscBool build, PetscBool flagged, const PetscInt tns[], const PetscInt tvc[], const PetscInt cia[], const PetscInt cja[], PetscInt nthreads, PetscInt batch, PetscInt small, PetscInt ownblocks, PetscBool speculate, MatGPURCMThreadsNumber lvmode, MatGPURCMThreadsWait wait, PetscBool keep, PetscBool components, PetscInt perm[], PetscInt permcopy[], PetscBool *ordered)
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
