/* Session 71: session 69's numbercost.cu with a second form, PREF: each claimant loads its candidates' rows while it
   claims (before the barrier), and the writer of a child stores the child's row, not its index, in the shared level
   list, so the next level reads its parents' rows from shared memory: the global load leaves the level's critical path.
   A third form, CW (NumberLevelsCW below): each child claims its own children as it is written, so a level has two
   barriers instead of four. The three forms are timed and checked in one run; CW's logic was checked on the host by a
   sequential emulation of its phases, the writes in random order (2D 1² to 301², identical to the host's CM).

   Session 69 micro-benchmark (issue 3), prepared for the next session: how fast can one block number a narrow
   Cuthill-McKee level? The library's level numbering takes about 3.6 µs a level of 2D 1000² (7.3k cycles, session 56),
   the larger part of an ordering there (46%); levelcost.cu showed that a lean block runs a BFS level in 1.74 µs where
   the library's takes 2.9. This kernel numbers every level of a 2D mesh from a corner in one block, with:
     - the numbered nodes in a shared-memory bitmap of all n nodes;
     - each node's row as one uint4 of (neighbour | degree << 24), the node itself left out;
     - the claims in a shared open-addressing table (node -> smallest claimant rank), as the library's;
     - each parent's children sorted by (degree, position in its row) in registers, an exclusive scan of the counts
       over the block (warp shuffles, one barrier, warp 0, one barrier), the children written in rank order;
     - the claimed slots emptied by the parents after the scan.
   Four barriers a level. Checked: the permutation equals a host Cuthill-McKee (SPARSEPACK's rule: children by
   degree, ties in row order) from the same root. With PROF, thread 0's cycles a level by phase.
   Build: nvcc -O3 -arch=sm_90 -o numbercost numbercost.cu ; run: ./numbercost [N] (default 1000) */
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

#define BS    1024
#define CAP   1024 /* a level of the 2D mesh (N <= 1024) */
#define SLOTS 4096 /* claim table: a power of 2, at least 4 x the widest level's children */
#define NONE  0xffffffffu
#define EMPTY 0xffffffffu

__device__ __forceinline__ unsigned Slot(unsigned v) { return (v * 2654435761u) >> 20; } /* 12 bits: SLOTS 4096 */

