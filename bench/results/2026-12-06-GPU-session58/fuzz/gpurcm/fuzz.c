static char help[] = "Throwaway fuzzer: gpurcm vs rcm.\n"
                     "  -seed S -start K -count N -maxn M -nopts P  : generated cases\n"
                     "  -f file.mtx                                 : one saved reproducer (header gives type/bs/flag)\n"
                     "  -opts 'k=v,k=v'                             : only this option set (keys without -mat_gpurcm_)\n"
                     "  -save_dir D                                 : where reproducers go\n";

#include <petscmat.h>
#include <stdint.h>

/* ------------------------------------------------------------------ rng */
static uint64_t rs;
static uint64_t rnext(void)
{
  uint64_t z = (rs += 0x9e3779b97f4a7c15ULL);
  z          = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z          = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
static PetscInt rndi(PetscInt lo, PetscInt hi) /* inclusive */
{
  if (hi <= lo) return lo;
  return lo + (PetscInt)(rnext() % (uint64_t)(hi - lo + 1));
}
static double runi(void) { return (rnext() >> 11) * (1.0 / 9007199254740992.0); }

/* ------------------------------------------------------------------ triplets */
typedef struct {
  PetscInt  n, nz, cap;
  PetscInt *i, *j;
  char      desc[512];
  char      type[16]; /* aij or baij */
  PetscInt  bs;
  PetscInt  flag;  /* 0 none, 1 structurally symmetric, 2 symmetric, 3 spd */
  PetscBool wrong; /* flagged but pattern not symmetric */
} Trip;

static void TAdd(Trip *t, PetscInt a, PetscInt b)
{
  if (t->nz == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 1024;
    t->i   = (PetscInt *)realloc(t->i, t->cap * sizeof(PetscInt));
    t->j   = (PetscInt *)realloc(t->j, t->cap * sizeof(PetscInt));
  }
  t->i[t->nz] = a;
  t->j[t->nz] = b;
  t->nz++;
}
static void TSym(Trip *t, PetscInt a, PetscInt b)
{
  TAdd(t, a, b);
  if (a != b) TAdd(t, b, a);
}
static void TFree(Trip *t)
{
  free(t->i);
  free(t->j);
  t->i = t->j = NULL;
  t->nz = t->cap = 0;
}
static void Desc(Trip *t, const char *fmt, ...)
{
  va_list ap;
  size_t  l = strlen(t->desc);
  va_start(ap, fmt);
  vsnprintf(t->desc + l, sizeof(t->desc) - l, fmt, ap);
  va_end(ap);
}

/* dedupe and check symmetry of the pattern */
static int cmppair(const void *a, const void *b)
{
  const PetscInt *x = (const PetscInt *)a, *y = (const PetscInt *)b;
  if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
  if (x[1] != y[1]) return x[1] < y[1] ? -1 : 1;
  return 0;
}
static PetscBool PatternSymmetric(Trip *t)
{
  PetscInt *p = (PetscInt *)malloc(2 * (t->nz + 1) * sizeof(PetscInt)), *q = (PetscInt *)malloc(2 * (t->nz + 1) * sizeof(PetscInt)), u = 0, v = 0;
  PetscBool ok = PETSC_TRUE;
  for (PetscInt k = 0; k < t->nz; k++) {
    p[2 * k] = t->i[k], p[2 * k + 1] = t->j[k];
    q[2 * k] = t->j[k], q[2 * k + 1] = t->i[k];
  }
  qsort(p, t->nz, 2 * sizeof(PetscInt), cmppair);
  qsort(q, t->nz, 2 * sizeof(PetscInt), cmppair);
  /* unique */
  for (PetscInt k = 0; k < t->nz; k++)
    if (!u || cmppair(p + 2 * k, p + 2 * (u - 1))) p[2 * u] = p[2 * k], p[2 * u + 1] = p[2 * k + 1], u++;
  for (PetscInt k = 0; k < t->nz; k++)
    if (!v || cmppair(q + 2 * k, q + 2 * (v - 1))) q[2 * v] = q[2 * k], q[2 * v + 1] = q[2 * k + 1], v++;
  if (u != v) ok = PETSC_FALSE;
  for (PetscInt k = 0; ok && k < u; k++)
    if (cmppair(p + 2 * k, q + 2 * k)) ok = PETSC_FALSE;
  free(p);
  free(q);
  return ok;
}

/* ------------------------------------------------------------------ generators */
static PetscInt *Perm(PetscInt n, PetscBool shuffle)
{
  PetscInt *p = (PetscInt *)malloc((n + 1) * sizeof(PetscInt));
  for (PetscInt k = 0; k < n; k++) p[k] = k;
  if (shuffle)
    for (PetscInt k = n - 1; k > 0; k--) {
      PetscInt s = rndi(0, k), x = p[k];
      p[k] = p[s], p[s] = x;
    }
  return p;
}

static void GenGrid(Trip *t, PetscInt maxn)
{
  PetscInt  dim = rndi(2, 3), box = rndi(0, 1), nx, ny, nz = 1, per = runi() < 0.15;
  PetscBool shuffle = (PetscBool)(runi() < 0.5);
  if (dim == 2) {
    nx = rndi(1, 200), ny = rndi(1, PetscMax(1, PetscMin(200, maxn / nx)));
  } else {
    nx = rndi(1, 30), ny = rndi(1, 30), nz = rndi(1, PetscMax(1, PetscMin(30, maxn / (nx * ny))));
  }
  t->n = nx * ny * nz;
  PetscInt *p = Perm(t->n, shuffle);
  Desc(t, "grid%dd %s nx %d ny %d nz %d periodic %d shuffled %d", (int)dim, box ? "box" : "star", (int)nx, (int)ny, (int)nz, (int)per, (int)shuffle);
  for (PetscInt r = 0; r < t->n; r++) {
    PetscInt i = r % nx, j = (r / nx) % ny, k = r / (nx * ny);
    for (PetscInt dk = -1; dk <= 1; dk++)
      for (PetscInt dj = -1; dj <= 1; dj++)
        for (PetscInt di = -1; di <= 1; di++) {
          PetscInt ii = i + di, jj = j + dj, kk = k + dk;
          if (!box && PetscAbsInt(di) + PetscAbsInt(dj) + PetscAbsInt(dk) > 1) continue;
          if (per) ii = (ii + nx) % nx, jj = (jj + ny) % ny, kk = (kk + nz) % nz;
          if (ii < 0 || jj < 0 || kk < 0 || ii >= nx || jj >= ny || kk >= nz) continue;
          TAdd(t, p[r], p[ii + nx * (jj + ny * kk)]);
        }
  }
  free(p);
}

static void GenRandom(Trip *t, PetscInt maxn, PetscBool sym)
{
  PetscInt  n = rndi(0, maxn);
  double    deg = 0.2 + runi() * 8;
  PetscInt  m = (PetscInt)(deg * n / 2), diag = rndi(0, 2); /* 0 none, 1 all, 2 some */
  PetscBool local = (PetscBool)(runi() < 0.4);
  PetscInt  bw = rndi(1, 50);
  t->n = n;
  Desc(t, "random %s n %d edges %d diag %d local %d bw %d", sym ? "sym" : "unsym", (int)n, (int)m, (int)diag, (int)local, (int)bw);
  if (!n) return;
  for (PetscInt r = 0; r < n; r++)
    if (diag == 1 || (diag == 2 && runi() < 0.5)) TAdd(t, r, r);
  for (PetscInt e = 0; e < m; e++) {
    PetscInt a = rndi(0, n - 1), d = rndi(-bw, bw), b = local ? PetscMin(n - 1, PetscMax(0, a + d)) : rndi(0, n - 1);
    if (sym) TSym(t, a, b);
    else TAdd(t, a, b);
  }
}

static void GenPath(Trip *t, PetscInt maxn)
{
  PetscInt  n = rndi(1, maxn), cyc = rndi(0, 1), diag = rndi(0, 1);
  PetscBool shuffle = (PetscBool)(runi() < 0.5);
  PetscInt *p = Perm(n, shuffle);
  t->n = n;
  Desc(t, "%s n %d shuffled %d diag %d", cyc ? "cycle" : "path", (int)n, (int)shuffle, (int)diag);
  for (PetscInt r = 0; r < n; r++) {
    if (diag) TAdd(t, p[r], p[r]);
    if (r + 1 < n) TSym(t, p[r], p[r + 1]);
    else if (cyc && n > 2) TSym(t, p[r], p[0]);
  }
  free(p);
}

static void GenHub(Trip *t, PetscInt maxn)
{
  PetscInt  nh = rndi(1, 3), n = rndi(4200, PetscMax(4200, PetscMin(maxn, 20000))), extra = rndi(0, 3), diag = rndi(0, 2);
  PetscBool shuffle = (PetscBool)(runi() < 0.5);
  PetscInt *p = Perm(n, shuffle);
  t->n = n;
  Desc(t, "hubs %d n %d extra %d shuffled %d diag %d", (int)nh, (int)n, (int)extra, (int)shuffle, (int)diag);
  for (PetscInt r = 0; r < n; r++)
    if (diag == 1 || (diag == 2 && r % 3)) TAdd(t, p[r], p[r]);
  for (PetscInt h = 0; h < nh; h++) {
    PetscInt deg = rndi(4097, n - 1);
    for (PetscInt k = 0; k < deg; k++) {
      PetscInt v = rndi(0, n - 1);
      if (v != h) TSym(t, p[h], p[v]);
    }
    /* also a dense consecutive run */
    for (PetscInt v = nh; v < PetscMin(n, nh + 4100); v++) TSym(t, p[h], p[v]);
  }
  for (PetscInt r = nh; r < n; r++)
    for (PetscInt k = 1; k <= (r % (extra + 1)) && r + k < n; k++) TSym(t, p[r], p[r + k]);
  free(p);
}

static void GenComponents(Trip *t, PetscInt maxn)
{
  PetscInt  n = 0, target = rndi(1, maxn), maxc = rndi(1, 40), diagp = rndi(0, 2);
  PetscBool shuffle = (PetscBool)(runi() < 0.6);
  Trip      tmp = {0};
  while (n < target) {
    PetscInt s = rndi(1, maxc), kind = rndi(0, 3);
    for (PetscInt a = 0; a < s; a++) {
      if (diagp == 1 || (diagp == 2 && runi() < 0.5)) TAdd(&tmp, n + a, n + a);
      if (kind == 0 && a + 1 < s) TSym(&tmp, n + a, n + a + 1);                                 /* path */
      if (kind == 1 && a > 0) TSym(&tmp, n, n + a);                                             /* star */
      if (kind == 2 && a > 0) TSym(&tmp, n + rndi(0, a - 1), n + a);                           /* random tree */
      if (kind == 3) for (PetscInt b = 0; b < a; b++) if (runi() < 0.5) TSym(&tmp, n + a, n + b); /* random graph (may split) */
    }
    n += s;
  }
  PetscInt *p = Perm(n, shuffle);
  t->n = n;
  Desc(t, "components n %d maxc %d diag %d shuffled %d", (int)n, (int)maxc, (int)diagp, (int)shuffle);
  for (PetscInt k = 0; k < tmp.nz; k++) TAdd(t, p[tmp.i[k]], p[tmp.j[k]]);
  free(p);
  TFree(&tmp);
}

static void GenPowerLaw(Trip *t, PetscInt maxn)
{
  PetscInt  n = rndi(2, maxn), m = rndi(1, 6);
  PetscBool asym = (PetscBool)(runi() < 0.3), shuffle = (PetscBool)(runi() < 0.5);
  PetscInt *p = Perm(n, shuffle);
  t->n = n;
  Desc(t, "powerlaw n %d m %d asym %d shuffled %d", (int)n, (int)m, (int)asym, (int)shuffle);
  for (PetscInt r = 0; r < n; r++) {
    TAdd(t, p[r], p[r]);
    if (r > 0)
      for (PetscInt k = 0; k < m; k++) {
        double   x = runi();
        PetscInt tt = (PetscInt)(r * x * x * x);
        if (tt >= r) tt = r - 1;
        if (!asym) TSym(t, p[r], p[tt]);
        else if (runi() < 0.5) TAdd(t, p[r], p[tt]);
        else TAdd(t, p[tt], p[r]);
      }
  }
  free(p);
}

static void GenTiny(Trip *t)
{
  PetscInt n = rndi(0, 4), dens = rndi(0, 100);
  t->n     = n;
  Desc(t, "tiny n %d dens %d", (int)n, (int)dens);
  for (PetscInt a = 0; a < n; a++)
    for (PetscInt b = 0; b < n; b++)
      if (rndi(0, 99) < dens) TAdd(t, a, b);
}

static void GenDense(Trip *t)
{
  PetscInt n = rndi(2, 60);
  double   d = 0.1 + 0.85 * runi();
  PetscBool sym = (PetscBool)(runi() < 0.5);
  t->n     = n;
  Desc(t, "dense n %d d %.2f sym %d", (int)n, d, (int)sym);
  for (PetscInt a = 0; a < n; a++)
    for (PetscInt b = sym ? a : 0; b < n; b++)
      if (runi() < d) {
        if (sym) TSym(t, a, b);
        else TAdd(t, a, b);
      }
}

static void GenBipartite(Trip *t, PetscInt maxn)
{
  PetscInt a = rndi(1, 100), b = rndi(1, PetscMax(1, PetscMin(300, maxn / 2)));
  t->n     = a + b;
  Desc(t, "complete bipartite %d x %d (+ diag)", (int)a, (int)b);
  for (PetscInt r = 0; r < a + b; r++) TAdd(t, r, r);
  for (PetscInt x = 0; x < a; x++)
    for (PetscInt y = 0; y < b; y++) TSym(t, x, a + y);
}

/* transforms */
static void Triangle(Trip *t, PetscInt which) /* 1 lower only, 2 upper only */
{
  PetscInt k2 = 0;
  for (PetscInt k = 0; k < t->nz; k++)
    if ((which == 1 && t->j[k] <= t->i[k]) || (which == 2 && t->j[k] >= t->i[k])) t->i[k2] = t->i[k], t->j[k2] = t->j[k], k2++;
  t->nz = k2;
  Desc(t, " | %s-only", which == 1 ? "lower" : "upper");
}
static void DropDiag(Trip *t, double prob)
{
  PetscInt k2 = 0;
  for (PetscInt k = 0; k < t->nz; k++)
    if (!(t->i[k] == t->j[k] && runi() < prob)) t->i[k2] = t->i[k], t->j[k2] = t->j[k], k2++;
  t->nz = k2;
  Desc(t, " | dropdiag %.2f", prob);
}
/* each node v becomes s_v identical consecutive rows (inodes in SeqAIJ) */
static void Inodes(Trip *t, PetscInt smax, PetscBool constant)
{
  PetscInt *s = (PetscInt *)malloc((t->n + 1) * sizeof(PetscInt)), *st = (PetscInt *)malloc((t->n + 1) * sizeof(PetscInt));
  Trip      u = {0};
  PetscInt  c = rndi(1, smax);
  st[0] = 0;
  for (PetscInt v = 0; v < t->n; v++) {
    s[v]      = constant ? c : rndi(1, smax);
    st[v + 1] = st[v] + s[v];
  }
  for (PetscInt k = 0; k < t->nz; k++)
    for (PetscInt a = 0; a < s[t->i[k]]; a++)
      for (PetscInt b = 0; b < s[t->j[k]]; b++) TAdd(&u, st[t->i[k]] + a, st[t->j[k]] + b);
  Desc(t, " | inodes %s %d -> n %d", constant ? "const" : "max", (int)(constant ? c : smax), (int)st[t->n]);
  TFree(t);
  t->n = st[t->n], t->nz = u.nz, t->cap = u.cap, t->i = u.i, t->j = u.j;
  free(s);
  free(st);
}

static void Generate(Trip *t, PetscInt maxn)
{
  PetscInt fam = rndi(0, 99);
  if (fam < 14) GenRandom(t, maxn, PETSC_TRUE);
  else if (fam < 22) GenRandom(t, maxn, PETSC_FALSE);
  else if (fam < 40) GenGrid(t, maxn);
  else if (fam < 48) GenPath(t, maxn);
  else if (fam < 53) GenHub(t, maxn);
  else if (fam < 64) GenComponents(t, maxn);
  else if (fam < 74) GenPowerLaw(t, maxn);
  else if (fam < 84) GenTiny(t);
  else if (fam < 92) GenDense(t);
  else GenBipartite(t, maxn);
  /* transforms */
  if (runi() < 0.12) Triangle(t, rndi(1, 2));
  if (runi() < 0.15) DropDiag(t, runi());
  if (t->n > 0 && runi() < 0.15 && t->n * 3 < 40000 && t->nz * 9 < 3000000) Inodes(t, rndi(2, 4), (PetscBool)(runi() < 0.5));
  PetscStrncpy(t->type, "aij", sizeof(t->type));
  t->bs = 1;
  if (runi() < 0.08 && t->nz * 9 < 3000000) {
    PetscStrncpy(t->type, "baij", sizeof(t->type));
    t->bs = rndi(2, 3);
  }
  PetscBool sym = PatternSymmetric(t);
  t->flag       = 0;
  if (sym && runi() < 0.35) t->flag = rndi(1, 3);
  if (!sym && runi() < 0.04) { /* wrongly flagged: documented to be undefined for rcm when it leaves nodes unnumbered */
    t->flag  = 1;
    t->wrong = PETSC_TRUE;
  }
  Desc(t, " | %s bs %d flag %d%s patsym %d nz %d", t->type, (int)t->bs, (int)t->flag, t->wrong ? " (WRONG flag)" : "", (int)sym, (int)t->nz);
}

/* ------------------------------------------------------------------ matrix */
static PetscErrorCode BuildMat(Trip *t, Mat *A)
{
  PetscInt   *nnz, bs = t->bs, N = t->n * bs;
  PetscScalar blk[9];

  PetscFunctionBeginUser;
  PetscCall(PetscCalloc1(t->n + 1, &nnz));
  for (PetscInt k = 0; k < t->nz; k++) nnz[t->i[k]]++;
  for (PetscInt r = 0; r < t->n; r++) nnz[r] = PetscMin(nnz[r], t->n);
  if (bs == 1) PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, N, N, 0, nnz, A));
  else PetscCall(MatCreateSeqBAIJ(PETSC_COMM_SELF, bs, N, N, 0, nnz, A));
  PetscCall(MatSetOption(*A, MAT_NEW_NONZERO_ALLOCATION_ERR, PETSC_FALSE));
  for (PetscInt k = 0; k < t->nz; k++) {
    PetscScalar v = t->i[k] == t->j[k] ? (t->flag == 3 ? 1e7 : 4.0) : -1.0;
    if (bs == 1) PetscCall(MatSetValue(*A, t->i[k], t->j[k], v, INSERT_VALUES));
    else {
      for (PetscInt a = 0; a < bs * bs; a++) blk[a] = (t->i[k] == t->j[k] && a % (bs + 1) == 0) ? v : -0.01;
      PetscCall(MatSetValuesBlocked(*A, 1, &t->i[k], 1, &t->j[k], blk, INSERT_VALUES));
    }
  }
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  if (t->flag == 1) PetscCall(MatSetOption(*A, MAT_STRUCTURALLY_SYMMETRIC, PETSC_TRUE));
  if (t->flag == 2) PetscCall(MatSetOption(*A, MAT_SYMMETRIC, PETSC_TRUE));
  if (t->flag == 3) PetscCall(MatSetOption(*A, MAT_SPD, PETSC_TRUE));
  PetscCall(PetscFree(nnz));
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode SaveTrip(Trip *t, const char *path, const char *note)
{
  FILE *f = fopen(path, "w");
  PetscFunctionBeginUser;
  PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot write %s", path);
  fprintf(f, "%%%%MatrixMarket matrix coordinate pattern general\n");
  fprintf(f, "%% fuzz type %s bs %d flag %d\n", t->type, (int)t->bs, (int)t->flag);
  fprintf(f, "%% desc %s\n%% note %s\n", t->desc, note);
  fprintf(f, "%% (entries listed in insertion order; bs>1: block indices; flag 1 MAT_STRUCTURALLY_SYMMETRIC 2 MAT_SYMMETRIC 3 MAT_SPD)\n");
  fprintf(f, "%d %d %d\n", (int)t->n, (int)t->n, (int)t->nz);
  for (PetscInt k = 0; k < t->nz; k++) fprintf(f, "%d %d\n", (int)t->i[k] + 1, (int)t->j[k] + 1);
  fclose(f);
  PetscFunctionReturn(PETSC_SUCCESS);
}

