#!/usr/bin/env python3
"""Session 54 summary: gpurcm cuda end to end (bench_order), new against base (9ea8b05) built in the same job, rounds
alternated; medians over the rounds of each run's median (ms). Writes summary.md beside this file."""
import csv, glob, os, re, statistics as st

here = os.path.dirname(os.path.abspath(__file__))
out = ['# Session 54 summary (gpurcm cuda end to end, ms, with the shared IS of 1fe831d, reverted in 5bd0104: see NOTE.md; medians over rounds of the per-run medians; base = 9ea8b05 built in the same job)', '']
for job in sorted(glob.glob(os.path.join(here, 'job*/'))):
    files = sorted(glob.glob(job + 'order-*-r*.csv'))
    if not files:
        continue
    t, first, rcm = {}, {}, {}
    for f in files:
        v = re.search(r'order-(\w+)-r\d+\.csv', f).group(1)
        for row in csv.DictReader(open(f)):
            if row['status'] != 'ok':
                continue
            key = (row['matrix'], v, row['ordering'])
            if row['ordering'] == 'rcm':
                rcm.setdefault(row['matrix'], []).append(1e3 * float(row['time_s']))
                continue
            t.setdefault(key, []).append(1e3 * float(row['time_s']))
            first.setdefault(key, []).append(1e3 * float(row['first_s']))
    info = open(job + 'info.txt').read().splitlines()
    gpu = next((l.split(':')[1].split('(')[0].strip() for l in info if l.startswith('GPU 0')), '?')
    out += [f'## {os.path.basename(job.rstrip("/"))} ({gpu}; {info[0].lstrip("# ")})', '',
            '| matrix | ordering | rounds | base | new | base/new | first call base | first call new | PETSc rcm | rcm / new |',
            '|---|---|---|---|---|---|---|---|---|---|']
    for (m, v, o) in sorted(k for k in t if k[1] == 'new'):
        n, b = t[(m, 'new', o)], t.get((m, 'base', o))
        mb = st.median(b) if b else float('nan')
        r = st.median(rcm[m]) if m in rcm else float('nan')
        out.append(f'| {m} | {o} | {len(n)} | {mb:.2f} | {st.median(n):.2f} | {mb / st.median(n):.2f} | '
                   f'{st.median(first.get((m, "base", o), [float("nan")])):.1f} | {st.median(first[(m, "new", o)]):.1f} | {r:.1f} | {r / st.median(n):.1f}× |')
    out.append('')
for job in sorted(glob.glob(os.path.join(here, 'job*/'))):
    files = sorted(glob.glob(job + 'first-*-r*-*.csv'))
    if not files:
        continue
    first, steady = {}, {}
    for f in files:
        v = re.search(r'first-(\w+?)-r\d+-', f).group(1)
        for row in csv.DictReader(open(f)):
            if row['status'] == 'ok' and row['ordering'] != 'rcm':
                first.setdefault((row['matrix'], v), []).append(1e3 * float(row['first_s']))
                steady.setdefault((row['matrix'], v), []).append(1e3 * float(row['time_s']))
    out += [f'## {os.path.basename(job.rstrip("/"))}: the first call of a fresh process (one process per mesh, gpurcm@cuda; median of the rounds, ms)', '',
            '| matrix | rounds | first call base | first call new | base/new | steady base | steady new |', '|---|---|---|---|---|---|---|']
    for m in sorted({k[0] for k in first}):
        fb, fn = st.median(first[(m, 'base')]), st.median(first[(m, 'new')])
        out.append(f'| {m} | {len(first[(m, "new")])} | {fb:.1f} | {fn:.1f} | {fb / fn:.2f} | {st.median(steady[(m, "base")]):.2f} | {st.median(steady[(m, "new")]):.2f} |')
    out.append('')
open(os.path.join(here, 'summary.md'), 'w').write('\n'.join(out) + '\n')
print('\n'.join(out))
