#!/usr/bin/env python3
"""Plot of session 14 (run from this folder): order_threads.png, the gpurcm threads backend at 16 threads against its
serial backend in the same command: job 3 (the shared-list level root finder of before), job 5 (owner computes, one
index range per thread, the level size summed in the barrier) and job 6 (the final revision, all peers in one run)."""
import csv
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt

def times(f):
    t = {}
    for r in csv.DictReader(open(f)):
        if r.get('status', 'ok') == 'ok': t[(r['matrix'], r['ordering'])] = float(r['time_s'])
    return t

mats = ['lap2d5_1000', 'lap3d7_100', 'lap3d27_100', 'lap2d5_2000', 'lap3d7_160']
j3, j5r, j5, j6 = times('job3/order.csv'), times('job5/order-ref.csv'), times('job5/order-ob1.csv'), times('job6/order.csv')
series = [('job 3: before', [j3[(m, 'gpurcm@serial')] / j3[(m, 'gpurcm@threads:16')] for m in mats]),
          ('job 5: owner computes', [j5r[(m, 'gpurcm@serial')] / j5[(m, 'gpurcm@threads:16')] for m in mats]),
          ('job 6: final revision', [j6[(m, 'gpurcm@serial')] / j6[(m, 'gpurcm@threads:16')] for m in mats])]
fig, ax = plt.subplots(figsize=(8, 4))
w = 0.27
for i, (name, v) in enumerate(series):
    ax.bar([k + (i - 1) * w for k in range(len(mats))], v, w, label=name)
ax.axhline(6, color='k', ls='--', lw=1, label='goal 6x')
ax.set_xticks(range(len(mats)))
ax.set_xticklabels(mats)
ax.set_ylabel('serial time / 16-thread time')
ax.set_title('gpurcm threads backend, 16 threads, H200 host (16 cores)')
ax.legend(fontsize=8)
fig.tight_layout()
fig.savefig('order_threads.png', dpi=110)