static PetscErrorCode LoadTrip(Trip *t, const char *path)
{
  FILE *f = fopen(path, "r");
  char  line[4096];
  int   m, n, nz, a, b, bs, flag;
  char  type[16];

  PetscFunctionBeginUser;
  PetscCheck(f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "cannot read %s", path);
  PetscStrncpy(t->type, "aij", 16);
  t->bs = 1, t->flag = 0;
  while (fgets(line, sizeof(line), f)) {
    if (line[0] == '%') {
      if (sscanf(line, "%% fuzz type %15s bs %d flag %d", type, &bs, &flag) == 3) {
        PetscStrncpy(t->type, type, 16);
        t->bs = bs, t->flag = flag;
      }
      continue;
    }
    sscanf(line, "%d %d %d", &m, &n, &nz);
    break;
  }
  t->n = m;
  for (int k = 0; k < nz; k++) {
    PetscCheck(fscanf(f, "%d %d", &a, &b) == 2, PETSC_COMM_SELF, PETSC_ERR_FILE_READ, "short file");
    TAdd(t, a - 1, b - 1);
  }
  fclose(f);
  snprintf(t->desc, sizeof(t->desc), "file %s", path);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ option sets */
static const char *keys[] = {"backend", "threads", "batch", "serial_component", "owner_blocks", "threads_number", "speculate", "threads_wait", "check_graph"};
#define NKEYS 9
typedef struct {
  char val[NKEYS][16]; /* "" = unset */
} OptSet;

static void OptString(const OptSet *o, char *buf, size_t len)
{
  buf[0] = 0;
  for (int k = 0; k < NKEYS; k++)
    if (o->val[k][0]) {
      size_t l = strlen(buf);
      snprintf(buf + l, len - l, "%s-mat_gpurcm_%s %s", l ? " " : "", keys[k], o->val[k]);
    }
}
static void OptParse(OptSet *o, const char *s) /* "k=v,k=v" */
{
  char tmp[1024], *tok, *save;
  memset(o, 0, sizeof(*o));
  PetscStrncpy(tmp, s, sizeof(tmp));
  for (tok = strtok_r(tmp, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(tok, '=');
    if (!eq) continue;
    *eq = 0;
    for (int k = 0; k < NKEYS; k++)
      if (!strcmp(tok, keys[k])) PetscStrncpy(o->val[k], eq + 1, 16);
  }
}
static const char *pick(int n, const char **v) { return v[rndi(0, n - 1)]; }
static void OptRandom(OptSet *o)
{
  memset(o, 0, sizeof(*o));
  if (runi() < 0.25) {
    strcpy(o->val[0], "serial");
    if (runi() < 0.8) strcpy(o->val[6], runi() < 0.5 ? "0" : "1");
    if (runi() < 0.2) strcpy(o->val[8], "1");
    return;
  }
  strcpy(o->val[0], "threads");
  { const char *v[] = {"1", "2", "2", "3"}; strcpy(o->val[1], pick(4, v)); }
  { const char *v[] = {"1", "7", "64"}; strcpy(o->val[2], pick(3, v)); }
  { double x = runi(); strcpy(o->val[3], x < 0.5 ? "0" : x < 0.8 ? "16" : x < 0.95 ? "4096" : ""); }
  { const char *v[] = {"1", "3"}; strcpy(o->val[4], pick(2, v)); }
  { const char *v[] = {"batch", "levels", ""}; strcpy(o->val[5], pick(3, v)); }
  { const char *v[] = {"0", "1"}; strcpy(o->val[6], pick(2, v)); }
  { const char *v[] = {"spin", "sleep", "sleep"}; strcpy(o->val[7], pick(3, v)); }
  if (runi() < 0.5) strcpy(o->val[8], "1");
}
static PetscBool allopts = PETSC_FALSE;
/* enumerate option set number idx of the full cross product; returns PETSC_FALSE past the end */
static PetscBool OptEnum(OptSet *o, PetscInt idx)
{
  const char *th[] = {"1", "2", "3"}, *ba[] = {"1", "7", "64"}, *sc[] = {"0", "16", "4096"}, *ob[] = {"1", "3"}, *nu[] = {"batch", "levels", "auto"}, *sp[] = {"0", "1"}, *wa[] = {"spin", "sleep"}, *cg[] = {"", "1"};
  memset(o, 0, sizeof(*o));
  if (idx < 4) {
    strcpy(o->val[0], "serial");
    strcpy(o->val[6], sp[idx % 2]);
    strcpy(o->val[8], cg[idx / 2]);
    return PETSC_TRUE;
  }
  idx -= 4;
  if (idx >= 3 * 3 * 3 * 2 * 3 * 2 * 2 * 2) return PETSC_FALSE;
  strcpy(o->val[0], "threads");
  strcpy(o->val[1], th[idx % 3]); idx /= 3;
  strcpy(o->val[2], ba[idx % 3]); idx /= 3;
  strcpy(o->val[3], sc[idx % 3]); idx /= 3;
  strcpy(o->val[4], ob[idx % 2]); idx /= 2;
  strcpy(o->val[5], nu[idx % 3]); idx /= 3;
  strcpy(o->val[6], sp[idx % 2]); idx /= 2;
  strcpy(o->val[7], wa[idx % 2]); idx /= 2;
  strcpy(o->val[8], cg[idx % 2]);
  return PETSC_TRUE;
}
static PetscErrorCode OptApply(const OptSet *o)
{
  char name[64];
  PetscFunctionBeginUser;
  for (int k = 0; k < NKEYS; k++) {
    PetscCall(PetscSNPrintf(name, sizeof(name), "-mat_gpurcm_%s", keys[k]));
    PetscCall(PetscOptionsClearValue(NULL, name));
    if (o->val[k][0]) PetscCall(PetscOptionsSetValue(NULL, name, o->val[k]));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* ------------------------------------------------------------------ compare */
static PetscInt nmat = 0, nord = 0, nfail = 0, nerr = 0, nwrongok = 0, nwrongerr = 0, ninode = 0, nbaij = 0, nflag = 0;
static char     savedir[PETSC_MAX_PATH_LEN] = "/tmp/fuzz_rcm/repro";

static PetscBool IsPerm(IS is)
{
  PetscInt        n;
  const PetscInt *x;
  PetscBool       ok = PETSC_TRUE;
  char           *seen;
  ISGetLocalSize(is, &n);
  ISGetIndices(is, &x);
  seen = (char *)calloc(n + 1, 1);
  for (PetscInt k = 0; k < n && ok; k++) {
    if (x[k] < 0 || x[k] >= n || seen[x[k]]) ok = PETSC_FALSE;
    else seen[x[k]] = 1;
  }
  free(seen);
  ISRestoreIndices(is, &x);
  return ok;
}

static PetscErrorCode CheckCase(Trip *t, const char *tag, PetscInt nopts, const OptSet *only)
{
  Mat            A;
  IS             rref = NULL, cref = NULL;
  PetscErrorCode ierr;
  PetscBool      rcmperm;
  PetscInt       nodes = -1;

  PetscFunctionBeginUser;
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "CASE %s: %s\n", tag, t->desc));
  fflush(stdout);
  PetscCall(BuildMat(t, &A));
  if (t->bs == 1 && t->n > 0) {
    PetscBool done;
    PetscCall(MatGetRowIJ(A, 0, PETSC_TRUE, PETSC_TRUE, &nodes, NULL, NULL, &done));
    if (nodes < t->n) ninode++;
  }
  if (t->bs > 1) nbaij++;
  if (t->flag) nflag++;
  nmat++;
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = MatGetOrdering(A, MATORDERINGRCM, &rref, &cref);
  PetscCall(PetscPopErrorHandler());
  PetscCheck(!ierr, PETSC_COMM_SELF, PETSC_ERR_PLIB, "rcm itself failed (%d)", (int)ierr);
  rcmperm = (PetscBool)(IsPerm(rref) && IsPerm(cref));
  if (!rcmperm && !t->wrong) PetscCall(PetscPrintf(PETSC_COMM_SELF, "NOTE %s: rcm result is not a permutation although not wrongly flagged\n", tag));
  for (PetscInt o = 0; o < (only ? 1 : allopts ? 100000 : nopts); o++) {
    OptSet    os;
    char      ostr[512];
    IS        r = NULL, c = NULL;
    PetscBool e1 = PETSC_FALSE, e2 = PETSC_FALSE;

    if (only) os = *only;
    else if (allopts) {
      if (!OptEnum(&os, o)) break;
    } else if (o == 0) OptParse(&os, "backend=serial");
    else if (o == 1) OptParse(&os, "backend=threads,threads=2,serial_component=0,check_graph=1,threads_wait=sleep");
    else OptRandom(&os);
    OptString(&os, ostr, sizeof(ostr));
    PetscCall(OptApply(&os));
    PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
    ierr = MatGetOrdering(A, "gpurcm", &r, &c);
    PetscCall(PetscPopErrorHandler());
    nord++;
    if (ierr) {
      if (t->wrong && ierr == PETSC_ERR_ARG_WRONG && !rcmperm) {
        nwrongerr++;
      } else {
        char path[PETSC_MAX_PATH_LEN], note[700];
        nerr++;
        PetscCall(PetscSNPrintf(path, sizeof(path), "%s/err_%s.mtx", savedir, tag));
        PetscCall(PetscSNPrintf(note, sizeof(note), "error %d with %s (rcm result a permutation: %d)", (int)ierr, ostr, (int)rcmperm));
        PetscCall(SaveTrip(t, path, note));
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "ERROR %s: gpurcm error %d%s with [%s] rcmperm %d -> %s\n", tag, (int)ierr, t->wrong ? " (wrongly flagged)" : "", ostr, (int)rcmperm, path));
      }
    } else {
      PetscCall(ISEqualUnsorted(r, rref, &e1));
      PetscCall(ISEqualUnsorted(c, cref, &e2));
      if (!(e1 && e2)) {
        char path[PETSC_MAX_PATH_LEN], note[700];
        if (t->wrong && !rcmperm) nwrongok++; /* rcm undefined, gpurcm returned something */
        nfail++;
        PetscCall(PetscSNPrintf(path, sizeof(path), "%s/diff_%s.mtx", savedir, tag));
        PetscCall(PetscSNPrintf(note, sizeof(note), "differs (row %d col %d) with %s; rcm perm %d gpurcm perm %d", (int)e1, (int)e2, ostr, (int)rcmperm, (int)(IsPerm(r) && IsPerm(c))));
        PetscCall(SaveTrip(t, path, note));
        PetscCall(PetscPrintf(PETSC_COMM_SELF, "DIFF %s: %s%s [%s] -> %s\n", tag, note, t->wrong ? " (WRONGLY FLAGGED)" : "", ostr, path));
      }
    }
    PetscCall(ISDestroy(&r));
    PetscCall(ISDestroy(&c));
  }
  PetscCall(ISDestroy(&rref));
  PetscCall(ISDestroy(&cref));
  PetscCall(MatDestroy(&A));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  PetscInt  seed = 1, start = 0, count = 10, maxn = 30000, nopts = 12;
  char      file[PETSC_MAX_PATH_LEN] = "", opts[1024] = "";
  PetscBool hasopts;
  OptSet    only;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-seed", &seed, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-start", &start, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-count", &count, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-maxn", &maxn, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nopts", &nopts, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-f", file, sizeof(file), NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-save_dir", savedir, sizeof(savedir), NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-allopts", &allopts, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-opts", opts, sizeof(opts), &hasopts));
  if (hasopts) OptParse(&only, opts);
  if (file[0]) {
    Trip t = {0};
    rs = 12345;
    PetscCall(LoadTrip(&t, file));
    PetscCall(CheckCase(&t, "file", nopts, hasopts ? &only : NULL));
    TFree(&t);
  } else {
    for (PetscInt k = start; k < start + count; k++) {
      Trip t = {0};
      char tag[64];
      rs = (uint64_t)seed * 1000003ULL + (uint64_t)k * 7919ULL;
      rnext();
      Generate(&t, maxn);
      PetscCall(PetscSNPrintf(tag, sizeof(tag), "s%d_k%d", (int)seed, (int)k));
      rs ^= 0xabcdefULL; /* option sets: own stream */
      PetscCall(CheckCase(&t, tag, nopts, hasopts ? &only : NULL));
      TFree(&t);
    }
  }
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "SUMMARY matrices %d orderings %d diffs %d errors %d wrongflag-argerr %d wrongflag-diff(undefined rcm) %d inode-compressed %d baij %d flagged %d\n", (int)nmat, (int)nord, (int)nfail, (int)nerr, (int)nwrongerr, (int)nwrongok, (int)ninode, (int)nbaij, (int)nflag));
  PetscCall(PetscFinalize());
  return 0;
}
