/* Session 69 micro-benchmark (issue 3): can a thread-block CLUSTER run gpurcm's narrow levels faster than one block?
   On 2D meshes every level of the cuda backend's passes is narrow (at most 1024 nodes on 2D 1000²), so block 0 runs
   them alone, one after the other, at 2.9-3.3 µs a level (issue-bound on one multiprocessor: every warp of the
   block runs its share of the loads, claims, appends and barriers). A cluster of C blocks (sm_90) spreads a level
   over C multiprocessors and still synchronizes in hardware (barrier.cluster), with the visited bitmap split among
   the blocks' shared memories (distributed shared memory: remote atomicOr) and each block's part of the next level
   kept in its own shared memory, read remotely by the block that expands it.
   The level-synchronous BFS here (a corner root, 5-point 2D grid in CSR, natural order) does what the root finder's
   narrow levels do: read a node's row (row pointers, then columns, from global memory), claim its unvisited
   neighbours in the bitmap, append the winners (one shared atomic a warp), one barrier a level. Per level:
     1. every block reads the C counts of the level (remote), and takes its even share of the level's nodes,
        concatenated in block order;
     2. expands them: claims in the owner block's bitmap (node v's bit in block v / chunk), appends to its own list;
     3. barrier.cluster (arrive.release / wait.acquire).
   C = 1 is the same code in one block (the library's scheme). Checked: every level's size equals a host BFS's.
   Build: nvcc -O3 -arch=sm_90 -o clusterbfs clusterbfs.cu ; run: ./clusterbfs [N ...] (grid sides, default 1000 2000) */
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define CK(x) \
  do { \
    cudaError_t e_ = (x); \
    if (e_ != cudaSuccess) { \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      exit(1); \
    } \
  } while (0)

#define CAP 4096 /* a block's part of one level (2D grids up to 2000²: a level holds at most 2000 nodes) */

struct Sh {
  unsigned lst[2][CAP];
  unsigned cnt[2];
  unsigned offs[17];
};

template <int BS>
__global__ void __launch_bounds__(BS, 1) ClusterBFS(const int *ia, const int *ja, int n, int root, unsigned chunkwords, unsigned *levelsize, unsigned *nlevels)
{
  __shared__ Sh s;
  extern __shared__ unsigned bits[]; /* this block's words of the bitmap: nodes [rank * 32 chunkwords, ...) */
  cg::cluster_group cl = cg::this_cluster();
  const unsigned    C = cl.num_blocks(), rank = cl.block_rank(), t = threadIdx.x, lane = t & 31;
  const unsigned    chunk = 32 * chunkwords;

  for (unsigned w = t; w < chunkwords; w += BS) bits[w] = 0;
  if (t < 2) s.cnt[t] = 0;
  __syncthreads();
  if (rank == root / chunk && t == 0) {
    bits[(root - rank * chunk) >> 5] |= 1u << (root & 31);
    s.lst[0][0] = root;
    s.cnt[0]    = 1;
  }
  cl.sync();
  for (unsigned lvl = 0;; lvl++) {
    const unsigned cur = lvl & 1, nxt = cur ^ 1;
    unsigned       total, per, lo, hi;

    if (t == 0) { /* the level's counts of all blocks, concatenated in block order */
      unsigned o = 0;
      for (unsigned b = 0; b < C; b++) {
        s.offs[b] = o;
        o += *(volatile unsigned *)cl.map_shared_rank(&s.cnt[cur], b);
      }
      s.offs[C]   = o;
      s.cnt[nxt]  = 0; /* last read remotely at the level before the previous barrier */
    }
    __syncthreads();
    total = s.offs[C];
    if (!total) break;
    if (rank == 0 && t == 0) levelsize[lvl] = total;
    per = (total + C - 1) / C;
    lo  = rank * per;
    hi  = lo + per < total ? lo + per : total;
    for (unsigned g0 = lo; g0 < hi; g0 += BS) {
      const unsigned g = g0 + t;
      unsigned       won = 0, v[4] = {0, 0, 0, 0};
      if (g < hi) {
        unsigned b = 0, u;
        while (s.offs[b + 1] <= g) b++;
        u = *(volatile unsigned *)cl.map_shared_rank(&s.lst[cur][g - s.offs[b]], b);
        const int k0 = ia[u], k1 = ia[u + 1];
        for (int j = 0; j < 4 && k0 + j < k1; j++) v[j] = (unsigned)ja[k0 + j];
        for (int j = 0; j < 4 && k0 + j < k1; j++) {
          const unsigned ob = v[j] / chunk, m = 1u << (v[j] & 31);
          unsigned      *wd = cl.map_shared_rank(&bits[(v[j] - ob * chunk) >> 5], ob);
          if (!(*(volatile unsigned *)wd & m) && !(atomicOr(wd, m) & m)) won |= 1u << j;
        }
      }
      { /* append the winners to this block's list of the next level: one shared atomic a warp */
        unsigned mine = __popc(won), incl = mine, base = 0, p;
        for (unsigned o = 1; o < 32; o <<= 1) {
          const unsigned y = __shfl_up_sync(0xffffffffu, incl, o);
          if (lane >= o) incl += y;
        }
        const unsigned tot = __shfl_sync(0xffffffffu, incl, 31);
        if (lane == 31 && tot) base = atomicAdd(&s.cnt[nxt], tot);
        base = __shfl_sync(0xffffffffu, base, 31);
        p    = base + incl - mine;
        for (int j = 0; j < 4; j++)
          if (won >> j & 1u) s.lst[nxt][p++] = v[j];
      }
    }
    cl.sync();
    if (rank == 0 && t == 0) *nlevels = lvl + 1;
  }
}

