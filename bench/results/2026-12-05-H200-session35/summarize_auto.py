#!/usr/bin/env python3
"""job1: pellrcuda auto (built-in version-4 model) beside aijcusparse and sellcuda in one run, and auto with the
previous built-in model (version 2); SpMV device time per product (us)."""
import csv, os
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'job1')
def load(f):
    t = {}
    for r in csv.DictReader(open(os.path.join(here, f))):
        if r['status'] != 'ok' or r['op'] != 'mult' or 'reference' in r['note']: continue
        fmt = ''
        for tok in r['note'].split():
            if tok.startswith('format='): fmt = tok[7:]
        t[(r['matrix'], r['format'])] = (float(r['time_s']) * 1e6, fmt)
    return t
a, v2 = load('spmv-auto-a.csv'), load('spmv-auto-v2.csv')
mats = list(dict.fromkeys(k[0] for k in a))
print('| matrix | aijcusparse | sellcuda | auto (v4) | chosen | x better peer | auto (v2) | v2 chose |')
print('|---|---|---|---|---|---|---|---|')
worst = 9
for m in mats:
    c, s, p = a[(m, 'aijcusparse')][0], a[(m, 'sellcuda')][0], a[(m, 'pellrcuda')]
    q = v2.get((m, 'pellrcuda'), (float('nan'), ''))
    worst = min(worst, min(c, s) / p[0])
    print('| %s | %.1f | %.1f | %.1f | %s | %.2f | %.1f | %s |' % (m, c, s, p[0], p[1], min(c, s) / p[0], q[0], q[1]))
print('\nlowest auto speedup over the better of aijcusparse and sellcuda: %.3f' % worst)
