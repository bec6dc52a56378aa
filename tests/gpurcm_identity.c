static char help[] = "Checks that MatGetOrdering(A, \"gpurcm\") is identical to MatGetOrdering(A, \"rcm\") on Matrix Market files\n\
and generated graphs, for every backend and thread count given.\n\
  -dir <path[:path]>   : order every *.mtx.gz in the first of these directories that exists (each as stored, full symmetric, upper-only, bs 2/3 blocks)\n\
  -f <file>            : one Matrix Market file (.mtx or .mtx.gz)\n\
  -generated           : generated graphs (grids, disconnected, hubs, inodes, upper-only, ties in the root finder, n = 0/1)\n\
  -hubs                : generated graphs whose hubs have long child lists of varied degrees (power-law, spokes)\n\
  -blocks              : block-diagonal graphs of many grid components (36 of 5625 nodes, 300 of 144)\n\
  -auto_threads <n>    : -mat_gpurcm_threads for the backend auto (default 1)\n\
  -mpi                 : MPI matrices (on the communicator of the run)\n\
  -backends <list>     : gpurcm backends to compare (default serial,threads)\n\
  -threads <list>      : thread counts for the threads backend (default 1,2,4)\n\
  -batches <list>      : batch sizes for the threads backend (default 64,1,7)\n\n";

#include <petscsparsegpu.h>
#include <petscmat.h>
#include "mmio.h"

/* ------------------------------------------------------------------ Matrix Market files (only the pattern is used) */
/* mode: 0 as stored, 1 symmetric expanded (both triangles), 2 transposed (a lower-stored file becomes upper-only)
   bs > 1 replaces each entry by a dense bs x bs block (identical consecutive rows: inodes) */
