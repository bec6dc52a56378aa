/*
  Calibration API of the pellrcuda storage-format predictor (public: the calibration driver bench/bench_calibrate.c
  and users calibrating their own GPU). A thin layer over the internal model of pellrpredict.h: samples (features of
  a matrix and the measured time per format), the fit, the cross-validation report and the model file.
*/
#include "pellrimpl.h"
#include "pellrpredict.h"

struct _p_MatPELLRCalibration {
  MPI_Comm      comm;
  PellrHardware hw;
  PetscInt      ns, nalloc;
  PellrSample  *s;
  PetscReal     expected_products;
  PetscInt      long_row_length;
};

/* the diagonal-slice mode the samples' times were measured under: a GPU's (SetHardware() with sm > 0, e.g. an offline
   refit of GPU times with -hw_sms) -mat_pellr_cuda_diagonal_slices (default auto, read here without CUDA too), else the
   host type's -mat_pellr_diagonal_slices */
static PetscErrorCode CalibrationDiagonalMode(MatPELLRCalibration cal, MatPELLRDiagonal *mode)
{
  PetscFunctionBegin;
  if (cal->hw.sm > 0) {
#if defined(PETSC_HAVE_CUDA)
    PetscCall(PellrDeviceDiagonalSlicesMode(mode));
#else
    *mode = MAT_PELLR_DIAGONAL_AUTO;
    PetscCall(PetscOptionsGetEnum(NULL, NULL, "-mat_pellr_cuda_diagonal_slices", MatPELLRDiagonals, (PetscEnum *)mode, NULL));
#endif
  } else PetscCall(PellrHostDiagonalSlicesMode(mode));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the candidate of each MatPELLRFormat (auto has none) */
static PetscInt CandidateOf(MatPELLRFormat f)
{
  switch (f) {
  case MAT_PELLR_FORMAT_CSR:
    return PELLR_CAND_CSR;
  case MAT_PELLR_FORMAT_ELLR:
    return PELLR_CAND_ELLR;
  case MAT_PELLR_FORMAT_SELL:
    return PELLR_CAND_SELL;
  case MAT_PELLR_FORMAT_PELLR:
    return PELLR_CAND_PELLR;
  default:
    return -1;
  }
}

/*@C
  MatPELLRCalibrationCreate - Creates an empty calibration of the `MATPELLRCUDA` storage-format predictor

  Collective

  Input Parameter:
. comm - communicator (the calibration itself is sequential)

  Output Parameter:
. cal - the calibration; the hardware defaults to nominal H200-class parameters until `MatPELLRCalibrationSetHardware()`

  Level: advanced

  Note:
  Workflow (bench/bench_calibrate.c): `MatPELLRCalibrationSetHardware()`, then for every training matrix time
  `MatMult()` in each format (`MatPELLRSetFormat()`) and `MatPELLRCalibrationAddSample()`, then
  `MatPELLRCalibrationFit()` (writes the model file that `-mat_pellr_model` reads) and
  `MatPELLRCalibrationCrossValidate()`.

.seealso: `MATPELLRCUDA`, `MatPELLRSetFormat()`
@*/
PetscErrorCode MatPELLRCalibrationCreate(MPI_Comm comm, MatPELLRCalibration *cal)
{
  MatPELLRCalibration c;

  PetscFunctionBegin;
  PetscAssertPointer(cal, 2);
  PetscCall(PetscNew(&c));
  c->comm              = comm;
  c->expected_products = PELLR_PRED_DEFAULT_PRODUCTS;
  c->long_row_length   = 256;
  PetscCall(PellrHardwareDefault(&c->hw));
  *cal = c;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  MatPELLRCalibrationSetHardware - Sets the GPU the calibration describes and its measured parameters

  Not Collective

  Input Parameters:
+ cal       - the calibration
. gpu       - device name as `cudaGetDeviceProperties()` reports it (a calibration is used only on a device of this name)
. sms       - its number of multiprocessors (likewise)
. copy_gbs  - measured device-to-device copy bandwidth, GB/s (bytes read + written per second)
. h2d_gbs   - measured host-to-device bandwidth from pageable memory, GB/s
- launch_s  - measured latency of one product on a tiny matrix, seconds

  Level: advanced

.seealso: `MatPELLRCalibrationCreate()`
@*/
PetscErrorCode MatPELLRCalibrationSetHardware(MatPELLRCalibration cal, const char gpu[], PetscInt sms, PetscReal copy_gbs, PetscReal h2d_gbs, PetscReal launch_s)
{
  PetscFunctionBegin;
  PetscAssertPointer(cal, 1);
  PetscCall(PetscStrncpy(cal->hw.gpu, gpu, sizeof(cal->hw.gpu)));
  cal->hw.sm = sms;
  if (copy_gbs > 0) cal->hw.copy_gbs = copy_gbs;
  if (h2d_gbs > 0) cal->hw.h2d_gbs = h2d_gbs;
  if (launch_s > 0) cal->hw.launch_us = 1e6 * launch_s;
#if defined(PETSC_HAVE_CUDA)
  PetscCall(PellrDeviceEffectiveL2(&cal->hw.l2_mb)); /* the current device's; MatPELLRCalibrationSetL2Cache() overrides */
#endif
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  MatPELLRCalibrationSetL2Cache - Sets the effective L2 capacity of the calibrated GPU: a product whose arrays take at
  most this much is assumed to find them in L2 when products follow one another (the model's h)

  Not Collective

  Input Parameters:
+ cal   - the calibration
- l2_mb - the capacity in MB (10^6 bytes), > 0; default (`MatPELLRCalibrationSetHardware()`) 0.4 of the current
          device's L2 (the share that cross-validated best on the H200), 20 without a device

  Level: advanced

.seealso: `MatPELLRCalibrationSetHardware()`
@*/
PetscErrorCode MatPELLRCalibrationSetL2Cache(MatPELLRCalibration cal, PetscReal l2_mb)
{
  PetscFunctionBegin;
  PetscAssertPointer(cal, 1);
  PetscCheck(l2_mb > 0 && PetscIsNormalReal(l2_mb), PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "The L2 capacity must be > 0 MB, not %g", (double)l2_mb);
  cal->hw.l2_mb = l2_mb;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  MatPELLRCalibrationAddSample - Adds the measurements of one training matrix

  Not Collective

  Input Parameters:
+ cal   - the calibration
. A     - the matrix (a `MATSEQAIJ`, or any matrix with `MatSeqAIJGetCSRAndMemType()`: its row lengths give the features)
. group - matrices that must never be split between training and test in the cross-validation share a group id
. ts    - time of one `MatMult()` per format, indexed by `MatPELLRFormat` (the auto entry is ignored), seconds; NaN = not measured
- tc    - conversion time per format (host CSR to the format on the GPU, including the upload), likewise

  Level: advanced

  Note:
  The features include the diagonal slices the layouts keep under the mode the times were measured with: for a GPU
  (`MatPELLRCalibrationSetHardware()` with sms > 0, also when refitting GPU times offline without CUDA)
  `-mat_pellr_cuda_diagonal_slices` (default auto), else the host type's `-mat_pellr_diagonal_slices`.

.seealso: `MatPELLRCalibrationCreate()`, `MatPELLRCalibrationFit()`
@*/
PetscErrorCode MatPELLRCalibrationAddSample(MatPELLRCalibration cal, Mat A, PetscInt group, const PetscReal ts[], const PetscReal tc[])
{
  const PetscInt *ai;
  PetscMemType    mtype;
  PetscInt        m, n;
  PellrSample      *s;
  MatPELLRDiagonal dmode;

  PetscFunctionBegin;
  PetscAssertPointer(cal, 1);
  PetscValidHeaderSpecific(A, MAT_CLASSID, 2);
  PetscCall(CalibrationDiagonalMode(cal, &dmode));
  if (cal->ns == cal->nalloc) {
    PellrSample *t;
    cal->nalloc = PetscMax(64, 2 * cal->nalloc);
    PetscCall(PetscMalloc1(cal->nalloc, &t));
    if (cal->ns) PetscCall(PetscArraycpy(t, cal->s, cal->ns));
    PetscCall(PetscFree(cal->s));
    cal->s = t;
  }
  s = &cal->s[cal->ns];
  PetscCall(PetscMemzero(s, sizeof(*s)));
  s->group = group;
  PetscCall(MatGetSize(A, &m, &n));
  {
    const PetscInt *aj;
    PetscCall(MatSeqAIJGetCSRAndMemType(A, &ai, &aj, NULL, &mtype));
    PetscCheck(mtype == PETSC_MEMTYPE_HOST, PETSC_COMM_SELF, PETSC_ERR_SUP, "Calibration samples need the matrix's CSR on the host");
    PetscCall(PellrFeaturesCompute(m, n, ai, mtype, cal->long_row_length, &s->f));
    if (PellrFeaturesWantLocality(&s->f)) PetscCall(PellrFeaturesAddLocality(&s->f, ai, aj, dmode)); /* as PellrChooseFormat() */
  }
  for (PetscInt c = 0; c < PELLR_NCAND; c++) s->ts[c] = s->tc[c] = (PetscReal)NAN;
  for (PetscInt f = MAT_PELLR_FORMAT_PELLR; f <= MAT_PELLR_FORMAT_CSR; f++) {
    PetscInt c = CandidateOf((MatPELLRFormat)f);
    s->ts[c]   = ts[f];
    s->tc[c]   = tc[f];
  }
  cal->ns++;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  MatPELLRCalibrationFit - Fits the predictor's model to all samples and writes it to a model file

  Not Collective

  Input Parameters:
+ cal  - the calibration
- file - the model file (read back with `-mat_pellr_model file`; src/mat/impls/pellr/models/README.md says how to
         build it into the library as the default)

  Level: advanced

.seealso: `MatPELLRCalibrationCrossValidate()`
@*/
PetscErrorCode MatPELLRCalibrationFit(MatPELLRCalibration cal, const char file[])
{
  PellrModel     M;
  PetscErrorCode ierr;

  PetscFunctionBegin;
  PetscAssertPointer(cal, 1);
  PetscCall(PellrModelFit(&cal->hw, cal->ns, cal->s, 0, &M));
  ierr = PellrModelWrite(M, file); /* the model is freed also when the file cannot be written */
  PetscCall(PellrModelDestroy(&M));
  PetscCall(ierr);
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  MatPELLRCalibrationCrossValidate - k-fold cross-validation by groups (training and test never share a group) with a
  report: per format the fraction of test matrices whose predicted SpMV time is within 5% (and within 1.5 us) of the
  measured one, the top-1 accuracy of the choice (a choice within 5% of the best measured counts as correct), the
  geometric mean of best / chosen measured time and the worst case; then the same restricted to matrices of at least
  2^20 rows, and the choice against the better of csr and sell on them

  Not Collective

  Input Parameters:
+ cal    - the calibration
. folds  - number of folds (>= 2)
- viewer - ASCII viewer for the report

  Options Database Key:
. -mat_pellr_cv_samples <file> - (developer) also write every sample's measured and cross-validated predicted Ts and TC
                                 per format, and its Ts regressors, to a CSV file (rows, nnz and longest row identify the matrix)

  Level: advanced

.seealso: `MatPELLRCalibrationFit()`
@*/
PetscErrorCode MatPELLRCalibrationCrossValidate(MatPELLRCalibration cal, PetscInt folds, PetscViewer viewer)
{
  PellrCVReport rep;
  PetscInt     *fold;

  PetscFunctionBegin;
  PetscAssertPointer(cal, 1);
  PetscCheck(folds >= 2, PETSC_COMM_SELF, PETSC_ERR_ARG_OUTOFRANGE, "Cross-validation needs at least 2 folds, not %" PetscInt_FMT, folds);
  {
    PetscBool isascii;
    PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
    PetscCheck(isascii, PETSC_COMM_SELF, PETSC_ERR_SUP, "The cross-validation report needs an ASCII viewer");
  }
  PetscCall(PetscMalloc1(PetscMax(cal->ns, 1), &fold));
  PetscCall(PellrModelCrossValidate(&cal->hw, cal->ns, cal->s, folds, 0, cal->expected_products, fold, &rep));
  {
    PetscInt *g, ng = cal->ns;
    PetscCall(PetscMalloc1(PetscMax(ng, 1), &g));
    for (PetscInt i = 0; i < ng; i++) g[i] = cal->s[i].group;
    PetscCall(PetscSortRemoveDupsInt(&ng, g));
    PetscCall(PetscFree(g));
    PetscCall(PetscViewerASCIIPrintf(viewer, "# Format predictor: %" PetscInt_FMT "-fold cross-validation by matrix group (%" PetscInt_FMT " groups: training and test never share one), %" PetscInt_FMT " matrices, conversion amortized over %g products\n\n", folds, ng, cal->ns, (double)cal->expected_products));
  }
  PetscCall(PetscViewerASCIIPrintf(viewer, "GPU %s, %" PetscInt_FMT " SMs, copy %.0f GB/s, host-to-device %.1f GB/s, launch %.2f us, effective L2 %.1f MB\n\n```\n", cal->hw.gpu, cal->hw.sm, (double)cal->hw.copy_gbs, (double)cal->hw.h2d_gbs, (double)cal->hw.launch_us, (double)cal->hw.l2_mb));
  PetscCall(PellrCVReportView(viewer, &rep));
  PetscCall(PetscViewerASCIIPrintf(viewer, "```\n\n"));
  /* the large matrices (>= 2^20 rows): the same statistics, and the choice against csr (what aijcusparse runs) and sell */
  {
    PetscInt    nl = 0, nworse = 0, nbig = 0;
    PellrSample *big;
    PetscReal   logsum = 0, worst = 1;

    PetscCall(PetscMalloc1(PetscMax(cal->ns, 1), &big));
    for (PetscInt i = 0; i < cal->ns; i++)
      if (cal->s[i].f.m >= (1 << 20)) big[nbig++] = cal->s[i];
    if (nbig >= 2 * folds) {
      PellrCVReport rb;
      PetscCall(PellrModelCrossValidate(&cal->hw, nbig, big, folds, 0, cal->expected_products, NULL, &rb));
      PetscCall(PetscViewerASCIIPrintf(viewer, "Matrices of at least 2^20 rows only (%" PetscInt_FMT "; trained on them alone):\n\n```\n", nbig));
      PetscCall(PellrCVReportView(viewer, &rb));
      PetscCall(PetscViewerASCIIPrintf(viewer, "```\n\n"));
    }
    /* the choice of the model fitted on all folds but the sample's, against the better measured of csr and sell; with
       -mat_pellr_cv_samples <file>, every sample's measured and cross-validated predicted times (developer: where the
       model errs) */
    char      cvfile[PETSC_MAX_PATH_LEN] = "";
    PetscBool dump                       = PETSC_FALSE;
    FILE     *fp                         = NULL;

    PetscCall(PetscOptionsGetString(NULL, NULL, "-mat_pellr_cv_samples", cvfile, sizeof(cvfile), &dump));
    if (dump) {
      PetscCall(PetscFOpen(PETSC_COMM_SELF, cvfile, "w", &fp));
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "sample,group,fold,rows,nnz,maxlen"));
      for (PetscInt c = 0; c < PELLR_NCAND; c++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, ",ts_%s,ts_pred_%s,tc_%s,tc_pred_%s", PellrCandidateNames[c], PellrCandidateNames[c], PellrCandidateNames[c], PellrCandidateNames[c]));
      for (PetscInt c = 0; c < PELLR_NCAND; c++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, ",work_%s,bytes_%s,crit_%s,launches_%s", PellrCandidateNames[c], PellrCandidateNames[c], PellrCandidateNames[c], PellrCandidateNames[c]));
      for (PetscInt c = 0; c < PELLR_NCAND; c++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, ",xsec_%s,slots_%s,dkept_%s", PellrCandidateNames[c], PellrCandidateNames[c], PellrCandidateNames[c]));
      PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, ",cols,empty,mean,stddev,it_ell,it_ellr,it_sell,it_pellr,it_pslice,nlong,nblock,nslices,nnz_long,q4_nat,q8_nat,q4_srt,q8_srt,ysec_pellr\n"));
    }
    for (PetscInt f = 0; f < folds; f++) {
      PellrSample *train;
      PetscInt     nt = 0;
      PellrModel   M;
      PetscCall(PetscMalloc1(PetscMax(cal->ns, 1), &train));
      for (PetscInt i = 0; i < cal->ns; i++)
        if (fold[i] != f) train[nt++] = cal->s[i];
      PetscCall(PellrModelFit(&cal->hw, nt, train, 0, &M));
      for (PetscInt i = 0; i < cal->ns; i++) {
        const PellrSample *s = &cal->s[i];
        PellrPrediction    pr;
        PetscBool          meas[PELLR_NCAND];
        PetscReal          peer = PETSC_INFINITY, got;
        PetscInt           any = 0;

        if (fold[i] != f) continue;
        if (fp) {
          PetscCall(PellrModelPredict(M, &s->f, PETSC_INFINITY, NULL, &pr));
          PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, "%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt64_FMT ",%" PetscInt64_FMT, i, s->group, f, s->f.m, (PetscInt64)s->f.nnz, (PetscInt64)s->f.maxlen));
          for (PetscInt c = 0; c < PELLR_NCAND; c++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, ",%.6e,%.6e,%.6e,%.6e", (double)s->ts[c], (double)pr.ts[c], (double)s->tc[c], (double)pr.tc[c]));
          for (PetscInt c = 0; c < PELLR_NCAND; c++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, ",%" PetscInt64_FMT ",%.6e,%" PetscInt64_FMT ",%" PetscInt64_FMT, s->f.work[c], (double)s->f.bytes[c], s->f.crit[c], s->f.launches[c]));
          for (PetscInt c = 0; c < PELLR_NCAND; c++) PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, ",%.6e,%" PetscInt64_FMT ",%.6e", (double)s->f.xsec[c], s->f.slots[c], (double)s->f.dkept[c]));
          PetscCall(PetscFPrintf(PETSC_COMM_SELF, fp, ",%" PetscInt_FMT ",%" PetscInt_FMT ",%.6e,%.6e,%" PetscInt64_FMT ",%" PetscInt64_FMT ",%" PetscInt64_FMT ",%" PetscInt64_FMT ",%" PetscInt64_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt_FMT ",%" PetscInt64_FMT ",%" PetscInt64_FMT ",%" PetscInt64_FMT ",%" PetscInt64_FMT ",%" PetscInt64_FMT ",%.6e\n", s->f.n, s->f.empty, (double)s->f.mean, (double)s->f.stddev, s->f.it_ell, s->f.it_ellr, s->f.it_sell, s->f.it_pellr, s->f.it_pslice, s->f.nlong, s->f.nblock, s->f.nslices, s->f.nnz_long, s->f.q4_nat, s->f.q8_nat, s->f.q4_srt, s->f.q8_srt, (double)s->f.ysec_pellr));
        }
        if (s->f.m < (1 << 20)) continue;
        for (PetscInt c = 0; c < PELLR_NCAND; c++) any += (meas[c] = (PetscBool)(s->ts[c] > 0));
        if (!any || !(meas[PELLR_CAND_CSR] || meas[PELLR_CAND_SELL])) continue;
        PetscCall(PellrModelPredict(M, &s->f, PETSC_INFINITY, meas, &pr)); /* products only: the peers convert too */
        if (meas[PELLR_CAND_CSR]) peer = PetscMin(peer, s->ts[PELLR_CAND_CSR]);
        if (meas[PELLR_CAND_SELL]) peer = PetscMin(peer, s->ts[PELLR_CAND_SELL]);
        got = s->ts[pr.choice];
        nl++;
        logsum += PetscLogReal(peer / got);
        worst = PetscMin(worst, peer / got);
        if (got > peer / 0.95) nworse++;
      }
      PetscCall(PellrModelDestroy(&M));
      PetscCall(PetscFree(train));
    }
    if (fp) PetscCall(PetscFClose(PETSC_COMM_SELF, fp));
    if (nl) PetscCall(PetscViewerASCIIPrintf(viewer, "Large matrices (>= 2^20 rows, %" PetscInt_FMT "), SpMV time of the cross-validated choice against the better of csr (cuSPARSE) and sell: geometric mean %.4f, worst %.4f, slower than 0.95x: %" PetscInt_FMT "\n", nl, (double)PetscExpReal(logsum / nl), (double)worst, nworse));
    PetscCall(PetscFree(big));
  }
  PetscCall(PetscFree(fold));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  MatPELLRCalibrationEvaluate - Reports the choices a model makes on the calibration's samples against their measured times

  Not Collective

  Input Parameters:
