static char help[] = "The public calibration API of the pellrcuda format predictor (MatPELLRCalibration*): samples with times from a\n\
known model (csr: affine in its compulsory bytes; the other formats constant), fit, model file, cross-validation by\n\
matrix (exact data: every prediction within 5%%, every choice the best), and the errors of bad arguments.\n\n";

#include <petscsparsegpu.h>
#include <unistd.h>

/* an m x m matrix with k entries per row (a band around the diagonal) */
static PetscErrorCode BandMatrix(PetscInt m, PetscInt k, Mat *A)
{
  PetscFunctionBeginUser;
  PetscCall(MatCreateSeqAIJ(PETSC_COMM_SELF, m, m, k, NULL, A));
  for (PetscInt i = 0; i < m; i++)
    for (PetscInt j = PetscMax(0, PetscMin(i - k / 2, m - k)); j < PetscMax(0, PetscMin(i - k / 2, m - k)) + k; j++) PetscCall(MatSetValue(*A, i, j, 1.0, INSERT_VALUES));
  PetscCall(MatAssemblyBegin(*A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(*A, MAT_FINAL_ASSEMBLY));
  PetscFunctionReturn(PETSC_SUCCESS);
}

int main(int argc, char **argv)
{
  MatPELLRCalibration cal;
  PetscViewer         sv;
  char                report[8192], path[PETSC_MAX_PATH_LEN], line[256] = "";
  PetscErrorCode      ierr;
  FILE               *fp;

  PetscFunctionBeginUser;
  PetscCall(PetscInitialize(&argc, &argv, NULL, help));
  PetscCall(PetscSparseGPUInitializePackage());
  PetscCall(MatPELLRCalibrationCreate(PETSC_COMM_SELF, &cal));
  PetscCall(MatPELLRCalibrationSetHardware(cal, "Test GPU", 100, 3000, 20, 5e-6));
  /* 3 sizes x 8 bandwidths; csr costs 1 us + its bytes at 10 GB/s, sell 40 us, ellr 60 us, pellr 30 us (conversion 1 ms each):
     csr is the best for the small matrices, pellr for the large ones */
  for (PetscInt s = 0, g = 0; s < 3; s++)
    for (PetscInt k = 1; k <= 8; k++, g++) {
      Mat       A;
      PetscInt  m = 256 << (2 * s), nnz = m * k;
      PetscReal ts[MAT_PELLR_FORMAT_CSR + 1], tc[MAT_PELLR_FORMAT_CSR + 1], bytes = 12.0 * nnz + 4.0 * (m + 1) + 8.0 * m + 8.0 * m;

      PetscCall(BandMatrix(m, k, &A));
      ts[MAT_PELLR_FORMAT_AUTO]  = tc[MAT_PELLR_FORMAT_AUTO] = (PetscReal)NAN;
      ts[MAT_PELLR_FORMAT_CSR]   = 1e-6 + bytes / 1e10;
      ts[MAT_PELLR_FORMAT_SELL]  = 40e-6;
      ts[MAT_PELLR_FORMAT_ELLR]  = 60e-6;
      ts[MAT_PELLR_FORMAT_PELLR] = 30e-6;
      for (PetscInt f = MAT_PELLR_FORMAT_PELLR; f <= MAT_PELLR_FORMAT_CSR; f++) tc[f] = 1e-3;
      PetscCall(MatPELLRCalibrationAddSample(cal, A, g, ts, tc));
      PetscCall(MatDestroy(&A));
    }
  /* the fit, written to a model file */
  PetscCall(PetscSNPrintf(path, sizeof(path), "pellrcalibrate-%d.model", (int)getpid()));
  PetscCall(MatPELLRCalibrationFit(cal, path));
  fp = fopen(path, "r");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "model file %s not written", path);
  while (fgets(line, sizeof(line), fp) && line[0] == '#') { }
  fclose(fp);
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "model file written, first line after the comments: %s", line));
  (void)remove(path);
  /* cross-validation of exact data: every Ts within 5%, every choice the best */
  PetscCall(PetscSNPrintf(path, sizeof(path), "pellrcalibrate-%d.md", (int)getpid()));
  PetscCall(PetscViewerASCIIOpen(PETSC_COMM_SELF, path, &sv));
  PetscCall(MatPELLRCalibrationCrossValidate(cal, 4, sv));
  PetscCall(PetscViewerDestroy(&sv));
  fp = fopen(path, "r");
  PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "report %s not written", path);
  report[fread(report, 1, sizeof(report) - 1, fp)] = 0;
  fclose(fp);
  if (getenv("KEEP_REPORT")) fputs(report, stdout);
  (void)remove(path);
  {
    const char *cand[] = {"csr", "ellr", "sell", "pellr"}, *want[] = {"top-1 (within 5% of the best) 1.0000", "geometric mean best/chosen 1.0000"};
    for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(cand); i++) { /* "  name  tests  rel5  abs15  tc-tests  tc-rel5" */
      char   key[16], *at;
      int    nt = 0, ntc = 0;
      double r5 = 0, a15 = 0, tr5 = 0;
      PetscCall(PetscSNPrintf(key, sizeof(key), "\n  %s ", cand[i]));
      at = strstr(report, key);
      if (at) sscanf(at + strlen(key), "%d %lf %lf %d %lf", &nt, &r5, &a15, &ntc, &tr5);
      PetscCall(PetscPrintf(PETSC_COMM_SELF, "cross-validation, %s: %d test matrices, Ts within 5%% %s, TC within 5%% %s\n", cand[i], nt, r5 == 1.0 ? "all" : "NOT ALL", tr5 == 1.0 ? "all" : "NOT ALL"));
    }
    for (size_t i = 0; i < PETSC_STATIC_ARRAY_LENGTH(want); i++) PetscCall(PetscPrintf(PETSC_COMM_SELF, "cross-validation report has \"%s\": %s\n", want[i], strstr(report, want[i]) ? "yes" : "NO"));
  }
  /* -mat_pellr_cv_samples: one line per sample with 6 + 4 x 4 + 4 x 4 + 4 x 3 + 18 fields (times, model features, x sectors, slots and kept diagonal-slice slots, matrix features), the header first */
  {
    int  lines = 0, good = 0;
    char hdr[64] = "", buf[1024];
    PetscCall(PetscSNPrintf(path, sizeof(path), "pellrcalibrate-%d.csv", (int)getpid()));
    PetscCall(PetscOptionsSetValue(NULL, "-mat_pellr_cv_samples", path));
    PetscCall(PetscViewerASCIIOpen(PETSC_COMM_SELF, "/dev/null", &sv));
    PetscCall(MatPELLRCalibrationCrossValidate(cal, 4, sv));
    PetscCall(PetscViewerDestroy(&sv));
    PetscCall(PetscOptionsClearValue(NULL, "-mat_pellr_cv_samples"));
    fp = fopen(path, "r");
    PetscCheck(fp, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "sample file %s not written", path);
    while (fgets(buf, sizeof(buf), fp)) {
      int fields = 1;
      for (char *c = buf; *c; c++) fields += (*c == ',');
      if (!lines++) PetscCall(PetscStrncpy(hdr, buf, 36));
      else good += (fields == 68);
    }
    fclose(fp);
    (void)remove(path);
    PetscCall(PetscPrintf(PETSC_COMM_SELF, "cross-validation samples file: header \"%s...\", %d samples of 68 fields in %d lines\n", hdr, good, lines - 1));
  }
  /* bad arguments: clear errors */
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = MatPELLRCalibrationCrossValidate(cal, 1, PETSC_VIEWER_STDOUT_SELF);
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "1 fold: %s\n", ierr == PETSC_ERR_ARG_OUTOFRANGE ? "PETSC_ERR_ARG_OUTOFRANGE" : "other error"));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = MatPELLRCalibrationFit(cal, "/nonexistent-directory/x.model");
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "model file in a missing directory: %s\n", ierr ? "error" : "NO ERROR"));
  PetscCall(PetscViewerStringOpen(PETSC_COMM_SELF, report, sizeof(report), &sv));
  PetscCall(PetscPushErrorHandler(PetscReturnErrorHandler, NULL));
  ierr = MatPELLRCalibrationCrossValidate(cal, 4, sv);
  PetscCall(PetscPopErrorHandler());
  PetscCall(PetscViewerDestroy(&sv));
  PetscCall(PetscPrintf(PETSC_COMM_SELF, "report to a string viewer: %s\n", ierr == PETSC_ERR_SUP ? "PETSC_ERR_SUP" : "other"));
  PetscCall(MatPELLRCalibrationDestroy(&cal));
  PetscCall(MatPELLRCalibrationDestroy(&cal)); /* NULL: nothing */
  PetscCall(PetscFinalize());
  return 0;
}

/*TEST

   test:

TEST*/
