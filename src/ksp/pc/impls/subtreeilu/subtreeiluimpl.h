/* Internal data of PCSUBTREEILU (not installed) */
#pragma once

#include <petsc/private/pcimpl.h>
#include <sparsegpuimpl.h>
#include <string.h> /* memset (PCSubtreeILUTriTransposeView(), also in plain-C code) */

typedef enum {
  PC_SUBTREEILU_ILU,
  PC_SUBTREEILU_ICC
} PCSubtreeILUType;

typedef enum {
  PC_SUBTREEILU_BACKEND_AUTO,
  PC_SUBTREEILU_BACKEND_CUDA,
  PC_SUBTREEILU_BACKEND_THREADS,
  PC_SUBTREEILU_BACKEND_SERIAL
} PCSubtreeILUBackend;

/*
  A strictly triangular matrix T (the off-diagonal part of L or U, in the permuted numbering), stored both by rows
  (CSR) and by columns (CSC). Solving T-systems row by row: the inputs of row i are its CSR row; the rows that
  wait for x_j are CSC column j. For the transposed system the roles of CSR and CSC are exchanged.
  val[k] = sign * factor_values[src[k]] (refreshed after each numeric factorization), cval[p] = val[csc2csr[p]].
*/
typedef struct {
  PetscInt     n, nnz;
  PetscBool    lower;          /* lower triangular (rows depend on smaller indices) */
  PetscInt    *rowptr, *colidx; /* CSR */
  PetscScalar *val;
  PetscInt    *colptr, *rowidx; /* CSC */
  PetscScalar *cval;
  PetscInt    *csc2csr; /* cval[p] = val[csc2csr[p]] */
  PetscInt    *src;     /* position of val[k] in the factor's value array */
  PetscInt     nroots, nrootsT; /* rows without inputs: T (empty CSR rows) and T^T (empty CSC columns) */
  PetscInt    *roots, *rootsT;
  PetscInt     depth; /* number of levels of the dependency DAG (critical path), the same for T and T^T; -1: not yet
                         computed (TriGetDepth(), when viewed) */
  PetscBool    borrowed; /* the arrays (and values) are another Tri's, read transposed (ICC: L = U^T); src, csc2csr NULL */
} PCSubtreeILUTri;

/* lev[i] = the level of row i in T's dependency DAG (0: no inputs), filled in the order of T's solve; returns the number
   of levels (the longest path, the same for T^T). Plain C (also on the setup threads) */
static inline PetscInt PCSubtreeILUTriLevels(const PCSubtreeILUTri *T, PetscInt *lev)
{
  PetscInt d = 0;

  for (PetscInt p = 0; p < T->n; p++) {
    const PetscInt i = T->lower ? p : T->n - 1 - p;
    PetscInt       l = 0;

    for (PetscInt k = T->rowptr[i]; k < T->rowptr[i + 1]; k++) l = PetscMax(l, lev[T->colidx[k]] + 1);
    lev[i] = l;
    d      = PetscMax(d, l + 1);
  }
  return d;
}

/* The mean distance |j - i| over the entries of rows 0, stride, 2 stride, ... (< n) of a CSR, of row i the entries
   ia[i] .. ia[i+1] - 1 - skiplast; *cnt: how many, *rows: the rows sampled. The cuda backend's test for random columns
   (about n/4 in a triangle; grids in any ordering far less): its first factorization on the GPU, its level sort beside
   the natural schedule. Plain C (any thread) */
static inline double PCSubtreeILUMeanDistance(PetscInt n, const PetscInt *ia, const PetscInt *ja, PetscInt stride, PetscInt skiplast, PetscInt64 *cnt, PetscInt *rows)
{
  double dist = 0;

  *cnt = 0, *rows = 0;
  for (PetscInt i = 0; i < n; i += stride, (*rows)++) {
    const PetscInt b = ia[i], e = ia[i + 1] - skiplast;

    for (PetscInt q = b; q < e; q++) dist += (double)PetscAbsInt(ja[q] - i);
    *cnt += e - b;
  }
  return *cnt ? dist / (double)*cnt : 0;
}