static PetscErrorCode TripletsToAIJ(const MMTriplets *t, PetscInt mode, PetscInt bs, Mat *A)
{
  PetscInt *nnz, M = t->m * bs;

  PetscFunctionBeginUser;
  PetscCheck(t->m == t->n, PETSC_COMM_SELF, PETSC_ERR_SUP, "square matrices only");
  PetscCall(PetscCalloc1(M + 1, &nnz));
  for (PetscInt k = 0; k < t->nz; k++) {
    PetscInt r = mode == 2 ? t->j[k] : t->i[k], c = mode == 2 ? t->i[k] : t->j[k];
    for (PetscInt a = 0; a < bs; a++) nnz[r * bs + a] += bs;
    if (mode == 1 && r != c)
      for (PetscInt a = 0; a < bs; a++) nnz[c * bs + a] += bs;
  }
  for (PetscInt r = 0; r < M; r++) nnz[r] = PetscMin(nnz[r], M);
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, M, M, 0, nnz, A));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  for (PetscInt k = 0; k < t->nz; k++) {
    PetscInt r = mode == 2 ? t->j[k] : t->i[k], c = mode == 2 ? t->i[k] : t->j[k];
    for (PetscInt a = 0; a < bs; a++)
      for (PetscInt b = 0; b < bs; b++) {
        PetscCall(MatSetValue(*A, r * bs + a, c * bs + b, 1.0, ADD_VALUES));
        if (mode == 1 && r != c) PetscCall(MatSetValue(*A, c * bs + a, r * bs + b, 1.0, ADD_VALUES));
      }
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscFree(nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ generated graphs */
/* Grid nx x ny x nz with 5/7-point (star) or 9/27-point (box) stencil; lower: store only the lower triangle;
   upper: only the upper triangle; nodiag: no diagonal */
static PetscErrorCode GridMatrix(MPI_Comm comm, PetscInt nx, PetscInt ny, PetscInt nz, PetscBool box, PetscInt tri, PetscBool nodiag, Mat *A)
{
  PetscInt N = nx * ny * nz, rstart, rend;

  PetscFunctionBeginUser;
  PetscCall(MatCreate(comm, A));
  PetscCall(MatSetSizes(*A, PETSC_DECIDE, PETSC_DECIDE, N, N));
  PetscCall(MatSetType(*A, MATAIJ));
  PetscCall(MatSeqAIJSetPreallocation(*A, 27, NULL));
  PetscCall(MatMPIAIJSetPreallocation(*A, 27, NULL, 27, NULL));
  PetscCall(MatGetOwnershipRange(*A, &rstart, &rend));
  for (PetscInt r = rstart; r < rend; r++) {
    PetscInt i = r % nx, j = (r / nx) % ny, k = r / (nx * ny);
    for (PetscInt dk = -1; dk <= 1; dk++)
      for (PetscInt dj = -1; dj <= 1; dj++)
        for (PetscInt di = -1; di <= 1; di++) {
          PetscInt ii = i + di, jj = j + dj, kk = k + dk, c;
          if (ii < 0 || jj < 0 || kk < 0 || ii >= nx || jj >= ny || kk >= nz) continue;
          if (!box && PetscAbsInt(di) + PetscAbsInt(dj) + PetscAbsInt(dk) > 1) continue;
          c = ii + nx * (jj + ny * kk);
          if (c == r && nodiag) continue;
          if (tri == 1 && c > r) continue;
          if (tri == 2 && c < r) continue;
          PetscCall(MatSetValue(*A, r, c, c == r ? 8.0 : -1.0, INSERT_VALUES));
        }
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Several disconnected pieces: 2D grids of different sizes interleaved with isolated nodes and a hub */
static PetscErrorCode DisconnectedMatrix(PetscInt nblocks, PetscInt hubdeg, Mat *A)
{
  PetscInt N = 0, off = 0;
  PetscInt sizes[8] = {37, 5, 60, 1, 90, 12, 3, 71};

  PetscFunctionBeginUser;
  for (PetscInt b = 0; b < nblocks; b++) N += sizes[b % 8] * 3 + 1;
  N += hubdeg + 1;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, N, N, 6, NULL, A));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  /* each block: a 3 x s grid whose nodes are interleaved with the other blocks by a stride permutation */
  for (PetscInt b = 0; b < nblocks; b++) {
    PetscInt s = sizes[b % 8], nb = 3 * s;
    for (PetscInt r = 0; r < nb; r++) {
      PetscInt i = r % 3, j = r / 3, g = off + r;
      PetscCall(MatSetValue(*A, g, g, 4.0, INSERT_VALUES));
      if (i > 0) PetscCall(MatSetValue(*A, g, g - 1, -1.0, INSERT_VALUES));
      if (i < 2) PetscCall(MatSetValue(*A, g, g + 1, -1.0, INSERT_VALUES));
      if (j > 0) PetscCall(MatSetValue(*A, g, g - 3, -1.0, INSERT_VALUES));
      if (j < s - 1) PetscCall(MatSetValue(*A, g, g + 3, -1.0, INSERT_VALUES));
    }
    off += nb;
    /* an isolated node without diagonal entry (empty row) */
    off += 1;
  }
  /* hub: node off connected to hubdeg nodes which form a path; the hub row is dense */
  for (PetscInt k = 1; k <= hubdeg; k++) {
    PetscCall(MatSetValue(*A, off, off + k, -1.0, INSERT_VALUES));
    PetscCall(MatSetValue(*A, off + k, off, -1.0, INSERT_VALUES));
    if (k > 1) PetscCall(MatSetValue(*A, off + k, off + k - 1, -1.0, INSERT_VALUES));
    if (k < hubdeg) PetscCall(MatSetValue(*A, off + k, off + k + 1, -1.0, INSERT_VALUES));
    if (k % 3) PetscCall(MatSetValue(*A, off + k, off + k, 2.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Block diagonal: nblocks copies of a 2D 5-point a x a grid (nblocks components of a^2 nodes) */
static PetscErrorCode BlockGridsMatrix(PetscInt nblocks, PetscInt a, Mat *A)
{
  const PetscInt nb = a * a, N = nblocks * nb;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, N, N, 5, NULL, A));
  for (PetscInt g = 0; g < N; g++) {
    const PetscInt r = g % nb, i = r % a, j = r / a;
    PetscCall(MatSetValue(*A, g, g, 4.0, INSERT_VALUES));
    if (i > 0) PetscCall(MatSetValue(*A, g, g - 1, -1.0, INSERT_VALUES));
    if (i < a - 1) PetscCall(MatSetValue(*A, g, g + 1, -1.0, INSERT_VALUES));
    if (j > 0) PetscCall(MatSetValue(*A, g, g - a, -1.0, INSERT_VALUES));
    if (j < a - 1) PetscCall(MatSetValue(*A, g, g + a, -1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Random sparse symmetric pattern with many components and repeated degrees */
static PetscErrorCode RandomMatrix(PetscInt N, PetscInt edges, PetscBool structsym, Mat *A)
{
  PetscRandom rnd;

  PetscFunctionBeginUser;
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 1234));
  PetscCall(PetscRandomSeed(rnd));
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, N, N, 8, NULL, A));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  for (PetscInt e = 0; e < edges; e++) {
    PetscReal x, y;
    PetscInt  r, c;
    PetscCall(PetscRandomGetValueReal(rnd, &x));
    PetscCall(PetscRandomGetValueReal(rnd, &y));
    r = (PetscInt)(x * N) % N;
    c = (PetscInt)(y * N) % N;
    PetscCall(MatSetValue(*A, r, c, 1.0, INSERT_VALUES));
    PetscCall(MatSetValue(*A, c, r, 1.0, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  if (structsym) PetscCall(MatSetOption(*A, MAT_STRUCTURALLY_SYMMETRIC, PETSC_TRUE));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Graphs whose root-finder passes meet ties (several nodes of minimum degree in the last level) or wide levels:
   kind 0: periodic 5-point (nz = 1) / 7-point grid nx x ny x nz (a cycle when ny = nz = 1); kind 1: star, hub nx
   joined to every other node of ny + 1 nodes (diagonal in every row); kind 2: 5-point grid nx x ny with its nodes
   renumbered by a random permutation (the search starts in the interior) */
static PetscErrorCode TieMatrix(PetscInt kind, PetscInt nx, PetscInt ny, PetscInt nz, Mat *A)
{
  PetscInt N = kind == 1 ? ny + 1 : nx * ny * nz;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, N, N, 7, NULL, A));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  if (kind == 0) {
    for (PetscInt r = 0; r < N; r++) {
      PetscInt i = r % nx, j = (r / nx) % ny, k = r / (nx * ny), nb[6], m = 0;
      if (nx > 1) nb[m++] = (i + 1) % nx + nx * (j + ny * k), nb[m++] = (i + nx - 1) % nx + nx * (j + ny * k);
      if (ny > 1) nb[m++] = i + nx * ((j + 1) % ny + ny * k), nb[m++] = i + nx * ((j + ny - 1) % ny + ny * k);
      if (nz > 1) nb[m++] = i + nx * (j + ny * ((k + 1) % nz)), nb[m++] = i + nx * (j + ny * ((k + nz - 1) % nz));
      PetscCall(MatSetValue(*A, r, r, 6.0, INSERT_VALUES));
      for (PetscInt q = 0; q < m; q++) PetscCall(MatSetValue(*A, r, nb[q], -1.0, INSERT_VALUES));
    }
  } else if (kind == 1) {
    for (PetscInt r = 0; r < N; r++) {
      PetscCall(MatSetValue(*A, r, r, 2.0, INSERT_VALUES));
      if (r != nx) {
        PetscCall(MatSetValue(*A, r, nx, -1.0, INSERT_VALUES));
        PetscCall(MatSetValue(*A, nx, r, -1.0, INSERT_VALUES));
      }
    }
  } else {
    PetscRandom rnd;
    PetscInt   *p;
    PetscCall(PetscMalloc1(N, &p));
    for (PetscInt r = 0; r < N; r++) p[r] = r;
    PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
    PetscCall(PetscRandomSetSeed(rnd, 4321));
    PetscCall(PetscRandomSeed(rnd));
    for (PetscInt r = N - 1; r > 0; r--) { /* Fisher-Yates */
      PetscReal x;
      PetscInt  s, t;
      PetscCall(PetscRandomGetValueReal(rnd, &x));
      s    = (PetscInt)(x * (r + 1)) % (r + 1);
      t    = p[r];
      p[r] = p[s];
      p[s] = t;
    }
    PetscCall(PetscRandomDestroy(&rnd));
    for (PetscInt r = 0; r < N; r++) {
      PetscInt i = r % nx, j = r / nx;
      PetscCall(MatSetValue(*A, p[r], p[r], 4.0, INSERT_VALUES));
      if (i > 0) PetscCall(MatSetValue(*A, p[r], p[r - 1], -1.0, INSERT_VALUES));
      if (i < nx - 1) PetscCall(MatSetValue(*A, p[r], p[r + 1], -1.0, INSERT_VALUES));
      if (j > 0) PetscCall(MatSetValue(*A, p[r], p[r - nx], -1.0, INSERT_VALUES));
      if (j < ny - 1) PetscCall(MatSetValue(*A, p[r], p[r + nx], -1.0, INSERT_VALUES));
    }
    PetscCall(PetscFree(p));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* Hubs with long child lists of varied degrees (the children are sorted by degree, stably; ties are many):
   kind 0: a hub joined to every other node, node r also to r + 1, ..., r + r % 6 (spokes of degrees 2 to 12);
   kind 1: power-law, each node r >= 1 joined to m targets floor(r * x^3) with x uniform in [0, 1) (small indices
   become hubs); symmetric, or (asym) each edge stored once, as (r, t) or (t, r) by a coin */
static PetscErrorCode HubMatrix(PetscInt kind, PetscInt N, PetscInt m, PetscBool asym, Mat *A)
{
  PetscRandom rnd;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, N, N, 8, NULL, A));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  PetscCall(PetscRandomCreate(PETSC_COMM_SELF, &rnd));
  PetscCall(PetscRandomSetSeed(rnd, 2049));
  PetscCall(PetscRandomSeed(rnd));
  for (PetscInt r = 0; r < N; r++) {
    PetscCall(MatSetValue(*A, r, r, 1.0, INSERT_VALUES));
    if (kind == 0) {
      if (r == 0) continue;
      PetscCall(MatSetValue(*A, r, 0, -1.0, INSERT_VALUES));
      PetscCall(MatSetValue(*A, 0, r, -1.0, INSERT_VALUES));
      for (PetscInt k = 1; k <= r % 6 && r + k < N; k++) {
        PetscCall(MatSetValue(*A, r, r + k, -1.0, INSERT_VALUES));
        PetscCall(MatSetValue(*A, r + k, r, -1.0, INSERT_VALUES));
      }
    } else if (r > 0) {
      for (PetscInt k = 0; k < m; k++) {
        PetscReal x, coin;
        PetscInt  t;
        PetscCall(PetscRandomGetValueReal(rnd, &x));
        PetscCall(PetscRandomGetValueReal(rnd, &coin));
        t = (PetscInt)(r * x * x * x);
        if (t >= r) t = r - 1;
        if (!asym || coin < 0.5) PetscCall(MatSetValue(*A, r, t, -1.0, INSERT_VALUES));
        if (!asym || coin >= 0.5) PetscCall(MatSetValue(*A, t, r, -1.0, INSERT_VALUES));
      }
    }
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(PetscRandomDestroy(&rnd));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ the comparison */
typedef struct {
  char     backends[8][32];
  PetscInt nbackends, threads[8], nthreads, batches[8], nbatches;
  PetscInt autothreads; /* -mat_gpurcm_threads for the backend auto (-auto_threads, default 1) */
  PetscInt failures;
} Config;

/*
  PETSc's MatReorderForNonzeroDiagonal() (-pc_factor_nonzeros_along_diagonal of PCLU/PCILU) swaps entries of the row
  and of the column IS in place, in their arrays: on gpurcm's ISes it must give what it gives on rcm's, which it would
  not if the two ISes shared an array. Checked on SeqAIJ matrices of at most 20000 rows (its search is quadratic at
  worst); r and c are changed.
*/
static PetscErrorCode CompareReorder(Mat A, IS rref, IS cref, IS r, IS c, PetscBool *same)
{
  IS        r2, c2;
  PetscBool isseq, e1, e2;
  PetscInt  m;

  PetscFunctionBeginUser;
  *same = PETSC_TRUE;
  PetscCall(PetscObjectTypeCompare((PetscObject)A, MATSEQAIJ, &isseq));
  PetscCall(MatGetSize(A, &m, NULL));
  if (!isseq || m == 0 || m > 20000) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(ISDuplicate(rref, &r2));
  PetscCall(ISDuplicate(cref, &c2));
  PetscCall(MatReorderForNonzeroDiagonal(A, 1e-12, r2, c2));
  PetscCall(MatReorderForNonzeroDiagonal(A, 1e-12, r, c));
  PetscCall(ISEqualUnsorted(r, r2, &e1));
  PetscCall(ISEqualUnsorted(c, c2, &e2));
  *same = (PetscBool)(e1 && e2);
  PetscCall(ISDestroy(&r2));
  PetscCall(ISDestroy(&c2));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* reorder: also CompareReorder() (once per matrix and backend is enough: the ISes are made alike for every thread count) */
static PetscErrorCode CompareOne(Mat A, IS rref, IS cref, const char *backend, PetscInt nthreads, PetscInt batch, PetscBool reorder, PetscBool *same)
{
  IS        r, c;
  PetscBool e1, e2, e3 = PETSC_TRUE;
  char      buf[32];

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsSetValue(NULL, "-mat_gpurcm_backend", backend));
  PetscCall(PetscSNPrintf(buf, sizeof(buf), "%" PetscInt_FMT, nthreads));
  PetscCall(PetscOptionsSetValue(NULL, "-mat_gpurcm_threads", buf));
  PetscCall(PetscSNPrintf(buf, sizeof(buf), "%" PetscInt_FMT, batch));
  PetscCall(PetscOptionsSetValue(NULL, "-mat_gpurcm_batch", buf));
  PetscCall(MatGetOrdering(A, MATORDERINGGPURCM, &r, &c));
  PetscCall(ISEqualUnsorted(r, rref, &e1));
  PetscCall(ISEqualUnsorted(c, cref, &e2));
  if (e1 && e2 && reorder) PetscCall(CompareReorder(A, rref, cref, r, c, &e3));
  *same = (PetscBool)(e1 && e2 && e3);
  PetscCall(ISDestroy(&r));
  PetscCall(ISDestroy(&c));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Check(Config *cfg, const char *name, Mat A)
{
  IS        rref, cref;
  PetscBool all = PETSC_TRUE;
  char      bad[256] = "";
  MPI_Comm  comm;
  PetscInt  M;

  PetscFunctionBeginUser;
  PetscCall(PetscObjectGetComm((PetscObject)A, &comm));
  PetscCall(MatGetSize(A, &M, NULL));
  PetscCall(MatGetOrdering(A, MATORDERINGRCM, &rref, &cref));
  for (PetscInt b = 0; b < cfg->nbackends; b++) {
    PetscBool isthreads, same = PETSC_FALSE;
    PetscCall(PetscStrcmp(cfg->backends[b], "threads", &isthreads));
    if (isthreads) {
      for (PetscInt t = 0; t < cfg->nthreads; t++)
        for (PetscInt s = 0; s < cfg->nbatches; s++) {
          PetscCall(CompareOne(A, rref, cref, "threads", cfg->threads[t], cfg->batches[s], (PetscBool)(t == 0 && s == 0), &same));
          if (!same) {
            all = PETSC_FALSE;
            PetscCall(PetscSNPrintf(bad + strlen(bad), sizeof(bad) - strlen(bad), " threads(%" PetscInt_FMT ",batch %" PetscInt_FMT ")", cfg->threads[t], cfg->batches[s]));
          }
        }
    } else {
      PetscBool isauto;
      PetscCall(PetscStrcmp(cfg->backends[b], "auto", &isauto));
      PetscCall(CompareOne(A, rref, cref, cfg->backends[b], isauto ? cfg->autothreads : 1, 64, PETSC_TRUE, &same));
      if (!same) {
        all = PETSC_FALSE;
        PetscCall(PetscSNPrintf(bad + strlen(bad), sizeof(bad) - strlen(bad), " %s", cfg->backends[b]));
      }
    }
  }
  if (all) PetscCall(PetscPrintf(comm, "%s (n %" PetscInt_FMT "): identical to rcm\n", name, M));
  else {
    PetscCall(PetscPrintf(comm, "%s (n %" PetscInt_FMT "): DIFFERS from rcm:%s\n", name, M, bad));
    cfg->failures++;
  }
  PetscCall(ISDestroy(&rref));
  PetscCall(ISDestroy(&cref));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode CheckFile(Config *cfg, const char *path)
{
  MMTriplets  t;
  Mat         A;
  char        name[PETSC_MAX_PATH_LEN], label[PETSC_MAX_PATH_LEN + 64];
  const char *base = strrchr(path, '/');
  char       *dot;

  PetscFunctionBeginUser;
  PetscCall(PetscStrncpy(name, base ? base + 1 : path, sizeof(name)));
  dot = strstr(name, ".mtx");
  if (dot) *dot = 0;
  PetscCall(MMRead(path, PETSC_FALSE, &t)); /* as stored: a symmetric file gives its lower triangle */
  if (t.m != t.n) {
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s: not square, skipped\n", name));
    PetscCall(MMTripletsDestroy(&t));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  PetscCall(TripletsToAIJ(&t, 0, 1, &A));
  PetscCall(PetscSNPrintf(label, sizeof(label), "%s as stored%s", name, t.symmetric ? " (lower triangle)" : ""));
  PetscCall(Check(cfg, label, A));
  PetscCall(MatDestroy(&A));
  PetscCall(TripletsToAIJ(&t, 2, 1, &A));
  PetscCall(PetscSNPrintf(label, sizeof(label), "%s transposed%s", name, t.symmetric ? " (upper triangle only)" : ""));
  PetscCall(Check(cfg, label, A));
  PetscCall(MatDestroy(&A));
  if (t.symmetric) {
    PetscCall(TripletsToAIJ(&t, 1, 1, &A));
    PetscCall(PetscSNPrintf(label, sizeof(label), "%s full symmetric", name));
    PetscCall(Check(cfg, label, A));
    PetscCall(MatDestroy(&A));
  }
  for (PetscInt bs = 2; bs <= 3; bs++) {
    PetscInt nodes;
    PetscCall(TripletsToAIJ(&t, t.symmetric ? 1 : 0, bs, &A));
    PetscCall(MatGetRowIJ(A, 0, PETSC_TRUE, PETSC_TRUE, &nodes, NULL, NULL, NULL));
    PetscCall(PetscSNPrintf(label, sizeof(label), "%s blocks bs %" PetscInt_FMT " (%s)", name, bs, nodes < t.m * bs ? "inode-compressed" : "no inodes"));
    PetscCall(Check(cfg, label, A));
    PetscCall(MatDestroy(&A));
  }
  PetscCall(MMTripletsDestroy(&t));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode ParseIntList(const char *opt, PetscInt *list, PetscInt *n)
{
  PetscInt  nmax = 8;
  PetscBool set;

  PetscFunctionBeginUser;
  PetscCall(PetscOptionsGetIntArray(NULL, NULL, opt, list, &nmax, &set));
  if (set) *n = nmax;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* A pattern wrongly flagged structurally symmetric on which SPARSEPACK leaves nodes unnumbered (node 0's only entry
   (0,1) has no mirror, so the search from node 0 ends there; rcm's result is then undefined: entries it never wrote):
   every gpurcm backend raises PETSC_ERR_ARG_WRONG instead of returning such an ordering */
static PetscErrorCode CheckWronglyFlaggedUndefined(Config *cfg)
{
  const PetscInt ij[][2] = {{0, 0}, {0, 1}, {1, 1}, {1, 2}, {1, 3}, {1, 5}, {2, 2}, {3, 1}, {3, 3}, {3, 4}, {4, 3}, {4, 4}, {5, 5}, {6, 6}, {7, 7}};
  Mat            A;

  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, 8, 8, 4, NULL, &A));
  for (size_t k = 0; k < sizeof(ij) / sizeof(ij[0]); k++) PetscCall(MatSetValue(A, ij[k][0], ij[k][1], 1.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatSetOption(A, MAT_STRUCTURALLY_SYMMETRIC, PETSC_TRUE));
  char bad[256] = "";

  for (PetscInt b = 0; b < cfg->nbackends; b++) {
    IS             r = NULL, c = NULL;
    PetscErrorCode ierr;

    PetscCall(PetscOptionsSetValue(NULL, "-mat_gpurcm_backend", cfg->backends[b]));
    PetscCall(PetscOptionsSetValue(NULL, "-mat_gpurcm_threads", "2"));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = MatGetOrdering(A, MATORDERINGGPURCM, &r, &c);
    PetscCall(PetscPopErrorHandler());
    if (ierr != PETSC_ERR_ARG_WRONG) PetscCall(PetscSNPrintf(bad + strlen(bad), sizeof(bad) - strlen(bad), " %s (%s)", cfg->backends[b], ierr ? "another error" : "no error"));
    PetscCall(ISDestroy(&r));
    PetscCall(ISDestroy(&c));
  }
  if (bad[0]) cfg->failures++;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "8 nodes wrongly flagged structurally symmetric, rcm undefined: %s%s\n", bad[0] ? "NOT AN ARGUMENT ERROR with" : "an argument error with every backend", bad));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* each wrong option value gives an error (out of range, or not an option value), never an ordering */
static PetscErrorCode CheckBadOptions(void)
{
  const char *bad[][2] = {
    {"-mat_gpurcm_threads",           "0"   },
    {"-mat_gpurcm_batch",             "0"   },
    {"-mat_gpurcm_batch",             "1048577"},
    {"-mat_gpurcm_owner_blocks",      "0"   },
    {"-mat_gpurcm_backend",           "gpu" },
    {"-mat_gpurcm_cuda_narrow",       "5000"},
    {"-mat_gpurcm_cuda_batch_blocks", "-1"  },
    {"-mat_gpurcm_cuda_claim_slots",  "100" },
    {"-mat_gpurcm_cuda_claim_slots",  "8192"},
    {"-mat_gpurcm_cuda_number",       "fast"},
    {"-mat_gpurcm_threads_number",    "fast"},
    {"-mat_gpurcm_threads_wait",      "never"},
  };
  Mat A;

  PetscFunctionBegin;
  PetscCall(GridMatrix(PETSC_COMM_SELF, 10, 10, 1, PETSC_FALSE, 0, PETSC_FALSE, &A));
  for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
    IS             r = NULL, c = NULL;
    PetscErrorCode ierr;

    PetscCall(PetscOptionsSetValue(NULL, bad[k][0], bad[k][1]));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = MatGetOrdering(A, MATORDERINGGPURCM, &r, &c);
    PetscCall(PetscPopErrorHandler());
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "%s %s: %s\n", bad[k][0], bad[k][1], ierr == PETSC_ERR_ARG_OUTOFRANGE ? "out of range" : ierr ? "error" : "NO ERROR"));
    PetscCall(ISDestroy(&r));
    PetscCall(ISDestroy(&c));
    PetscCall(PetscOptionsClearValue(NULL, bad[k][0]));
  }
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  Config      cfg;
  char        dir[PETSC_MAX_PATH_LEN] = "", file[PETSC_MAX_PATH_LEN] = "", *blist[8];
  PetscBool   generated = PETSC_FALSE, hubs = PETSC_FALSE, mpi = PETSC_FALSE, bad = PETSC_FALSE, blocks = PETSC_FALSE, set;
  PetscInt    nb = 8;
  PetscMPIInt size;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscSparseGPUInitializePackage());
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  PetscCall(PetscMemzero(&cfg, sizeof(cfg)));
  cfg.nbackends = 2;
  PetscCall(PetscStrncpy(cfg.backends[0], "serial", 32));
  PetscCall(PetscStrncpy(cfg.backends[1], "threads", 32));
  cfg.nthreads   = 3;
  cfg.threads[0] = 1, cfg.threads[1] = 2, cfg.threads[2] = 4;
  cfg.nbatches   = 3;
  cfg.batches[0] = 64, cfg.batches[1] = 1, cfg.batches[2] = 7;
  cfg.autothreads = 1;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-auto_threads", &cfg.autothreads, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-blocks", &blocks, NULL));
  PetscCall(PetscOptionsGetStringArray(NULL, NULL, "-backends", blist, &nb, &set));
  if (set) {
    cfg.nbackends = nb;
    for (PetscInt i = 0; i < nb; i++) {
      PetscCall(PetscStrncpy(cfg.backends[i], blist[i], 32));
      PetscCall(PetscFree(blist[i]));
    }
  }
  PetscCall(ParseIntList("-threads", cfg.threads, &cfg.nthreads));
  PetscCall(ParseIntList("-batches", cfg.batches, &cfg.nbatches));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-dir", dir, sizeof(dir), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-f", file, sizeof(file), NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-generated", &generated, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-hubs", &hubs, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-mpi", &mpi, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-bad_options", &bad, NULL));
  if (bad) PetscCall(CheckBadOptions());

  if (file[0]) PetscCall(CheckFile(&cfg, file));
  if (dir[0]) { /* a colon-separated list of candidate directories: the first that exists is used */
    char      cmd[PETSC_MAX_PATH_LEN + 64], line[PETSC_MAX_PATH_LEN], *tok, *save = NULL, found[PETSC_MAX_PATH_LEN] = "";
    FILE     *fp;
    PetscBool exists;

    for (tok = strtok_r(dir, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
      PetscCall(PetscTestDirectory(tok, 'r', &exists));
      if (exists) {
        PetscCall(PetscStrncpy(found, tok, sizeof(found)));
        break;
      }
    }
    PetscCheck(found[0], PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "None of the -dir directories exists");
    PetscCall(PetscStrncpy(dir, found, sizeof(dir)));
    PetscCall(PetscSNPrintf(cmd, sizeof(cmd), "ls '%s'/*.mtx.gz | LC_ALL=C sort", dir));
    fp = popen(cmd, "r");
    PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "Cannot list %s", dir);
    while (fgets(line, sizeof(line), fp)) {
      line[strcspn(line, "\n")] = 0;
      if (line[0]) PetscCall(CheckFile(&cfg, line));
    }
    pclose(fp);
  }
  if (generated) {
    Mat A;
    struct {
      const char *name;
      PetscInt    nx, ny, nz, tri;
      PetscBool   box, nodiag;
    } grids[] = {
      {"2D 5-point 100x100",           100, 100, 1,  0, PETSC_FALSE, PETSC_FALSE},
      {"2D 5-point 150x40 no diagonal", 150, 40,  1,  0, PETSC_FALSE, PETSC_TRUE },
      {"2D 9-point 70x70",             70,  70,  1,  0, PETSC_TRUE,  PETSC_FALSE},
      {"3D 7-point 20x20x20",          20,  20,  20, 0, PETSC_FALSE, PETSC_FALSE},
      {"3D 27-point 12x14x13",         12,  14,  13, 0, PETSC_TRUE,  PETSC_FALSE},
      {"2D 5-point 80x80 lower only",  80,  80,  1,  1, PETSC_FALSE, PETSC_FALSE},
      {"2D 5-point 80x80 upper only",  80,  80,  1,  2, PETSC_FALSE, PETSC_FALSE},
      {"1D path 5000",                 5000, 1,  1,  0, PETSC_FALSE, PETSC_FALSE},
    };
    for (size_t g = 0; g < sizeof(grids) / sizeof(grids[0]); g++) {
      PetscCall(GridMatrix(PETSC_COMM_SELF, grids[g].nx, grids[g].ny, grids[g].nz, grids[g].box, grids[g].tri, grids[g].nodiag, &A));
      PetscCall(Check(&cfg, grids[g].name, A));
      PetscCall(MatDestroy(&A));
    }
    /* rows of 5 entries, none on the diagonal (5 neighbours): the cuda root finder's copy of 4 neighbours a node is
       made (every row has at most 5 entries) but must not be read (its device flag leaves the level BFS on the CSR) */
    {
      const PetscInt nx = 120, ny = 50;
      PetscCall(GridMatrix(PETSC_COMM_SELF, nx, ny, 1, PETSC_FALSE, 0, PETSC_TRUE, &A));
      PetscCall(MatSetOption(A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
      for (PetscInt j = 0; j + 1 < ny; j += 2)
        for (PetscInt i = 0; i + 1 < nx; i += 2) { /* (i, j) to (i + 1, j + 1): each node in at most one link */
          PetscCall(MatSetValue(A, i + nx * j, i + 1 + nx * (j + 1), -1.0, INSERT_VALUES));
          PetscCall(MatSetValue(A, i + 1 + nx * (j + 1), i + nx * j, -1.0, INSERT_VALUES));
        }
      PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
      PetscCall(Check(&cfg, "2D 5-point 120x50 no diagonal, diagonal links (5 neighbours)", A));
      PetscCall(MatDestroy(&A));
    }
    /* grid flagged structurally symmetric: MatGetRowIJ() returns the raw CSR */
    PetscCall(GridMatrix(PETSC_COMM_SELF, 60, 50, 1, PETSC_FALSE, 0, PETSC_FALSE, &A));
    PetscCall(MatSetOption(A, MAT_STRUCTURALLY_SYMMETRIC, PETSC_TRUE));
    PetscCall(Check(&cfg, "2D 5-point 60x50 flagged structurally symmetric", A));
    PetscCall(MatDestroy(&A));
    /* lower-only grid wrongly flagged structurally symmetric: the raw CSR is not symmetric */
    PetscCall(GridMatrix(PETSC_COMM_SELF, 60, 50, 1, PETSC_FALSE, 1, PETSC_FALSE, &A));
    PetscCall(MatSetOption(A, MAT_STRUCTURALLY_SYMMETRIC, PETSC_TRUE));
    PetscCall(Check(&cfg, "lower-only grid wrongly flagged structurally symmetric", A));
    PetscCall(MatDestroy(&A));
    PetscCall(CheckWronglyFlaggedUndefined(&cfg));
    PetscCall(DisconnectedMatrix(23, 5000, &A));
    PetscCall(Check(&cfg, "disconnected grids, empty rows and a hub of degree 5000", A));
    PetscCall(MatDestroy(&A));
    PetscCall(RandomMatrix(20000, 14000, PETSC_FALSE, &A));
    PetscCall(Check(&cfg, "random graph with many components", A));
    PetscCall(MatDestroy(&A));
    PetscCall(RandomMatrix(6000, 30000, PETSC_TRUE, &A));
    PetscCall(Check(&cfg, "random graph flagged structurally symmetric", A));
    PetscCall(MatDestroy(&A));
    {
      /* inode-structured: a 3D 7-point grid with 3 unknowns per node stored as AIJ */
      MMTriplets t;
      Mat        G;
      MatInfo    info;
      PetscInt   nrow;
      PetscCall(GridMatrix(PETSC_COMM_SELF, 15, 16, 14, PETSC_FALSE, 0, PETSC_FALSE, &G));
      PetscCall(MatGetSize(G, &nrow, NULL));
      PetscCall(MatGetInfo(G, MAT_LOCAL, &info));
      PetscCall(MMTripletsCreate(nrow, nrow, (PetscInt)info.nz_used, &t));
      for (PetscInt r = 0; r < nrow; r++) {
        PetscInt        ncols;
        const PetscInt *cols;
        PetscCall(MatGetRow(G, r, &ncols, &cols, NULL));
        for (PetscInt k = 0; k < ncols; k++) t.i[t.nz] = r, t.j[t.nz] = cols[k], t.v[t.nz++] = 1.0;
        PetscCall(MatRestoreRow(G, r, &ncols, &cols, NULL));
      }
      PetscCall(MatDestroy(&G));
      for (PetscInt bs = 2; bs <= 3; bs++) {
        PetscInt nodes;
        char     label[128];
        PetscCall(TripletsToAIJ(&t, 0, bs, &A));
        PetscCall(MatGetRowIJ(A, 0, PETSC_TRUE, PETSC_TRUE, &nodes, NULL, NULL, NULL));
        PetscCall(PetscSNPrintf(label, sizeof(label), "3D 7-point 15x16x14 blocks bs %" PetscInt_FMT " (%s)", bs, nodes < nrow * bs ? "inode-compressed" : "no inodes"));
        PetscCall(Check(&cfg, label, A));
        PetscCall(MatDestroy(&A));
      }
      PetscCall(MMTripletsDestroy(&t));
    }
    {
      struct {
        const char *name;
        PetscInt    kind, nx, ny, nz;
      } ties[] = {
        {"cycle 1001 (tie of two in the last level)",              0, 1001, 1,     1 },
        {"cycle 1000",                                             0, 1000, 1,     1 },
        {"2D 5-point torus 45x45 (ties)",                          0, 45,   45,    1 },
        {"3D 7-point torus 15x15x15 (ties)",                       0, 15,   15,    15},
        {"3D 7-point torus 16x15x14",                              0, 16,   15,    14},
        {"star: hub 0 and 10000 leaves (ties, wide level)",       1, 0,    10000, 1 },
        {"star: hub 2999 and 3000 leaves",                         1, 2999, 3000,  1 },
        {"2D 5-point 90x90 randomly renumbered",                   2, 90,   90,    1 },
        {"2D 5-point 200x7 randomly renumbered",                   2, 200,  7,     1 },
      };
      for (size_t g = 0; g < sizeof(ties) / sizeof(ties[0]); g++) {
        PetscCall(TieMatrix(ties[g].kind, ties[g].nx, ties[g].ny, ties[g].nz, &A));
        PetscCall(Check(&cfg, ties[g].name, A));
        PetscCall(MatDestroy(&A));
      }
    }
    /* n = 0, 1, 2 */
    for (PetscInt N = 0; N <= 2; N++) {
      char label[64];
      PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, N, N, 1, NULL, &A));
      if (N == 2) PetscCall(MatSetValue(A, 1, 1, 1.0, INSERT_VALUES));
      PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
      PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
      PetscCall(PetscSNPrintf(label, sizeof(label), "empty-ish matrix n = %" PetscInt_FMT, N));
      PetscCall(Check(&cfg, label, A));
      PetscCall(MatDestroy(&A));
    }
  }
  if (hubs) {
    struct {
      const char *name;
      PetscInt    kind, N, m;
      PetscBool   asym;
    } h[] = {
      {"hub joined to 20000 spokes of degrees 2 to 12",           0, 20001, 0, PETSC_FALSE},
      {"power-law 30000 nodes, 3 edges each",                     1, 30000, 3, PETSC_FALSE},
      {"power-law 30000 nodes, 2 edges each, stored once",        1, 30000, 2, PETSC_TRUE },
    };
    for (size_t g = 0; g < sizeof(h) / sizeof(h[0]); g++) {
      Mat A;
      PetscCall(HubMatrix(h[g].kind, h[g].N, h[g].m, h[g].asym, &A));
      PetscCall(Check(&cfg, h[g].name, A));
      PetscCall(MatDestroy(&A));
    }
  }
  if (blocks) { /* many components above the small-component sizes of the threads (4096) and cuda (64) backends */
    Mat A;
    PetscCall(BlockGridsMatrix(36, 75, &A));
    PetscCall(Check(&cfg, "36 blocks: 2D 5-point 75x75 grids", A));
    PetscCall(MatDestroy(&A));
    PetscCall(BlockGridsMatrix(300, 12, &A));
    PetscCall(Check(&cfg, "300 blocks: 2D 5-point 12x12 grids", A));
    PetscCall(MatDestroy(&A));
  }
  if (mpi) {
    Mat A;
    PetscCall(GridMatrix(PETSC_COMM_WORLD, 40, 30, 1, PETSC_FALSE, 0, PETSC_FALSE, &A));
    PetscCall(Check(&cfg, "MPI 2D 5-point 40x30", A));
    PetscCall(MatDestroy(&A));
    PetscCall(GridMatrix(PETSC_COMM_WORLD, 12, 11, 10, PETSC_TRUE, 0, PETSC_FALSE, &A));
    PetscCall(Check(&cfg, "MPI 3D 27-point 12x11x10", A));
    PetscCall(MatDestroy(&A));
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "MPI run on %d ranks\n", size));
  }
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "failures: %" PetscInt_FMT "\n", cfg.failures));
  PetscCall(PetscFinalize());
  return cfg.failures ? 1 : 0;
}

