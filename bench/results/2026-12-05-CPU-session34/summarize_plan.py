#!/usr/bin/env python3
"""Medians of plan_times.csv (plan_times.sh): the refactorization plan and the first refactorization, the library
before (old) and after (new, 1 and 2 setup threads). Usage: python3 summarize_plan.py plan_times.csv"""
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
key = lambda r: (r['matrix'], r['pc'], r['ordering'])
cases = []
for r in rows:
    if key(r) not in cases: cases.append(key(r))
def med(case, lab, th, col):
    v = [float(r[col]) for r in rows if key(r) == case and r['lib'] == lab and r['setup_threads'] == th and r[col]]
    return statistics.median(v) if v else float('nan')
print('| matrix | pc | ordering | plan old (s) | new, 1 thread | new, 2 threads | old / new 2 | first refactorization old | new, 2 threads |')
print('|---|---|---|---|---|---|---|---|---|')
for c in cases:
    po, p1, p2 = med(c, 'old', '1', 'plan_s'), med(c, 'new', '1', 'plan_s'), med(c, 'new', '2', 'plan_s')
    fo, f2 = med(c, 'old', '1', 'refactor_first_s'), med(c, 'new', '2', 'refactor_first_s')
    print('| %s | %s | %s | %.3f | %.3f | %.3f | %.2fx | %.3f | %.3f |' % (c[0], c[1], c[2], po, p1, p2, po / p2, fo, f2))