/* T = S^T without a copy: T's CSR is S's CSC and the reverse, values included (T's roots are left to the caller) */
static inline void PCSubtreeILUTriTransposeView(PCSubtreeILUTri *T, const PCSubtreeILUTri *S)
{
  memset(T, 0, sizeof(*T));
  T->n        = S->n;
  T->nnz      = S->nnz;
  T->lower    = S->lower ? PETSC_FALSE : PETSC_TRUE;
  T->rowptr   = S->colptr;
  T->colidx   = S->rowidx;
  T->val      = S->cval;
  T->colptr   = S->rowptr;
  T->rowidx   = S->colidx;
  T->cval     = S->val;
  T->depth    = -1; /* (the same as S's: computed when viewed) */
  T->borrowed = PETSC_TRUE;
}

/* The schedule of the cuda backend's solves of T and T^T (subtreeilugroups.c): groups gptr (rows), warp tickets sptr
   (groups), block tickets bptr (warp tickets); maxrows = most rows of a block ticket; hops = the critical path of the
   non-transposed solve (L ascending, U descending) in groups, each waiting for its inputs' groups and for the previous
   group of its warp ticket */
typedef struct {
  PetscInt  ngroups, nsuper, nblk, maxrows, hops;
  PetscInt *gptr, *sptr, *bptr;
  PetscInt  bdepth; /* levels of the block tickets' dependency DAG (primary order) */
  PetscInt *border; /* the primary-order solve takes block ticket border[t] t-th: by level, then in the primary order */
} PCSubtreeILUGroups;

#define SUBTREEILU_WARPS    8  /* warps per block of the cuda solve kernel */
#define SUBTREEILU_MAXSUPER 32 /* most groups of one chain one warp takes with one ticket (cuda solves) */

/* what the schedule keeps of a position once its group (fin) and its block ticket (blev) are final: an input's two
   values in one cache line, read without looking up its group and block first (random columns: one miss, not four) */
typedef struct {
  PetscInt fin, blev;
} PCSubtreeILUGroupsPos;

/* The schedule made in three steps, so that the middle one (plain C, no PETSc calls) can run on a thread of its own
   beside the copies to the GPU: SetUp allocates, Compute computes, Finish checks and hands the schedule over */
typedef struct {
  const PCSubtreeILUTri *T;
  PetscInt               maxchain, maxsuper, warps;
  PetscBool              cutlate;
  PetscInt               isolate; /* an unlinked row with more inputs (in T or T^T) gets a group of its own (0: never) */
  PCSubtreeILUGroups     G;
  PCSubtreeILUGroupsPos *pos;            /* work, by position: its group's finish hop, its block ticket's level */
  PetscInt              *cnt, *blev;     /* work: level counts; the level of each block ticket */
  PetscInt               badrow, badcol; /* an entry on the wrong side of the diagonal (badrow >= 0) */
} PCSubtreeILUGroupsWork;

PETSC_INTERN PetscErrorCode PCSubtreeILUGroupsCreate_Private(const PCSubtreeILUTri *, PetscInt, PetscInt, PetscInt, PetscBool, PetscInt, PCSubtreeILUGroups *);
PETSC_INTERN PetscErrorCode PCSubtreeILUGroupsSetUp_Private(const PCSubtreeILUTri *, PetscInt, PetscInt, PetscInt, PetscBool, PetscInt, PCSubtreeILUGroupsWork *);
PETSC_INTERN void           PCSubtreeILUGroupsCompute_Private(PCSubtreeILUGroupsWork *);
PETSC_INTERN PetscErrorCode PCSubtreeILUGroupsFinish_Private(PCSubtreeILUGroupsWork *, PCSubtreeILUGroups *);
PETSC_INTERN PetscErrorCode PCSubtreeILUGroupsDestroy_Private(PCSubtreeILUGroups *);

