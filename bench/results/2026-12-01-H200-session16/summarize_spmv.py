# Summary of a job folder: pellr forced with overlap on/off (if present), and auto against the peers.
import csv, sys, math, os
r = sys.argv[1]
def t(f, fmt='pellrcuda'):
    return {x['matrix']: float(x['time_s']) for x in csv.DictReader(open(f)) if x['status'] == 'ok' and x['format'] == fmt and x['kind'] != 'reference'}
if os.path.exists(r + '/spmv-pellr-overlap1.csv'):
  on, off = t(r + '/spmv-pellr-overlap1.csv'), t(r + '/spmv-pellr-overlap0.csv')
  for m in on: print('%-24s pellr overlap on %7.1f off %7.1f us  x %.2f' % (m, 1e6*on[m], 1e6*off.get(m, float('nan')), off.get(m, float('nan'))/on[m]))
rows = list(csv.DictReader(open(r + '/' + (sys.argv[2] if len(sys.argv) > 2 else 'spmv-auto.csv'))))
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
