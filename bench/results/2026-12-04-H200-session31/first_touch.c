/* first-touch cost of fresh anonymous memory: 4 KiB pages vs transparent huge pages (madvise), one and 8 threads */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <pthread.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
typedef struct { char *p; size_t len; } Arg;
static void *touch(void *a) { Arg *x = a; for (size_t i = 0; i < x->len; i += 4096) x->p[i] = 1; return NULL; }
int main(void)
{
  size_t len = (size_t)1 << 30;
  for (int huge = 0; huge < 2; huge++)
    for (int nt = 1; nt <= 8; nt *= 8) {
      char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (huge) madvise(p, len, MADV_HUGEPAGE);
      pthread_t th[8]; Arg a[8]; double t0 = now();
      for (int t = 0; t < nt; t++) { a[t].p = p + t * (len / nt); a[t].len = len / nt; pthread_create(&th[t], NULL, touch, &a[t]); }
      for (int t = 0; t < nt; t++) pthread_join(th[t], NULL);
      double t1 = now();
      memset(p, 2, len); double t2 = now();
      printf("1 GiB first touch: %s pages, %d threads: %.1f ms (%.2f ms/MiB); memset after: %.1f ms\n", huge ? "THP-advised" : "4 KiB", nt, (t1 - t0) * 1e3, (t1 - t0) * 1e3 / 1024, (t2 - t1) * 1e3);
      munmap(p, len);
    }
  return 0;
}