/* inputs of row i in T or in T^T (column i), whichever has more: what its lane sums in the slower of the two solves */
static inline PetscInt PCSubtreeILUTriInputs(const PCSubtreeILUTri *T, PetscInt i)
{
  PetscInt r = T->rowptr[i + 1] - T->rowptr[i];

  return T->colptr ? PetscMax(r, T->colptr[i + 1] - T->colptr[i]) : r;
}

/* cuda backend: whether a triangle is solved in its level-sorted numbering (subtreeilulevelsort.c) */
typedef enum {
  PC_SUBTREEILU_LEVEL_SORT_AUTO,
  PC_SUBTREEILU_LEVEL_SORT_NO,
  PC_SUBTREEILU_LEVEL_SORT_YES
} PCSubtreeILULevelSort;

typedef enum {
  PC_SUBTREEILU_LEVEL_SORT_NOT_TRIED,
  PC_SUBTREEILU_LEVEL_SORT_KEPT,
  PC_SUBTREEILU_LEVEL_SORT_SORTED
} PCSubtreeILULevelSortState;

/* The level sort of a triangle (subtreeilulevelsort.c), made in three steps like the schedule */
typedef struct {
  const PCSubtreeILUTri  *T;
  PCSubtreeILUGroupsWork *natural; /* T's schedule in its own numbering (set up by the caller, computed by Compute) */
  PetscInt                isolate, nthreads;
  PetscBool               forced, transposed;
  PetscBool               beside; /* the natural schedule computed on a thread beside the sort */
  PetscBool               built;  /* the sorted triangle and its schedule made */
  double                  rowsmax, minready;
  /* results */
  PCSubtreeILULevelSortState state;
  PetscInt                   depth, hops, hopsp;
  double                     rows, rowsp, ready, seconds;
  double                     phase[5]; /* seconds: natural schedule, mapping, level order, permutation, sorted schedule */
  int                        fail;
  /* the sorted triangle, its transpose (borrowed), schedules, and work */
  PCSubtreeILUTri        Tp, TpT;
  PCSubtreeILUGroupsWork sched, schedT;
  PetscInt              *perm, *pos, *iperm, *posc, *ipos, *lev, *start, *seq;
} PCSubtreeILULevelSortWork;

PETSC_INTERN PetscErrorCode PCSubtreeILULevelSortSetUp_Private(const PCSubtreeILUTri *, PCSubtreeILUGroupsWork *, PetscInt, PetscBool, double, double, PetscBool, PetscInt, PCSubtreeILULevelSortWork *);
PETSC_INTERN void           PCSubtreeILULevelSortCompute_Private(PCSubtreeILULevelSortWork *);
PETSC_INTERN PetscErrorCode PCSubtreeILULevelSortFinish_Private(PCSubtreeILULevelSortWork *, PetscBool *, PCSubtreeILUTri *, PetscInt **, PetscInt **, PCSubtreeILUGroups *, PCSubtreeILUGroups *);
PETSC_INTERN PetscErrorCode PCSubtreeILULevelSortValues_Private(const PetscScalar *, const PetscInt *, PetscInt, PCSubtreeILUTri *);
PETSC_INTERN PetscErrorCode PCSubtreeILUTriDestroy_Private(PCSubtreeILUTri *);
PETSC_INTERN PetscErrorCode PCSubtreeILUTriBorrowTranspose_Private(PCSubtreeILUTri *, const PCSubtreeILUTri *);


typedef enum {
  PC_SUBTREEILU_REFACTOR_AUTO,
  PC_SUBTREEILU_REFACTOR_DEVICE,
  PC_SUBTREEILU_REFACTOR_PETSC
} PCSubtreeILURefactor;

