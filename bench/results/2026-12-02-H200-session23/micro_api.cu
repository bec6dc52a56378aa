// Session 23 microbenchmark: the host cost of the CUDA calls a pellrcuda GPU build makes (issue 4's build <= 10
// SpMVs is mostly host time: about 40 calls for 50 us of kernels on a 1M-row mesh). Host wall time per call, median
// of 200 (calls issued back to back, the stream synchronized between repetitions), and the device memory a large
// allocation maps: cudaMalloc against cudaMallocAsync on a cold and on a warm pool (PETSc's threshold UINT64_MAX).
// Build: nvcc -O2 -arch=sm_90 -o micro_api micro_api.cu
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <chrono>
#include <cuda_runtime.h>
#include <cub/device/device_scan.cuh>

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
__global__ void tiny(int *p) { if (threadIdx.x == 0) p[0]++; }
__global__ void touch(char *p, size_t n) { size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i * 4096] = 1; }

static double med(std::vector<double> &t) { std::sort(t.begin(), t.end()); return 1e6 * t[t.size() / 2]; }

int main()
{
  cudaMemPool_t pool;
  uint64_t      thr = UINT64_MAX;
  int          *d, *a, *b, h[4];
  const int     R = 200, ns = 31250;
  CK(cudaFree(0));
  CK(cudaDeviceGetDefaultMemPool(&pool, 0));
  CK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &thr));
  CK(cudaMalloc((void **)&d, 1 << 20));
  CK(cudaMalloc((void **)&a, ns * sizeof(int)));
  CK(cudaMalloc((void **)&b, ns * sizeof(int)));
  tiny<<<1, 32>>>(d);
  CK(cudaDeviceSynchronize());
  std::vector<double> tl, tm, tma, tfa, tq, ts, tc, tge;
  size_t tb = 0;
  CK(cub::DeviceScan::ExclusiveSum(NULL, tb, a, b, ns, (cudaStream_t)0));
  void *tmp;
  CK(cudaMalloc(&tmp, tb));
  for (int r = 0; r < R; r++) {
    double t0, t1;
    void  *p;
    t0 = now(); tiny<<<1, 32>>>(d); t1 = now(); tl.push_back(t1 - t0);
    t0 = now(); CK(cudaGetLastError()); t1 = now(); tge.push_back(t1 - t0);
    t0 = now(); CK(cudaMemsetAsync(d, 0, 64, 0)); t1 = now(); tm.push_back(t1 - t0);
    t0 = now(); CK(cudaMallocAsync(&p, 1 << 20, 0)); t1 = now(); tma.push_back(t1 - t0);
    t0 = now(); CK(cudaFreeAsync(p, 0)); t1 = now(); tfa.push_back(t1 - t0);
    size_t q = 0;
    t0 = now(); CK(cub::DeviceScan::ExclusiveSum(NULL, q, a, b, ns, (cudaStream_t)0)); t1 = now(); tq.push_back(t1 - t0);
    q = tb;
    t0 = now(); CK(cub::DeviceScan::ExclusiveSum(tmp, q, a, b, ns, (cudaStream_t)0)); t1 = now(); ts.push_back(t1 - t0);
    CK(cudaStreamSynchronize(0));
    tiny<<<1, 32>>>(d);
    t0 = now(); CK(cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost)); t1 = now(); tc.push_back(t1 - t0);
  }
  printf("host us per call (median of %d): launch %.2f, cudaGetLastError %.2f, cudaMemsetAsync %.2f, cudaMallocAsync 1 MiB (warm) %.2f, cudaFreeAsync %.2f, cub scan size query %.2f, cub scan of %d ints %.2f, cudaMemcpy 16 B back after a kernel %.2f\n", R, med(tl), med(tge), med(tm), med(tma), med(tfa), med(tq), ns, med(ts), med(tc));
  // large allocations: 320 MiB (a 27-point 100^3 layout), cudaMalloc vs the pool cold (trimmed) and warm
  const size_t big = 320u << 20;
  for (int k = 0; k < 3; k++) {
    std::vector<double> t;
    for (int r = 0; r < 7; r++) {
      char  *p;
      double t0 = now();
      if (k == 0) CK(cudaMalloc((void **)&p, big));
      else {
        if (k == 1) CK(cudaMemPoolTrimTo(pool, 0));
        CK(cudaMallocAsync((void **)&p, big, 0));
      }
      double t1 = now();
      touch<<<(unsigned)((big / 4096 + 255) / 256), 256>>>(p, big / 4096);
      CK(cudaStreamSynchronize(0));
      double t2 = now();
      if (k == 0) CK(cudaFree(p));
      else CK(cudaFreeAsync(p, 0));
      CK(cudaStreamSynchronize(0));
      if (r) t.push_back(t2 - t0);
      if (r == 3) printf("  %s 320 MiB: the call %.1f us\n", k == 0 ? "cudaMalloc" : k == 1 ? "cudaMallocAsync cold" : "cudaMallocAsync warm", 1e6 * (t1 - t0));
    }
    printf("%s 320 MiB + touch + sync: median %.1f us\n", k == 0 ? "cudaMalloc" : k == 1 ? "cudaMallocAsync, pool trimmed (cold)" : "cudaMallocAsync, warm pool", med(t));
  }
  return 0;
}
