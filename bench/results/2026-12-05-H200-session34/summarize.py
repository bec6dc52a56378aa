#!/usr/bin/env python3
"""Job 1 of session 34 (run in session 35): subtree_ilu's first refactorization (which makes the refactorization plan)
and the steady ones, with 16 and 1 setup threads, beside PETSc's cuSPARSE refactorization, ms. Also session 29's first
refactorizations (job 3 there, sequential plan) where it measured them."""
import csv, os, re
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'job1')
def rows(f):
    return list(csv.DictReader(open(os.path.join(here, f))))
def first(r):
    m = re.search(r'first refactor ([0-9.e+-]+) s', r['note'])
    return float(m.group(1)) if m else float('nan')
s29 = {('lap2d5_1000', 'subtree_ilu'): 137, ('lap2d5_1000', 'subtree_icc'): 118, ('lap3d7_100', 'subtree_ilu'): 191,
       ('lap3d7_100', 'subtree_icc'): 156, ('lap2d5_2000', 'subtree_ilu'): 484, ('lap2d5_2000', 'subtree_icc'): 404,
       ('lap3d7_160', 'subtree_ilu'): 723, ('lap3d7_160', 'subtree_icc'): 739}
petsc = {(r['matrix'], r['pc'], r['ordering']): r for r in rows('refactor-petsc.csv')}
print('| matrix | ordering | pc | 1st refactor, 16 threads | 1 thread | 1 / 16 | session 29 (natural) | steady refactor | PETSc cuSPARSE refactor | setup 16 threads | PETSc setup |')
print('|---|---|---|---|---|---|---|---|---|---|---|')
for o in ['natural', 'rcm']:
    t16 = rows('refactor-%s-threads16.csv' % o)
    t1 = {(r['matrix'], r['pc']): r for r in rows('refactor-%s-threads1.csv' % o)}
    for r in t16:
        r1 = t1[(r['matrix'], r['pc'])]
        p = petsc[(r['matrix'], r['pc'].replace('subtree_', '') + '_cusparse', o)]
        a, b = first(r) * 1e3, first(r1) * 1e3
        old = s29.get((r['matrix'], r['pc'])) if o == 'natural' else None
        print('| %s | %s | %s | %.0f | %.0f | %.2f | %s | %.1f | %.1f | %.3f s | %.3f s |' % (r['matrix'], o, r['pc'], a, b, b / a,
              '%d' % old if old else '', float(r['refactor_s']) * 1e3, float(p['refactor_s']) * 1e3, float(r['setup_s']), float(p['setup_s'])))