/* How the last numeric factorization was done (for PCView()) */
typedef enum {
  PC_SUBTREEILU_LAST_SYMBOLIC,  /* with the symbolic factorization (PETSc's) */
  PC_SUBTREEILU_LAST_PETSC,     /* PETSc's numeric factorization on the host */
  PC_SUBTREEILU_LAST_PLAN_CPU,  /* the refactorization plan, CPU version */
  PC_SUBTREEILU_LAST_PLAN_GPU,  /* the refactorization plan on the GPU */
  PC_SUBTREEILU_LAST_FALLBACK,  /* the plan found a pivot PETSc would not accept unchanged: PETSc's numeric factorization */
  PC_SUBTREEILU_LAST_FIRST_GPU  /* the plan on the GPU at a new pattern's first factorization (PETSc's numeric skipped) */
} PCSubtreeILULastRefactor;

/*
  Refactorization plan (subtreeilurefact.c): the numeric ILU(k)/ICC(k) of PETSc (MatLUFactorNumeric_SeqAIJ(),
  MatCholeskyFactorNumeric_SeqAIJ()) on the fixed pattern of the symbolic factorization, computed in the layout of
  PETSc's factor value array fa (so the result can also be stored back into PETSc's factor). Factor row i:
    ILU: L entries lptr[i] .. lptr[i+1]-1 (columns bj, increasing), U off-diagonals ub[i] .. ud[i]-1 (increasing),
         the inverted pivot at ud[i];
    ICC: off-diagonals of Ut (stored -Ut(i,j) in the end) ub[i] .. ud[i]-1, the inverted pivot at ud[i].
  A's value asrc[q] (index in A's CSR value array) goes to factor position adst[q], q in aptr[i] .. aptr[i+1]-1
  (ICC: only A's entries in the upper triangle of the permuted matrix, like PETSc); every other position starts at 0.
  ICC: row k receives the contributions of rows crow[q] (entry cpos[q] = Ut(crow[q], k)) for q in cptr[k] ..
  cptr[k+1]-1, in exactly PETSc's (linked list) order; ubar holds the unscaled rows U(i,:) (PETSc computes them in
  place, which a parallel version cannot do).
  The update map replaces the search of each updated column in the row's pattern (structure only, made once). It
  lists only the updates that land in the pattern: a hub row k of U (thousands of entries) eliminated from short
  rows costs each of them its few matches, not the hub's length (powerlaw:1M:16, ILU(0): 67,298 entries, where
  PETSc's numeric factorization makes 77.7M updates, which the map used to list).
  runptr: runs of consecutive rows where each row depends on the previous one, at most SUBTREEILU_REFACT_RUN rows
  and, unless a single row is larger, SUBTREEILU_REFACT_BUF values, SUBTREEILU_REFACT_STEPS elimination steps and
  SUBTREEILU_REFACT_MAP update map entries: the unit of the GPU kernel's shared-memory caches.
  tptr: tickets of the GPU kernel, runs tptr[t] .. tptr[t+1]-1: consecutive runs of one chain (cut only by the run
  length), at most SUBTREEILU_REFACT_TICKET runs; one warp factors a ticket's runs one after the other (so the
  ticket window of the persistent grid holds whole chains, e.g. the grid lines of a wavefront).
*/
#define SUBTREEILU_REFACT_RUN    32
#define SUBTREEILU_REFACT_TICKET 64
#define SUBTREEILU_REFACT_BUF    512 /* values of a run computed in a buffer (GPU: shared memory of its warp) if it fits */
#define SUBTREEILU_REFACT_STEPS  256 /* elimination steps of a run the GPU kernel caches in shared memory */
#define SUBTREEILU_REFACT_MAP    768 /* update map entries of a run the GPU kernel caches in shared memory */
typedef struct _PCSubtreeILUCUDAPlan *PCSubtreeILUCUDAPlan;
typedef struct {
  PetscInt           n, nz, annz;
  PetscBool          icc;
  PetscInt          *lptr, *ub, *ud, *bj;
  PetscInt          *aptr, *asrc, *adst;
  PetscInt          *cptr, *cpos, *crow;
  PetscInt           nruns, *runptr;
  PetscInt           ntickets, *tptr;
  PetscInt           bufcap; /* runs of at most bufcap values are computed in a buffer (-pc_subtree_ilu_refactor_buffer) */
  PetscInt          *mptr, *map, *msrc; /* update map: elimination step q (ILU: L position q; ICC: contribution q)
                                           updates, for e in mptr[q] .. mptr[q+1]-1, position map[e] of the row being
                                           factored with the eliminating row's entry msrc[e] of its part the step uses
                                           (ILU: U position ub[k]+msrc[e]; ICC: position cpos[q]+1+msrc[e]); only the
                                           entries in the row's pattern, increasing (PETSc's updates outside it are
                                           dropped: its numeric factorization never reads them) */
  MatFactorShiftType shifttype;
  PetscReal          zeropivot;
  PetscScalar       *ubar; /* CPU version, ICC */
} PCSubtreeILUPlan;

