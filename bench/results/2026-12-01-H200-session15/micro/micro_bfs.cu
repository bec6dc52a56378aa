// Session 15 microbenchmark (not part of the library): what one BFS level costs on the H200, to choose how to make
// gpurcm's level passes cheaper. Graphs: 2D 5-point and 3D 7-point grids with their diagonal (gpurcm's graph of a
// structurally symmetric matrix is its CSR). BFS from node 0; the time per pass (CUDA events, median of 7 after one
// warm-up) divided by the number of levels.
//   narrow variants (one block of 1024 threads, all levels; levels in shared memory):
//     csr-atomic   ia/ja, atomicMax claim on a global stamp per neighbour (the library's narrow stretch today)
//     csr-filter   the same, a plain load of the stamp first: the atomic only for nodes not yet reached
//     csr-bitmap   ia/ja, claims by atomicOr in a shared-memory bitmap of all nodes (n <= 1.5M)
//     ell-bitmap   adjacency padded to 8 per node (two 16-byte loads, no ia), shared bitmap
//     ell-filter   padded adjacency, global stamps with the filter
//   wide variants (3D): every level split over G blocks, grid barrier in global memory (as the library's), or one
//   cluster of 16 (or 8) blocks with the hardware cluster barrier.
// Build: nvcc -O3 -arch=sm_90 -o micro_bfs micro_bfs.cu ; run: ./micro_bfs
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)
#define NB 1024
#define CAP 4096

struct Graph { int n; std::vector<int> ia, ja; };

static Graph grid(int nx, int ny, int nz)
{
  Graph g; g.n = nx * ny * nz; g.ia.push_back(0);
  for (int k = 0; k < nz; k++) for (int j = 0; j < ny; j++) for (int i = 0; i < nx; i++) {
    int r = (k * ny + j) * nx + i;
    if (k > 0) g.ja.push_back(r - nx * ny);
    if (j > 0) g.ja.push_back(r - nx);
    if (i > 0) g.ja.push_back(r - 1);
    g.ja.push_back(r);
    if (i < nx - 1) g.ja.push_back(r + 1);
    if (j < ny - 1) g.ja.push_back(r + nx);
    if (k < nz - 1) g.ja.push_back(r + nx * ny);
    g.ia.push_back((int)g.ja.size());
  }
  return g;
}

enum { CSR_ATOMIC, CSR_FILTER, CSR_BITMAP, ELL_BITMAP, ELL_FILTER };

// appends v[j] with bit j of won at *cnt (shared) into out (global) and sout (shared), one atomic per warp
__device__ __forceinline__ void append(unsigned won, const int *v, unsigned *cnt, unsigned *out, unsigned *sout)
{
  const unsigned lane = threadIdx.x & 31, mine = __popc(won);
  unsigned incl = mine, tot, base = 0, p;
#pragma unroll
  for (unsigned o = 1; o < 32; o <<= 1) { unsigned y = __shfl_up_sync(~0u, incl, o); if (lane >= o) incl += y; }
  tot = __shfl_sync(~0u, incl, 31);
  if (lane == 31 && tot) base = atomicAdd(cnt, tot);
  base = __shfl_sync(~0u, base, 31);
  p = base + incl - mine;
#pragma unroll
  for (int j = 0; j < 8; j++) if (won >> j & 1u) { out[p] = v[j]; if (sout && p < CAP) sout[p] = v[j]; p++; }
}

