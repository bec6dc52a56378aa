#!/usr/bin/env python3
"""Where the warps of one kernel wait, from Nsight Compute's source page exported per SASS instruction
(ncu -i X.ncu-rep --page source --csv --print-source sass > X-sass.csv[.gz]).

  sass_stalls.py X-sass.csv.gz [top]

The level kernels' other blocks wait at the grid barrier (one instruction with most of the barrier samples, and the
polling loop of their thread 0 around it, executed millions of times): everything within 80 instructions of it is left
out, so what remains is block 0's multiprocessor (one of 132) running the narrow levels. Prints that part's samples by
stall reason, by window of 100 instructions, and the instructions with the most samples."""
import csv, gzip, sys, collections

f = sys.argv[1]
top = int(sys.argv[2]) if len(sys.argv) > 2 else 30
rows = list(csv.reader(gzip.open(f, 'rt') if f.endswith('.gz') else open(f)))
hdr = rows[1]
data = [r for r in rows[2:] if len(r) == len(hdr) and r[0].startswith('0x')]
ix = {h: i for i, h in enumerate(hdr)}
reasons = [h for h in hdr if h.startswith('stall_') and 'Not Issued' not in h]


def val(r, h):
    v = r[ix[h]]
    return int(v) if v not in ('', '-') else 0


samples = [val(r, 'Warp Stall Sampling (All Samples)') for r in data]
gb = max(range(len(data)), key=lambda n: val(data[n], 'stall_barrier'))
print(f'{f}: {len(data)} instructions, {sum(samples)} samples; grid barrier at instruction {gb} ({val(data[gb], "stall_barrier")} samples)')
sel = [n for n in range(len(data)) if abs(n - gb) > 80 and val(data[n], 'Instructions Executed') < 1000000]
tot = sum(samples[n] for n in sel)
agg = collections.Counter()
for n in sel:
    for h in reasons:
        agg[h] += val(data[n], h)
print(f'block 0 (the rest): {tot} samples; ' + ', '.join(f'{k[6:]} {v * 100 / tot:.1f}%' for k, v in agg.most_common(10)))
win, wex, wr = collections.Counter(), collections.Counter(), collections.defaultdict(collections.Counter)
for n in sel:
    w = n // 100 * 100
    win[w] += samples[n]
    wex[w] += val(data[n], 'Instructions Executed')
    for h in reasons:
        wr[w][h] += val(data[n], h)
print('by window of 100 instructions (at least 1% of the samples):')
for w in sorted(win):
    if win[w] >= 0.01 * tot:
        print(f'  {w:6d}: {win[w]:6d} samples ({win[w] * 100 / tot:4.1f}%), {wex[w]:9d} warp instructions; ' + ', '.join(f'{k[6:]} {v}' for k, v in wr[w].most_common(3)))
print(f'the {top} instructions with the most samples:')
for n in sorted(sel, key=lambda n: -samples[n])[:top]:
    r = data[n]
    rs = sorted(((val(r, h), h[6:]) for h in reasons), reverse=True)[:2]
    print(f'  {n:6d} {samples[n]:6d} exec {val(r, "Instructions Executed"):8d}  {r[1].strip()[:60]:60s} {rs[0][1]} {rs[0][0]}, {rs[1][1]} {rs[1][0]}')
