#!/usr/bin/env python3
"""Session 55 summary: gpurcm end to end (bench_order, ms). A/B jobs (1, 2, 5, 7): new against the base built in the
same job, rounds alternated, medians over the rounds of each run's median; job 6: first calls of fresh processes;
jobs 6 and 8: gpurcm beside its peers in one command. Writes summary.md beside this file."""
import csv, glob, os, re, statistics as st

here = os.path.dirname(os.path.abspath(__file__))
base = {'job1': '9ea8b05 (session 54\'s parent)', 'job2': 'f080f25 (the host arrays of 1a2f925, reverted)',
        'job5': '04d36b4 (the ISes made after the download)', 'job6': '46ab510 (the kernels loaded at their launches)',
        'job7': '53fc2aa (the driver\'s download, then a copy by threads)'}
out = ['# Session 55 summary (gpurcm end to end, ms; see NOTE.md)', '']


def gpu_of(job):
    info = open(job + 'info.txt').read().splitlines()
    gpu = next((l.split(':')[1].split('(')[0].strip() for l in info if l.startswith('GPU 0')), '?')
    return f'{gpu}; {info[0].lstrip("# ")}'


for job in sorted(glob.glob(os.path.join(here, 'job*/'))):
    name = os.path.basename(job.rstrip('/'))
    files = sorted(glob.glob(job + 'order-*-r*.csv'))
    if files:
        t, first, rcm = {}, {}, {}
        for f in files + glob.glob(job + 'order-rcm.csv'):
            v = re.search(r'order-(\w+?)(-r\d+)?\.csv', f).group(1)
            for row in csv.DictReader(open(f)):
                if row['status'] != 'ok':
                    continue
                if row['ordering'] == 'rcm':
                    rcm.setdefault(row['matrix'], []).append(1e3 * float(row['time_s']))
                    continue
                key = (row['matrix'], v, row['ordering'])
                t.setdefault(key, []).append(1e3 * float(row['time_s']))
                first.setdefault(key, []).append(1e3 * float(row['first_s']))
        out += [f'## {name}: new against {base.get(name, "?")} ({gpu_of(job)})', '',
                '| matrix | ordering | rounds | base | new | base/new | first call base | first call new | PETSc rcm | rcm / new |',
                '|---|---|---|---|---|---|---|---|---|---|']
        for (m, v, o) in sorted(k for k in t if k[1] == 'new'):
            n, b = st.median(t[(m, 'new', o)]), t.get((m, 'base', o))
            mb = st.median(b) if b else float('nan')
            r = st.median(rcm[m]) if m in rcm else float('nan')
            out.append(f'| {m} | {o} | {len(t[(m, "new", o)])} | {mb:.2f} | {n:.2f} | {mb / n:.2f} | '
                       f'{st.median(first.get((m, "base", o), [float("nan")])):.1f} | {st.median(first[(m, "new", o)]):.1f} | {r:.1f} | {r / n:.1f}× |')
        out.append('')
    files = sorted(glob.glob(job + 'first-*-*-*.csv'))
    if files:
        first = {}
        for f in files:
            v = re.search(r'first-[^-]+-(\w+)-\d+\.csv', f).group(1)
            for row in csv.DictReader(open(f)):
                if row['status'] == 'ok' and row['ordering'] != 'rcm':
                    first.setdefault((row['matrix'], v), []).append(1e3 * float(row['first_s']))
        out += [f'## {name}: the first call of a fresh process against {base.get(name, "?")} (one process each, gpurcm@cuda, ms)', '',
                '| matrix | processes | first call base (median, range) | first call new (median, range) | base/new |', '|---|---|---|---|---|']
        for m in sorted({k[0] for k in first}):
            fb, fn = first[(m, 'base')], first[(m, 'new')]
            out.append(f'| {m} | {len(fn)} | {st.median(fb):.2f} ({min(fb):.2f}–{max(fb):.2f}) | {st.median(fn):.2f} ({min(fn):.2f}–{max(fn):.2f}) | {st.median(fb) / st.median(fn):.2f} |')
        out.append('')
    if os.path.exists(job + 'order.csv'):
        rows = [r for r in csv.DictReader(open(job + 'order.csv')) if r['status'] == 'ok']
        mats = list(dict.fromkeys(r['matrix'] for r in rows))
        ords = list(dict.fromkeys(r['ordering'] for r in rows))
        tm = {(r['matrix'], r['ordering']): 1e3 * float(r['time_s']) for r in rows}
        out += [f'## {name}: gpurcm beside its peers, one command ({gpu_of(job)}; medians, ms; every permutation identical to rcm)', '',
                '| matrix | ' + ' | '.join(ords) + ' | rcm / gpurcm@cuda |', '|---|' + '---|' * (len(ords) + 1)]
        for m in mats:
            out.append(f'| {m} | ' + ' | '.join(f'{tm[(m, o)]:.2f}' if (m, o) in tm else '' for o in ords) +
                       f' | {tm[(m, "rcm")] / tm[(m, "gpurcm@cuda")]:.1f}× |')
        out.append('')
open(os.path.join(here, 'summary.md'), 'w').write('\n'.join(out) + '\n')
print('\n'.join(out))