template <int MODE>
__global__ void __launch_bounds__(NB, 1) narrowBFS(int n, const int *ia, const int *ja, const int *adj, unsigned *vis, unsigned *L, unsigned stamp, unsigned *res)
{
  extern __shared__ unsigned bits[];
  __shared__ unsigned buf[2][CAP];
  __shared__ unsigned cnt[3];
  const unsigned t = threadIdx.x;
  unsigned lbeg = 0, lend = 1, nlvl = 1, cb = 0;
  if (MODE == CSR_BITMAP || MODE == ELL_BITMAP) {
    for (int w = t; w < (n + 31) / 32; w += NB) bits[w] = 0;
    __syncthreads();
    if (t == 0) bits[0] = 1u;
  }
  if (t == 0) { L[0] = 0; vis[0] = stamp; buf[0][0] = 0; }
  if (t < 3) cnt[t] = 0;
  __syncthreads();
  for (unsigned lvl = 0;; lvl++) {
    const unsigned size = lend - lbeg;
    unsigned *c = &cnt[lvl % 3], nn;
    if (t == 0) cnt[(lvl + 1) % 3] = 0;
    for (unsigned r0 = 0; r0 < size; r0 += NB) {
      const unsigned i = r0 + t;
      int v[8];
      unsigned won = 0;
#pragma unroll
      for (int j = 0; j < 8; j++) v[j] = -1;
      if (i < size) {
        const unsigned u = size <= CAP ? buf[cb][i] : __ldcg(L + lbeg + i);
        if (MODE == ELL_BITMAP || MODE == ELL_FILTER) {
          const int4 a = __ldg((const int4 *)(adj + 8 * (size_t)u)), b = __ldg((const int4 *)(adj + 8 * (size_t)u) + 1);
          v[0] = a.x; v[1] = a.y; v[2] = a.z; v[3] = a.w; v[4] = b.x; v[5] = b.y; v[6] = b.z; v[7] = b.w;
        } else {
          const int k0 = ia[u], k1 = ia[u + 1];
#pragma unroll
          for (int j = 0; j < 8; j++) if (k0 + j < k1) v[j] = ja[k0 + j];
        }
#pragma unroll
        for (int j = 0; j < 8; j++) {
          if (v[j] < 0) continue;
          if (MODE == CSR_ATOMIC) { if (atomicMax(&vis[v[j]], stamp) < stamp) won |= 1u << j; }
          else if (MODE == CSR_FILTER || MODE == ELL_FILTER) { if (__ldcg(&vis[v[j]]) < stamp && atomicMax(&vis[v[j]], stamp) < stamp) won |= 1u << j; }
          else { const unsigned m = 1u << (v[j] & 31); if (!(bits[v[j] >> 5] & m) && !(atomicOr(&bits[v[j] >> 5], m) & m)) won |= 1u << j; }
        }
      }
      append(won, v, c, L + lend, buf[1 - cb]);
    }
    __syncthreads();
    nn = *(volatile unsigned *)c;
    if (!nn) break;
    lbeg = lend; lend += nn; nlvl++; cb = 1 - cb;
  }
  if (t == 0) { res[0] = nlvl; res[1] = lend; }
}

// ---------------- wide: every level over all blocks
struct Ctl { unsigned arrive, gen, lvlcnt, lbeg, lend, nlvl, done; };

__device__ void gridBarrier(Ctl *c)
{
  __syncthreads();
  if (threadIdx.x == 0) {
    volatile Ctl *vc = c;
    const unsigned gen = vc->gen;
    __threadfence();
    if (atomicAdd(&c->arrive, 1u) == gridDim.x - 1) {
      __threadfence();
      vc->arrive = 0;
      const unsigned cnt = vc->lvlcnt, lend = vc->lend;
      if (!cnt) vc->done = 1;
      else { vc->lbeg = lend; vc->lend = lend + cnt; vc->nlvl = vc->nlvl + 1; }
      vc->lvlcnt = 0;
      __threadfence();
      vc->gen = gen + 1;
    } else {
      for (unsigned ns = 32; vc->gen == gen; ns = ns < 256 ? 2 * ns : 256) __nanosleep(ns);
    }
    __threadfence();
  }
  __syncthreads();
}

template <int FILTER>
__global__ void __launch_bounds__(NB, 1) wideBFS(const int *ia, const int *ja, unsigned *vis, unsigned *L, unsigned stamp, Ctl *c)
{
  __shared__ unsigned s[4];
  if (blockIdx.x == 0 && threadIdx.x == 0) { L[0] = 0; vis[0] = stamp; c->lbeg = 0; c->lend = 1; c->nlvl = 1; c->done = 0; c->lvlcnt = 0; }
  // one barrier so that all see the start (arrive/gen are zero-initialized by the host)
  __syncthreads();
  if (threadIdx.x == 0) {
    volatile Ctl *vc = c;
    const unsigned gen = vc->gen;
    __threadfence();
    if (atomicAdd(&c->arrive, 1u) == gridDim.x - 1) { vc->arrive = 0; __threadfence(); vc->gen = gen + 1; }
    else while (vc->gen == gen) __nanosleep(32);
    __threadfence();
  }
  __syncthreads();
  for (;;) {
    if (threadIdx.x == 0) { volatile Ctl *vc = c; s[0] = vc->lbeg; s[1] = vc->lend; s[2] = vc->done; }
    __syncthreads();
    const unsigned lbeg = s[0], lend = s[1];
    if (s[2]) break;
    const unsigned size = lend - lbeg, per = (size + gridDim.x - 1) / gridDim.x, lo = lbeg + blockIdx.x * per, hi = min(lo + per, lend);
    for (unsigned r0 = lo; r0 < hi; r0 += NB) {
      const unsigned i = r0 + threadIdx.x;
      int v[8]; unsigned won = 0;
#pragma unroll
      for (int j = 0; j < 8; j++) v[j] = -1;
      if (i < hi) {
        const unsigned u = __ldcg(L + i);
        const int k0 = ia[u], k1 = ia[u + 1];
#pragma unroll
        for (int j = 0; j < 8; j++) if (k0 + j < k1) v[j] = ja[k0 + j];
#pragma unroll
        for (int j = 0; j < 8; j++) {
          if (v[j] < 0) continue;
          if (FILTER && __ldcg(&vis[v[j]]) >= stamp) continue;
          if (atomicMax(&vis[v[j]], stamp) < stamp) won |= 1u << j;
        }
      }
      append(won, v, &c->lvlcnt, L + lend, nullptr);
    }
    gridBarrier(c);
    __syncthreads();
  }
}

