#!/usr/bin/env python3
"""Feature extraction time (bench_calibrate -feature_times, this CPU) against the GPU conversion time of the same
matrix (the csr format's convert_s in session 21's H200 calibration: upload of the CSR and build, minus one product),
by size class.  Usage: python3 feature_cost.py [--calibration <calibration.csv>] feature_times_*.csv"""
import csv, statistics, sys, os
here = os.path.dirname(os.path.abspath(__file__))
cal = os.path.join(here, '..', '2026-12-02-H200-session21', 'job1', 'calibration.csv')
if len(sys.argv) > 2 and sys.argv[1] == '--calibration':
    cal = sys.argv[2]
    del sys.argv[1:3]
tc = {r['matrix']: float(r['convert_s']) for r in csv.DictReader(open(cal)) if r['status'] == 'ok' and r['format'] == 'csr'}
for f in sys.argv[1:]:
    ft = list(csv.DictReader(open(f)))
    for lo, hi, lab in [(0, 1 << 16, 'below 2^16 rows'), (1 << 16, 1 << 20, '2^16..2^20 rows'), (1 << 20, 1 << 40, 'from 2^20 rows')]:
        v = [float(r['features_s']) / tc[r['matrix']] for r in ft if r['matrix'] in tc and tc[r['matrix']] > 0 and lo <= int(r['rows']) < hi]
        print('%-34s %-16s %3d matrices: features / conversion median %.3f, max %.3f, min %.4f' % (os.path.basename(f), lab, len(v), statistics.median(v), max(v), min(v)))
