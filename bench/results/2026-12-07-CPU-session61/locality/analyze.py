#!/usr/bin/env python3
"""Issue 6, session 61: what sampling the column access (xsec ...) for every block gains in cross-validated Ts accuracy.

  python3 analyze.py        (numpy, scipy; reads the files of this folder and ../../2026-12-05-CPU-session37/model_study.py)

Inputs: cv-samples-{base,all}.csv (bench_calibrate -mat_pellr_cv_samples: unchanged library / PELLR_PRED_LOCALITY_ROWS 1),
feature-times-{base,all}.csv (bench_calibrate -feature_times: matrix names in sample order, H200 conversions),
feature-cost-{base,all}*.csv (feature_cost.c: median of 21 MatPELLRCalibrationAddSample() calls on the small blocks).
"""
import csv, os, sys, importlib.util
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
F = ['csr', 'ellr', 'sell', 'pellr']


def rd(name):
    return list(csv.DictReader(open(os.path.join(HERE, name))))


# cv-samples lists the samples fold by fold: back into the calibration's order (the 'sample' column), that of -feature_times
B, A = [sorted(rd(f), key=lambda r: int(r['sample'])) for f in ('cv-samples-base.csv', 'cv-samples-all.csv')]
names = [r['matrix'] for r in rd('feature-times-base.csv')]
assert len(B) == len(A) == len(names) == 255
assert all(int(r['sample']) == i for i, r in enumerate(B)) and all(int(r['rows']) == int(t['rows']) and int(r['nnz']) == int(t['nnz']) for r, t in zip(B, rd('feature-times-base.csv')))
assert all(b['rows'] == a['rows'] and b['nnz'] == a['nnz'] and b['fold'] == a['fold'] and b['group'] == a['group'] for a, b in zip(A, B))
small = np.array([float(r['xsec_csr']) < 0 for r in B])  # the blocks without sampled locality today
assert all(float(r['xsec_csr']) >= 0 for r in A)
print('%d samples; %d without sampled column access in the base run (m < 2^16 and nnz < 2^21), 0 in the new run' % (len(B), small.sum()))


def err(R, c):
    t = np.array([float(r['ts_' + c]) for r in R]); p = np.array([float(r['ts_pred_' + c]) for r in R])
    v = t > 0
    e = np.full(len(R), np.nan); e[v] = np.abs(p[v] / t[v] - 1)
    return e


def frac(e, sel):
    s = sel & ~np.isnan(e)
    return np.mean(e[s] <= 0.05), s.sum()


print('\n## Ts within 5%, 5-fold CV by matrix (from the C code\'s cross-validated predictions)')
print('| subset | ' + ' | '.join(F) + ' |\n|---|---|---|---|---|')
for lab, sel in (('all 255', np.ones(len(B), bool)), ('the %d small blocks (locality added)' % small.sum(), small), ('the %d others' % (~small).sum(), ~small)):
    cells = []
    for c in F:
        (fb, n), (fa, _) = frac(err(B, c), sel), frac(err(A, c), sel)
        cells.append('%.3f → %.3f (n=%d)' % (fb, fa, n))
    print('| %s | %s |' % (lab, ' | '.join(cells)))

# the intermediate threshold 2^14 rows (session 56's cv-locality-2e14.md, rerun here: cv-2e14.md)
M = sorted(rd('cv-samples-2e14.csv'), key=lambda r: int(r['sample']))
print('\n## threshold 2^14 rows instead (cv-samples-2e14.csv), all 255: ' + ' / '.join('%s %.3f' % (c, frac(err(M, c), np.ones(len(M), bool))[0]) for c in F))
print('\n## per row interval (the model\'s first three: m < 2^12, 2^12..2^14, 2^14..2^16), small blocks only')
itv = np.array([0 if int(r['rows']) < 4096 else 1 if int(r['rows']) < 16384 else 2 if int(r['rows']) < 65536 else 3 for r in B])
for i, lab in enumerate(('m < 2^12', '2^12 <= m < 2^14', '2^14 <= m < 2^16')):
    sel = small & (itv == i)
    print('  %-18s n=%3d  ' % (lab, sel.sum()) + '  '.join('%s %.3f→%.3f (2^14: %.3f)' % (c, frac(err(B, c), sel)[0], frac(err(A, c), sel)[0], frac(err(M, c), sel)[0]) for c in F))

print('\n## band / rand twins (synth_<dist>_band_<m>_<avg> and synth_<dist>_rand_<m>_<avg>, small): pairs with both within 5%')
idx = {n: i for i, n in enumerate(names)}
pairs = [(i, idx[n.replace('_band_', '_rand_')]) for n, i in idx.items() if '_band_' in n and n.replace('_band_', '_rand_') in idx and small[i]]
for c in F:
    eb, ea = err(B, c), err(A, c)
    pp = [(i, j) for i, j in pairs if not np.isnan(eb[i]) and not np.isnan(eb[j])]
    t = np.array([float(r['ts_' + c]) for r in B])
    far = [(i, j) for i, j in pp if abs(t[j] / t[i] - 1) > 0.105]
    both = lambda e, P: sum(e[i] <= 0.05 and e[j] <= 0.05 for i, j in P)
    print('  %-5s pairs %2d: both within 5%% %2d → %2d; of the %2d pairs whose times differ > 10.5%%: %2d → %2d' % (c, len(pp), both(eb, pp), both(ea, pp), len(far), both(eb, far), both(ea, far)))

