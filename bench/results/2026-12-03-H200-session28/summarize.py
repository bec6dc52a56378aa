#!/usr/bin/env python3
"""Session 28: pellrcuda auto against aijcusparse and sellcuda, and the GPU build in products, from a bench_spmv csv
(usage: python3 summarize.py job2/spmv-auto.csv)."""
import csv, math, re, sys
rows = {}
for r in csv.DictReader(open(sys.argv[1])):
    if r['kind'] == 'reference' or r['status'] != 'ok':
        continue
    rows.setdefault(r['matrix'], {})[r['format']] = r
print('| matrix | aijcusparse | sellcuda | pellrcuda auto | vs aijcusparse | vs better peer | first GPU build (products) | GPU rebuild, median of 5 (products) | memory / CSR |')
print('|---|---|---|---|---|---|---|---|---|')
ga = gb = 0.0; n = 0; first_ok = re_ok = 0
for m, f in rows.items():
    a, s, p = (float(f[k]['time_s']) for k in ('aijcusparse', 'sellcuda', 'pellrcuda'))
    note = f['pellrcuda']['note']
    b = float(re.search(r'build_s=(\S+)', note).group(1)); rb = float(re.search(r'rebuild_s=(\S+)', note).group(1))
    fmt = re.search(r'format=(\S+)', note).group(1)
    ga += math.log(a / p); gb += math.log(min(a, s) / p); n += 1
    first_ok += b / p <= 10; re_ok += rb / p <= 10
    print(f"| {m} | {a*1e6:.1f} µs | {s*1e6:.1f} µs | {p*1e6:.1f} µs ({fmt}) | {a/p:.2f}× | {min(a,s)/p:.2f}× | {b*1e3:.3f} ms ({b/p:.1f}) | {rb*1e3:.3f} ms ({rb/p:.1f}) | {float(f['pellrcuda']['mem_ratio']):.3f} |")
print(f"\ngeometric mean over {n}: {math.exp(ga/n):.3f}x aijcusparse, {math.exp(gb/n):.3f}x the better peer; "
      f"first build <= 10 products on {first_ok} of {n}, rebuild on {re_ok} of {n}")
