static char help[] = "Zero pivot on rank 1's diagonal block: subtree_ilu vs bjacobi+ilu/icc (reasons), 2 ranks\n"
                     "  -n <n> -zrow <global row> -errmode <0|1 ref|2 st> -wrap <0 top|1 bj|2 asm> ...\n";

#include <petscksp.h>
static PetscBool nodiag = PETSC_FALSE;

/* tridiagonal-like SPD-ish matrix of n rows (split n/2), except row z: its only in-block entry is a stored 0 diagonal,
   coupled only to rows of the other rank (z-1 when z is the first row of rank 1). zero != 0: good value instead. */
static PetscErrorCode Build(PetscInt n, PetscInt z, PetscReal zval, Mat *A)
{
  PetscMPIInt rank;
  PetscInt    rs, re, m0 = n / 2;

  PetscFunctionBeginUser;
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCall(MatCreate(PETSC_COMM_WORLD, A));
  PetscCall(MatSetSizes(*A, rank ? n - m0 : m0, rank ? n - m0 : m0, n, n));
  PetscCall(MatSetType(*A, MATAIJ));
  PetscCall(MatMPIAIJSetPreallocation(*A, 5, NULL, 5, NULL));
  PetscCall(MatGetOwnershipRange(*A, &rs, &re));
  for (PetscInt i = rs; i < re; i++) {
    if (i == z) {
      if (!nodiag) PetscCall(MatSetValue(*A, i, i, zval, INSERT_VALUES));
      if (z - 1 >= 0 && z - 1 < m0) PetscCall(MatSetValue(*A, i, z - 1, -1.0, INSERT_VALUES));
      continue;
    }
    PetscCall(MatSetValue(*A, i, i, 4.0, INSERT_VALUES));
    if (i > 0) PetscCall(MatSetValue(*A, i, i - 1, -1.0, INSERT_VALUES));
    if (i < n - 1 && i + 1 != z) PetscCall(MatSetValue(*A, i, i + 1, -1.0, INSERT_VALUES));
    if (i + 1 == z && z - 1 < m0) PetscCall(MatSetValue(*A, i, i + 1, -1.0, INSERT_VALUES));
    if (i + 5 < n && i + 5 != z) PetscCall(MatSetValue(*A, i, i + 5, -0.5, INSERT_VALUES));
    if (i - 5 >= 0 && i - 5 != z) PetscCall(MatSetValue(*A, i, i - 5, -0.5, INSERT_VALUES));
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode Opt(const char *p, const char *name, const char *val)
{
  char key[256];
  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(key, sizeof(key), "-%s%s", p, name));
  PetscCall(PetscOptionsSetValue(NULL, key, val));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static int cnt = 0;
static PetscErrorCode MakeKSP(Mat A, int wrap, int st, const char *type, int lev, const char *ord, const char *back, const char *shift, int errif, KSP *ksp)
{
  char p[64], sub[80], l[8];
  const char *sp;
  PetscFunctionBeginUser;
  PetscCall(PetscSNPrintf(p, sizeof(p), "z%d_", cnt++));
  PetscCall(PetscSNPrintf(l, sizeof(l), "%d", lev));
  PetscCall(Opt(p, "ksp_type", "gmres"));
  PetscCall(Opt(p, "ksp_rtol", "1e-8"));
  if (st && wrap == 0) {
    sp = p;
    PetscCall(Opt(p, "pc_type", "subtree_ilu"));
  } else {
    PetscCall(Opt(p, "pc_type", wrap == 2 ? "asm" : "bjacobi"));
    if (wrap == 2) PetscCall(Opt(p, "pc_asm_overlap", "1"));
    PetscCall(PetscSNPrintf(sub, sizeof(sub), "%ssub_", p));
    sp = sub;
    PetscCall(Opt(sub, "pc_type", st ? "subtree_ilu" : type));
  }
  if (st) {
    PetscCall(Opt(sp, "pc_subtree_ilu_type", type));
    PetscCall(Opt(sp, "pc_subtree_ilu_levels", l));
    PetscCall(Opt(sp, "pc_subtree_ilu_mat_ordering_type", ord));
    PetscCall(Opt(sp, "pc_subtree_ilu_backend", back));
    PetscCall(Opt(sp, "pc_subtree_ilu_threads", "1"));
    PetscCall(Opt(sp, "pc_subtree_ilu_setup_threads", "1"));
    if (shift) PetscCall(Opt(sp, "pc_subtree_ilu_shift_type", shift));
  } else {
    PetscCall(Opt(sp, "pc_factor_levels", l));
    PetscCall(Opt(sp, "pc_factor_mat_ordering_type", ord));
    if (shift) PetscCall(Opt(sp, "pc_factor_shift_type", shift));
  }
  if (errif) PetscCall(Opt(sp, "pc_error_if_failure", "true"));
  PetscCall(KSPCreate(PETSC_COMM_WORLD, ksp));
  PetscCall(KSPSetOptionsPrefix(*ksp, p));
  PetscCall(KSPSetOperators(*ksp, A, A));
  PetscCall(KSPSetFromOptions(*ksp));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* reasons: KSP reason, outer PC reason, this rank's sub-PC reason (wrapped) gathered on rank 0 */
static PetscErrorCode Info(KSP ksp, int wrap, int st, char *buf, size_t len)
{
  KSPConvergedReason r;
  PCFailedReason     f, fs = PC_NOERROR, fsall[2];
  PC                 pc;
  PetscInt           its;
  PetscFunctionBeginUser;
  PetscCall(KSPGetConvergedReason(ksp, &r));
  PetscCall(KSPGetIterationNumber(ksp, &its));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCGetFailedReason(pc, &f));
  if (!(st && wrap == 0)) {
    KSP     *sk;
    PetscInt nl;
    if (wrap == 2) PetscCall(PCASMGetSubKSP(pc, &nl, NULL, &sk));
    else PetscCall(PCBJacobiGetSubKSP(pc, &nl, NULL, &sk));
    if (nl > 0) {
      PC sp;
      PetscCall(KSPGetPC(sk[0], &sp));
      PetscCall(PCGetFailedReason(sp, &fs));
    }
  }
  {
    int a = (int)fs, all[2];
    PetscCallMPI(MPI_Gather(&a, 1, MPI_INT, all, 1, MPI_INT, 0, PETSC_COMM_WORLD));
    fsall[0] = (PCFailedReason)all[0];
    fsall[1] = (PCFailedReason)all[1];
  }
  {
    int a = (int)f, all[2];
    PetscCallMPI(MPI_Gather(&a, 1, MPI_INT, all, 1, MPI_INT, 0, PETSC_COMM_WORLD));
    PetscCall(PetscSNPrintf(buf, len, "ksp=%s its=%d pc(rank0,rank1)=%s,%s sub(rank0,rank1)=%s,%s", KSPConvergedReasons[r], (int)its, PCFailedReasons[all[0] < 0 ? 0 : all[0]], PCFailedReasons[all[1] < 0 ? 0 : all[1]], PCFailedReasons[fsall[0]], PCFailedReasons[fsall[1]]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt    n = 20, z = -1, errmode = 0, wrap = 0, lev = 0;
  char        type[16] = "ilu", ord[32] = "natural", back[16] = "serial", shift[32] = "";
  Mat         A, Agood, Azero;
  Vec         b, x;
  int         nmis = 0, ncase = 0;
  PetscBool   seq = PETSC_FALSE;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  setvbuf(stdout, NULL, _IOLBF, 0);
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-n", &n, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-zrow", &z, NULL));
  if (z < 0) z = n / 2;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-errmode", &errmode, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-seq_only", &seq, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-nodiag", &nodiag, NULL));
  PetscCall(Build(n, z, 0.0, &A));
  PetscCall(Build(n, z, 3.0, &Agood));
  PetscCall(Build(n, z, 0.0, &Azero));
  PetscCall(MatCreateVecs(A, &x, &b));
  PetscCall(VecSet(b, 1.0));
  if (errmode) {
    KSP k;
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-wrap", &wrap, NULL));
    PetscCall(PetscOptionsGetInt(NULL, NULL, "-lev", &lev, NULL));
    PetscCall(PetscOptionsGetString(NULL, NULL, "-type", type, sizeof(type), NULL));
    PetscCall(PetscOptionsGetString(NULL, NULL, "-ord", ord, sizeof(ord), NULL));
    PetscCall(PetscOptionsGetString(NULL, NULL, "-shift", shift, sizeof(shift), NULL));
    PetscCall(MakeKSP(A, (int)wrap, errmode == 2, type, (int)lev, ord, back, shift[0] ? shift : NULL, 1, &k));
    {
      PC pc;
      PetscCall(KSPGetPC(k, &pc));
      PetscCall(PCSetErrorIfFailure(pc, PETSC_TRUE));
      PetscCall(KSPSetUp(k));
      if (!(errmode == 2 && wrap == 0)) {
        KSP *sk; PetscInt nl;
        if (wrap == 2) PetscCall(PCASMGetSubKSP(pc, &nl, NULL, &sk));
        else PetscCall(PCBJacobiGetSubKSP(pc, &nl, NULL, &sk));
        for (PetscInt i = 0; i < nl; i++) { PC sp; PetscCall(KSPGetPC(sk[i], &sp)); PetscCall(PCSetErrorIfFailure(sp, PETSC_TRUE)); }
      }
    }
    PetscCall(KSPSolve(k, b, x));
    {
      KSPConvergedReason r;
      PetscCall(KSPGetConvergedReason(k, &r));
      PetscCall(PetscPrintf(PETSC_COMM_WORLD, "errmode %d: KSPSolve returned without error, reason %s\n", (int)errmode, KSPConvergedReasons[r]));
    }
    PetscCall(KSPDestroy(&k));
  } else {
    const char *types[] = {"ilu", "icc"}, *ords[] = {"natural", "rcm", "gpurcm"}, *backs[] = {"serial", "threads"};
    const char *shifts[] = {NULL, "none"};
    for (int t = 0; t < 2; t++)
      for (int l = 0; l < 2; l++)
        for (int o = 0; o < 3; o++)
          for (int bk = 0; bk < 2; bk++)
            for (int sh = 0; sh < 2; sh++)
              for (int w = 0; w < 3; w++) {
                KSP  kr, ks;
                char i1[512], i2[512];
                /* phases: zero pivot, then refactor with good values (documented deliberate difference), then
                   zero pivot again */
                for (int ph = 0; ph < 3; ph++) {
                  Mat M = ph == 1 ? Agood : Azero;
                  if (ph == 0) {
                    PetscCall(MakeKSP(A, w, 0, types[t], l, ords[o], backs[bk], shifts[sh], 0, &kr));
                    PetscCall(MakeKSP(A, w, 1, types[t], l, ords[o], backs[bk], shifts[sh], 0, &ks));
                  } else {
                    PetscCall(MatCopy(M, A, SAME_NONZERO_PATTERN)); /* same Mat: same pattern refactor */
                    PetscCall(KSPSetOperators(kr, A, A));
                    PetscCall(KSPSetOperators(ks, A, A));
                  }
                  PetscCall(VecSet(x, 0));
                  PetscCall(KSPSolve(kr, b, x));
                  PetscCall(VecSet(x, 0));
                  PetscCall(KSPSolve(ks, b, x));
                  PetscCall(Info(kr, w, 0, i1, sizeof(i1)));
                  PetscCall(Info(ks, w, 1, i2, sizeof(i2)));
                  ncase++;
                  {
                    PetscBool same = (PetscBool)!strcmp(i1, i2);
                    if (!same) nmis++;
                    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "%s %s lev=%d ord=%s back=%s shift=%s wrap=%d phase=%s\n   ref: %s\n   st : %s\n", same ? "same" : "DIFF", types[t], l, ords[o], backs[bk], shifts[sh] ? shifts[sh] : "default", w, ph == 0 ? "zero-pivot" : (ph == 1 ? "refactor-good-values" : "refactor-zero-pivot-again"), i1, i2));
                  }
                }
                PetscCall(MatCopy(Agood, A, SAME_NONZERO_PATTERN));
                {
                  Mat Az;
                  PetscCall(Build(n, z, 0.0, &Az));
                  PetscCall(MatCopy(Az, A, SAME_NONZERO_PATTERN));
                  PetscCall(MatDestroy(&Az));
                }
                PetscCall(KSPDestroy(&kr));
                PetscCall(KSPDestroy(&ks));
              }
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "ZP DONE cases %d differing %d\n", ncase, nmis));
  }
  PetscCall(VecDestroy(&x));
  PetscCall(VecDestroy(&b));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&Agood));
  PetscCall(MatDestroy(&Azero));
  PetscCall(PetscFinalize());
  return 0;
}
