#!/usr/bin/env python3
"""Session 56 summary (gpurcm cuda end to end, ms). A/B jobs 1, 3, 4: one binary, the developer option off (e0) and on
(e1) alternated, two rounds of 9 repetitions each; the table gives the median of the rounds' medians and each round's.
Job 1 also ran gpurcm beside its peers (order.csv). Writes summary.md beside this file.
  python3 summarize.py"""
import csv, glob, os, statistics as st

here = os.path.dirname(os.path.abspath(__file__))
what = {'job1': '-mat_gpurcm_cuda_edge_rows (each neighbour\'s row start and length, 8 bytes an entry; reverted)',
        'job3': '-mat_gpurcm_cuda_ell with the ELL copy read by the level BFS and the numbering',
        'job4': '-mat_gpurcm_cuda_ell with the ELL copy read by the numbering only (the final code)'}
out = ['# Session 56 summary (gpurcm cuda end to end, ms; see NOTE.md)', '']
for job in sorted(glob.glob(os.path.join(here, 'job*/'))):
    name = os.path.basename(job.rstrip('/'))
    files = sorted(glob.glob(job + 'ab-e*-r*.csv'))
    info = open(job + 'info.txt').read().splitlines()
    gpu = next((l.split(':')[1].split('(')[0].strip() for l in info if l.startswith('GPU 0')), '?')
    if files:
        t = {}
        for f in files:
            e, rnd = os.path.basename(f)[3:5], os.path.basename(f)[6:8]
            for row in csv.DictReader(open(f)):
                if row['status'] == 'ok':
                    t.setdefault((row['matrix'], e), []).append(1e3 * float(row['time_s']))
        out += [f'## {name}: {what.get(name, "?")} ({gpu}; {info[0].lstrip("# ")})', '',
                '| matrix | off (e0) | on (e1) | off/on | rounds off | rounds on |', '|---|---|---|---|---|---|']
        for m in dict.fromkeys(k[0] for k in t):
            a, b = t.get((m, 'e0'), []), t.get((m, 'e1'), [])
            if a and b:
                out.append(f'| {m} | {st.median(a):.2f} | {st.median(b):.2f} | {st.median(a) / st.median(b):.3f} | '
                           f'{", ".join("%.2f" % x for x in a)} | {", ".join("%.2f" % x for x in b)} |')
        out.append('')
    if os.path.exists(job + 'order.csv'):
        rows = [r for r in csv.DictReader(open(job + 'order.csv')) if r['status'] == 'ok']
        ords = list(dict.fromkeys(r['ordering'] for r in rows))
        out += [f'## {name}: gpurcm beside its peers ({gpu})', '', '| matrix | ' + ' | '.join(ords) + ' | rcm / cuda | cuSOLVER / cuda | serial / 16 threads |',
                '|' + '---|' * (len(ords) + 4)]
        for m in dict.fromkeys(r['matrix'] for r in rows):
            d = {r['ordering']: 1e3 * float(r['time_s']) for r in rows if r['matrix'] == m}
            f = lambda a, b: f'{d[a] / d[b]:.1f}' if a in d and b in d else ''
            out.append(f'| {m} | ' + ' | '.join(f'{d[o]:.2f}' if o in d else '' for o in ords) +
                       f' | {f("rcm", "gpurcm@cuda")} | {f("cusolver_rcm", "gpurcm@cuda")} | {f("gpurcm@serial", "gpurcm@threads:16")} |')
        out.append('')
open(os.path.join(here, 'summary.md'), 'w').write('\n'.join(out))
print('\n'.join(out))
