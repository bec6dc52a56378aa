#!/bin/sh
# Session 61, issue 6: the column-access features (xsec ...) for every block, offline from session 32's H200 times.
#   sh run.sh [WORK]      (WORK default /tmp/locality-study; about 5 minutes on the 2-vCPU machine, 1.5 GB of memory)
# Three clones of the repository at e8eae6b: unchanged (base), PELLR_PRED_LOCALITY_ROWS 1 (all, this folder's
# locality-all-sizes.patch), PELLR_PRED_LOCALITY_ROWS 1 << 14 (2e14, session 56's intermediate threshold); the same
# offline refit and cross-validation with each, then the feature cost of the small blocks, then analyze.py.
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../../../.." && pwd)
WORK=${1:-/tmp/locality-study}
export PETSC_DIR=${PETSC_DIR:-$HOME/.cache/petscsparsegpu/petsc-3.22.5-opt}
J=$REPO/bench/results/2026-12-04-H200-session32/job1
MATDIR=$(cd "$REPO/../shared/matrices" && pwd)
mkdir -p "$WORK"
for v in base all 2e14; do
  [ -d "$WORK/$v" ] || git clone -q "$REPO" "$WORK/$v"
  git -C "$WORK/$v" checkout -q e8eae6b
  git -C "$WORK/$v" checkout -q -- src/mat/impls/pellr/pellrpredict.h
  case $v in
    all)  git -C "$WORK/$v" apply "$HERE/locality-all-sizes.patch" ;;
    2e14) sed -i 's|^#define PELLR_PRED_LOCALITY_ROWS (1 << 16)|#define PELLR_PRED_LOCALITY_ROWS (1 << 14)|' "$WORK/$v/src/mat/impls/pellr/pellrpredict.h" ;;
  esac
  (cd "$WORK/$v" && make -j2 lib && make -C bench -j2) > "$WORK/build-$v.log" 2>&1
  mkdir -p "$WORK/run-$v"
  (cd "$WORK/run-$v" && "$WORK/$v/build/bench/bench_calibrate" -times "$J/calibration.csv" \
     -hw_gpu "NVIDIA H200" -hw_sms 132 -hw_copy_gbs 4160.3708522242432 -hw_h2d_gbs 6.0262300570675285 \
     -hw_launch_s 6.5919999033212662e-6 -hw_l2_mb 25.165824000000001 -no_gpu -matdir "$MATDIR" \
     -model $v.model -report cv-$v.md -mat_pellr_cv_samples cv-samples-$v.csv -feature_times feature-times-$v.csv)
done
# the feature cost (median of 21 calls) of the blocks below 2^16 rows and 2^21 entries, twice each, alternated
SPECS=$(sh "$HERE/small_specs.sh")
for v in base all; do make -s -f "$HERE/Makefile" ROOT="$WORK/$v" OUT="$WORK/feature_cost_$v"; done
for r in "" -rerun; do for v in base all; do
  "$WORK/feature_cost_$v" -matrices "$SPECS" -matdir "$MATDIR" -reps 21 -out "$WORK/feature-cost-$v$r.csv"
done; done
echo "results in $WORK (copy run-*/cv-*.md, run-*/*.model, run-*/cv-samples-*.csv, run-*/feature-times-*.csv and feature-cost-*.csv here, then python3 analyze.py)"