template <bool PROF, bool PREF>
__global__ void __launch_bounds__(BS, 1) NumberLevels(const uint4 *rows, int n, unsigned root, unsigned *perm, unsigned *nlevels, unsigned long long *prof)
{
  __shared__ unsigned lst[2][CAP];
  __shared__ unsigned hkey[SLOTS], hval[SLOTS];
  __shared__ unsigned wsum[BS / 32], tot;
  extern __shared__ uint4 dynsh[];
  uint4 (*lrow)[CAP] = reinterpret_cast<uint4 (*)[CAP]>(dynsh); /* PREF: 2 x CAP rows (32 KB), then the bitmap */
  unsigned *bits     = reinterpret_cast<unsigned *>(dynsh + (PREF ? 2 * CAP : 0));
  const unsigned      t = threadIdx.x, lane = t & 31, wid = t >> 5, nw = (n + 31) / 32;
  unsigned long long  ph[4] = {0, 0, 0, 0};

  for (unsigned w = t; w < nw; w += BS) bits[w] = 0;
  for (unsigned h = t; h < SLOTS; h += BS) hkey[h] = EMPTY, hval[h] = EMPTY;
  if (t == 0) {
    bits[root >> 5] = 1u << (root & 31);
    lst[0][0]       = root;
    if (PREF) lrow[0][0] = rows[root];
    perm[0]         = root;
    tot             = 1;
  }
  __syncthreads();
  unsigned size = 1, done = 1, lvl = 0;
  for (;; lvl++) {
    const unsigned cb = lvl & 1;
    unsigned       v[4] = {NONE, NONE, NONE, NONE}, dg[4] = {0, 0, 0, 0}, sl[4] = {0, 0, 0, 0}, cand = 0;
    uint4          cr[4];
    long long      c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0;

    if (PROF) c0 = clock64();
    /* claims: candidate j of thread t (rank t) is a neighbour not numbered yet; smallest rank wins */
    if (t < size) {
      const uint4    r    = PREF ? lrow[cb][t] : rows[lst[cb][t]];
      const unsigned x[4] = {r.x, r.y, r.z, r.w};
#pragma unroll
      for (int j = 0; j < 4; j++) {
        if (x[j] == NONE) continue;
        const unsigned w = x[j] & 0xffffffu;
        if (bits[w >> 5] >> (w & 31) & 1u) continue;
        unsigned h = Slot(w);
        for (;;) { /* insert or find w */
          const unsigned k = atomicCAS(&hkey[h], EMPTY, w);
          if (k == EMPTY || k == w) break;
          h = (h + 1) & (SLOTS - 1);
        }
        if (PREF) cr[j] = __ldg(rows + w); /* in flight across the claims and the barrier */
        atomicMin(&hval[h], t);
        v[j] = w, dg[j] = x[j] >> 24, sl[j] = h, cand |= 1u << j;
      }
    }
    if (PROF) c1 = clock64() + 0 * cand;
    __syncthreads();
    /* my children: the candidates whose smallest claimant is me, sorted by (degree, position) */
    unsigned ch[4], cd[4], m = 0;
    unsigned cj[4]; /* PREF: the candidate (0..3) of each child, to pick its row without indexing registers */
#pragma unroll
    for (int j = 0; j < 4; j++)
      if (cand >> j & 1u && hval[sl[j]] == t) {
        unsigned q = m++;
        while (q > 0 && cd[q - 1] > dg[j]) {
          ch[q] = ch[q - 1], cd[q] = cd[q - 1];
          cj[q] = cj[q - 1];
          q--; /* stable: equal degrees keep row order */
        }
        ch[q] = v[j], cd[q] = dg[j];
        cj[q] = j;
      }
    if (PROF) c2 = clock64() + 0 * m;
    /* exclusive scan of m over the block in rank order */
    unsigned incl = m;
#pragma unroll
    for (unsigned o = 1; o < 32; o <<= 1) {
      const unsigned y = __shfl_up_sync(0xffffffffu, incl, o);
      if (lane >= o) incl += y;
    }
    if (lane == 31) wsum[wid] = incl;
    __syncthreads(); /* also: every claimant has read hval */
    if (wid == 0) {
      unsigned s = wsum[lane], si = s;
#pragma unroll
      for (unsigned o = 1; o < 32; o <<= 1) {
        const unsigned y = __shfl_up_sync(0xffffffffu, si, o);
        if (lane >= o) si += y;
      }
      wsum[lane] = si - s;
      if (lane == 31) tot = si;
    }
    __syncthreads();
    if (PROF) c3 = clock64();
    {
      unsigned p = wsum[wid] + incl - m;
#pragma unroll
      for (unsigned q = 0; q < 4; q++) {
        if (q >= m) break;
        lst[1 - cb][p] = ch[q];
        if (PREF) {
          const unsigned j = cj[q];
          lrow[1 - cb][p]  = j == 0 ? cr[0] : j == 1 ? cr[1] : j == 2 ? cr[2] : cr[3];
        }
        perm[done + p] = ch[q];
        atomicOr(&bits[ch[q] >> 5], 1u << (ch[q] & 31));
        p++;
      }
#pragma unroll
      for (int j = 0; j < 4; j++)
        if (cand >> j & 1u) hkey[sl[j]] = EMPTY, hval[sl[j]] = EMPTY; /* every claimant of a slot writes the same; all
                                                                          reads of hval were before the scan's first barrier */
    }
    const unsigned nn = tot;
    __syncthreads();
    if (PROF && t == 0) {
      c4 = clock64();
      ph[0] += c1 - c0, ph[1] += c2 - c1, ph[2] += c3 - c2, ph[3] += c4 - c3;
    }
    if (!nn) break;
    done += nn;
    size = nn;
  }
  if (t == 0) {
    *nlevels = lvl + 1;
    if (PROF)
      for (int k = 0; k < 4; k++) prof[k] = ph[k];
  }
}

