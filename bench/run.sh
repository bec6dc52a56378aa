#!/bin/sh
# Runs the benchmark suite (called by `make -C bench run` / `make bench`; bench/README.md).
# Environment: BDIR (drivers), MATDIR, SUITE (default|quick|full), TIME (seconds of measurements in all), STAGES,
# DLL (libpetscsparsegpu.so, optional), HAVE_CUDA, RESULTS (output folder, default bench/results/<date>-<gpu>).
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
: "${BDIR:=$root/build/bench}" "${MATDIR:=$root/../shared/matrices}" "${SUITE:=default}" "${TIME:=360}" "${DLL:=}" "${HAVE_CUDA:=}" "${RESULTS:=}"

gpu=cpu
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1 | sed -e 's/NVIDIA //' -e 's/[^A-Za-z0-9.]\{1,\}/-/g' -e 's/-$//')
fi
case $RESULTS in /* | "") ;; *) RESULTS=$root/$RESULTS ;; esac # relative to the project root
if [ -z "$RESULTS" ]; then
  RESULTS=$here/results/$(date +%Y-%m-%d)-$gpu
  [ -e "$RESULTS" ] && RESULTS=$RESULTS-$(date +%H%M%S)
fi
mkdir -p "$RESULTS" || exit 1
dll=
[ -n "$DLL" ] && [ -f "$DLL" ] && dll="-dll_append $DLL"

# ---------------------------------------------------------------- suites
# Every list names our types too (pellrcuda, subtree_ilu, gpurcm): until a component lands they are reported
# as "unavailable"; once the library registers them, the same run compares them with the peers.
case $SUITE in
quick) # small sizes: CPU machine / smoke test (under a minute)
  SPMV_MATS="real,lap2d:300,lap3d:40,dmda3d:40,lap3d27:30,blkdiag:bcsstk17:2M,kron:pde900:jpwh_991,powerlaw:200k:8"
  FACT_MATS="lap2d:200,lap3d:30,real"
  ORD_MATS="real,lap2d:500,lap3d:60,lap3d27:40,powerlaw:200k:8"
  LEVELS=0,1 ;;
full) # everything the component issues list; needs more than one 10-minute command: run with TIME=1500 elsewhere
  SPMV_MATS="real,lap2d:1000,lap2d:2000,lap2d:4000,lap3d:100,lap3d:160,lap3d:252,lap3d27:100,lap3d27:160,lap3d27:200,powerlaw:1M:16,powerlaw:4M:8,powerlaw:16M:8,blkdiag:bcsstk17:10M,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,blkdiag:gemat11:10M,kron:pde900:jpwh_991,kron:bcsstk01:bcsstk13,dmda3d:100"
  FACT_MATS="lap2d:1000,lap3d:100,lap2d:2000,lap3d:160,real"
  ORD_MATS="real,lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160,lap3d27:160,lap2d:4000,lap3d:252,lap3d27:252,powerlaw:1M:16,powerlaw:4M:8"
  LEVELS=0,1 ;;
*) # default: the GPU machine in one 10-minute command (most important matrices first: a stage that runs out of
   # its time share skips the rest and says so)
  SPMV_MATS="real,lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,lap2d:4000,lap3d:252,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13,dmda3d:100"
  FACT_MATS="lap2d:1000,lap3d:100,lap2d:2000,lap3d:160,real"
  ORD_MATS="lap2d:1000,lap3d:100,lap3d27:100,lap2d:2000,lap3d:160,powerlaw:1M:16,lap3d27:160,lap2d:4000,lap3d:252,real,lap3d27:252"
  LEVELS=0,1 ;;
esac
if [ -n "$HAVE_CUDA" ]; then
  FORMATS=aij,aijcusparse,sellcuda,pellrcuda,pellr
  PCS=ilu_cusparse,icc_cusparse,spsv,subtree_ilu,subtree_icc,ilu_host,icc_host
  ORDS=rcm,gpurcm@cuda,gpurcm@threads:16,gpurcm@serial,cusolver_rcm
else
  FORMATS=aij,sell,pellr
  PCS=ilu_host,icc_host,spsv,subtree_ilu,subtree_icc
  ORDS=rcm,gpurcm@threads:16,gpurcm@serial
fi
# STAGES picks stages (e.g. STAGES=order RESULTS=<folder of an earlier run> to add to it); TIME is shared
# among the chosen ones in the proportions SpMV 40, factorizations 35, orderings 25
: "${STAGES:=spmv factor order}"
STAGES=$(echo "$STAGES" | tr ',' ' ')
w=0
for s in $STAGES; do case $s in spmv) w=$((w + 40)) ;; factor) w=$((w + 35)) ;; order) w=$((w + 25)) ;; *) echo "unknown stage $s"; exit 1 ;; esac; done
T_SPMV=$((TIME * 40 / w)); T_FACT=$((TIME * 35 / w)); T_ORD=$((TIME * 25 / w))

log=$RESULTS/log.txt
[ -f "$RESULTS/run.txt" ] && mv "$RESULTS/run.txt" "$RESULTS/run.txt.prev"
{
  echo "# PETSc SparseGPU benchmark run"
  echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "invoked as: make bench (bench/run.sh) with SUITE=$SUITE TIME=$TIME MATDIR=$MATDIR"
  echo "suite: $SUITE, stages: $STAGES, time budget: ${TIME} s (spmv $T_SPMV, factor $T_FACT, order $T_ORD)"
  echo "gpu: $(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null | head -1)"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ //'), $(nproc) cores"
  echo "PETSC_DIR: ${PETSC_DIR:-?}  PETSC_OPTIONS: ${PETSC_OPTIONS:-}"
  echo "library: ${DLL:-not built (our types are reported as unavailable)}"
  echo "git: $(git -C "$root" rev-parse --short HEAD 2>/dev/null) ($(git -C "$root" status --porcelain 2>/dev/null | wc -l) modified/untracked paths)"
} > "$RESULTS/run.txt"
cat "$RESULTS/run.txt"
echo "commands:" >> "$RESULTS/run.txt"
if [ -f "$RESULTS/run.txt.prev" ]; then # a later run into the same folder: keep the earlier record
  { echo; echo "earlier run into this folder:"; sed 's/^/  /' "$RESULTS/run.txt.prev"; } > "$RESULTS/run.txt.tmp"
  rm -f "$RESULTS/run.txt.prev"
fi

stage() { # name budget driver args...
  name=$1; budget=$2; shift 2
  cmd="$* -matdir $MATDIR -time_limit $budget -csv $RESULTS/$name.csv $dll"
  echo "  $cmd" | sed "s|$root/||g" >> "$RESULTS/run.txt"
  echo "== $name (time share $budget s)"
  start=$(date +%s)
  # the hard limit only guards against a hang; the driver itself stops starting new matrices after $budget s
  timeout $((budget + 60)) $cmd >> "$log" 2>&1
  rc=$?
  tail -n 2 "$log" | sed 's/^/   | /'
  echo "   $name: exit $rc after $(( $(date +%s) - start )) s" | tee -a "$log"
}
has() { case " $STAGES " in *" $1 "*) return 0 ;; esac; return 1; }
has spmv && stage spmv "$T_SPMV" "$BDIR/bench_spmv" -matrices "$SPMV_MATS" -formats "$FORMATS" -ops mult,multadd -case_time 0.5
has factor && stage factor "$T_FACT" "$BDIR/bench_factor" -matrices "$FACT_MATS" -pcs "$PCS" -orderings natural,rcm -levels "$LEVELS" \
  -ksp_pcs ilu_cusparse,icc_cusparse,subtree_ilu,subtree_icc -ksp_maxit 200 -ksp_max_rows 1100000 -ksp_max_level 0 -case_time 1
has order && stage order "$T_ORD" "$BDIR/bench_order" -matrices "$ORD_MATS" -orderings "$ORDS" -case_time 2

[ -f "$RESULTS/run.txt.tmp" ] && cat "$RESULTS/run.txt.tmp" >> "$RESULTS/run.txt" && rm -f "$RESULTS/run.txt.tmp"
python3 "$here/report.py" "$RESULTS" || echo "report.py failed"
if python3 -c 'import matplotlib' 2>/dev/null; then
  python3 "$here/plot.py" "$RESULTS" || echo "plot.py failed"
else
  echo "matplotlib missing here: make the plots elsewhere with  python3 bench/plot.py $RESULTS"
fi
echo "results: $RESULTS"
ls -l "$RESULTS"
