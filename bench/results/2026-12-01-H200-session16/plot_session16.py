# Bar plot of pellrcuda auto against aijcusparse and sellcuda on the 15 large matrices (the table of final_auto.py) and
# the effect of the compact columns (job 5: auto against off). Writes spmv_auto_session16.png.
import csv, math
import matplotlib
matplotlib.use('Agg')
import matplotlib.pyplot as plt
from final_auto import final_table, THREE
d = final_table()
names = list(d)
sp_a = [d[m]['aijcusparse'][0] / d[m]['pellrcuda'][0] for m in names]
sp_s = [min(d[m]['sellcuda'][0] / d[m]['pellrcuda'][0], 3.0) for m in names]
fig, ax = plt.subplots(1, 2, figsize=(14, 5), gridspec_kw={'width_ratios': [3, 1]})
x = range(len(names))
ax[0].bar([i - 0.2 for i in x], sp_a, 0.4, label='vs aijcusparse (cuSPARSE CSR)')
ax[0].bar([i + 0.2 for i in x], sp_s, 0.4, label='vs sellcuda (capped at 3)')
ax[0].axhline(1.0, color='k', lw=0.8); ax[0].axhline(1.3, color='r', ls='--', lw=0.8, label='issue goal 1.3x (geometric mean)')
ax[0].set_xticks(list(x)); ax[0].set_xticklabels([n + (' *' if d[n]['pellrcuda'][2] == 'job5' else '') for n in names], rotation=60, ha='right', fontsize=8)
ax[0].set_ylabel('speedup of pellrcuda auto'); ax[0].legend(fontsize=8)
ax[0].set_title('SpMV, H200, revision 3d35cc8: geometric mean %.3fx aijcusparse (* = 16-bit columns)' % math.exp(sum(map(math.log, sp_a)) / len(sp_a)), fontsize=9)
t = {}
for c in ('auto', 'off'):
    for r in csv.DictReader(open('job5/spmv-compact%s.csv' % c)):
        if r['status'] == 'ok' and r['format'] == 'pellrcuda': t.setdefault(r['matrix'], {})[c] = float(r['time_s'])
ms = list(t)
ax[1].bar(range(len(ms)), [t[m]['off'] / t[m]['auto'] for m in ms])
ax[1].axhline(1.0, color='k', lw=0.8); ax[1].set_ylim(0.9, 1.1)
ax[1].set_xticks(range(len(ms))); ax[1].set_xticklabels([m if m in THREE else m + ' (32-bit in both: noise)' for m in ms], rotation=60, ha='right', fontsize=8)
ax[1].set_title('compact columns: auto vs off (job 5)', fontsize=9); ax[1].set_ylabel('time off / time auto')
fig.tight_layout(); fig.savefig('spmv_auto_session16.png', dpi=110)
