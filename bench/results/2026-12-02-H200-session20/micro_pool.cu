// Session 20 microbenchmark: what a stream-ordered allocation costs on the H200 when the default pool must map new
// memory (release threshold 0, CUDA's default, or a cold pool) against reusing what it keeps (threshold UINT64_MAX, as
// PETSc sets it when its CUDA device context starts), and what one synchronous 64-byte copy back and one small kernel
// launch cost. Host wall time, median of 20. Build: nvcc -O2 -arch=sm_90 -o micro_pool micro_pool.cu
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <chrono>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
__global__ void touch(char *p, size_t n) { size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i * 4096] = 1; }
__global__ void tiny(int *p) { if (threadIdx.x == 0) p[0]++; }

int main()
{
  cudaMemPool_t pool;
  CK(cudaFree(0));
  CK(cudaDeviceGetDefaultMemPool(&pool, 0));
  const size_t sizes[] = {4u << 20, 40u << 20, 400u << 20};
  for (int keep = 0; keep < 2; keep++) {
    uint64_t thr = keep ? UINT64_MAX : 0;
    CK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr));
    CK(cudaMemPoolTrimTo(pool, 0));
    for (size_t n : sizes) {
      std::vector<double> t;
      for (int r = 0; r < 21; r++) {
        char *p;
        double t0 = now();
        CK(cudaMallocAsync((void **)&p, n, 0));
        touch<<<(unsigned)((n / 4096 + 255) / 256), 256>>>(p, n / 4096);
        CK(cudaFreeAsync(p, 0));
        CK(cudaStreamSynchronize(0));
        if (r) t.push_back(now() - t0);
      }
      std::sort(t.begin(), t.end());
      printf("threshold %s: malloc+touch+free+sync of %4zu MiB: median %8.1f us (min %8.1f)\n", keep ? "max" : "0  ", n >> 20, 1e6 * t[t.size() / 2], 1e6 * t[0]);
    }
  }
  {
    int *d, h[16];
    std::vector<double> a, b, c;
    CK(cudaMalloc((void **)&d, 64));
    for (int r = 0; r < 21; r++) {
      double t0 = now();
      tiny<<<1, 32>>>(d);
      CK(cudaMemcpy(h, d, 64, cudaMemcpyDeviceToHost));
      double t1 = now();
      for (int k = 0; k < 10; k++) tiny<<<1, 32>>>(d);
      double t2 = now();
      CK(cudaStreamSynchronize(0));
      double t3 = now();
      if (r) a.push_back(t1 - t0), b.push_back((t2 - t1) / 10), c.push_back(t3 - t2);
    }
    std::sort(a.begin(), a.end()), std::sort(b.begin(), b.end()), std::sort(c.begin(), c.end());
    printf("tiny kernel + 64-byte copy back: %.1f us; one launch (host side): %.2f us; sync after 10: %.1f us\n", 1e6 * a[10], 1e6 * b[10], 1e6 * c[10]);
  }
  return 0;
}
