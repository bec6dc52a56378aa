# pellrcuda auto against aijcusparse and sellcuda on the 15 large matrices: the final run of session 22 (job 4; job 2
# if given -job job2) with the peers in one command, and job 1's pellrcuda with the diagonal slices off (the same
# build otherwise; its speedups against job 1's aijcusparse). Prints the table of the README and writes spmv_auto_session22.png.
import csv, math, re, sys, os
here = os.path.dirname(os.path.abspath(__file__))
job = sys.argv[sys.argv.index('-job') + 1] if '-job' in sys.argv else 'job4'

def read(path):
    d = {}
    for x in csv.DictReader(open(path)):
        if x['status'] == 'ok' and x['kind'] != 'reference':
            f = re.search(r'format=(\w+)', x['note'])
            b = re.search(r'build_s=([0-9.e+-]+)', x['note'])
            d.setdefault(x['matrix'], {})[x['format']] = (float(x['time_s']), f.group(1) if f else '', float(b.group(1)) if b else float('nan'), float(x['copy_ratio']), float(x['mem_ratio']))
    return d

g = lambda l: math.exp(sum(map(math.log, l)) / len(l))
final, off, peers1 = read(os.path.join(here, job, 'spmv-auto.csv')), read(os.path.join(here, 'job1', 'spmv-auto-diagoff.csv')), read(os.path.join(here, 'job1', 'spmv-auto.csv'))
names = list(final)
print('| matrix | aijcusparse | sellcuda | pellrcuda auto | diagonal slices off (job 1) | vs aijcusparse | vs better peer | % copy bw | GPU build (SpMVs) | memory / CSR |')
print('|---|---|---|---|---|---|---|---|---|---|')
va, vb, vo = [], [], []
for m in names:
    a, s, p, o = final[m]['aijcusparse'][0], final[m]['sellcuda'][0], final[m]['pellrcuda'], off[m]['pellrcuda']
    va.append(a / p[0]); vb.append(min(a, s) / p[0]); vo.append(peers1[m]['aijcusparse'][0] / o[0]) # (off against job 1's aijcusparse, same job)
    print('| %s | %.1f µs | %.1f µs | %.1f µs (%s) | %.1f µs (%s) | %.2f× | %.2f× | %.0f%% | %.2f ms (%.1f) | %.3f |' % (m, a * 1e6, s * 1e6, p[0] * 1e6, p[1], o[0] * 1e6, o[1], a / p[0], min(a, s) / p[0], 100 * p[3], p[2] * 1e3, p[2] / p[0], p[4]))
print('geomean vs aijcusparse %.3f (diagonal slices off: %.3f), vs the better peer %.3f, lowest %.3f; build <= 10 SpMVs on %d of %d; memory <= 1.15 on %d of %d' % (g(va), g(vo), g(vb), min(vb), sum(final[m]['pellrcuda'][2] <= 10 * final[m]['pellrcuda'][0] for m in names), len(names), sum(final[m]['pellrcuda'][4] <= 1.15 for m in names), len(names)))
if '-plot' in sys.argv:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    sell = [final[m]['aijcusparse'][0] / final[m]['sellcuda'][0] for m in names]
    fig, ax = plt.subplots(figsize=(12, 4.8))
    w, xs = 0.27, range(len(names))
    ax.bar([x - w for x in xs], sell, w, label='sellcuda', color='#bbbbbb')
    ax.bar(list(xs), vo, w, label='pellrcuda auto, diagonal slices off (geomean %.3f)' % g(vo), color='#88aadd')
    ax.bar([x + w for x in xs], va, w, label='pellrcuda auto, session 22 (geomean %.3f)' % g(va), color='#2255aa')
    for x, m in zip(xs, names):
        ax.text(x + w, va[x] + 0.02, final[m]['pellrcuda'][1], ha='center', fontsize=7, rotation=90)
    ax.axhline(1.0, color='k', lw=0.8)
    ax.axhline(1.3, color='r', lw=0.8, ls='--', label='goal 1.3x (geomean)')
    ax.set_xticks(list(xs))
    ax.set_xticklabels(names, rotation=35, ha='right', fontsize=8)
    ax.set_ylabel('speedup over aijcusparse (SpMV)')
    ax.set_title('H200, MatMult, medians of >= 30 products (CUDA events); the format auto chose above the bars')
    ax.set_ylim(0, 2.5)
    ax.legend(fontsize=8, loc='upper left', ncol=2)
    fig.tight_layout()
    fig.savefig(os.path.join(here, 'spmv_auto_session22.png'), dpi=110)
