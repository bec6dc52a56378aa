# How far two H200 calibrations (different machines and days) agree on the same matrix and format: the fraction within
# 5% and the quartiles of the ratio, by size. csr is cuSPARSE (unchanged between them); the other formats' kernels and
# the calibration's warm-up changed in between (14491d9, 5301be5). Run from this folder: python3 reproducibility.py
import csv
R = '..'
def load(p):
    d = {}
    for r in csv.DictReader(open(p)):
        if r['status'] == 'ok': d[(r['matrix'], r['format'])] = float(r['time_s'])
    return d
a = load(R + '/2026-11-29-H200-calibration2/calibration.csv')   # e2319f8, 2026-11-29
b = load(R + '/2026-12-01-H200-session13/job4/calibration.csv')  # bd20988, 2026-12-01
rows = {r['matrix']: int(r['rows']) for r in csv.DictReader(open(R + '/2026-12-01-H200-session13/job4/calibration.csv'))}
print('format  rows            n  within 5%  ratio quartiles (calibration2 / session 13)')
for fmt in ['csr', 'ellr', 'sell', 'pellr']:
    for lo, hi, lab in [(0, 2**14, '< 2^14'), (2**14, 2**20, '2^14-2^20'), (2**20, 2**62, '>= 2^20')]:
        ks = [k for k in a if k[1] == fmt and k in b and lo <= rows[k[0]] < hi]
        r = sorted(a[k] / b[k] for k in ks)
        w = sum(abs(x - 1) <= 0.05 for x in r) / len(r)
        print('%-7s %-10s %5d  %8.2f   %.3f %.3f %.3f' % (fmt, lab, len(r), w, r[len(r) // 4], r[len(r) // 2], r[3 * len(r) // 4]))
