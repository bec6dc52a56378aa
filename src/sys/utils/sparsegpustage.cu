/*
  Staged uploads of host arrays to the device, shared by the components (gpurcm's CSR upload, subtree_ilu's
  refactorization plan). The driver copies pageable memory through its own small pinned buffers, one thread, at about
  5-7 GB/s on the H200 machine; here the arrays are split among up to SPARSEGPU_STAGE_THREADS threads, each filling two
  pinned buffers of its own in turn, each buffer's DMA (the thread's stream) overlapping the filling of the other
  (session 10, job 4: gpurcm's CSR upload, bench/results/2026-12-01-H200-session10). The process's first staged
  upload (up to 256 MiB) is the driver's copy, the buffers are made at the next (session 48: page-locking them cost a
  one-shot ordering more than they gained).
*/
#include <petscdevice_cuda.h>
#include <thread>
#include <string.h>
#include <sparsegpuimpl.h>

#define SPARSEGPU_STAGE_THREADS 8                /* at most this many copying threads */
#define SPARSEGPU_STAGE_CHUNK     ((size_t)4 << 20)   /* largest chunk (bytes per staging buffer, two per thread) */
#define SPARSEGPU_STAGE_MIN_CHUNK ((size_t)256 << 10) /* smallest chunk of a thread's part */
#define SPARSEGPU_STAGE_MIN_PART  ((size_t)1 << 20)   /* smallest part of a copying thread */
#define SPARSEGPU_STAGE_FIRST_DRIVER ((size_t)256 << 20) /* the process's first upload up to this size: the driver's copy */

static void             *stageBuf[SPARSEGPU_STAGE_THREADS][2];
static size_t            stageCap[SPARSEGPU_STAGE_THREADS]; /* bytes of each of thread t's two buffers (0: none yet) */
static cudaEvent_t       stageDone[SPARSEGPU_STAGE_THREADS][2];
static cudaStream_t      stageStream[SPARSEGPU_STAGE_THREADS];
static int               stageDevice;
static PetscBool         stageReady = PETSC_FALSE;
static PetscBool         stageRefused         = PETSC_FALSE; /* the system refused page-locked memory: the driver's copies from then on */
static PetscBool         stageRefusalReported = PETSC_FALSE;
static PetscBool         stageFirstDone       = PETSC_FALSE; /* the process's first staged upload went through the driver */

/* frees thread t's two pinned buffers (errors ignored: see StageFinalize()) */
static void StageFreeBuffers(int t)
{
  for (int b = 0; b < 2; b++) {
    if (stageBuf[t][b]) (void)cudaFreeHost(stageBuf[t][b]);
    stageBuf[t][b] = NULL;
  }
  stageCap[t] = 0;
}