// one cluster: level over the cluster's blocks, hardware cluster barrier; the state in global memory
__global__ void __launch_bounds__(NB, 1) clusterBFS(const int *ia, const int *ja, unsigned *vis, unsigned *L, unsigned stamp, Ctl *cbuf)
{
  cg::cluster_group cl = cg::this_cluster();
  const unsigned nblk = cl.num_blocks(), rank = cl.block_rank();
  __shared__ unsigned cnt[2];
  unsigned *cnt0 = cl.map_shared_rank(cnt, 0); // block 0's counters: level sizes (double-buffered)
  unsigned lbeg = 0, lend = 1, nlvl = 1;
  if (threadIdx.x < 2) cnt[threadIdx.x] = 0;
  if (rank == 0 && threadIdx.x == 0) { L[0] = 0; vis[0] = stamp; }
  cl.sync();
  for (unsigned lvl = 0;; lvl++) {
    const unsigned size = lend - lbeg, per = (size + nblk - 1) / nblk, lo = lbeg + rank * per, hi = min(lo + per, lend);
    unsigned *c = cnt0 + (lvl & 1);
    for (unsigned r0 = lo; r0 < hi; r0 += NB) {
      const unsigned i = r0 + threadIdx.x;
      int v[8]; unsigned won = 0;
#pragma unroll
      for (int j = 0; j < 8; j++) v[j] = -1;
      if (i < hi) {
        const unsigned u = __ldcg(L + i);
        const int k0 = ia[u], k1 = ia[u + 1];
#pragma unroll
        for (int j = 0; j < 8; j++) if (k0 + j < k1) v[j] = ja[k0 + j];
#pragma unroll
        for (int j = 0; j < 8; j++) {
          if (v[j] < 0) continue;
          if (__ldcg(&vis[v[j]]) >= stamp) continue;
          if (atomicMax(&vis[v[j]], stamp) < stamp) won |= 1u << j;
        }
      }
      append(won, v, c, L + lend, nullptr);
    }
    cl.sync();
    const unsigned nn = *(volatile unsigned *)c;
    if (!nn) break;
    if (rank == 0 && threadIdx.x == 0) cnt[(lvl + 1) & 1] = 0; // the next level's counter: nobody uses it before the next sync
    cl.sync();
    lbeg = lend; lend += nn; nlvl++;
  }
  if (rank == 0 && threadIdx.x == 0) { cbuf->nlvl = nlvl; cbuf->lend = lend; }
  cl.sync(); /* block 0's shared counters must outlive the other blocks' last reads */
}

