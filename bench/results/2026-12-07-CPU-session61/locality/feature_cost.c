/* feature_cost: seconds of MatPELLRCalibrationAddSample() (the predictor's features: the row-length pass, plus the
   sampled column access where PellrFeaturesWantLocality() asks for it), median and minimum of -reps calls after one
   warm-up, for each matrix of -matrices (benchutil specs, as bench_calibrate) with fewer than -max_rows rows and
   fewer than -max_nnz entries (the blocks the locality threshold change affects). Session 61, issue 6. */
#include "benchutil.h"
#include <petscsparsegpu.h>

static int cmpd(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
  BenchCtx   ctx;
  char      *specs[BENCH_MAX_LIST], *mats[BENCH_MAX_LIST], out[PETSC_MAX_PATH_LEN] = "feature-cost.csv";
  PetscInt   nspecs, nmats, reps = 21, maxrows = 1 << 16, maxnnz = 1 << 21;
  FILE      *fp;
  PetscReal  ts[8], tc[8];
  double     t[1001];

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  PetscCall(PetscSparseGPUInitializePackage());
  PetscCall(BenchInitialize(&ctx, "/dev/null", "x"));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-reps", &reps, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-max_rows", &maxrows, NULL));
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-max_nnz", &maxnnz, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-out", out, sizeof(out), NULL));
  PetscCheck(reps >= 1 && reps <= 1000, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "-reps in 1..1000");
  for (int i = 0; i < 8; i++) ts[i] = tc[i] = 1e-5;
  PetscCall(BenchGetList("-matrices", "real", specs, &nspecs));
  PetscCall(BenchExpandMatrixSpecs(&ctx, specs, nspecs, mats, &nmats));
  PetscCall(PetscFOpen(PETSC_COMM_SELF, out, "w", &fp));
  PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "matrix,rows,nnz,median_s,min_s\n"));
  for (PetscInt k = 0; k < nmats; k++) {
    BenchMatrix         bm;
    PetscBool           ok;
    MatPELLRCalibration cal;
    PetscLogDouble      t0, t1;

    PetscCall(BenchMatrixCreate(&ctx, mats[k], &bm, &ok));
    if (!ok) continue;
    if (bm.m < maxrows && bm.nnz < maxnnz) {
      PetscCall(MatPELLRCalibrationCreate(PETSC_COMM_SELF, &cal));
      /* the hardware line of the H200 model (sms > 0: the GPU's diagonal-slice mode, as the offline refit) */
      PetscCall(MatPELLRCalibrationSetHardware(cal, "NVIDIA H200", 132, 4160.3708522242432, 6.0262300570675285, 6.5919999033212662e-6));
      PetscCall(MatPELLRCalibrationAddSample(cal, bm.A, 0, ts, tc)); /* warm-up */
      for (PetscInt r = 0; r < reps; r++) {
        PetscCall(PetscTime(&t0));
        PetscCall(MatPELLRCalibrationAddSample(cal, bm.A, 0, ts, tc));
        PetscCall(PetscTime(&t1));
        t[r] = t1 - t0;
      }
      PetscCall(MatPELLRCalibrationDestroy(&cal));
      qsort(t, (size_t)reps, sizeof(double), cmpd);
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "%s,%" PetscInt_FMT ",%" PetscInt64_FMT ",%.6e,%.6e\n", bm.name, bm.m, (PetscInt64)bm.nnz, t[reps / 2], t[0]));
    }
    PetscCall(BenchMatrixDestroy(&bm));
  }
  PetscCall(PetscFClose(PETSC_COMM_SELF, fp));
  PetscCall(BenchFreeList(specs, nspecs));
  PetscCall(BenchFreeList(mats, nmats));
  PetscCall(BenchFinalize(&ctx));
  PetscCall(PetscFinalize());
  return 0;
}
