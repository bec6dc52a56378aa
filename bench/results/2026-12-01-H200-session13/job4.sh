#!/bin/bash
# session 13, job 4 (nvidia-h200): a new calibration of the pellrcuda format predictor with the GPU warm-up
# (bench_calibrate -gpu_warmup_s 2, the default) and this revision's kernels (block rows in chunks, unrolled slices):
# calibration.csv, pellr.model, cv.md; then SpMV of the 15 large matrices with pellrcuda auto using the new model,
# aijcusparse and sellcuda in the same run (compare with job 1, the built-in model).
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session13/job4.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job4; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job4.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
root=$PWD; (cd $r && timeout 270 $root/build/bench/bench_calibrate -matdir $root/.gpu/matrices -time_limit 200 -model $r/pellr.model -report $r/cv.md -csv $r/calibration.csv > $r/calibration.txt 2>&1)
echo "calibration exit $? after $SECONDS s"; SECONDS=0
tail -n 4 $r/calibration.txt
[ -f $r/pellr.model ] || exit 1
timeout 140 build/bench/bench_spmv -matrices lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13 \
  -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.3 -matdir .gpu/matrices -time_limit 125 -csv $r/spmv-auto.csv $dll -mat_pellr_model $r/pellr.model > $r/spmv-auto.txt 2>&1
echo "spmv auto exit $? after $SECONDS s"
python3 - "$r/spmv-auto.csv" <<'PY'
import csv, sys, math
rows = list(csv.DictReader(open(sys.argv[1])))
t = {}
for r in rows:
    if r['status'] == 'ok' and r['kind'] != 'reference': t.setdefault(r['matrix'], {})[r['format']] = (float(r['time_s']), r['note'])
g1 = g2 = 0; n = 0
for m, d in t.items():
    if not all(k in d for k in ('aijcusparse', 'sellcuda', 'pellrcuda')): continue
    a, s, p = d['aijcusparse'][0], d['sellcuda'][0], d['pellrcuda'][0]
    fmt = [x for x in d['pellrcuda'][1].split() if x.startswith('format=')]
    print('%-24s aij %7.1f sell %7.1f pellr %7.1f us  x aij %.2f  x better %.2f  %s' % (m, 1e6*a, 1e6*s, 1e6*p, a/p, min(a, s)/p, fmt[0] if fmt else ''))
    g1 += math.log(a/p); g2 += math.log(min(a, s)/p); n += 1
if n: print('geometric mean over %d: x aijcusparse %.3f, x better of the two %.3f' % (n, math.exp(g1/n), math.exp(g2/n)))
PY
grep -i -E "within|top-1|geometric|worst" $r/cv.md | head -20
