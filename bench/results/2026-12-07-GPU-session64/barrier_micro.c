/* Session 63: what a level's barrier costs the threads backend of gpurcm, and whether a combining tree or a butterfly
   all-reduce costs less than the central counter (GPURCMSpinBarrierSum of gpurcm.c, copied here as "central").
   Each barrier also sums one count per thread, as the BFS levels need. Every thread does `work` empty loop steps
   between barriers (a level's own work), and every sum is checked.
     cc -O2 -pthread barrier_micro.c -o barrier_micro && ./barrier_micro <threads> <barriers> <work> [<tree fan-in> [<skew>]]
   (session 63 after job 1: flags, and skew: each thread's work varies from barrier to barrier) */
#define _GNU_SOURCE 1
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LINE 64
typedef struct {
  _Alignas(LINE) _Atomic uint64_t count;
  char pad[LINE - sizeof(uint64_t)];
} Line;

static int       nthreads, nbar, work;
static pthread_barrier_t start;
/* central */
static _Alignas(LINE) _Atomic uint64_t ccount;
static _Alignas(LINE) _Atomic unsigned cgen;
static int64_t   csum;
/* tree: nodes[level][group] counters (arrivals << 40 | sum), fan-in F */
#define MAXT 256
static int   fanin;
static Line  tnode[8][MAXT];
static int   tlevels, tsize[8];
static _Alignas(LINE) _Atomic unsigned tgen;
static int64_t tsum;
/* butterfly: per thread, per round, a slot (generation << 40 | partial sum) written by the partner */
static Line  bslot[MAXT][8][2]; /* [receiver][round][barrier parity]: a partner one barrier ahead writes the other parity */

static inline void pause_(void) { __builtin_ia32_pause(); }

static int64_t central(int id, int64_t c)
{
  (void)id;
  const unsigned gen = atomic_load_explicit(&cgen, memory_order_acquire);
  const uint64_t old = atomic_fetch_add_explicit(&ccount, ((uint64_t)1 << 40) | (uint64_t)c, memory_order_acq_rel);
  if ((old >> 40) == (uint64_t)nthreads - 1) {
    int64_t s = (int64_t)((old & (((uint64_t)1 << 40) - 1)) + (uint64_t)c);
    atomic_store_explicit(&ccount, 0, memory_order_relaxed);
    csum = s;
    atomic_fetch_add_explicit(&cgen, 1, memory_order_release);
    return s;
  }
  while (atomic_load_explicit(&cgen, memory_order_acquire) == gen) pause_();
  return csum;
}

static int64_t tree(int id, int64_t c)
{
  const unsigned gen = atomic_load_explicit(&tgen, memory_order_acquire);
  int            g   = id;
  uint64_t       s   = (uint64_t)c;
  for (int l = 0; l < tlevels; l++) {
    int      parent = g / fanin, members = (g / fanin == (tsize[l] - 1) / fanin) ? tsize[l] - parent * fanin : fanin;
    uint64_t old    = atomic_fetch_add_explicit(&tnode[l][parent].count, ((uint64_t)1 << 40) | s, memory_order_acq_rel);
    if ((int)(old >> 40) != members - 1) goto wait;
    s = (old & (((uint64_t)1 << 40) - 1)) + s;
    atomic_store_explicit(&tnode[l][parent].count, 0, memory_order_relaxed);
    g = parent;
  }
  tsum = (int64_t)s;
  atomic_fetch_add_explicit(&tgen, 1, memory_order_release);
  return (int64_t)s;
wait:
  while (atomic_load_explicit(&tgen, memory_order_acquire) == gen) pause_();
  return tsum;
}

/* flags: each thread writes its own line and reads every other's (parity as the butterfly's) */
static Line fslot[MAXT][2];
static int64_t flags(int id, int64_t c, uint64_t epoch)
{
  uint64_t s = 0;
  atomic_store_explicit(&fslot[id][epoch & 1].count, (epoch << 40) | (uint64_t)c, memory_order_release);
  for (int j = 0; j < nthreads; j++) {
    uint64_t v;
    while (((v = atomic_load_explicit(&fslot[j][epoch & 1].count, memory_order_acquire)) >> 40) != (epoch & 0xffffff)) pause_();
    s += v & (((uint64_t)1 << 40) - 1);
  }
  return (int64_t)s;
}