static PetscErrorCode StageFinalize(void)
{
  PetscFunctionBegin;
  for (int t = 0; t < SPARSEGPU_STAGE_THREADS; t++) { /* errors ignored: at PetscFinalize() the CUDA context may be gone already */
    (void)cudaStreamSynchronize(stageStream[t]);
    (void)cudaStreamDestroy(stageStream[t]);
    for (int b = 0; b < 2; b++) (void)cudaEventDestroy(stageDone[t][b]);
    StageFreeBuffers(t);
  }
  (void)cudaGetLastError();
  stageReady = PETSC_FALSE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the events and streams of the copying threads, made once per process (their pinned buffers when needed:
   StageEnsure()). The streams are blocking: their copies wait for the default stream's work before them
   (the stream-ordered allocation of the destination). *ok = PETSC_FALSE when the system refuses them or refused
   page-locked memory before: the caller then makes the driver's pageable copy. */
static PetscErrorCode StageSetUp(PetscBool *ok)
{
  cudaError_t err = cudaSuccess;
  PetscBool   stream[SPARSEGPU_STAGE_THREADS] = {PETSC_FALSE}, ev[SPARSEGPU_STAGE_THREADS][2] = {{PETSC_FALSE}};

  PetscFunctionBegin;
  *ok = (PetscBool)!stageRefused;
  if (stageReady || !*ok) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallCUDA(cudaGetDevice(&stageDevice));
  for (int t = 0; t < SPARSEGPU_STAGE_THREADS && err == cudaSuccess; t++) {
    if ((err = cudaStreamCreate(&stageStream[t])) == cudaSuccess) stream[t] = PETSC_TRUE;
    for (int b = 0; b < 2 && err == cudaSuccess; b++)
      if ((err = cudaEventCreateWithFlags(&stageDone[t][b], cudaEventDisableTiming)) == cudaSuccess) ev[t][b] = PETSC_TRUE;
  }
  if (err != cudaSuccess) { /* undo what was made */
    const char *msg = cudaGetErrorString(err);

    for (int t = 0; t < SPARSEGPU_STAGE_THREADS; t++) {
      for (int b = 0; b < 2; b++)
        if (ev[t][b]) (void)cudaEventDestroy(stageDone[t][b]);
      if (stream[t]) (void)cudaStreamDestroy(stageStream[t]);
    }
    (void)cudaGetLastError(); /* not sticky: clear it */
    stageRefused         = PETSC_TRUE;
    stageRefusalReported = PETSC_TRUE;
    *ok                  = PETSC_FALSE;
    PetscCall(PetscInfo(NULL, "PETSc SparseGPU: staging streams refused (%s): uploads use the pageable copy\n", msg));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  stageReady = PETSC_TRUE;
  PetscCall(PetscRegisterFinalize(StageFinalize));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* thread t's two pinned buffers hold at least `chunk` bytes each: made, or made again larger (the power of 2 from
   256 KiB up to 4 MiB that holds a chunk), only as large as the chunks in use (1 MiB for the CSR of a 1M-row mesh)
   instead of 64 MiB whatever the upload (session 48, jobs 1-3). Called by the uploading thread for every copying
   thread in turn: page-locking from several threads at once was slower (job 3: 64 MiB by 8 threads, 27-point 100^3's
   first call 57.4 against 47.6 ms). The thread's stream is idle here (every upload ends with its synchronization). */
static cudaError_t StageEnsure(int t, size_t chunk)
{
  cudaError_t err = cudaSuccess;
  size_t      cap = SPARSEGPU_STAGE_MIN_CHUNK;

  if (stageCap[t] >= chunk) return cudaSuccess;
  while (cap < chunk) cap *= 2;
  StageFreeBuffers(t);
  for (int b = 0; b < 2 && err == cudaSuccess; b++) err = cudaMallocHost(&stageBuf[t][b], cap);
  if (err != cudaSuccess) {
    StageFreeBuffers(t);
    return err;
  }
  stageCap[t] = cap;
  return cudaSuccess;
}

/* copying thread t: its part [src, src + bytes) in chunks of at most `chunk` bytes through its two buffers, each chunk's
   DMA (its own stream) overlapping the filling of the other buffer; plain CUDA calls (no PETSc error handling off the
   main thread) */
static cudaError_t StageWorker(int t, char *dst, const char *src, size_t bytes, size_t chunk)
{
  cudaError_t err = cudaSuccess;

  for (size_t off = 0, c = 0; off < bytes && err == cudaSuccess; off += chunk, c++) {
    const int    b   = (int)(c & 1);
    const size_t len = bytes - off < chunk ? bytes - off : chunk;

    err = cudaEventSynchronize(stageDone[t][b]); /* the buffer's previous DMA is done */
    if (err != cudaSuccess) break;
    memcpy(stageBuf[t][b], src + off, len);
    err = cudaMemcpyAsync(dst + off, stageBuf[t][b], len, cudaMemcpyHostToDevice, stageStream[t]);
    if (err == cudaSuccess) err = cudaEventRecord(stageDone[t][b], stageStream[t]);
  }
  if (err == cudaSuccess) err = cudaStreamSynchronize(stageStream[t]);
  return err;
}

/* copying thread t: bytes [lo, hi) of the concatenated segments, through its pinned buffers */
static cudaError_t StageWorkerRange(int t, const PetscSparseGPUSegment *seg, PetscInt nseg, size_t lo, size_t hi, size_t chunk)
{
  cudaError_t err  = cudaSetDevice(stageDevice); /* (a new thread starts on device 0; the caller's is stageDevice) */
  size_t      base = 0;

  for (PetscInt k = 0; k < nseg && err == cudaSuccess; base += seg[k].bytes, k++) {
    const size_t a = PetscMax(lo, base), b = PetscMin(hi, base + seg[k].bytes);
    if (a < b) err = StageWorker(t, (char *)seg[k].dst + (a - base), (const char *)seg[k].src + (a - base), b - a, chunk);
  }
  return err;
}

/* -info, once: the system refused page-locked memory for the buffers */
static PetscErrorCode StageReportRefusal(void)
{
  PetscFunctionBegin;
  if (!stageRefusalReported) {
    stageRefusalReported = PETSC_TRUE;
    PetscCall(PetscInfo(NULL, "PETSc SparseGPU: pinned staging buffers refused: uploads use the pageable copy\n"));
  }
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* the driver's (pageable) copies of the segments */
static PetscErrorCode DriverUpload(const PetscSparseGPUSegment *seg, PetscInt nseg)
{
  PetscFunctionBegin;
  for (PetscInt k = 0; k < nseg; k++)
    if (seg[k].bytes) PetscCallCUDA(cudaMemcpy(seg[k].dst, seg[k].src, seg[k].bytes, cudaMemcpyHostToDevice));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* work(t, lo, hi) on each part [lo, hi) = [t part, min(bytes, (t + 1) part)) of [0, bytes), t < T: part 0 on the calling
   thread, the others on threads of their own (a part whose thread could not be started on the calling thread after part
   0); complete on return; returns the error of the first part (in part order) that failed */
template <class Work>
static cudaError_t StageForkJoin(int T, size_t bytes, size_t part, Work work)
{
  std::thread th[SPARSEGPU_STAGE_THREADS];
  cudaError_t err[SPARSEGPU_STAGE_THREADS];
  bool        started[SPARSEGPU_STAGE_THREADS];

  for (int t = 0; t < T; t++) {
    err[t]     = cudaSuccess;
    started[t] = false;
  }
  for (int t = 1; t < T && (size_t)t * part < bytes; t++) {
    const size_t lo = (size_t)t * part, hi = PetscMin(bytes, lo + part);
    try {
      th[t]      = std::thread([=, &err] { err[t] = work(t, lo, hi); });
      started[t] = true;
    } catch (...) { /* done below by this thread */
    }
  }
  err[0] = work(0, 0, PetscMin(bytes, part));
  for (int t = 1; t < T && (size_t)t * part < bytes; t++) {
    const size_t lo = (size_t)t * part, hi = PetscMin(bytes, lo + part);
    if (started[t]) th[t].join();
    else err[t] = work(t, lo, hi);
  }
  for (int t = 0; t < T; t++)
    if (err[t] != cudaSuccess) return err[t];
  return cudaSuccess;
}

/* staged upload of nseg arrays (a CSR's row pointers and columns together: one set of threads): their concatenation
   in page-aligned parts, one per copying thread (the calling thread takes part 0, and any part whose thread could not
   be started); complete on return */
PETSC_INTERN PetscErrorCode PetscSparseGPUStagedUpload(const PetscSparseGPUSegment *seg, PetscInt nseg, PetscInt nthreads)
{
  size_t    part, chunk, bytes = 0;
  int       T = (int)PetscMax(1, PetscMin(nthreads, SPARSEGPU_STAGE_THREADS));
  PetscBool ok;
  int       dev;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < nseg; k++) bytes += seg[k].bytes;
  PetscCall(StageSetUp(&ok));
  PetscCallCUDA(cudaGetDevice(&dev));
  if (!ok || dev != stageDevice) { /* (the streams and buffers were made for another device) */
    PetscCall(DriverUpload(seg, nseg));
    PetscFunctionReturn(PETSC_SUCCESS);
  }
  while (T > 1 && (size_t)T * SPARSEGPU_STAGE_MIN_PART > bytes) T--; /* every thread at least SPARSEGPU_STAGE_MIN_PART */
  part = ((bytes + T - 1) / T + 4095) & ~(size_t)4095;
  /* at least 4 chunks per part (when they stay >= SPARSEGPU_STAGE_MIN_CHUNK), so that the copy into one buffer overlaps
     the other's DMA for most of the part; one chunk per part would run the two one after the other */
  chunk = PetscMin(SPARSEGPU_STAGE_CHUNK, PetscMax(SPARSEGPU_STAGE_MIN_CHUNK, ((part + 3) / 4 + 4095) & ~(size_t)4095));
  if (!stageFirstDone) {
    /* The process's first staged upload is the driver's copy unless it is large: page-locking the buffers costs more
       than they save on one copy of up to about 240 MB (session 48, jobs 1-3, H100, 1M-row meshes of 32-110 MB: a
       first call of gpurcm cuda took 26.9-58 ms with the buffers made first, 18.3-29.7 ms with the driver's copy;
       later calls 11.4-16.3 ms staged, 13.2-27.9 ms through the driver; the driver copies about 7 GB/s, the staged
       upload 37 GB/s after about 26 ms for 64 MiB of buffers), and most applications order and factor once. Making
       the buffers meanwhile on a background thread slowed the caller's own CUDA calls as much (job 3: the
       stream-ordered allocations after the copy 0.85 -> 6.3 ms). The next upload makes them. */
    stageFirstDone = PETSC_TRUE;
    if (bytes <= SPARSEGPU_STAGE_FIRST_DRIVER) {
      PetscCall(DriverUpload(seg, nseg));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  for (int t = 0; t < T; t++) {
    if (StageEnsure(t, chunk) != cudaSuccess) { /* allocation errors are not sticky */
      (void)cudaGetLastError();
      stageRefused = PETSC_TRUE;
      PetscCall(StageReportRefusal());
      PetscCall(DriverUpload(seg, nseg));
      PetscFunctionReturn(PETSC_SUCCESS);
    }
  }
  PetscCallCUDA(StageForkJoin(T, bytes, part, [=](int t, size_t lo, size_t hi) { return StageWorkerRange(t, seg, nseg, lo, hi, chunk); }));
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* copying thread t: downloads [src, src + bytes) in chunks of at most `chunk` bytes through its two pinned buffers, the
   DMA of the next chunk (its stream) overlapping the copy of the last one out of its buffer into dst0 (and dst1); plain
   CUDA calls */
static cudaError_t StageDownWorker(int t, char *dst0, char *dst1, const char *src, size_t bytes, size_t chunk)
{
  const size_t nch = (bytes + chunk - 1) / chunk;
  cudaError_t  err = cudaSuccess;

  if (!nch) return cudaSuccess;
  err = cudaMemcpyAsync(stageBuf[t][0], src, PetscMin(bytes, chunk), cudaMemcpyDeviceToHost, stageStream[t]);
  if (err == cudaSuccess) err = cudaEventRecord(stageDone[t][0], stageStream[t]);
  for (size_t c = 0; c < nch && err == cudaSuccess; c++) {
    const int    b   = (int)(c & 1);
    const size_t off = c * chunk, len = PetscMin(bytes - off, chunk);

    if (c + 1 < nch) { /* the other buffer was emptied in the last step */
      const size_t off2 = off + chunk;

      err = cudaMemcpyAsync(stageBuf[t][1 - b], src + off2, PetscMin(bytes - off2, chunk), cudaMemcpyDeviceToHost, stageStream[t]);
      if (err == cudaSuccess) err = cudaEventRecord(stageDone[t][1 - b], stageStream[t]);
      if (err != cudaSuccess) break;
    }
    err = cudaEventSynchronize(stageDone[t][b]);
    if (err != cudaSuccess) break;
    memcpy(dst0 + off, stageBuf[t][b], len);
    if (dst1) memcpy(dst1 + off, stageBuf[t][b], len);
  }
  if (err == cudaSuccess) err = cudaStreamSynchronize(stageStream[t]);
  return err;
}

static cudaError_t StageDownRange(int t, char *dst0, char *dst1, const char *src, size_t lo, size_t hi, size_t chunk)
{
  cudaError_t err = cudaSetDevice(stageDevice);

  if (err == cudaSuccess && lo < hi) err = StageDownWorker(t, dst0 + lo, dst1 ? dst1 + lo : NULL, src + lo, hi - lo, chunk);
  return err;
}

/*
  PetscSparseGPUStagedDownload - dst0 (host) = src (device), bytes, and dst1 = the same when dst1 is not NULL: split
  among up to nthreads copying threads (parts of at least 1 MiB), each through its two pinned staging buffers (the
  DMA of a chunk overlapping the copy of the last one into the destinations), complete on return. Only with the
  buffers an earlier staged upload made (never page-locked here: see PetscSparseGPUStagedUpload()); *staged =
  PETSC_FALSE when there are none (or for another device): then nothing was copied.
*/
PETSC_INTERN PetscErrorCode PetscSparseGPUStagedDownload(void *dst0, void *dst1, const void *src, size_t bytes, PetscInt nthreads, PetscBool *staged)
{
  size_t part, chunk, cap;
  int    T = (int)PetscMax(1, PetscMin(nthreads, SPARSEGPU_STAGE_THREADS)), dev;

  PetscFunctionBegin;
  *staged = PETSC_FALSE;
  if (!stageReady || stageRefused || !bytes) PetscFunctionReturn(PETSC_SUCCESS);
  PetscCallCUDA(cudaGetDevice(&dev));
  if (dev != stageDevice) PetscFunctionReturn(PETSC_SUCCESS);
  while (T > 1 && (size_t)T * SPARSEGPU_STAGE_MIN_PART > bytes) T--;
  for (int t = 0; t < T; t++)
    if (!stageCap[t]) T = t; /* the threads whose buffers exist */
  if (!T) PetscFunctionReturn(PETSC_SUCCESS);
  cap = stageCap[0];
  for (int t = 1; t < T; t++) cap = PetscMin(cap, stageCap[t]);
  part  = ((bytes + T - 1) / T + 4095) & ~(size_t)4095;
  chunk = PetscMin(cap, PetscMax(SPARSEGPU_STAGE_MIN_CHUNK, ((part + 3) / 4 + 4095) & ~(size_t)4095));
  PetscCallCUDA(StageForkJoin(T, bytes, part, [=](int t, size_t lo, size_t hi) { return StageDownRange(t, (char *)dst0, (char *)dst1, (const char *)src, lo, hi, chunk); }));
  *staged = PETSC_TRUE;
  PetscFunctionReturn(PETSC_SUCCESS);
}

/* staged when the segments hold at least min_bytes together (smaller copies are not worth the threads), else the
   driver's copies; complete on return */
PETSC_INTERN PetscErrorCode PetscSparseGPUUpload(const PetscSparseGPUSegment *seg, PetscInt nseg, PetscInt nthreads, size_t min_bytes)
{
  size_t bytes = 0;

  PetscFunctionBegin;
  for (PetscInt k = 0; k < nseg; k++) bytes += seg[k].bytes;
  if (bytes && bytes >= min_bytes) PetscCall(PetscSparseGPUStagedUpload(seg, nseg, nthreads));
  else PetscCall(DriverUpload(seg, nseg));
  PetscFunctionReturn(PETSC_SUCCESS);
}