typedef struct _PCSubtreeILUCUDA *PCSubtreeILUCUDA;
typedef struct _PCSubtreeILUPool     *PCSubtreeILUPool;     /* persistent worker threads of the threads backend */
typedef struct _PCSubtreeILUChunkDAG *PCSubtreeILUChunkDAG; /* threads backend: dependencies between chunks of rows */

typedef struct {
  /* options */
  PCSubtreeILUType    type;
  PetscInt            levels;
  PetscReal           fill;
  char               *ordering;
  MatFactorShiftType  shifttype;
  PetscBool           shifttype_set;
  PetscReal           shiftamount;
  PetscBool           deterministic;
  PCSubtreeILUBackend backend_requested, backend;
  PetscInt            nthreads;
  PetscBool           threadsrows; /* threads backend: row-level counters and partial sums instead of the chunk DAG */
  PetscLogDouble      autoserial, autothreads; /* auto on the CPU: the fastest measured apply with each (0: not measured) */
  PetscInt            autoapplies;             /* auto on the CPU: applies left in which both are timed (0: chosen) */
  PetscInt            cudachain; /* cuda backend: most dependent consecutive rows one warp solves (a chain) */
  PetscBool           cudascan;  /* cuda backend: bidiagonal chains by an affine scan */
  PetscInt            cudabackoff; /* cuda backend: ns of sleep between polls of an unpublished value */
  PetscInt            cudablockspersm; /* cuda backend: most blocks per multiprocessor of the persistent grids (0: all that fit) */
  PetscBool           cudalevelorder;  /* cuda backend: block tickets of the non-transposed solves taken by level */
  PetscBool           cudarefactorder; /* cuda backend: the refactorization's tickets taken by level */
  PetscInt            cudarefactlanes; /* cuda backend: lanes of the refactorization kernel per chain (32: a warp) */
  PetscBool           cudacutlate;     /* cuda backend: a chain's group ends before a row whose inputs are final later */
  PetscInt            cudalongrow;     /* cuda backend: a row with more inputs from outside its group may be summed by a whole warp (0: never) */
  PCSubtreeILULevelSort cudalevelsort; /* cuda backend: solve L and U in their level-sorted numberings */
  PCSubtreeILURefactor refactor;   /* how refactorizations (same nonzero pattern) are computed */
  PCSubtreeILURefactor cudafirst;  /* cuda backend: how a new pattern's first numeric factorization is computed */
  PetscBool            valueslater; /* the build leaves the values: the GPU's first factorization computes them */
  PetscInt             refactbuf;  /* runs of at most this many values are refactored in a buffer (GPU: shared memory) */
  PetscInt             setupthreads; /* host threads of the setup (building the solve structures, filling their arrays) */
  PetscBool            plancheck;    /* (developer) the setup threads' refactorization plan checked against a one-thread one */

  /* factorization */
  Mat         Aseq;       /* the SeqAIJ matrix factored when the diagonal block is not a SeqAIJ type (or NULL) */
  PetscBool   Aseqshared; /* Aseq is on the arrays of a pellr block (no copy) */
  PetscObjectState Aseqnzstate; /* the pellr block's nonzero state when Aseq was made on its arrays */
  Mat         Aperm;      /* level 0 with an ordering: the permuted matrix PETSc factors in its natural ordering, or NULL */
  PetscInt   *apsrc;      /* position in the factored SeqAIJ matrix's values of each of Aperm's */
  PetscInt    *api, *apj; /* Aperm's arrays (owned by the PC) */
  PetscScalar *apa;
  IS          identity;   /* the natural ordering of Aperm */
  Mat         fact; /* PETSc's factor */
  IS          row, col;
  PetscInt    n;
  PetscInt   *rperm, *cperm; /* rhs gather tmp[i] = b[rperm[i]], solution scatter x[cperm[i]] = tmp[i] */
  PetscBool   rident, cident; /* rperm, cperm are the identity: the host applies skip the gather, the scatter */
  PetscInt   *dsrc;          /* position of each inverted pivot in the factor's value array */
  PetscScalar *dinv, *sqrtdinv; /* inverted pivots (ICC: 1/D), sqrt(1/D) for symmetric applies (ICC) */
  PetscInt     badpivot;        /* first row whose ICC pivot is not real nonnegative (no symmetric applies), or -1 */
  PCSubtreeILUTri L, U;
  struct _PCSubtreeILUBuild *build;      /* the solve structures being built (on a thread during PETSc's numeric factorization), or NULL */
  PCSubtreeILUGroupsWork     sched[2];   /* cuda backend: the schedules of U and L, made with the structures when schedready */
  PCSubtreeILULevelSortWork  lsort[2];   /* cuda backend: the level sorts of U and (ILU) L, made with the schedules */
  PetscBool                  schedready;
  PetscBool   factored; /* solve structures exist */
  PetscBool   failed;   /* numeric factorization failed (zero pivot): applies give Inf like MatSolve */

  /* work */
  PetscScalar *work, *work2;
  int         *cnt;  /* per-row counters of unresolved inputs (C11 atomics), one array of n for each of L, L^T, U, U^T */
  PetscScalar *acc;  /* accumulated partial sums (zero between solves) */
  PetscInt    *next; /* linked stacks of ready rows */

  PCSubtreeILUPool     pool;   /* threads backend: created at the first threads solve, joined in PCReset() */
  PCSubtreeILUChunkDAG dag[4]; /* threads backend: chunk DAGs of L, L^T, U, U^T (built at their first solve) */
  PCSubtreeILUCUDA cuda;

  /* refactorization */
  PCSubtreeILUPlan        *plan;      /* made at the first refactorization of a pattern that uses it, or NULL */
  PetscBool                plantried; /* the plan of this pattern was attempted (PETSc's factor may not have its layout) */
  PCSubtreeILUCUDAPlan     cudaplan;  /* its device copy (cuda backend) */
  PCSubtreeILULastRefactor last;
  PetscBool                hoststale; /* the device values are newer than st->fact and the host L, U, dinv */
} PC_SubtreeILU;