static float median(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

int main()
{
  int dev = 0, sms; CK(cudaGetDevice(&dev)); CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
  struct Case { const char *name; int nx, ny, nz; };
  Case cases[] = {{"2D 1000^2", 1000, 1000, 1}, {"3D 100^3", 100, 100, 100}, {"2D 2000^2 (narrow: levels>CAP read from L)", 2000, 2000, 1}, {"3D 160^3", 160, 160, 160}};
  for (auto &cs : cases) {
    Graph g = grid(cs.nx, cs.ny, cs.nz);
    const int n = g.n, nnz = (int)g.ja.size();
    std::vector<int> adj(8 * (size_t)n, -1);
    for (int r = 0; r < n; r++) for (int k = g.ia[r]; k < g.ia[r + 1]; k++) adj[8 * (size_t)r + (k - g.ia[r])] = g.ja[k];
    int *dia, *dja, *dadj; unsigned *dvis, *dL, *dres; Ctl *dc;
    CK(cudaMalloc(&dia, (n + 1) * 4)); CK(cudaMalloc(&dja, nnz * 4)); CK(cudaMalloc(&dadj, 32 * (size_t)n));
    CK(cudaMalloc(&dvis, n * 4)); CK(cudaMalloc(&dL, n * 4)); CK(cudaMalloc(&dres, 8)); CK(cudaMalloc(&dc, sizeof(Ctl)));
    CK(cudaMemcpy(dia, g.ia.data(), (n + 1) * 4, cudaMemcpyHostToDevice)); CK(cudaMemcpy(dja, g.ja.data(), nnz * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dadj, adj.data(), 32 * (size_t)n, cudaMemcpyHostToDevice)); CK(cudaMemset(dvis, 0, n * 4));
    unsigned stamp = 0;
    printf("== %s: n %d, nnz %d\n", cs.name, n, nnz);
    auto timeit = [&](const char *what, auto launch) {
      std::vector<float> ts; unsigned res[2] = {0, 0};
      for (int rep = 0; rep < 8; rep++) {
        ++stamp; CK(cudaMemset(dc, 0, sizeof(Ctl)));
        CK(cudaEventRecord(e0)); launch(stamp); CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaGetLastError());
        float ms; CK(cudaEventElapsedTime(&ms, e0, e1)); if (rep) ts.push_back(ms);
      }
      CK(cudaMemcpy(res, dres, 8, cudaMemcpyDeviceToHost));
      const float m = median(ts);
      printf("  %-28s %8.3f ms  levels %5u reached %8u  %6.2f us/level\n", what, m, res[0], res[1], 1e3 * m / (res[0] ? res[0] : 1));
    };
    const size_t bm = ((n + 31) / 32) * 4;
    const bool bitmapok = bm <= 160 * 1024;
    if (bitmapok) {
      CK(cudaFuncSetAttribute(narrowBFS<CSR_BITMAP>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bm));
      CK(cudaFuncSetAttribute(narrowBFS<ELL_BITMAP>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bm));
    }
    timeit("narrow csr-atomic", [&](unsigned s) { narrowBFS<CSR_ATOMIC><<<1, NB>>>(n, dia, dja, dadj, dvis, dL, s, dres); });
    timeit("narrow csr-filter", [&](unsigned s) { narrowBFS<CSR_FILTER><<<1, NB>>>(n, dia, dja, dadj, dvis, dL, s, dres); });
    timeit("narrow ell-filter", [&](unsigned s) { narrowBFS<ELL_FILTER><<<1, NB>>>(n, dia, dja, dadj, dvis, dL, s, dres); });
    if (bitmapok) {
      timeit("narrow csr-bitmap", [&](unsigned s) { narrowBFS<CSR_BITMAP><<<1, NB, bm>>>(n, dia, dja, dadj, dvis, dL, s, dres); });
      timeit("narrow ell-bitmap", [&](unsigned s) { narrowBFS<ELL_BITMAP><<<1, NB, bm>>>(n, dia, dja, dadj, dvis, dL, s, dres); });
    }
    for (int G : {sms, 64, 32, 16, 8}) {
      for (int f = 0; f < 2; f++) {
        char what[64]; snprintf(what, sizeof(what), "wide grid %d%s", G, f ? " filter" : "");
        timeit(what, [&](unsigned s) {
          if (f) wideBFS<1><<<G, NB>>>(dia, dja, dvis, dL, s, dc); else wideBFS<0><<<G, NB>>>(dia, dja, dvis, dL, s, dc);
          CK(cudaMemcpyAsync(dres, &dc->nlvl, 4, cudaMemcpyDeviceToDevice)); CK(cudaMemcpyAsync(dres + 1, &dc->lend, 4, cudaMemcpyDeviceToDevice));
        });
      }
    }
    for (int C : {16, 8, 4}) {
      cudaLaunchConfig_t cfg = {}; cudaLaunchAttribute at[1];
      cfg.gridDim = dim3(C); cfg.blockDim = dim3(NB); cfg.dynamicSmemBytes = 0;
      at[0].id = cudaLaunchAttributeClusterDimension; at[0].val.clusterDim.x = C; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
      cfg.attrs = at; cfg.numAttrs = 1;
      if (C > 8) { if (cudaFuncSetAttribute(clusterBFS, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) != cudaSuccess) { printf("  cluster %d: not allowed\n", C); cudaGetLastError(); continue; } }
      int ncl = 0; if (cudaOccupancyMaxActiveClusters(&ncl, clusterBFS, &cfg) != cudaSuccess || ncl < 1) { printf("  cluster %d: not schedulable (%d)\n", C, ncl); cudaGetLastError(); continue; }
      char what[64]; snprintf(what, sizeof(what), "cluster %d (max %d active)", C, ncl);
      timeit(what, [&](unsigned s) {
        CK(cudaLaunchKernelEx(&cfg, clusterBFS, (const int *)dia, (const int *)dja, dvis, dL, s, dc));
        CK(cudaMemcpyAsync(dres, &dc->nlvl, 4, cudaMemcpyDeviceToDevice)); CK(cudaMemcpyAsync(dres + 1, &dc->lend, 4, cudaMemcpyDeviceToDevice));
      });
    }
    CK(cudaFree(dia)); CK(cudaFree(dja)); CK(cudaFree(dadj)); CK(cudaFree(dvis)); CK(cudaFree(dL)); CK(cudaFree(dres)); CK(cudaFree(dc));
  }
  return 0;
}
