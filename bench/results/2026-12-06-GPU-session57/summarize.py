#!/usr/bin/env python3
"""Session 57: job 1's A/B of -mat_gpurcm_cuda_fit_warps (medians of 9 repetitions per round, rounds alternated),
written to summary.md."""
import csv, os

here = os.path.dirname(os.path.abspath(__file__))
j1 = os.path.join(here, 'job1')
t = {}
order = []
for fit in (0, 1):
    for rd in (1, 2):
        for r in csv.DictReader(open(os.path.join(j1, f'order-fit{fit}-r{rd}.csv'))):
            if r['matrix'] not in order:
                order.append(r['matrix'])
            t.setdefault((r['matrix'], fit), []).append(1e3 * float(r['time_s']))
            assert r['identical_to_rcm'] in ('yes', '1', 'True', 'true'), r
lines = ['# Session 57 summary (written by summarize.py)', '',
         'Job 1 (H100, 9ae3051): `bench_order -matrices lap2d:1000,lap2d:500,lap3d:100,lap3d27:100,lap3d:160 -orderings',
         'gpurcm@cuda -reps 9 -cusolver_max_nnz 0 -mat_gpurcm_cuda_fit_warps 0|1`, off and on alternated, 2 rounds; ms',
         '(each round the median of 9); every ordering identical to `rcm`.', '',
         '| mesh | fit off (r1, r2) | fit on (r1, r2) | speedup (means) |', '|---|---|---|---|']
for m in order:
    a, b = t[(m, 0)], t[(m, 1)]
    lines.append(f'| {m} | {a[0]:.2f}, {a[1]:.2f} | {b[0]:.2f}, {b[1]:.2f} | {sum(a) / sum(b):.3f}× |')
open(os.path.join(here, 'summary.md'), 'w').write('\n'.join(lines) + '\n')
print('\n'.join(lines))
