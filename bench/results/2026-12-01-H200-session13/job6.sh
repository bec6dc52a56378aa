#!/bin/bash
# session 13, job 6 (nvidia-h200): pellrcuda products with the kernels too small to fill the GPU on side streams
# (-mat_pellr_cuda_overlap, default on): the pellr GPU tests, SpMV forced to pellr with overlap on and off (same run),
# and the 15 large matrices with auto (built-in model) against aijcusparse and sellcuda.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session13/job6.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job6; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job6.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 90 make check TESTS='pellr|ex3_cuda|ex1_cuda' TESTARGS="--timeout 80 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head; SECONDS=0
I=powerlaw:1M:16,powerlaw:4M:8,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13,lap3d27:100,lap2d:2000,lap3d:160
for o in 1 0; do
  timeout 60 build/bench/bench_spmv -matrices $I -formats pellrcuda -ops mult -case_time 0.2 -matdir .gpu/matrices -time_limit 50 -csv $r/spmv-pellr-overlap$o.csv $dll -mat_pellr_format pellr -mat_pellr_cuda_overlap $o > $r/spmv-pellr-overlap$o.txt 2>&1
  echo "spmv pellr overlap $o exit $? after $SECONDS s"; SECONDS=0
done
timeout 140 build/bench/bench_spmv -matrices lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13 \
  -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.3 -matdir .gpu/matrices -time_limit 125 -csv $r/spmv-auto.csv $dll > $r/spmv-auto.txt 2>&1
echo "spmv auto exit $? after $SECONDS s"
python3 - $r <<'PY'
import csv, sys, math
r = sys.argv[1]
def t(f, fmt='pellrcuda'):
    return {x['matrix']: float(x['time_s']) for x in csv.DictReader(open(f)) if x['status'] == 'ok' and x['format'] == fmt and x['kind'] != 'reference'}
on, off = t(r + '/spmv-pellr-overlap1.csv'), t(r + '/spmv-pellr-overlap0.csv')
for m in on: print('%-24s pellr overlap on %7.1f off %7.1f us  x %.2f' % (m, 1e6*on[m], 1e6*off.get(m, float('nan')), off.get(m, float('nan'))/on[m]))
rows = list(csv.DictReader(open(r + '/spmv-auto.csv')))
d = {}
for x in rows:
    if x['status'] == 'ok' and x['kind'] != 'reference': d.setdefault(x['matrix'], {})[x['format']] = (float(x['time_s']), x['note'])
g1 = g2 = 0; n = 0
for m, v in d.items():
    if not all(k in v for k in ('aijcusparse', 'sellcuda', 'pellrcuda')): continue
    a, s, p = v['aijcusparse'][0], v['sellcuda'][0], v['pellrcuda'][0]
    fmt = [y for y in v['pellrcuda'][1].split() if y.startswith('format=')]
    print('%-24s aij %7.1f sell %7.1f pellr %7.1f us  x aij %.2f  x better %.2f  %s' % (m, 1e6*a, 1e6*s, 1e6*p, a/p, min(a, s)/p, fmt[0] if fmt else ''))
    g1 += math.log(a/p); g2 += math.log(min(a, s)/p); n += 1
if n: print('geometric mean over %d: x aijcusparse %.3f, x better of the two %.3f' % (n, math.exp(g1/n), math.exp(g2/n)))
PY
