# pellrcuda auto against aijcusparse and sellcuda on the 15 large matrices: session 16's final revision (its
# final_auto.py) and session 19's job 3 (13090d5), each in one run with the peers. Writes spmv_auto_session19.png.
import csv, math, re, sys, os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '2026-12-01-H200-session16'))
here = os.path.dirname(os.path.abspath(__file__))

def session19():
    d = {}
    for x in csv.DictReader(open(os.path.join(here, 'job3', 'spmv-auto.csv'))):
        if x['status'] == 'ok' and x['kind'] != 'reference':
            m = re.search(r'format=(\w+)', x['note'])
            d.setdefault(x['matrix'], {})[x['format']] = (float(x['time_s']), m.group(1) if m else '')
    return d

def session16():
    cwd = os.getcwd()
    os.chdir(os.path.join(here, '..', '2026-12-01-H200-session16'))
    try:
        import final_auto
        return final_auto.final_table()
    finally:
        os.chdir(cwd)

if __name__ == '__main__':
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    d19, d16 = session19(), session16()
    names = list(d19)
    s16 = [d16[m]['aijcusparse'][0] / d16[m]['pellrcuda'][0] for m in names]
    s19 = [d19[m]['aijcusparse'][0] / d19[m]['pellrcuda'][0] for m in names]
    sell = [d19[m]['aijcusparse'][0] / d19[m]['sellcuda'][0] for m in names]
    g = lambda l: math.exp(sum(map(math.log, l)) / len(l))
    fig, ax = plt.subplots(figsize=(12, 4.8))
    w = 0.27
    xs = range(len(names))
    ax.bar([x - w for x in xs], sell, w, label='sellcuda (session 19)', color='#bbbbbb')
    ax.bar(list(xs), s16, w, label='pellrcuda auto, session 16 (geomean %.3f)' % g(s16), color='#88aadd')
    ax.bar([x + w for x in xs], s19, w, label='pellrcuda auto, session 19 (geomean %.3f)' % g(s19), color='#2255aa')
    for x, m in zip(xs, names):
        ax.text(x + w, s19[x] + 0.02, d19[m]['pellrcuda'][1], ha='center', fontsize=7, rotation=90)
    ax.axhline(1.0, color='k', lw=0.8)
    ax.axhline(1.3, color='r', lw=0.8, ls='--', label='goal 1.3x (geomean)')
    ax.set_xticks(list(xs))
    ax.set_xticklabels(names, rotation=35, ha='right', fontsize=8)
    ax.set_ylabel('speedup over aijcusparse (SpMV)')
    ax.set_title('H200, MatMult, medians of >= 30 products (CUDA events); the format auto chose above the bars')
    ax.set_ylim(0, 2.0)
    ax.legend(fontsize=8, loc='upper left', ncol=2)
    fig.tight_layout()
    fig.savefig(os.path.join(here, 'spmv_auto_session19.png'), dpi=110)
    print('geomean session 16 %.3f, session 19 %.3f' % (g(s16), g(s19)))
