#!/usr/bin/env python3
"""Medians of plan_times.csv (plan_times.sh): the refactorization plan and the first refactorization, the library
before (old) and after (new, 1 and 2 setup threads). Usage: python3 summarize_plan.py plan_times.csv [--plot out.png]"""
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
if len(sys.argv) > 3 and sys.argv[2] == '--plot':
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    labels = ['%s\n%s %s' % (c[0].replace('lap', ''), c[1].replace('subtree_', ''), c[2]) for c in cases]
    old = [med(c, 'old', '1', 'plan_s') for c in cases]
    new1 = [med(c, 'new', '1', 'plan_s') for c in cases]
    new2 = [med(c, 'new', '2', 'plan_s') for c in cases]
    x = range(len(cases))
    fig, ax = plt.subplots(figsize=(13, 4.5))
    w = 0.27
    ax.bar([i - w for i in x], old, w, label='session 33 (one thread)')
    ax.bar(list(x), new1, w, label='session 34, 1 setup thread')
    ax.bar([i + w for i in x], new2, w, label='session 34, 2 setup threads')
    ax.set_xticks(list(x))
    ax.set_xticklabels(labels, fontsize=7)
    ax.set_ylabel('refactorization plan (s)')
    ax.set_title('subtree_ilu refactorization plan, 2-vCPU development VM (median of 2; ICC order still sequential here)')
    ax.legend()
    fig.tight_layout()
    fig.savefig(sys.argv[3], dpi=110)
