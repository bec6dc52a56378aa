/* Session 67 micro-benchmark (issue 3): the cost of one grid barrier of gpurcm's level kernels, in the shape they use
   it (a wide level: every block adds to the next level's count, the last block to arrive advances the level state,
   everybody reads the new state), for
     0  the barrier of gpurcm.cu (GPURCMLvBarrier + GPURCMLvStateToShared, copied),
     1  a lean one: a 64-bit arrival count never reset (acq_rel atomic, no generation load before it), the new state
        published by the last block in tagged 64-bit words (generation in the high half) that the waiters poll, so the
        poll brings the state with it; a fence.acq_rel after the poll,
     2  the same with the waiters spinning (no __nanosleep),
     3  cooperative_groups grid.sync() with the state read afterwards (reference; three grid.sync() a barrier),
     4  an all-gather: every block publishes its count in its own generation-tagged word (release), and each block's
        first nb threads poll all nb words until every tag is current, then sum them: no atomic counter, no last block,
     5  the same with the waiters spinning.
   Each barrier is checked: the state every block reads is the sum of every block's additions, and every block sees
   the value its neighbour block wrote before the barrier (a relaxed L2 load after the barrier).
   Build: nvcc -O3 -arch=sm_90 -o barrier barrier.cu ; run: ./barrier [iterations] */
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

struct Ctl {
  unsigned           arrive, gen, lvlcnt, lbeg, lend, nlvl, done, pbeg, pending, pad[7];
  unsigned long long arrive64;                         /* variant 1/2 */
  unsigned long long w[4] __attribute__((aligned(32))); /* tagged state words: (gen << 32) | field */
  unsigned long long slot[2][1024]; /* variant 4/5: (gen << 32) | count of block b, by generation parity (a block may publish
                                        generation g + 1 while another still reads g, never g + 2) */
};

template <typename T>
__device__ __forceinline__ T VLoad(const T *p) { return *(const volatile T *)p; }
template <typename T>
__device__ __forceinline__ void VStore(T *p, T v) { *(volatile T *)p = v; }

