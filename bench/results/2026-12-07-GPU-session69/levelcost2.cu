/* Session 69 micro-benchmark (issue 3), the second form of levelcost.cu (job 3 ran that one: a lean one-block BFS level
on 2D 1000² costs 1.74 µs with the CSR, 0.96 µs with ELL rows, claims together and rows prefetched, against about 2.9
µs in gpurcm's level BFS). Which of the library's extras account for the difference? EXTRA, a bit mask:
     1  the heavy-node test after each round of a level (__syncthreads_or(degree > 4), as GPURCMLvRound() does),
     2  the global stores of the library: vis[v] = stamp for every claimed node, and the level list L in global memory
        beside the shared one,
     4  one more block barrier a level (the library's counter reset and read need none; a stand-in for its second
        barrier where a level has more than one round or the state is re-read).
   The ELL, PAR and PREF variants as in levelcost.cu. With PROF, thread 0's cycles per phase.
   Build: nvcc -O3 -arch=sm_90 -o levelcost2 levelcost2.cu ; run: ./levelcost2 [N] (default 1000) */
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>

#define CK(x) \
  do { \
    cudaError_t e_ = (x); \
    if (e_ != cudaSuccess) { \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      exit(1); \
    } \
  } while (0)

#define CAP 1024 /* a level of the 2D mesh (N ≤ 1024) */

template <bool ELL, bool PAR, bool PREF, int EXTRA, bool PROF>
__global__ void __launch_bounds__(1024, 1) LevelBFS(const int *ia, const int *ja, const int4 *ell, int n, int root, unsigned *levelsize, unsigned *nlevels, unsigned long long *prof, unsigned *vis, unsigned *Lg)
{
  __shared__ unsigned lst[2][CAP];
  __shared__ int4     rows[PREF ? 2 : 1][PREF ? CAP : 1];
  __shared__ unsigned cnt[3];
  extern __shared__ unsigned bits[];
  const unsigned      t = threadIdx.x, lane = t & 31, nw = (n + 31) / 32;
  unsigned long long  ph[6] = {0, 0, 0, 0, 0, 0};

  for (unsigned w = t; w < nw; w += blockDim.x) bits[w] = 0;
  __syncthreads();
  if (t == 0) {
    bits[root >> 5] |= 1u << (root & 31);
    lst[0][0] = root;
    if (PREF) rows[0][0] = ell[root];
    cnt[2] = 1; /* level 0's count (level l's is counted in cnt[(l - 1) % 3]) */
  }
  __syncthreads();
  unsigned size = 1, lvl = 0, lend = 1;
  for (;; lvl++) {
    const unsigned cur = lvl & 1, nxt = cur ^ 1, cc = lvl % 3;
    unsigned       won = 0, v[4] = {0, 0, 0, 0}, hd = 0;
    long long      c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0, c5 = 0;

    if (t == 0) {
      levelsize[lvl]      = size;
      cnt[(lvl + 1) % 3] = 0; /* the next level's counter, last read two levels ago: one barrier a level */
    }
    if (PROF) c0 = clock64();
    if (t < size) {
      const unsigned u = lst[cur][t];
      int4           r;
      if (PROF && t == 0) c1 = clock64() + 0 * u;
      if (ELL) {
        r = PREF ? rows[cur][t] : ell[u];
        if (PROF && t == 0) c2 = clock64() + 0 * r.x, c3 = c2;
      } else {
        const int k0 = ia[u], k1 = ia[u + 1];
        if (PROF && t == 0) c2 = clock64() + 0 * k0;
        r.x = k0 < k1 ? ja[k0] : -1;
        r.y = k0 + 1 < k1 ? ja[k0 + 1] : -1;
        r.z = k0 + 2 < k1 ? ja[k0 + 2] : -1;
        r.w = k0 + 3 < k1 ? ja[k0 + 3] : -1;
        if (PROF && t == 0) c3 = clock64() + 0 * r.x;
      }
      const int rr[4] = {r.x, r.y, r.z, r.w};
      if (EXTRA & 1) hd = r.w < -1; /* never (padding is -1): the test and its barrier only */
      if (PAR) {
        unsigned old[4];
#pragma unroll
        for (int j = 0; j < 4; j++) old[j] = rr[j] >= 0 ? atomicOr(&bits[rr[j] >> 5], 1u << (rr[j] & 31)) : ~0u;
#pragma unroll
        for (int j = 0; j < 4; j++)
          if (!(old[j] & (1u << (rr[j] & 31)))) won |= 1u << j, v[j] = (unsigned)rr[j];
      } else {
#pragma unroll
        for (int j = 0; j < 4; j++) {
          if (rr[j] < 0) continue;
          const unsigned m = 1u << (rr[j] & 31);
          if (!(bits[rr[j] >> 5] & m) && !(atomicOr(&bits[rr[j] >> 5], m) & m)) won |= 1u << j, v[j] = (unsigned)rr[j];
        }
      }
      if (PROF && t == 0) c4 = clock64() + 0 * won;
    }
    { /* append the winners: one shared atomic a warp */
      int4     wr[4];
      unsigned mine = __popc(won), incl = mine, base = 0, p;
      if (PREF)
#pragma unroll
        for (int j = 0; j < 4; j++)
          if (won >> j & 1u) wr[j] = ell[v[j]]; /* in flight during the scan and the atomic */
#pragma unroll
      for (unsigned o = 1; o < 32; o <<= 1) {
        const unsigned y = __shfl_up_sync(0xffffffffu, incl, o);
        if (lane >= o) incl += y;
      }
      const unsigned tot = __shfl_sync(0xffffffffu, incl, 31);
      if (lane == 31 && tot) base = atomicAdd(&cnt[cc], tot);
      base = __shfl_sync(0xffffffffu, base, 31);
      p    = base + incl - mine;
#pragma unroll
      for (int j = 0; j < 4; j++)
        if (won >> j & 1u) {
          lst[nxt][p] = v[j];
          if (EXTRA & 2) Lg[lend + p] = v[j], vis[v[j]] = lvl + 1;
          if (PREF) rows[nxt][p] = wr[j];
          p++;
        }
      if (PROF && t == 0) c5 = clock64() + 0 * p;
    }
    if (EXTRA & 1)
      if (__syncthreads_or(hd > 0)) levelsize[0] = 0;
    if (EXTRA & 4) __syncthreads();
    __syncthreads();
    size = *(volatile unsigned *)&cnt[cc];
    lend += size;
    if (PROF && t == 0) {
      const long long c6 = clock64() + 0 * size;
      ph[0] += c1 - c0, ph[1] += c2 - c1, ph[2] += c3 - c2, ph[3] += c4 - c3, ph[4] += c5 - c4, ph[5] += c6 - c5;
    }
    if (!size) break;
  }
  if (t == 0) {
    *nlevels = lvl + 1;
    if (PROF)
      for (int k = 0; k < 6; k++) prof[k] = ph[k];
  }
}