/* power-of-two thread counts: round r exchanges partial sums with id ^ 2^r; slot carries the barrier's number */
static int64_t butterfly(int id, int64_t c, uint64_t epoch)
{
  uint64_t s = (uint64_t)c;
  for (int r = 0; (1 << r) < nthreads; r++) {
    int p = id ^ (1 << r);
    atomic_store_explicit(&bslot[p][r][epoch & 1].count, (epoch << 40) | s, memory_order_release);
    uint64_t v;
    while (((v = atomic_load_explicit(&bslot[id][r][epoch & 1].count, memory_order_acquire)) >> 40) != (epoch & 0xffffff)) pause_();
    s += v & (((uint64_t)1 << 40) - 1);
  }
  return (int64_t)s;
}

static int mode, skew;
static double elapsed[MAXT];
static long   errors;

static void *run(void *arg)
{
  int             id = (int)(intptr_t)arg;
  struct timespec a, b;
  long            err = 0;
  pthread_barrier_wait(&start);
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (int i = 0; i < nbar; i++) {
    /* skew: each thread's work this barrier is 0, 1/2, 1 or 3/2 of work (a hash of thread and barrier) */
    int mywork = skew ? (int)((((unsigned)(i * 2654435761u) ^ (unsigned)(id * 40503u)) >> 7) % 4) * work / 2 : work;
    for (volatile int k = 0; k < mywork; k++);
    int64_t c = (i + id) % 7, s;
    if (mode == 0) s = central(id, c);
    else if (mode == 1) s = tree(id, c);
    else if (mode == 2) s = butterfly(id, c, (uint64_t)(i + 1) & 0xffffff);
    else s = flags(id, c, (uint64_t)(i + 1) & 0xffffff);
    int64_t want = 0;
    for (int t = 0; t < nthreads; t++) want += (i + t) % 7;
    if (s != want) err++;
  }
  clock_gettime(CLOCK_MONOTONIC, &b);
  elapsed[id] = (b.tv_sec - a.tv_sec) + 1e-9 * (b.tv_nsec - a.tv_nsec);
  __atomic_add_fetch(&errors, err, __ATOMIC_RELAXED);
  return NULL;
}

static double go(int m)
{
  pthread_t th[MAXT];
  mode = m;
  errors = 0;
  pthread_barrier_init(&start, NULL, (unsigned)nthreads);
  for (int t = 1; t < nthreads; t++) pthread_create(&th[t], NULL, run, (void *)(intptr_t)t);
  run((void *)0);
  for (int t = 1; t < nthreads; t++) pthread_join(th[t], NULL);
  pthread_barrier_destroy(&start);
  if (errors) printf("  ERRORS %ld\n", errors);
  return elapsed[0] / nbar * 1e9;
}

int main(int argc, char **argv)
{
  nthreads = argc > 1 ? atoi(argv[1]) : 16;
  nbar     = argc > 2 ? atoi(argv[2]) : 200000;
  work     = argc > 3 ? atoi(argv[3]) : 0;
  fanin    = argc > 4 ? atoi(argv[4]) : 4;
  skew     = argc > 5 ? atoi(argv[5]) : 0;
  if (nthreads < 1 || nthreads > MAXT) return 1;
  tlevels = 0;
  for (int n = nthreads; n > 1; n = (n + fanin - 1) / fanin) tsize[tlevels++] = n;
  for (int rep = 0; rep < 3; rep++) {
    double c = go(0), t = go(1), b = -1, f;
    memset(fslot, 0, sizeof(fslot));
    f = go(3);
    if (!(nthreads & (nthreads - 1))) {
      memset(bslot, 0, sizeof(bslot));
      b = go(2);
    }
    printf("threads %d work %d%s fanin %d: ns per barrier central %.0f tree %.0f butterfly %.0f flags %.0f\n", nthreads, work, skew ? " (skewed)" : "", fanin, c, t, b, f);
  }
  return 0;
}