__device__ __forceinline__ unsigned long long AtomAddAcqRel(unsigned long long *p, unsigned long long v)
{
  unsigned long long o;
  asm volatile("atom.acq_rel.gpu.global.add.u64 %0, [%1], %2;" : "=l"(o) : "l"(p), "l"(v) : "memory");
  return o;
}
__device__ __forceinline__ unsigned long long LdRelaxed(const unsigned long long *p)
{
  unsigned long long v;
  asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ unsigned LdRelaxed32(const unsigned *p)
{
  unsigned v;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void StRelaxed(unsigned long long *p, unsigned long long v) { asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory"); }
__device__ __forceinline__ void StRelaxed32(unsigned *p, unsigned v) { asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory"); }
__device__ __forceinline__ void FenceAcqRel() { asm volatile("fence.acq_rel.gpu;" ::: "memory"); }

struct Sh {
  unsigned lbeg, lend, nlvl, done, pbeg;
  unsigned long long gen;
};

/* variant 0: gpurcm.cu's barrier (update path without a pending state) */
__device__ void Barrier0(Ctl *c, Sh &s)
{
  __syncthreads();
  if (threadIdx.x == 0) {
    const unsigned gen = VLoad(&c->gen);
    __threadfence();
    if (atomicAdd(&c->arrive, 1u) == gridDim.x - 1) {
      __threadfence();
      VStore(&c->arrive, 0u);
      const unsigned pending = VLoad(&c->pending), cnt = VLoad(&c->lvlcnt), lbeg = VLoad(&c->lbeg), lend = VLoad(&c->lend), nlvl = VLoad(&c->nlvl);
      if (!pending) {
        if (!cnt) VStore(&c->done, 1u);
        else {
          VStore(&c->pbeg, lbeg);
          VStore(&c->lbeg, lend);
          VStore(&c->lend, lend + cnt);
          VStore(&c->nlvl, nlvl + 1);
        }
        VStore(&c->lvlcnt, 0u);
      }
      __threadfence();
      VStore(&c->gen, gen + 1);
    } else {
      for (unsigned ns = 32; VLoad(&c->gen) == gen; ns = ns < 256 ? 2 * ns : 256) __nanosleep(ns);
    }
    __threadfence();
    s.pbeg = VLoad(&c->pbeg);
    s.lbeg = VLoad(&c->lbeg);
    s.lend = VLoad(&c->lend);
    s.nlvl = VLoad(&c->nlvl);
    s.done = VLoad(&c->done);
  }
  __syncthreads();
}

/* variants 1 and 2: lean barrier; s.gen is this block's count of barriers passed (all blocks pass the same ones) */
template <bool SLEEP>
__device__ void Barrier1(Ctl *c, Sh &s)
{
  __syncthreads();
  if (threadIdx.x == 0) {
    const unsigned long long g = s.gen + 1, nb = gridDim.x;
    unsigned long long       w0, w1, w2;
    if (AtomAddAcqRel(&c->arrive64, 1ull) == g * nb - 1) { /* last: the others' writes are visible (acq_rel) */
      const unsigned cnt = LdRelaxed32(&c->lvlcnt);
      StRelaxed32(&c->lvlcnt, 0u);
      unsigned lbeg = s.lbeg, lend = s.lend, nlvl = s.nlvl, done = s.done, pbeg = s.pbeg;
      if (!cnt) done = 1;
      else {
        pbeg = lbeg;
        lbeg = lend;
        lend = lend + cnt;
        nlvl = nlvl + 1;
      }
      w0 = g << 32 | lbeg;
      w1 = g << 32 | lend;
      w2 = g << 32 | (nlvl | done << 31);
      const unsigned long long w3 = g << 32 | pbeg;
      FenceAcqRel(); /* release: the reset count and everything before the arrival, before the tagged words */
      StRelaxed(&c->w[0], w0);
      StRelaxed(&c->w[1], w1);
      StRelaxed(&c->w[2], w2);
      StRelaxed(&c->w[3], w3);
      s.pbeg = pbeg;
    } else {
      unsigned long long w3;
      for (unsigned ns = 32;; ns = ns < 256 ? 2 * ns : 256) {
        w0 = LdRelaxed(&c->w[0]);
        w1 = LdRelaxed(&c->w[1]);
        w2 = LdRelaxed(&c->w[2]);
        w3 = LdRelaxed(&c->w[3]);
        if ((w0 >> 32) == g && (w1 >> 32) == g && (w2 >> 32) == g && (w3 >> 32) == g) break;
        if (SLEEP) __nanosleep(ns);
      }
      FenceAcqRel(); /* acquire: what the others wrote before arriving */
      s.pbeg = (unsigned)w3;
    }
    s.lbeg = (unsigned)w0;
    s.lend = (unsigned)w1;
    s.nlvl = (unsigned)w2 & 0x7fffffffu;
    s.done = (unsigned)(w2 >> 31) & 1u;
    s.gen  = g;
  }
  __syncthreads();
}

/* variant 3: cooperative groups' grid barrier, the last state computed by block 0 before it */
__device__ void Barrier3(Ctl *c, Sh &s)
{
  cg::grid_group grid = cg::this_grid();
  grid.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    const unsigned cnt = VLoad(&c->lvlcnt);
    if (!cnt) VStore(&c->done, 1u);
    else {
      VStore(&c->pbeg, VLoad(&c->lbeg));
      VStore(&c->lbeg, VLoad(&c->lend));
      VStore(&c->lend, VLoad(&c->lend) + cnt);
      VStore(&c->nlvl, VLoad(&c->nlvl) + 1);
    }
  }
  grid.sync();
  if (threadIdx.x == 0) {
    VStore(&c->lvlcnt, 0u); /* harmless: nobody adds before the next level, and every block writes 0 */
    s.pbeg = VLoad(&c->pbeg);
    s.lbeg = VLoad(&c->lbeg);
    s.lend = VLoad(&c->lend);
    s.nlvl = VLoad(&c->nlvl);
    s.done = VLoad(&c->done);
  }
  grid.sync();
}

/* variants 4 and 5: all-gather of tagged per-block counts; cnt is this block's addition to the level */
template <bool SLEEP>
__device__ void Barrier4(Ctl *c, Sh &s, unsigned cnt)
{
  __shared__ unsigned wsum[32];
  const unsigned long long g = s.gen + 1, gt = g << 32;
  const unsigned           t = threadIdx.x, nb = gridDim.x;
  unsigned                 x = 0;
  __syncthreads();
  if (t == 0) {
    FenceAcqRel(); /* release: the block's writes (ordered before by the barrier above) */
    StRelaxed(&c->slot[g & 1][blockIdx.x], gt | cnt);
  }
  if (t < nb) {
    unsigned long long w;
    for (unsigned ns = 32;; ns = ns < 256 ? 2 * ns : 256) {
      w = LdRelaxed(&c->slot[g & 1][t]);
      if ((w ^ gt) >> 32 == 0) break;
      if (SLEEP) __nanosleep(ns);
    }
    FenceAcqRel(); /* acquire: what block t wrote before publishing */
    x = (unsigned)w;
  }
  for (int o = 16; o; o >>= 1) x += __shfl_xor_sync(0xffffffffu, x, o);
  if ((t & 31) == 0) wsum[t >> 5] = x;
  __syncthreads();
  if (t == 0) {
    unsigned tot = 0;
    for (unsigned w = 0; w < (nb + 31) / 32; w++) tot += wsum[w];
    if (!tot) s.done = 1;
    else {
      s.pbeg = s.lbeg;
      s.lbeg = s.lend;
      s.lend += tot;
      s.nlvl++;
    }
    s.gen = g;
  }
  __syncthreads();
}

__global__ void __launch_bounds__(1024, 1) BarrierKernel(Ctl *c, unsigned *mark, unsigned *err, unsigned long long *ns, int variant, int iters)
{
  __shared__ Sh s;
  const unsigned b = blockIdx.x, nb = gridDim.x, t = threadIdx.x;
  unsigned       expect_lend = 0, bad = 0, sum = 0;
  unsigned long long t0 = 0, t1;
  for (unsigned k = 0; k < nb; k++) sum += k % 3 + 1;
  if (t == 0) {
    s.lbeg = 0;
    s.lend = 1;
    s.nlvl = 1;
    s.done = 0;
    s.pbeg = 0;
    s.gen  = 0;
  }
  expect_lend = 1;
  __syncthreads();
  for (int it = 0; it < iters + 100; it++) {
    if (it == 100 && b == 0 && t == 0) asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    /* the "level": every block adds b % 3 + 1 to the count, thread 32 marks the iteration for its neighbour */
    if (t == 0 && variant < 4) atomicAdd(&c->lvlcnt, b % 3 + 1);
    if (t == 32) mark[b * 32] = it + 1;
    switch (variant) {
    case 0:
      Barrier0(c, s);
      break;
    case 1:
      Barrier1<true>(c, s);
      break;
    case 2:
      Barrier1<false>(c, s);
      break;
    case 4:
      Barrier4<true>(c, s, b % 3 + 1);
      break;
    case 5:
      Barrier4<false>(c, s, b % 3 + 1);
      break;
    default:
      Barrier3(c, s);
    }
    expect_lend += sum;
    if (t == 64) {
      if (s.lend != expect_lend || s.lend - s.lbeg != sum || s.done) bad++;
      if (__ldcg(mark + ((b + 1) % nb) * 32) < (unsigned)(it + 1)) bad++;
    }
    __syncthreads(); /* nobody adds to the next level's count before everybody read the state (as in the kernels) */
  }
  if (b == 0 && t == 0) {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
    *ns = t1 - t0;
  }
  if (bad) atomicAdd(err, bad);
}

int main(int argc, char **argv)
{
  const int          iters = argc > 1 ? atoi(argv[1]) : 20000;
  cudaDeviceProp     p;
  Ctl               *c;
  unsigned          *mark, *err, herr;
  unsigned long long *ns, hns;
  cudaGetDeviceProperties(&p, 0);
  cudaMalloc(&c, sizeof(Ctl));
  cudaMalloc(&mark, 32 * sizeof(unsigned) * p.multiProcessorCount);
  cudaMalloc(&err, sizeof(unsigned));
  cudaMalloc(&ns, sizeof(unsigned long long));
  printf("%s, %d SMs; %d barriers a run, ns per barrier (median of 5 runs), errors\n", p.name, p.multiProcessorCount, iters);
  const char *names[] = {"gpurcm.cu barrier", "lean, sleep<=256ns", "lean, spin", "cg grid.sync x3", "all-gather, sleep", "all-gather, spin"};
  int         grids[] = {p.multiProcessorCount, 64, 16, 4};
  for (int gi = 0; gi < 4; gi++) {
    for (int v = 0; v < 6; v++) {
      double   tt[5];
      unsigned errs = 0;
      for (int rep = 0; rep < 5; rep++) {
        cudaMemset(c, 0, sizeof(Ctl));
        cudaMemset(mark, 0, 32 * sizeof(unsigned) * p.multiProcessorCount);
        cudaMemset(err, 0, sizeof(unsigned));
        /* the start state: lbeg 0, lend 1, nlvl 1 */
        unsigned one = 1;
        cudaMemcpy(&c->lend, &one, sizeof one, cudaMemcpyHostToDevice);
        cudaMemcpy(&c->nlvl, &one, sizeof one, cudaMemcpyHostToDevice);
        int   vv = v, it = iters;
        void *args[] = {&c, &mark, &err, &ns, &vv, &it};
        cudaError_t e = cudaLaunchCooperativeKernel((void *)BarrierKernel, dim3(grids[gi]), dim3(1024), args, 0, NULL);
        if (e == cudaSuccess) e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
          printf("error %s\n", cudaGetErrorString(e));
          return 1;
        }
        cudaMemcpy(&hns, ns, sizeof hns, cudaMemcpyDeviceToHost);
        cudaMemcpy(&herr, err, sizeof herr, cudaMemcpyDeviceToHost);
        tt[rep] = (double)hns / iters;
        errs += herr;
      }
      for (int i = 0; i < 5; i++)
        for (int j = i + 1; j < 5; j++)
          if (tt[j] < tt[i]) {
            double x = tt[i];
            tt[i]    = tt[j];
            tt[j]    = x;
          }
      printf("grid %3d  %-22s %8.1f ns  (min %.1f max %.1f)  errors %u\n", grids[gi], names[v], tt[2], tt[0], tt[4], errs);
    }
  }
  return 0;
}