/* The third form, CW (claims at the write): the nodes of level k+1 claim their children as they are written, at the end of
   level k, so a level has no claim phase and two barriers instead of four. Two claim tables: level k's claims (made as its
   nodes were written) are in table k % 2, whose keys are then exactly the nodes of level k+1. A level: empty the other
   table (its last readers were before the last barrier); each node finds its children (neighbours not in the bitmap,
   whose slot holds its own claim), sorts them and loads their rows; one barrier for the scan of the counts; each child
   is written with its row and claims its own neighbours that are neither numbered (bitmap: levels <= k) nor its
   siblings (the keys of table k % 2, which nobody writes during this level), in the other table; one barrier. */
template <bool PROF>
__global__ void __launch_bounds__(BS, 1) NumberLevelsCW(const uint4 *rows, int n, unsigned root, unsigned *perm, unsigned *nlevels, unsigned long long *prof)
{
  __shared__ unsigned wsum[BS / 32];
  extern __shared__ uint4 dynsh[];
  uint4             *lrow = dynsh;                                       /* the rows of the current level, by rank */
  unsigned          *tkey = reinterpret_cast<unsigned *>(dynsh + CAP); /* two tables of SLOTS nodes */
  unsigned          *tval = tkey + 2 * SLOTS;                          /* and their smallest claims */
  unsigned          *bits = tval + 2 * SLOTS;
  const unsigned     t = threadIdx.x, lane = t & 31, wid = t >> 5, nw = (n + 31) / 32;
  unsigned long long ph[4] = {0, 0, 0, 0};

  for (unsigned w = t; w < nw; w += BS) bits[w] = 0;
  for (unsigned h = t; h < 2 * SLOTS; h += BS) tkey[h] = EMPTY, tval[h] = EMPTY;
  __syncthreads();
  if (t == 0) { /* level 0 = {root}, its claims in table 0 */
    const uint4    r    = rows[root];
    const unsigned x[4] = {r.x, r.y, r.z, r.w};
    bits[root >> 5] = 1u << (root & 31);
    perm[0]         = root;
    lrow[0]         = r;
    for (int j = 0; j < 4; j++) {
      if (x[j] == NONE) continue;
      const unsigned w = x[j] & 0xffffffu;
      unsigned       h = Slot(w);
      while (tkey[h] != EMPTY) h = (h + 1) & (SLOTS - 1);
      tkey[h] = w, tval[h] = (unsigned)j;
    }
  }
  __syncthreads();
  unsigned size = 1, done = 1, lvl = 0;
  for (;; lvl++) {
    const unsigned cur = (lvl & 1) * SLOTS, nxt = SLOTS - cur;
    long long      c0 = 0, c1 = 0, c2 = 0, c3 = 0, c4 = 0;
    unsigned       ch[4], sk[4], m = 0; /* sk: degree << 2 | position, ~0 for no child */
    uint4          cr[4];

    if (PROF) c0 = clock64();
    for (unsigned h = t; h < SLOTS; h += BS) tkey[nxt + h] = EMPTY, tval[nxt + h] = EMPTY;
    {
      const uint4    r    = t < size ? lrow[t] : make_uint4(NONE, NONE, NONE, NONE);
      const unsigned x[4] = {r.x, r.y, r.z, r.w};
#pragma unroll
      for (int j = 0; j < 4; j++) { /* my children: my neighbours of level k+1 whose smallest claim is mine */
        const unsigned w = x[j] & 0xffffffu;
        ch[j] = w, sk[j] = ~0u;
        if (x[j] == NONE || bits[w >> 5] >> (w & 31) & 1u) continue;
        unsigned h = Slot(w);
        while (tkey[cur + h] != w) h = (h + 1) & (SLOTS - 1); /* every neighbour of level k+1 is a key */
        if (tval[cur + h] == (t << 2 | (unsigned)j)) sk[j] = (x[j] >> 24) << 2 | (unsigned)j, m++;
      }
    }
#define CE(a, b) \
  do { \
    if (sk[b] < sk[a]) { \
      const unsigned tk = sk[a], tc = ch[a]; \
      sk[a] = sk[b], ch[a] = ch[b], sk[b] = tk, ch[b] = tc; \
    } \
  } while (0)
    CE(0, 1); CE(2, 3); CE(0, 2); CE(1, 3); CE(1, 2); /* keys distinct: the stable order by degree */
#undef CE
#pragma unroll
    for (int q = 0; q < 4; q++)
      if ((unsigned)q < m) cr[q] = __ldg(rows + ch[q]); /* in flight across the scan */
    if (PROF) c1 = clock64() + 0 * m;
    unsigned incl = m;
#pragma unroll
    for (unsigned o = 1; o < 32; o <<= 1) {
      const unsigned y = __shfl_up_sync(0xffffffffu, incl, o);
      if (lane >= o) incl += y;
    }
    if (lane == 31) wsum[wid] = incl;
    __syncthreads(); /* the counts; every read of lrow and of the other table's old contents is behind */
    const unsigned sw = wsum[lane], tot = __reduce_add_sync(0xffffffffu, sw), p = __reduce_add_sync(0xffffffffu, lane < wid ? sw : 0u) + incl - m;
    if (PROF) c2 = clock64();
#pragma unroll
    for (int q = 0; q < 4; q++) {
      if ((unsigned)q >= m) break;
      const unsigned pos = p + q, xn = ch[q];
      const uint4    r    = cr[q];
      const unsigned x[4] = {r.x, r.y, r.z, r.w};
      perm[done + pos] = xn;
      lrow[pos]        = r;
      atomicOr(&bits[xn >> 5], 1u << (xn & 31));
#pragma unroll
      for (int j = 0; j < 4; j++) { /* claim the neighbours of level k+2 */
        if (x[j] == NONE) continue;
        const unsigned w = x[j] & 0xffffffu;
        if (bits[w >> 5] >> (w & 31) & 1u) continue; /* levels <= k (or a sibling already marked) */
        unsigned h = Slot(w), k;
        while ((k = tkey[cur + h]) != EMPTY && k != w) h = (h + 1) & (SLOTS - 1);
        if (k == w) continue; /* a sibling (level k+1) */
        h = Slot(w);
        for (;;) {
          const unsigned o = atomicCAS(&tkey[nxt + h], EMPTY, w);
          if (o == EMPTY || o == w) break;
          h = (h + 1) & (SLOTS - 1);
        }
        atomicMin(&tval[nxt + h], pos << 2 | (unsigned)j);
      }
    }
    if (PROF) c3 = clock64();
    __syncthreads();
    if (PROF && t == 0) {
      c4 = clock64();
      ph[0] += c1 - c0, ph[1] += c2 - c1, ph[2] += c3 - c2, ph[3] += c4 - c3;
    }
    if (!tot) break;
    done += tot;
    size = tot;
  }
  if (t == 0) {
    *nlevels = lvl + 1;
    if (PROF)
      for (int k = 0; k < 4; k++) prof[k] = ph[k];
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

/* Cuthill-McKee from root: the FIFO of SPARSEPACK's rcm, each node's unnumbered neighbours sorted stably by degree */
static std::vector<unsigned> HostCM(int n, const std::vector<int> &ia, const std::vector<int> &ja, int root, int *nlvl)
{
  std::vector<unsigned> q;
  std::vector<int>      lev(n, -1);
  q.push_back(root), lev[root] = 0;
  for (size_t h = 0; h < q.size(); h++) {
    const int        u = q[h];
    std::vector<int> c;
    for (int k = ia[u]; k < ia[u + 1]; k++)
      if (lev[ja[k]] < 0) c.push_back(ja[k]), lev[ja[k]] = lev[u] + 1;
    std::stable_sort(c.begin(), c.end(), [&](int a, int b) { return ia[a + 1] - ia[a] < ia[b + 1] - ia[b]; });
    for (int x : c) q.push_back(x);
  }
  *nlvl = 1 + *std::max_element(lev.begin(), lev.end());
  return q;
}

template <int FORM>
static int Run(int, int, int, const std::vector<unsigned> &, const uint4 *, unsigned *, unsigned *, unsigned long long *, size_t);

int main(int argc, char **argv)
{
  const int             N = argc > 1 ? atoi(argv[1]) : 1000, n = N * N;
  std::vector<int>      ia, ja;
  std::vector<uint4>    rows(n);
  int                   nlvl;
  Grid2D(N, ia, ja);
  for (int u = 0; u < n; u++) {
    unsigned x[4] = {NONE, NONE, NONE, NONE}, k = 0;
    for (int e = ia[u]; e < ia[u + 1]; e++) x[k++] = (unsigned)ja[e] | (unsigned)(ia[ja[e] + 1] - ia[ja[e]]) << 24;
    rows[u] = make_uint4(x[0], x[1], x[2], x[3]);
  }
  const std::vector<unsigned> ref = HostCM(n, ia, ja, 0, &nlvl);
  uint4                      *drows;
  unsigned                   *dperm, *dnl;
  unsigned long long         *dprof;
  const size_t                dyn = (size_t)(n + 31) / 32 * 4;
  CK(cudaMalloc(&drows, n * sizeof(uint4)));
  CK(cudaMalloc(&dperm, n * sizeof(unsigned)));
  CK(cudaMalloc(&dnl, sizeof(unsigned)));
  CK(cudaMalloc(&dprof, 4 * sizeof(unsigned long long)));
  CK(cudaMemcpy(drows, rows.data(), n * sizeof(uint4), cudaMemcpyHostToDevice));
  int bad = 0;
  bad |= Run<0>(N, n, nlvl, ref, drows, dperm, dnl, dprof, dyn);
  bad |= Run<1>(N, n, nlvl, ref, drows, dperm, dnl, dprof, dyn);
  bad |= Run<2>(N, n, nlvl, ref, drows, dperm, dnl, dprof, dyn);
  return bad;
}

/* FORM 0: rows loaded, 1: rows prefetched (PREF), 2: claims at the write (CW) */
template <int FORM>
static int Run(int N, int n, int nlvl, const std::vector<unsigned> &ref, const uint4 *drows, unsigned *dperm, unsigned *dnl, unsigned long long *dprof, size_t dyn)
{
  constexpr bool PREF = FORM == 1;
  void (*kern)(const uint4 *, int, unsigned, unsigned *, unsigned *, unsigned long long *) = FORM == 2 ? NumberLevelsCW<false> : NumberLevels<false, PREF>;
  void (*kprof)(const uint4 *, int, unsigned, unsigned *, unsigned *, unsigned long long *) = FORM == 2 ? NumberLevelsCW<true> : NumberLevels<true, PREF>;
  dyn += FORM == 1 ? 2 * CAP * sizeof(uint4) : FORM == 2 ? CAP * sizeof(uint4) + 4 * SLOTS * sizeof(unsigned) : 0; /* the level's rows; CW's tables */
  CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn));
  CK(cudaFuncSetAttribute(kprof, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)dyn));
  std::vector<float> ms;
  cudaEvent_t        e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  for (int r = 0; r < 11; r++) {
    CK(cudaEventRecord(e0));
    kern<<<1, BS, dyn>>>(drows, n, 0, dperm, dnl, dprof);
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaGetLastError());
    float x;
    CK(cudaEventElapsedTime(&x, e0, e1));
    if (r >= 2) ms.push_back(x);
  }
  std::vector<unsigned> got(n);
  unsigned              nl;
  CK(cudaMemcpy(got.data(), dperm, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&nl, dnl, sizeof nl, cudaMemcpyDeviceToHost));
  const bool ok = got == ref;
  unsigned long long ph[4];
  kprof<<<1, BS, dyn>>>(drows, n, 0, dperm, dnl, dprof);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(ph, dprof, sizeof ph, cudaMemcpyDeviceToHost));
  std::sort(ms.begin(), ms.end());
  const float med = ms[ms.size() / 2];
  printf("%s: 2D %d² Cuthill-McKee numbering in one block: %d levels (kernel %u), permutation %s; median %.3f ms (min %.3f), %.3f us a level; thread 0, cycles a level: claims %.0f children %.0f scan %.0f write %.0f\n", FORM == 2 ? "claims at write" : PREF ? "rows prefetched" : "rows loaded    ", N, nlvl, nl, ok ? "identical to the host's" : "DIFFERENT", med, ms[0], 1000.0 * med / nlvl, ph[0] / (double)nlvl, ph[1] / (double)nlvl, ph[2] / (double)nlvl, ph[3] / (double)nlvl);
  return ok ? 0 : 1;
}