static void Grid2D(int N, std::vector<int> &ia, std::vector<int> &ja)
{
  ia.assign(1, 0);
  ja.clear();
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      if (i > 0) ja.push_back((i - 1) * N + j);
      if (j > 0) ja.push_back(i * N + j - 1);
      if (j < N - 1) ja.push_back(i * N + j + 1);
      if (i < N - 1) ja.push_back((i + 1) * N + j);
      ia.push_back((int)ja.size());
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

template <int BS>
static void Run(int N, int C, const int *dia, const int *dja, const std::vector<unsigned> &ref, unsigned *dsize, unsigned *dnl, int reps)
{
  const int      n = N * N;
  const unsigned chunkwords = ((n + C - 1) / C + 31) / 32;
  const size_t   dyn = (size_t)chunkwords * 4;
  if (dyn + sizeof(Sh) > 227 * 1024) {
    printf("N %d C %2d BS %4d: bitmap share %zu KiB does not fit\n", N, C, BS, dyn / 1024);
    return;
  }
  CK(cudaFuncSetAttribute(ClusterBFS<BS>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn));
  if (C > 8) CK(cudaFuncSetAttribute(ClusterBFS<BS>, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  cudaLaunchConfig_t   cfg = {};
  cudaLaunchAttribute  at[1];
  at[0].id               = cudaLaunchAttributeClusterDimension;
  at[0].val.clusterDim.x = C;
  at[0].val.clusterDim.y = 1;
  at[0].val.clusterDim.z = 1;
  cfg.gridDim            = dim3(C);
  cfg.blockDim           = dim3(BS);
  cfg.dynamicSmemBytes   = dyn;
  cfg.attrs              = at;
  cfg.numAttrs           = 1;
  int ncl                = 0;
  if (cudaOccupancyMaxActiveClusters(&ncl, (void *)ClusterBFS<BS>, &cfg) != cudaSuccess || ncl < 1) {
    (void)cudaGetLastError();
    printf("N %d C %2d BS %4d: no cluster fits\n", N, C, BS);
    return;
  }
  std::vector<float> ms;
  cudaEvent_t        e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  for (int r = 0; r < reps + 2; r++) { /* two warm-up runs */
    CK(cudaMemset(dsize, 0, (ref.size() + 1) * sizeof(unsigned)));
    CK(cudaEventRecord(e0));
    CK(cudaLaunchKernelEx(&cfg, ClusterBFS<BS>, dia, dja, n, 0, chunkwords, dsize, dnl));
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float x;
    CK(cudaEventElapsedTime(&x, e0, e1));
    if (r >= 2) ms.push_back(x);
  }
  std::vector<unsigned> got(ref.size() + 1);
  unsigned              nl;
  CK(cudaMemcpy(got.data(), dsize, got.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&nl, dnl, sizeof nl, cudaMemcpyDeviceToHost));
  bool ok = nl == ref.size();
  for (size_t l = 0; ok && l < ref.size(); l++) ok = got[l] == ref[l];
  std::sort(ms.begin(), ms.end());
  const float med = ms[ms.size() / 2];
  printf("N %d C %2d BS %4d: %u levels %s, median %.3f ms (min %.3f), %.3f us a level\n", N, C, BS, nl, ok ? "correct" : "WRONG", med, ms[0], 1000.0 * med / ref.size());
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
}

int main(int argc, char **argv)
{
  std::vector<int> sides;
  for (int a = 1; a < argc; a++) sides.push_back(atoi(argv[a]));
  if (sides.empty()) sides = {1000, 2000};
  for (int N : sides) {
    std::vector<int> ia, ja;
    Grid2D(N, ia, ja);
    const int             n   = N * N;
    std::vector<unsigned> ref = HostLevels(n, ia, ja, 0);
    int                  *dia, *dja;
    unsigned             *dsize, *dnl;
    CK(cudaMalloc(&dia, ia.size() * sizeof(int)));
    CK(cudaMalloc(&dja, ja.size() * sizeof(int)));
    CK(cudaMalloc(&dsize, (ref.size() + 1) * sizeof(unsigned)));
    CK(cudaMalloc(&dnl, sizeof(unsigned)));
    CK(cudaMemcpy(dia, ia.data(), ia.size() * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dja, ja.data(), ja.size() * sizeof(int), cudaMemcpyHostToDevice));
    for (int C : {1, 2, 4, 8, 16}) {
      Run<1024>(N, C, dia, dja, ref, dsize, dnl, 9);
      Run<256>(N, C, dia, dja, ref, dsize, dnl, 9);
      Run<128>(N, C, dia, dja, ref, dsize, dnl, 9);
    }
    CK(cudaFree(dia));
    CK(cudaFree(dja));
    CK(cudaFree(dsize));
    CK(cudaFree(dnl));
  }
  return 0;
}