/* Which solve: op = L or U system; transpose = T^T */
typedef enum {
  PC_SUBTREEILU_APPLY,
  PC_SUBTREEILU_APPLY_TRANSPOSE,
  PC_SUBTREEILU_APPLY_SYMMETRIC_LEFT,
  PC_SUBTREEILU_APPLY_SYMMETRIC_RIGHT
} PCSubtreeILUApplyMode;

PETSC_INTERN PetscLogEvent PC_SubtreeILU_Factor, PC_SubtreeILU_Setup, PC_SubtreeILU_Solve, PC_SubtreeILU_Refact, PC_SubtreeILU_Build, PC_SubtreeILU_ToGPU, PC_SubtreeILU_Plan;

PETSC_INTERN PetscErrorCode PCSubtreeILUMakeSchedules_Private(PC_SubtreeILU *);
PETSC_INTERN PetscErrorCode PCSubtreeILUPlanCreate_Private(PC_SubtreeILU *, Mat, PCSubtreeILUPlan **);
PETSC_INTERN PetscErrorCode PCSubtreeILUPlanDestroy_Private(PCSubtreeILUPlan **);
PETSC_INTERN PetscErrorCode PCSubtreeILUPlanEqual_Private(const PCSubtreeILUPlan *, const PCSubtreeILUPlan *, PetscBool *);
PETSC_INTERN PetscErrorCode PCSubtreeILUGather_Private(PetscInt, PetscInt, const PetscInt *, const PetscInt *, PetscInt *);
PETSC_INTERN PetscErrorCode PCSubtreeILUPlanNumericCPU_Private(PCSubtreeILUPlan *, const PetscScalar *, PetscScalar *, PetscInt *);
/* items 0 .. n-1 stably sorted by level (lev[i] in [0, depth)) into out; start (depth + 1 entries): where each level
   begins in out, start[depth] = n. (Both DAG orders of subtree_ilu: the refactorization's tickets, the solve's block
   tickets in subtreeilugroups.c; inline here, as the tests
   compile those files alone.) */