# the model_study replica (PellrFitOne()) on both feature sets: its CV must equal the C code's; and in sample (the ceiling)
spec = importlib.util.spec_from_file_location('ms', os.path.join(HERE, '../../2026-12-05-CPU-session37/model_study.py'))
ms = importlib.util.module_from_spec(spec); spec.loader.exec_module(ms)
print('\n## model_study.py replica: CV (must equal the above) and in sample (every matrix in training: the form\'s ceiling)')
for lab, R in (('base', B), ('all sizes', A)):
    ms.ROWS = R
    cv = ms.within5(ms.predict({})); ins = ms.within5(ms.predict({}, insample=True))
    own = [frac(err(R, c), np.ones(len(R), bool))[0] for c in F]
    assert max(abs(x - y) for x, y in zip(cv, own)) < 1e-9, (cv, own)
    print('  %-10s CV %s   in sample %s' % (lab, ' / '.join('%.3f' % x for x in cv), ' / '.join('%.3f' % x for x in ins)))

print('\n## cost: features of the small blocks (this 2-vCPU host, median of 21 MatPELLRCalibrationAddSample() calls)')
fb = {r['matrix']: r for r in rd('feature-cost-base.csv')}; fa = {r['matrix']: r for r in rd('feature-cost-all.csv')}
fb2 = {r['matrix']: r for r in rd('feature-cost-base-rerun.csv')}; fa2 = {r['matrix']: r for r in rd('feature-cost-all-rerun.csv')}
conv = {r['matrix']: r for r in rd('feature-times-base.csv')}
smallnames = [names[i] for i in np.nonzero(small)[0]]
assert set(smallnames) == set(fb) == set(fa), (set(smallnames) ^ set(fb))
tb = np.array([min(float(fb[n]['median_s']), float(fb2[n]['median_s'])) for n in smallnames])
ta = np.array([min(float(fa[n]['median_s']), float(fa2[n]['median_s'])) for n in smallnames])
cp = np.array([float(conv[n]['conv_pellr_s']) for n in smallnames]); cc = np.array([float(conv[n]['conv_csr_s']) for n in smallnames])
cmin = np.minimum(np.where(cp > 0, cp, np.inf), np.where(cc > 0, cc, np.inf))
q = lambda x: 'median %.2f, p10 %.2f, p90 %.2f, max %.2f' % (np.median(x), np.percentile(x, 10), np.percentile(x, 90), x.max())
print('  features, us:   locality off  ' + q(tb * 1e6))
print('                  locality on   ' + q(ta * 1e6))
print('  the locality pass alone, us:  ' + q((ta - tb) * 1e6))
print('  H200 conversion (the cheaper of pellr and csr, calibration.csv), us: ' + q(cmin * 1e6))
print('  features / that conversion, %: off ' + q(100 * tb / cmin))
print('                                  on  ' + q(100 * ta / cmin))
print('  blocks within the 1%% budget: off %d/%d, on %d/%d' % ((tb / cmin <= 0.01).sum(), len(tb), (ta / cmin <= 0.01).sum(), len(ta)))
rb = np.array([float(fb2[n]['median_s']) / float(fb[n]['median_s']) for n in smallnames]); ra = np.array([float(fa2[n]['median_s']) / float(fa[n]['median_s']) for n in smallnames])
print('  (two runs each, the lesser median taken; rerun/run ratio: off %.2f..%.2f, on %.2f..%.2f)' % (rb.min(), rb.max(), ra.min(), ra.max()))
rows = np.array([int(fa[n]['rows']) for n in smallnames])
for lo, hi in ((0, 2 ** 12), (2 ** 12, 2 ** 14), (2 ** 14, 2 ** 16)):
    s = (rows >= lo) & (rows < hi)
    print('  rows in [%d, %d): %3d blocks, features off median %.1f us, locality pass median %.1f us (max %.1f), conversion median %.1f us' % (lo, hi, s.sum(), np.median(tb[s]) * 1e6, np.median((ta - tb)[s]) * 1e6, ((ta - tb)[s]).max() * 1e6, np.median(cmin[s]) * 1e6))
nnz = np.array([int(fa[n]['nnz']) for n in smallnames])
for lo, hi in ((0, 2 ** 13), (2 ** 13, 2 ** 15), (2 ** 15, 2 ** 21)):
    s = (nnz >= lo) & (nnz < hi)
    print('  nnz in [%d, %d): %3d blocks, locality pass median %.1f us, max %.1f us' % (lo, hi, s.sum(), np.median((ta - tb)[s]) * 1e6, ((ta - tb)[s]).max() * 1e6))
