/*
  Host threads for the setups (building solve structures, filling fresh arrays): a fork-join loop, tasks started and
  joined later (to overlap host work with the copies to the GPU), and the first touch of fresh memory.

  Why: PETSc is single-threaded, and the one-time setups of the components spend much of their time writing arrays
  they have just allocated. On the H200 machine's host, touching fresh memory costs 0.67 ms per MiB from one thread
  with 4 KiB pages, 0.21 ms with transparent huge pages, 0.04-0.09 ms from 8 threads (session 31, job 1,
  bench/results/2026-12-04-H200-session31/first_touch.c): a 128^3 ICC(0) factor's solve structures (about 320 MB)
  took 0.2 s of first touch alone.

  The functions run on the threads must not call PETSc (its error stack, debug stack and debug malloc are not
  thread-safe): they are plain C on memory allocated beforehand, and report failures through their context.
*/
#if !defined(_GNU_SOURCE)
  #define _GNU_SOURCE 1 /* madvise(), sysconf(), sched_getaffinity() under -std=c99 */
#endif
#include <sparsegpuimpl.h>
#include <stdlib.h>
#include <stdio.h>
#if defined(PETSC_HAVE_PTHREAD) && defined(PETSC_HAVE_UNISTD_H)
  #include <pthread.h>
  #include <sched.h>
  #include <unistd.h>
  #include <sys/mman.h>
  #define SPARSEGPU_HAVE_THREADS 1
#endif

#if defined(SPARSEGPU_HAVE_THREADS)
/* the CPUs this process may run on (its affinity mask, where known), and in *online those the node has online */
static long ProcessCores(long *online)
{
  long cores = sysconf(_SC_NPROCESSORS_ONLN);

  *online = cores;
  #if defined(CPU_COUNT)
  {
    cpu_set_t set;
    if (!sched_getaffinity(0, sizeof(set), &set)) cores = CPU_COUNT(&set);
  }
  #endif
  return cores;
}
#endif

