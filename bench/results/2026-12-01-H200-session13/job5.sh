#!/bin/bash
# session 13, job 5 (nvidia-h200): where pellrcuda's PELLR SpMV spends its time on the power-law and Kronecker matrices
# (forced -mat_pellr_format pellr): per-kernel durations by Nsight Compute (no nsys on the machine) of bench_spmv's first
# products (diagnostic for the next step).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session13/job5.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job5; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job5.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; which nsys ncu; } > $r/info.txt 2>&1
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
for m in powerlaw:1M:16 powerlaw:4M:8 kron:pde900:jpwh_991 blkdiag:bcsstk17:10M; do
  t=$(echo $m | tr ':' '_')
  timeout 100 ncu --kernel-name regex:"pellr_(long|slices|empty)" --launch-count 40 --metrics gpu__time_duration.sum,launch__grid_size,launch__block_size --csv --page raw \
    build/bench/bench_spmv -matrices $m -formats pellrcuda -ops mult -reps 3 -warmup 1 -matdir .gpu/matrices $dll -mat_pellr_format pellr -mat_view ::ascii_info > $r/$t.txt 2>&1
  echo "$t exit $? after $SECONDS s"; SECONDS=0
  python3 - $r/$t.txt <<'PY'
import csv, sys, io
lines = open(sys.argv[1]).read().splitlines()
start = [i for i, l in enumerate(lines) if l.startswith('"ID"')]
if not start: print("no ncu table"); sys.exit()
rows = list(csv.DictReader(io.StringIO("\n".join(l for l in lines[start[0]:] if l.startswith('"')))))
tot = {}
for r in rows[1:]:
    k = r["Kernel Name"].split("(")[0]
    try: tot.setdefault(k, []).append(float(r["gpu__time_duration.sum"]))
    except ValueError: pass
unit = rows[0].get("gpu__time_duration.sum", "?")
for k, v in tot.items(): print("  %-40s launches %3d  median %10.2f %s" % (k, len(v), sorted(v)[len(v)//2], unit))
PY
done
