/* Session 61: what one parallel-for costs in thread management alone, on the GPU host's cores.
   Each round runs an empty range job on T threads (the caller is one of them):
     create: T - 1 pthread_create() + pthread_join() (PetscSparseGPUParallelForC(), gpurcm before session 61);
     create-1m: the same with 1 MiB stacks (glibc caches freed stacks up to 40 MiB: 8 MiB ones do not all fit);
     pool: threads kept, two pthread_barrier_wait() a round (gpurcm's kept pool).
   With "cuda" as argument the CUDA driver is loaded and initialized first (its threads and mappings, as in a PETSc
   process with CUDA).  Build: cc -O2 -pthread threadcost.c -o threadcost -ldl;  run: ./threadcost [cuda] */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}
static int cmp(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
static volatile int sink;
static void *job(void *arg)
{
  char buf[4096];
  memset(buf, (int)(size_t)arg, sizeof(buf)); /* touch a page of stack */
  sink = buf[100];
  return NULL;
}
static pthread_barrier_t bar;
static volatile int      stop;
static void             *poolloop(void *arg)
{
  for (;;) {
    pthread_barrier_wait(&bar);
    if (stop) break;
    job(arg);
    pthread_barrier_wait(&bar);
  }
  return NULL;
}
#define R 200
int main(int argc, char **argv)
{
  int       Ts[] = {2, 4, 8, 16};
  pthread_t th[64];
  double    t[R];
  if (argc > 1 && !strcmp(argv[1], "cuda")) {
    void *h = dlopen("libcuda.so.1", RTLD_NOW);
    int (*cuInit)(unsigned) = h ? (int (*)(unsigned))dlsym(h, "cuInit") : NULL;
    int (*cuDevicePrimaryCtxRetain)(void **, int) = h ? (int (*)(void **, int))dlsym(h, "cuDevicePrimaryCtxRetain") : NULL;
    void *ctx;
    printf("cuda driver %s, cuInit %d, primary context %d\n", h ? "loaded" : "not found", cuInit ? cuInit(0) : -1, cuDevicePrimaryCtxRetain ? cuDevicePrimaryCtxRetain(&ctx, 0) : -1);
  }
  for (int k = 0; k < 4; k++) {
    int T = Ts[k];
    for (int mode = 0; mode < 3; mode++) {
      pthread_attr_t attr;
      pthread_attr_init(&attr);
      if (mode == 1) pthread_attr_setstacksize(&attr, 1 << 20);
      if (mode == 2) {
        stop = 0;
        pthread_barrier_init(&bar, NULL, (unsigned)T);
        for (int i = 1; i < T; i++) pthread_create(&th[i], NULL, poolloop, (void *)(size_t)i);
      }
      for (int r = 0; r < R; r++) {
        double t0 = now();
        if (mode < 2) {
          for (int i = 1; i < T; i++) pthread_create(&th[i], &attr, job, (void *)(size_t)i);
          job(0);
          for (int i = 1; i < T; i++) pthread_join(th[i], NULL);
        } else {
          pthread_barrier_wait(&bar);
          job(0);
          pthread_barrier_wait(&bar);
        }
        t[r] = now() - t0;
      }
      if (mode == 2) {
        stop = 1;
        pthread_barrier_wait(&bar);
        for (int i = 1; i < T; i++) pthread_join(th[i], NULL);
        pthread_barrier_destroy(&bar);
      }
      pthread_attr_destroy(&attr);
      qsort(t, R, sizeof(double), cmp);
      printf("%2d threads %-9s median %8.1f us  p10 %8.1f  p90 %8.1f\n", T, mode == 0 ? "create" : mode == 1 ? "create-1m" : "pool", 1e6 * t[R / 2], 1e6 * t[R / 10], 1e6 * t[9 * R / 10]);
    }
  }
  return 0;
}
