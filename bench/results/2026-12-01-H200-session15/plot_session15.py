#!/usr/bin/env python3
"""Plot of session 15 (run from this folder): order_speedup.png, gpurcm cuda's end-to-end speedup over PETSc's rcm
measured in the same command, session 14's final run (../2026-12-01-H200-session14/job6) against this session's
final run (job6; 16M-row meshes from job6/order-16M.csv), with the goal of issue 3 (20x)."""
import csv
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt

def times(f):
    t = {}
    for r in csv.DictReader(open(f)):
        if r.get('status', 'ok') == 'ok': t[(r['matrix'], r['ordering'])] = float(r['time_s'])
    return t

s14 = times('../2026-12-01-H200-session14/job6/order.csv')
s15 = times('job6/order.csv')
s15.update(times('job6/order-16M.csv'))
mats = ['lap2d5_1000', 'lap3d7_100', 'lap3d27_100', 'lap2d5_2000', 'lap3d7_160', 'lap3d27_160', 'lap2d5_4000', 'lap3d7_252']
def ratio(t, m):
    return t[(m, 'rcm')] / t[(m, 'gpurcm@cuda')] if (m, 'rcm') in t and (m, 'gpurcm@cuda') in t else 0.0
fig, ax = plt.subplots(figsize=(9, 4))
w = 0.4
ax.bar([k - w / 2 for k in range(len(mats))], [ratio(s14, m) for m in mats], w, label='session 14 (12dc2e0)')
ax.bar([k + w / 2 for k in range(len(mats))], [ratio(s15, m) for m in mats], w, label='session 15 (048f276)')
ax.axhline(20, color='k', ls='--', lw=1, label='goal 20x')
ax.set_xticks(range(len(mats)))
ax.set_xticklabels(mats, rotation=20, fontsize=8)
ax.set_ylabel('PETSc rcm time / gpurcm cuda time')
ax.set_title('gpurcm cuda end to end against PETSc rcm, same command, H200 (0 = not run)')
ax.legend(fontsize=8)
fig.tight_layout()
fig.savefig('order_speedup.png', dpi=110)
