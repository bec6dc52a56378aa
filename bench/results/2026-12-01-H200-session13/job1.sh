#!/bin/bash
# session 13, job 1 (nvidia-h200): the complete make check (block rows of pellrcuda in chunks of 4096 entries, and the
# session-12 review commits never built on a GPU), then SpMV of the 15 large matrices: aijcusparse, sellcuda and pellrcuda
# auto (built-in H200 model) in one run, and pellrcuda with the format forced to pellr and to csr on the irregular ones.
# Run from the repository root with .gpu carried:  bash bench/results/2026-12-01-H200-session13/job1.sh <revision>
set -u
out=${OUT:-$PWD/gpu-out}; mkdir -p "$out"; r=$PWD/gpu-job1; rm -rf $r; mkdir -p $r
trap 'tar czf "$out/job1.tgz" -C "$r" .' EXIT
. .gpu/setup.sh
{ echo "# revision $1, $(date -u)"; nvidia-smi -L; } > $r/info.txt
SECONDS=0
make -j16 > "$r/build.log" 2>&1 && make -C bench -j16 >> "$r/build.log" 2>&1 || { tail -n 40 "$r/build.log"; exit 1; }
echo "build after $SECONDS s"; SECONDS=0
dll="-dll_append $PWD/build/lib/libpetscsparsegpu.so"
timeout 200 make check TESTARGS="--timeout 150 --jobs 8" > "$r/check.log" 2>&1
echo "# make check exit status $? after $SECONDS s" >> "$r/check.log"; tail -n 2 "$r/check.log"; grep "^not ok" "$r/check.log" | head -20; SECONDS=0
timeout 140 build/bench/bench_spmv -matrices lap2d:1000,lap3d:100,lap3d27:100,powerlaw:1M:16,lap2d:2000,lap3d:160,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,lap2d:4000,lap3d:252,powerlaw:4M:8,lap3d27:160,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13 \
  -formats aijcusparse,sellcuda,pellrcuda -ops mult -case_time 0.3 -matdir .gpu/matrices -time_limit 125 -csv $r/spmv-auto.csv $dll > $r/spmv-auto.txt 2>&1
echo "spmv auto exit $? after $SECONDS s"; SECONDS=0
I=powerlaw:1M:16,powerlaw:4M:8,blkdiag:bcsstk17:10M,kron:pde900:jpwh_991,blkdiag:e30r4000:10M,blkdiag:bayer10:10M,kron:bcsstk01:bcsstk13
for f in pellr csr; do
  timeout 70 build/bench/bench_spmv -matrices $I -formats pellrcuda -ops mult,multtranspose -case_time 0.2 -matdir .gpu/matrices -time_limit 60 -csv $r/spmv-$f.csv $dll -mat_pellr_format $f > $r/spmv-$f.txt 2>&1
  echo "spmv $f exit $? after $SECONDS s"; SECONDS=0
done
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
grep -h -E "mult" $r/spmv-pellr.txt $r/spmv-csr.txt | cut -c1-110