/*
  PetscSparseGPUAvailableCores - the cores this process may run on; when it is not bound to a subset of the cores,
  they are shared among the node's MPI ranks (from the launcher's environment). The default thread count of the
  components' host threads (gpurcm's threads backend; subtree_ilu's setup, at most 16 of them).
*/
PETSC_INTERN PetscInt PetscSparseGPUAvailableCores(void)
{
#if defined(SPARSEGPU_HAVE_THREADS)
  long        online, avail = ProcessCores(&online);
  const char *envs[] = {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS", "MV2_COMM_WORLD_LOCAL_SIZE", "SLURM_NTASKS_PER_NODE"};
  if (avail >= online && online > 0) {
    for (size_t i = 0; i < sizeof(envs) / sizeof(envs[0]); i++) {
      const char *v     = getenv(envs[i]);
      long        local = v ? atol(v) : 0;
      if (local > 1) {
        avail = online / local;
        break;
      }
    }
  }
  return avail > 0 ? (PetscInt)avail : 1;
#else
  return 1;
#endif
}

/*
  PetscSparseGPUCoresShared - whether nthreads threads of ours would share cores: they and the other threads the node
  is running now (Linux: /proc/loadavg's count of runnable tasks, which includes the caller) outnumber the cores this
  process may run on. Elsewhere only nthreads against those cores. Spin-waits that wait for another of our threads
  must then give their core away (sleep); otherwise sleeping only slows the hand-offs between our threads.
*/
PETSC_INTERN PetscBool PetscSparseGPUCoresShared(PetscInt nthreads)
{
#if defined(SPARSEGPU_HAVE_THREADS)
  long  online, cores = ProcessCores(&online), running = 1;
  FILE *f = fopen("/proc/loadavg", "r");
  if (f) {
    double l1, l5, l15;
    long   r, total;
    if (fscanf(f, "%lf %lf %lf %ld/%ld", &l1, &l5, &l15, &r, &total) == 5 && r >= 1) running = r;
    (void)fclose(f);
  }
  return (cores < 1 || (long)nthreads + running - 1 > cores) ? PETSC_TRUE : PETSC_FALSE;
#else
  (void)nthreads;
  return PETSC_TRUE;
#endif
}

typedef struct {
  void (*fn)(void *, PetscInt, PetscInt, PetscInt);
  void    *ctx;
  PetscInt tid, begin, end;
} RangeJob;

#if defined(SPARSEGPU_HAVE_THREADS)
static void *RangeJobRun(void *arg)
{
  RangeJob *j = (RangeJob *)arg;

  j->fn(j->ctx, j->tid, j->begin, j->end);
  return NULL;
}
#endif

/*
  PetscSparseGPUParallelForC - fn(ctx, tid, begin, end) on nthreads consecutive ranges of [0, n) (thread tid gets the
  tid-th range, the caller runs range 0), each of at least minchunk items: fewer threads when n is small. Ranges are
  fixed by (n, nthreads, minchunk) only, so a result that depends on them is reproducible. A thread that cannot be
  started runs its range on the caller. Plain C (callable from a thread): returns 0, or 1 if a join failed.
*/
PETSC_INTERN int PetscSparseGPUParallelForC(PetscInt nthreads, PetscInt n, PetscInt minchunk, void (*fn)(void *, PetscInt, PetscInt, PetscInt), void *ctx)
{
  PetscInt nt = PetscMax(1, PetscMin(nthreads, PETSC_SPARSEGPU_MAX_THREADS)), begin[PETSC_SPARSEGPU_MAX_THREADS + 1];
  int      fail = 0;

  if (n <= 0) return 0;
  nt = PetscMax(1, PetscMin(nt, n / PetscMax(minchunk, 1)));
  for (PetscInt t = 0; t <= nt; t++) begin[t] = (PetscInt)(((PetscInt64)n * t) / nt);
#if defined(SPARSEGPU_HAVE_THREADS)
  if (nt > 1) {
    RangeJob  job[PETSC_SPARSEGPU_MAX_THREADS];
    pthread_t th[PETSC_SPARSEGPU_MAX_THREADS];
    int       started[PETSC_SPARSEGPU_MAX_THREADS];

    for (PetscInt t = 1; t < nt; t++) {
      job[t].fn    = fn;
      job[t].ctx   = ctx;
      job[t].tid   = t;
      job[t].begin = begin[t];
      job[t].end   = begin[t + 1];
      started[t]   = pthread_create(&th[t], NULL, RangeJobRun, &job[t]) ? 0 : 1;
    }
    fn(ctx, 0, begin[0], begin[1]);
    for (PetscInt t = 1; t < nt; t++) {
      if (started[t]) fail |= pthread_join(th[t], NULL) ? 1 : 0;
      else fn(ctx, t, begin[t], begin[t + 1]);
    }
    return fail;
  }
#endif
  for (PetscInt t = 0; t < nt; t++) fn(ctx, t, begin[t], begin[t + 1]);
  return fail;
}

/* PetscSparseGPUParallelForC() with PETSc's error handling (not callable from a thread) */
PETSC_INTERN PetscErrorCode PetscSparseGPUParallelFor(PetscInt nthreads, PetscInt n, PetscInt minchunk, void (*fn)(void *, PetscInt, PetscInt, PetscInt), void *ctx)
{
  PetscFunctionBegin;
  PetscCheck(!PetscSparseGPUParallelForC(nthreads, n, minchunk, fn, ctx), PETSC_COMM_SELF, PETSC_ERR_SYS, "pthread_join() failed");
  PetscFunctionReturn(PETSC_SUCCESS);
}

struct _n_PetscSparseGPUTasks {
  PetscInt  ntasks;
  RangeJob  job[PETSC_SPARSEGPU_MAX_THREADS];
  PetscBool started[PETSC_SPARSEGPU_MAX_THREADS];
#if defined(SPARSEGPU_HAVE_THREADS)
  pthread_t th[PETSC_SPARSEGPU_MAX_THREADS];
#endif
};

/*
  PetscSparseGPUTasksStart - starts fn(ctx, t, t, t+1) for t = 0 .. ntasks-1, each on a thread of its own, and returns
  at once (with threads == PETSC_FALSE, or without pthreads, the tasks run here before it returns).
  PetscSparseGPUTasksJoin() waits for them: call it on every path after a start, errors included.
*/
PETSC_INTERN PetscErrorCode PetscSparseGPUTasksStart(PetscInt ntasks, PetscBool threads, void (*fn)(void *, PetscInt, PetscInt, PetscInt), void *ctx, PetscSparseGPUTasks *tasks)
{
  PetscSparseGPUTasks T;

  PetscFunctionBegin;
  PetscCheck(ntasks >= 0 && ntasks <= PETSC_SPARSEGPU_MAX_THREADS, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "At most %d tasks", PETSC_SPARSEGPU_MAX_THREADS);
  PetscCall(PetscNew(&T));
  T->ntasks = ntasks;
  for (PetscInt t = 0; t < ntasks; t++) {
    T->job[t].fn    = fn;
    T->job[t].ctx   = ctx;
    T->job[t].tid   = t;
    T->job[t].begin = t;
    T->job[t].end   = t + 1;
#if defined(SPARSEGPU_HAVE_THREADS)
    if (threads) T->started[t] = pthread_create(&T->th[t], NULL, RangeJobRun, &T->job[t]) ? PETSC_FALSE : PETSC_TRUE;
#endif
    if (!T->started[t]) fn(ctx, t, t, t + 1);
  }
  *tasks = T;
  PetscFunctionReturn(PETSC_SUCCESS);
}

PETSC_INTERN PetscErrorCode PetscSparseGPUTasksJoin(PetscSparseGPUTasks *tasks)
{
  PetscSparseGPUTasks T = *tasks;
  PetscBool           ok = PETSC_TRUE;

  PetscFunctionBegin;
  if (!T) PetscFunctionReturn(PETSC_SUCCESS);
#if defined(SPARSEGPU_HAVE_THREADS)
  for (PetscInt t = 0; t < T->ntasks; t++)
    if (T->started[t] && pthread_join(T->th[t], NULL)) ok = PETSC_FALSE;
#endif
  PetscCall(PetscFree(*tasks));
  PetscCheck(ok, PETSC_COMM_SELF, PETSC_ERR_SYS, "pthread_join() failed");
  PetscFunctionReturn(PETSC_SUCCESS);
}

typedef struct {
  char  *p;
  size_t bytes;
} TouchCtx;

static void TouchRange(void *ctx, PetscInt tid, PetscInt begin, PetscInt end)
{
  TouchCtx *c = (TouchCtx *)ctx;

  (void)tid;
  for (PetscInt k = begin; k < end; k++) {
    volatile char *q = c->p + (size_t)k * 4096;

    *q = 0; /* a write maps the page; its contents are undefined anyway (freshly allocated) */
  }
}

/*
  PetscSparseGPUPrefaultC - maps the pages of a freshly allocated array (contents undefined) before it is written:
  advises transparent huge pages for it, then touches one byte per page from nthreads threads. Only for arrays of at
  least 4 MiB; harmless if the pages are already mapped, advice or threads unavailable. Plain C (callable from a
  thread): returns 0, or 1 if a join failed.
*/
PETSC_INTERN int PetscSparseGPUPrefaultC(PetscInt nthreads, void *p, size_t bytes)
{
  const size_t page = 4096, minbytes = (size_t)4 << 20;
  char        *a, *b;
  TouchCtx     ctx;

  if (!p || bytes < minbytes || nthreads < 1) return 0;
  a = (char *)(((uintptr_t)p + page - 1) & ~(uintptr_t)(page - 1)); /* the whole pages inside the array */
  b = (char *)(((uintptr_t)p + bytes) & ~(uintptr_t)(page - 1));
  if (b <= a) return 0;
#if defined(SPARSEGPU_HAVE_THREADS) && defined(MADV_HUGEPAGE)
  (void)madvise(a, (size_t)(b - a), MADV_HUGEPAGE); /* advice only: failure (no THP) changes nothing */
#endif
  ctx.p     = a;
  ctx.bytes = (size_t)(b - a);
  return PetscSparseGPUParallelForC(nthreads, (PetscInt)(ctx.bytes / page), 256, TouchRange, &ctx);
}