static void Grid2D(int N, std::vector<int> &ia, std::vector<int> &ja, std::vector<int4> &ell)
{
  ia.assign(1, 0);
  ja.clear();
  ell.clear();
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      int4 r = {-1, -1, -1, -1};
      int *p = &r.x, k = 0;
      if (i > 0) ja.push_back((i - 1) * N + j), p[k++] = (i - 1) * N + j;
      if (j > 0) ja.push_back(i * N + j - 1), p[k++] = i * N + j - 1;
      if (j < N - 1) ja.push_back(i * N + j + 1), p[k++] = i * N + j + 1;
      if (i < N - 1) ja.push_back((i + 1) * N + j), p[k++] = (i + 1) * N + j;
      ia.push_back((int)ja.size());
      ell.push_back(r);
    }
}

static std::vector<unsigned> HostLevels(int n, const std::vector<int> &ia, const std::vector<int> &ja, int root)
{
  std::vector<int>      d(n, -1), q(n);
  std::vector<unsigned> sz;
  int                   h = 0, tl = 1;
  q[0] = root, d[root] = 0;
  while (h < tl) {
    const int u = q[h++];
    if ((int)sz.size() <= d[u]) sz.push_back(0);
    sz[d[u]]++;
    for (int k = ia[u]; k < ia[u + 1]; k++)
      if (d[ja[k]] < 0) d[ja[k]] = d[u] + 1, q[tl++] = ja[k];
  }
  return sz;
}

struct Dev {
  int                *ia, *ja;
  int4               *ell;
  unsigned           *size, *nl, *vis, *Lg;
  unsigned long long *prof;
  int                 n;
};