static inline void PCSubtreeILUSortByLevel(PetscInt n, const PetscInt *lev, PetscInt depth, PetscInt *start, PetscInt *out)
{
  for (PetscInt l = 0; l <= depth; l++) start[l] = 0;
  for (PetscInt i = 0; i < n; i++) start[lev[i] + 1]++;
  for (PetscInt l = 0; l < depth; l++) start[l + 1] += start[l];
  for (PetscInt i = 0; i < n; i++) out[start[lev[i]]++] = i;
  for (PetscInt l = depth; l > 0; l--) start[l] = start[l - 1]; /* (each start moved to its level's end) */
  start[0] = 0;
}

PETSC_INTERN PetscErrorCode PCSubtreeILUPlanTicketOrder_Private(const PCSubtreeILUPlan *, PetscInt, PetscInt **, PetscInt *, PetscInt **);
PETSC_INTERN PetscInt       PCSubtreeILUPlanTicketBundles_Private(PetscInt, const PetscInt *, PetscInt, PetscInt *);
PETSC_INTERN void           PCSubtreeILUPlanTicketRuns_Private(const PCSubtreeILUPlan *, const PetscInt *, PetscInt *, PetscInt *);

#if defined(PETSC_HAVE_CUDA)
PETSC_INTERN PetscErrorCode PCSubtreeILUCUDASetUp_Private(PC_SubtreeILU *, PetscBool);
PETSC_INTERN PetscErrorCode PCSubtreeILUCUDADestroy_Private(PCSubtreeILUCUDA *);
PETSC_INTERN PetscErrorCode PCSubtreeILUCUDAGetMultiprocessors_Private(PetscInt *);
PETSC_INTERN PetscErrorCode PCSubtreeILUCUDAGetGroups_Private(PC_SubtreeILU *, PetscInt *, PetscInt *, PetscInt *, PetscInt *, PetscBool *, PetscBool *);
PETSC_INTERN PetscErrorCode PCSubtreeILUCUDAGetRefactLanes_Private(PC_SubtreeILU *, PetscInt *, PetscBool *);
PETSC_INTERN PetscErrorCode PCSubtreeILUCUDAApply_Private(PC_SubtreeILU *, PCSubtreeILUApplyMode, const PetscScalar *, PetscScalar *, PetscBool);
PETSC_INTERN PetscErrorCode PCSubtreeILUCUDAPlanSetUp_Private(PC_SubtreeILU *);
PETSC_INTERN PetscErrorCode PCSubtreeILUCUDAPlanDestroy_Private(PCSubtreeILUCUDAPlan *);
PETSC_INTERN PetscErrorCode PCSubtreeILUCUDARefactor_Private(PC_SubtreeILU *, const PetscScalar *, PetscBool, PetscInt *, PetscInt *);
PETSC_INTERN PetscErrorCode PCSubtreeILUCUDAPlanDownload_Private(PC_SubtreeILU *, PetscScalar *);
#endif