+ cal    - the calibration (its samples: e.g. matrices the model was not fitted on, measured in every format)
. model  - a model file, or `NULL` for the calibration compiled into the library
- viewer - ASCII viewer for the report

  Level: advanced

  Note:
  Per sample (in the order added) the format the model chooses as `MATPELLRCUDA`'s `-mat_pellr_format auto` would
  (its predicted conversion amortized over the default 100 products, candidates within the default memory budget of
  1.15 times the CSR's device bytes, among the formats measured), its measured product time, the format of the
  fastest measured product, and their ratio; then the fraction of
  choices within 5% of the fastest, the geometric mean and the worst of fastest / chosen, and the same against the
  better of csr and sell. Checks a calibration on matrices outside its training set (bench/bench_calibrate -evaluate).

.seealso: `MatPELLRCalibrationCrossValidate()`, `MatPELLRCalibrationFit()`
@*/
PetscErrorCode MatPELLRCalibrationEvaluate(MatPELLRCalibration cal, const char model[], PetscViewer viewer)
{
  PellrModel       M;
  PetscInt         n = 0, ntop = 0, nworse = 0;
  PetscReal        logbest = 0, worst = 1, logpeer = 0, worstpeer = PETSC_INFINITY;
  MatPELLRDiagonal dmode = MAT_PELLR_DIAGONAL_OFF;

  PetscFunctionBegin;
  PetscAssertPointer(cal, 1);
  {
    PetscBool isascii;
    PetscCall(PetscObjectTypeCompare((PetscObject)viewer, PETSCVIEWERASCII, &isascii));
    PetscCheck(isascii, PETSC_COMM_SELF, PETSC_ERR_SUP, "The evaluation report needs an ASCII viewer");
  }
  PetscCall(CalibrationDiagonalMode(cal, &dmode));
  if (model && model[0]) PetscCall(PellrModelLoad(model, &M));
  else PetscCall(PellrModelLoadDefault(NULL, cal->hw.gpu, cal->hw.sm, &M)); /* the embedded calibration when it is for the calibration's GPU */
  PetscCall(PetscViewerASCIIPrintf(viewer, "# Format predictor: model %s (version %" PetscInt_FMT ") on %" PetscInt_FMT " measured matrices\n\n", M->source, M->version, cal->ns));
  PetscCall(PetscViewerASCIIPrintf(viewer, "| sample | rows | nonzeros | chosen | its time (us) | fastest | its time (us) | fastest / chosen | better of csr, sell / chosen |\n|---|---|---|---|---|---|---|---|---|\n"));
  for (PetscInt i = 0; i < cal->ns; i++) {
    const PellrSample *s    = &cal->s[i];
    PetscBool          meas[PELLR_NCAND], any = PETSC_FALSE;
    PetscReal          best = PETSC_INFINITY, peer = PETSC_INFINITY;
    PetscInt           b    = 0;
    PellrPrediction    pr;

    PellrCandidatesWithinMemory(&s->f, PETSC_TRUE, (PetscBool)(dmode != MAT_PELLR_DIAGONAL_OFF), PELLR_DEFAULT_MAX_MEMORY_RATIO, meas);
    for (PetscInt c = 0; c < PELLR_NCAND; c++) {
      meas[c] = (PetscBool)(meas[c] && s->ts[c] > 0);
      if (!meas[c]) continue;
      any = PETSC_TRUE;
      if (s->ts[c] < best) best = s->ts[c], b = c;
      if (c == PELLR_CAND_CSR || c == PELLR_CAND_SELL) peer = PetscMin(peer, s->ts[c]);
    }
    if (!any) continue;
    PetscCall(PellrModelPredict(M, &s->f, cal->expected_products, meas, &pr)); /* as auto chooses: conversion amortized */
    n++;
    if (s->ts[pr.choice] <= 1.05 * best) ntop++;
    logbest += PetscLogReal(best / s->ts[pr.choice]);
    worst = PetscMin(worst, best / s->ts[pr.choice]);
    if (peer < PETSC_INFINITY) {
      logpeer += PetscLogReal(peer / s->ts[pr.choice]);
      worstpeer = PetscMin(worstpeer, peer / s->ts[pr.choice]);
      if (s->ts[pr.choice] > peer / 0.95) nworse++;
    }
    PetscCall(PetscViewerASCIIPrintf(viewer, "| %" PetscInt_FMT " | %" PetscInt_FMT " | %" PetscInt64_FMT " | %s | %.2f | %s | %.2f | %.3f | %.3f |\n", i, s->f.m, (PetscInt64)s->f.nnz, PellrCandidateNames[pr.choice], 1e6 * (double)s->ts[pr.choice], PellrCandidateNames[b], 1e6 * (double)best, (double)(best / s->ts[pr.choice]), peer < PETSC_INFINITY ? (double)(peer / s->ts[pr.choice]) : -1.0));
  }
  if (n) PetscCall(PetscViewerASCIIPrintf(viewer, "\nchoice: %" PetscInt_FMT " samples, within 5%% of the fastest %.4f, geometric mean fastest/chosen %.4f, worst %.4f; better of csr and sell / chosen: geometric mean %.4f, worst %.4f, chosen slower than 0.95x of it: %" PetscInt_FMT "\n", n, (double)ntop / n, (double)PetscExpReal(logbest / n), (double)worst, (double)PetscExpReal(logpeer / n), (double)worstpeer, nworse));
  PetscCall(PellrModelDestroy(&M));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/*@C
  MatPELLRCalibrationDestroy - Destroys a calibration

  Not Collective

  Input Parameter:
. cal - the calibration

  Level: advanced

.seealso: `MatPELLRCalibrationCreate()`
@*/
PetscErrorCode MatPELLRCalibrationDestroy(MatPELLRCalibration *cal)
{
  PetscFunctionBegin;
  if (!*cal) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCall(PetscFree((*cal)->s));
  PetscCall(PetscFree(*cal));
  PetscFunctionReturn(PETSC_SUCCESS);
}