/*TEST

   test:
      suffix: generated
      args: -generated -mat_gpurcm_check_graph -mat_gpurcm_serial_component {{4096 0}shared output}

   test:
      suffix: matrices
      args: -dir ${SPARSEGPU_MATRICES} -mat_gpurcm_check_graph -mat_gpurcm_serial_component 0 -threads 1,3 -batches 64,5

   # PETSc's graph built by 7 threads: fine blocks of rows empty on the small graphs, receivers taking runs of them
   test:
      suffix: graph_seven_threads
      output_file: output/gpurcm_identity_generated.out
      args: -generated -mat_gpurcm_check_graph -mat_gpurcm_serial_component 0 -threads 7 -batches 64

   # the components after the first one by all threads, one at a time (-mat_gpurcm_threads_components, on by default)
   test:
      suffix: threads_components_off
      output_file: output/gpurcm_identity_generated.out
      args: -generated -threads 2,3 -batches 64 -mat_gpurcm_threads_components 0 -mat_gpurcm_serial_component {{4096 16}shared output}

   test:
      suffix: matrices_threads_components_off
      output_file: output/gpurcm_identity_matrices.out
      args: -dir ${SPARSEGPU_MATRICES} -threads 3 -batches 64 -mat_gpurcm_threads_components 0

   # many components: ordered together by the threads (the larger ones and the many small ones), and with auto on a GPU
   # left to the host (-mat_gpurcm_cuda_max_components)
   test:
      suffix: blocks
      args: -blocks -backends serial,threads,auto -threads 2,5 -batches 64 -auto_threads 4 -mat_gpurcm_serial_component {{4096 100}shared output}

   test:
      suffix: blocks_cuda_auto
      requires: cuda
      args: -blocks -backends auto,cuda -auto_threads 4 -mat_gpurcm_serial_component {{4096 100}shared output} -info
      filter: awk '/left to the host/{h++} /backend threads instead of cuda/{t++} /DIFFERS/{d++} /^failures/{f=$0} END{printf "left to the host: %d\nthreads instead of cuda: %d\ndiffering: %d\n%s\n", h, t, d, f}'

   test:
      suffix: hubs_graph_seven_threads
      output_file: output/gpurcm_identity_hubs.out
      args: -hubs -mat_gpurcm_check_graph -mat_gpurcm_serial_component 0 -threads 7 -batches 64

   # the threads backend's numbering level by level (three barriers a level) instead of by batches
   test:
      suffix: threads_level_numbering
      output_file: output/gpurcm_identity_generated.out
      args: -generated -mat_gpurcm_serial_component 0 -threads 2,3,5 -mat_gpurcm_threads_number levels

   test:
      suffix: matrices_threads_level_numbering
      output_file: output/gpurcm_identity_matrices.out
      args: -dir ${SPARSEGPU_MATRICES} -mat_gpurcm_serial_component 0 -threads 3 -batches 64 -mat_gpurcm_threads_number levels

   # the narrow level numbering (one barrier a level; a child's parent read from its neighbours' keys, noted in the
   # child by the first parent that scans it where its row is longer than 64: the hubs)
   test:
      suffix: threads_narrow_numbering
      output_file: output/gpurcm_identity_generated.out
      args: -generated -mat_gpurcm_serial_component 0 -threads 2,3,5 -mat_gpurcm_threads_number narrow

   test:
      suffix: matrices_threads_narrow_numbering
      output_file: output/gpurcm_identity_matrices.out
      args: -dir ${SPARSEGPU_MATRICES} -mat_gpurcm_serial_component 0 -threads 3 -batches 64 -mat_gpurcm_threads_number narrow

   test:
      suffix: hubs_threads_narrow_numbering
      output_file: output/gpurcm_identity_hubs.out
      args: -hubs -mat_gpurcm_serial_component 0 -threads 1,3 -batches 64 -mat_gpurcm_threads_number narrow

   # the waits forced both ways (auto chooses by the cores free): spinning only, sleeping after about 0.1 ms
   test:
      suffix: generated_threads_wait
      output_file: output/gpurcm_identity_generated.out
      args: -generated -mat_gpurcm_serial_component 0 -threads 2,3,5 -mat_gpurcm_threads_wait {{spin sleep}separate output}

   # wrong option values: clear errors
   test:
      suffix: bad_options
      args: -bad_options

   # without speculation (every candidate's pass a level BFS, the numbering after the root finder)
   test:
      suffix: generated_nospeculate
      output_file: output/gpurcm_identity_generated.out
      args: -generated -mat_gpurcm_serial_component 0 -mat_gpurcm_speculate 0

   # the threads backend's level-synchronous root finder with several owner blocks per thread (nodes handed between
   # the threads at every block border) and a thread count that divides neither the nodes nor the blocks
   test:
      suffix: owner_blocks
      output_file: output/gpurcm_identity_generated.out
      args: -generated -backends threads -threads 3 -mat_gpurcm_serial_component 0 -mat_gpurcm_owner_blocks {{7 64}shared output}

   test:
      suffix: matrices_owner_blocks
      output_file: output/gpurcm_identity_matrices.out
      args: -dir ${SPARSEGPU_MATRICES} -mat_gpurcm_serial_component 0 -threads 2,5 -mat_gpurcm_owner_blocks 13

   test:
      suffix: mpi
      nsize: 2
      args: -mpi -mat_gpurcm_serial_component 0

   # hubs with long child lists of varied degrees (the cuda backend merge-sorts lists longer than 32)
   test:
      suffix: hubs
      args: -hubs -mat_gpurcm_check_graph -mat_gpurcm_serial_component 0 -threads 1,3 -batches 64,5

   test:
      suffix: cuda_hubs
      requires: cuda
      output_file: output/gpurcm_identity_hubs.out
      args: -hubs -backends cuda -mat_gpurcm_cuda_number {{batch levels}shared output} -mat_gpurcm_cuda_narrow {{1024 0}shared output}

   test:
      suffix: cuda_generated
      requires: cuda
      output_file: output/gpurcm_identity_generated.out
      args: -generated -backends cuda,auto -mat_gpurcm_speculate {{0 1}shared output}

   test:
      suffix: cuda_matrices
      requires: cuda
      output_file: output/gpurcm_identity_matrices.out
      args: -dir ${SPARSEGPU_MATRICES} -backends cuda -mat_gpurcm_cuda_rootfind {{levels ordered}shared output} -mat_gpurcm_speculate {{0 1}shared output}

   # the root finders of the cuda backend: level-synchronous (narrow levels by one block up to 4096, 37 or 1 nodes;
   # 0: every level by the whole grid) and in queue order; the numbering with 1 and 3 thread blocks
   test:
      suffix: cuda_rootfind
      requires: cuda
      output_file: output/gpurcm_identity_generated.out
      args: -generated -backends cuda -mat_gpurcm_cuda_rootfind {{levels ordered}shared output} -mat_gpurcm_cuda_narrow {{4096 37 1 0}shared output}

   # the level numbering's narrow levels claimed in the shared-memory table (4096 slots; 64: most levels overflow and
   # are numbered in global memory), in one block up to 1024 or 37 nodes; and auto (default) on the shared matrices
   test:
      suffix: cuda_number_shared
      requires: cuda
      output_file: output/gpurcm_identity_generated.out
      args: -generated -backends cuda -mat_gpurcm_cuda_number levels -mat_gpurcm_cuda_claim_slots {{4096 64}shared output} -mat_gpurcm_cuda_narrow {{1024 37}shared output}

   # the narrow levels' claims in global memory (bitmap and level tables off) or in the level tables instead of the
   # shared-memory bitmap (which the generated graphs and shared matrices, all below 1.2 million nodes, use by default),
   # and the bitmap or the tables entered between wide levels (narrow 37)
   test:
      suffix: cuda_nobitmap
      requires: cuda
      output_file: output/gpurcm_identity_generated.out
      args: -generated -backends cuda -mat_gpurcm_cuda_bitmap {{0 1}shared output} -mat_gpurcm_cuda_level_tables {{0 1}shared output} -mat_gpurcm_cuda_narrow {{4096 37}shared output}

   # the level tables (what graphs of more than about 1.2 million nodes use) in both level kernels: tables of 8192, 2048,
   # 128 and 64 slots (narrow 4096, 1024, 37, 1; a wide level after a narrow one overflows its table, which the next
   # levels must notice), the numbering by levels and auto, with claim tables of 4096 and 64 slots (most levels overflow)
   test:
      suffix: cuda_level_tables
      requires: cuda
      output_file: output/gpurcm_identity_generated.out
      args: -generated -backends cuda -mat_gpurcm_cuda_bitmap 0 -mat_gpurcm_cuda_number {{auto levels}shared output} -mat_gpurcm_cuda_claim_slots {{4096 64}shared output} -mat_gpurcm_cuda_narrow {{4096 1024 37 1}shared output} -mat_gpurcm_cuda_ell {{0 1}shared output}

   test:
      suffix: cuda_matrices_level_tables
      requires: cuda
      output_file: output/gpurcm_identity_matrices.out
      args: -dir ${SPARSEGPU_MATRICES} -backends cuda -mat_gpurcm_cuda_bitmap 0 -mat_gpurcm_cuda_number {{auto levels}shared output} -mat_gpurcm_cuda_narrow {{1024 37}shared output}

   test:
      suffix: cuda_hubs_level_tables
      requires: cuda
      output_file: output/gpurcm_identity_hubs.out
      args: -hubs -backends cuda -mat_gpurcm_cuda_bitmap 0 -mat_gpurcm_cuda_number {{batch levels}shared output} -mat_gpurcm_cuda_narrow {{1024 37}shared output}

   # the numbering's narrow levels without and with the packed ELL copy (every row of at most 8 entries: the grids, the
   # disconnected graphs, the upper-only ones), claiming in shared memory and in global memory (bitmap off, claim
   # tables of 64 slots: most levels overflow), and narrow levels of 37 nodes with wide ones between them
   test:
      suffix: cuda_ell
      requires: cuda
      output_file: output/gpurcm_identity_generated.out
      args: -generated -backends cuda -mat_gpurcm_cuda_ell {{0 1}shared output} -mat_gpurcm_cuda_number {{auto levels}shared output} -mat_gpurcm_cuda_bitmap {{0 1}shared output} -mat_gpurcm_cuda_claim_slots {{4096 64}shared output} -mat_gpurcm_cuda_narrow {{1024 37}shared output}

   # every warp of the block in every narrow level (-mat_gpurcm_cuda_fit_warps 0, the default) against the warps with
   # none of the level's nodes only passing its barriers (1), in the level numbering with and without the ELL copy,
   # claim tables of 4096 and 64 slots (most levels overflow), narrow levels of up to 1024 and 37 nodes
   test:
      suffix: cuda_fit_warps
      requires: cuda
      output_file: output/gpurcm_identity_generated.out
      args: -generated -backends cuda -mat_gpurcm_cuda_fit_warps {{0 1}shared output} -mat_gpurcm_cuda_number levels -mat_gpurcm_cuda_ell {{0 1}shared output} -mat_gpurcm_cuda_claim_slots {{4096 64}shared output} -mat_gpurcm_cuda_narrow {{1024 37}shared output}

   test:
      suffix: cuda_matrices_ell
      requires: cuda
      output_file: output/gpurcm_identity_matrices.out
      args: -dir ${SPARSEGPU_MATRICES} -backends cuda -mat_gpurcm_cuda_ell {{0 1}shared output} -mat_gpurcm_cuda_narrow {{1024 37}shared output}

   # the uploads of a host matrix's CSR: staged (pinned buffers, parallel fill; arrays below 64 KiB: pageable), the
   # driver's pageable copy, page-locked in place
   test:
      suffix: cuda_upload
      requires: cuda
      output_file: output/gpurcm_identity_matrices.out
      args: -dir ${SPARSEGPU_MATRICES} -backends cuda -mat_gpurcm_cuda_upload {{staged pageable pinned}shared output} -mat_gpurcm_threads {{1 4}shared output}

   test:
      suffix: cuda_batch_blocks
      requires: cuda
      output_file: output/gpurcm_identity_generated.out
      args: -generated -backends cuda -mat_gpurcm_cuda_batch_blocks {{1 3}shared output}

   test:
      suffix: cuda_matrices_narrow
      requires: cuda
      output_file: output/gpurcm_identity_matrices.out
      args: -dir ${SPARSEGPU_MATRICES} -backends cuda -mat_gpurcm_cuda_narrow {{0 1}shared output}

   # the level-synchronous numbering of the cuda backend (narrow levels by one block up to 4096, 37 or 1 nodes; 0: every
   # level by the whole grid), with either root finder
   test:
      suffix: cuda_number
      requires: cuda
      output_file: output/gpurcm_identity_generated.out
      args: -generated -backends cuda -mat_gpurcm_cuda_number levels -mat_gpurcm_cuda_narrow {{4096 37 1 0}shared output} -mat_gpurcm_cuda_rootfind {{levels ordered}shared output}

   test:
      suffix: cuda_matrices_number
      requires: cuda
      output_file: output/gpurcm_identity_matrices.out
      args: -dir ${SPARSEGPU_MATRICES} -backends cuda -mat_gpurcm_cuda_number levels -mat_gpurcm_cuda_narrow {{4096 0}shared output} -mat_gpurcm_speculate {{0 1}shared output}

   # which root finder and numbering ran (the level kernels must not silently fall back) and how many passes were
   # repeated in queue order because of ties: the threads backend (components above 64 nodes, as the cuda one) and the
   # cuda level-synchronous root finder repeat the same passes (the threads' components one at a time, each by its root
   # finder, whose -info lines are counted)
   test:
      suffix: rootfind_info_threads
      args: -generated -backends threads -threads 2 -batches 64 -mat_gpurcm_serial_component 64 -mat_gpurcm_threads_components 0 -info -mat_gpurcm_speculate {{0 1}separate output}
      filter: awk '/root finder levels/{l=1} /root finder ordered/{o=1} /numbering levels/{m=1} /pass repeated in queue order/{p++} /speculative numbering kept/{k++} /speculative numbering dropped/{x++} /DIFFERS/{d++} /^failures/{f=$0} END{printf "cuda level-synchronous root finder: %d\ncuda ordered root finder: %d\ncuda level-synchronous numbering: %d\npasses repeated in queue order: %d\nspeculative numberings kept: %d\nspeculative numberings dropped: %d\ndiffering: %d\n%s\n", l, o, m, p, k, x, d, f}'

   # matrices flagged structurally symmetric: the parallel backends check the raw CSR themselves, order a symmetric one
   # and leave a wrongly flagged one to the serial backend (SPARSEPACK's passes, or the error where rcm is undefined)
   test:
      suffix: flagged_info
      args: -generated -backends threads -threads 2 -batches 64 -info
      filter: awk '/flagged structurally symmetric\) checked/{c++} /though flagged so\): not ordered/{u++} /but its graph is not: using the serial backend/{s++} /DIFFERS/{d++} /^failures/{f=$0} END{printf "flagged raw CSR checked by the backend: %d\nflagged but not symmetric, not ordered by the backend: %d\nhanded to the serial backend: %d\ndiffering: %d\n%s\n", c, u, s, d, f}'

   test:
      suffix: cuda_flagged_info
      requires: cuda
      output_file: output/gpurcm_identity_flagged_info.out
      args: -generated -backends cuda -info
      filter: awk '/flagged structurally symmetric\) checked/{c++} /though flagged so\): not ordered/{u++} /but its graph is not: using the serial backend/{s++} /DIFFERS/{d++} /^failures/{f=$0} END{printf "flagged raw CSR checked by the backend: %d\nflagged but not symmetric, not ordered by the backend: %d\nhanded to the serial backend: %d\ndiffering: %d\n%s\n", c, u, s, d, f}'

   test:
      suffix: cuda_rootfind_info
      requires: cuda
      args: -generated -backends cuda -info -mat_gpurcm_cuda_rootfind {{levels ordered}separate output} -mat_gpurcm_cuda_number {{batch levels}separate output} -mat_gpurcm_speculate {{0 1}separate output}
      filter: awk '/root finder levels/{l=1} /root finder ordered/{o=1} /numbering levels/{m=1} /pass repeated in queue order/{p++} /speculative numbering kept/{k++} /speculative numbering dropped/{x++} /DIFFERS/{d++} /^failures/{f=$0} END{printf "cuda level-synchronous root finder: %d\ncuda ordered root finder: %d\ncuda level-synchronous numbering: %d\npasses repeated in queue order: %d\nspeculative numberings kept: %d\nspeculative numberings dropped: %d\ndiffering: %d\n%s\n", l, o, m, p, k, x, d, f}'

TEST*/