template <bool ELL, bool PAR, bool PREF, int EXTRA>
static void Run(const char *name, const Dev &d, const std::vector<unsigned> &ref, int reps)
{
  const size_t dyn = (size_t)(d.n + 31) / 32 * 4;
  const int    nb  = 1;
  float        med = 0;
  CK(cudaFuncSetAttribute(LevelBFS<ELL, PAR, PREF, EXTRA, false>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn));
  CK(cudaFuncSetAttribute(LevelBFS<ELL, PAR, PREF, EXTRA, true>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn));
  std::vector<float> ms;
  cudaEvent_t        e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  for (int r = 0; r < reps + 2; r++) {
    CK(cudaEventRecord(e0));
    LevelBFS<ELL, PAR, PREF, EXTRA, false><<<nb, 1024, dyn>>>(d.ia, d.ja, d.ell, d.n, 0, d.size, d.nl, d.prof, d.vis, d.Lg);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaGetLastError());
    float x;
    CK(cudaEventElapsedTime(&x, e0, e1));
    if (r >= 2) ms.push_back(x);
  }
  std::vector<unsigned> got(ref.size() + 1);
  unsigned              nl;
  CK(cudaMemcpy(got.data(), d.size, got.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&nl, d.nl, sizeof nl, cudaMemcpyDeviceToHost));
  bool ok = nl == ref.size();
  for (size_t l = 0; ok && l < ref.size(); l++) ok = got[l] == ref[l];
  std::sort(ms.begin(), ms.end());
  med = ms[ms.size() / 2];
  /* one profiled run */
  unsigned long long ph[6];
  LevelBFS<ELL, PAR, PREF, EXTRA, true><<<nb, 1024, dyn>>>(d.ia, d.ja, d.ell, d.n, 0, d.size, d.nl, d.prof, d.vis, d.Lg);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(ph, d.prof, sizeof ph, cudaMemcpyDeviceToHost));
  const double L = (double)ref.size();
  printf("%-28s %s median %.3f ms (min %.3f), %.3f us a level; thread 0, cycles a level: node %.0f rowptr %.0f cols %.0f claims %.0f append %.0f barrier %.0f\n", name, ok ? "correct" : "WRONG", med, ms[0], 1000.0 * med / L, ph[0] / L, ph[1] / L, ph[2] / L, ph[3] / L, ph[4] / L, ph[5] / L);
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
}

int main(int argc, char **argv)
{
  const int             N = argc > 1 ? atoi(argv[1]) : 1000;
  std::vector<int>      ia, ja;
  std::vector<int4>     ell;
  Dev                   d;
  int                   clk;
  Grid2D(N, ia, ja, ell);
  d.n                       = N * N;
  std::vector<unsigned> ref = HostLevels(d.n, ia, ja, 0);
  CK(cudaMalloc(&d.ia, ia.size() * sizeof(int)));
  CK(cudaMalloc(&d.ja, ja.size() * sizeof(int)));
  CK(cudaMalloc(&d.ell, ell.size() * sizeof(int4)));
  CK(cudaMalloc(&d.size, (ref.size() + 2) * sizeof(unsigned)));
  CK(cudaMalloc(&d.nl, sizeof(unsigned)));
  CK(cudaMalloc(&d.vis, d.n * sizeof(unsigned)));
  CK(cudaMalloc(&d.Lg, d.n * sizeof(unsigned)));
  CK(cudaMalloc(&d.prof, 6 * sizeof(unsigned long long)));
  CK(cudaMemcpy(d.ia, ia.data(), ia.size() * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d.ja, ja.data(), ja.size() * sizeof(int), cudaMemcpyHostToDevice));
  CK(cudaMemcpy(d.ell, ell.data(), ell.size() * sizeof(int4), cudaMemcpyHostToDevice));
  CK(cudaDeviceGetAttribute(&clk, cudaDevAttrClockRate, 0));
  printf("2D %d² mesh, %zu levels, SM clock %.0f MHz (reported)\n", N, ref.size(), clk / 1000.0);
  for (int round = 0; round < 2; round++) {
    Run<false, false, false, 0>("csr", d, ref, 9);
    Run<false, false, false, 1>("csr +heavy-test", d, ref, 9);
    Run<false, false, false, 2>("csr +global-stores", d, ref, 9);
    Run<false, false, false, 3>("csr +heavy +stores", d, ref, 9);
    Run<false, false, false, 7>("csr +heavy +stores +barrier", d, ref, 9);
    Run<true, true, true, 0>("ell par pref", d, ref, 9);
    Run<true, true, true, 3>("ell par pref +heavy +stores", d, ref, 9);
    Run<true, true, true, 2>("ell par pref +stores", d, ref, 9);
  }
  return 0;
}
