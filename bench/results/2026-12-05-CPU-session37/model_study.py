#!/usr/bin/env python3
"""Offline study of the format predictor's Ts model (issue 6's accuracy goals), on the H200 training times of
session 32's job 1 (cv-samples.csv: features, measured and cross-validated Ts per format, fold of each matrix).

  python3 model_study.py [--gbt]     (numpy + scipy; --gbt adds the gradient-boosting comparison, about 30 s)

1. replicates the built-in model's fit (PellrFitOne(): per row-count interval, Huber NNLS on the relative error,
   intervals merged up to 10 samples) and its 5-fold cross-validation: the Ts-within-5% fractions must equal cv.md's;
2. the same model fitted in sample (every matrix in training): the ceiling of this model form;
3. variants: the L2 share's capacity and exponent, interval widths, x's gathers split by whether x fits in L2, PELLR's
   scattered y sectors, diagonal slots' values apart;
4. (--gbt) gradient-boosted regression trees on log Ts from log features, alone and on the linear model's residuals.
"""
import csv, math, os, sys
import numpy as np
from scipy.optimize import nnls

HERE = os.path.dirname(os.path.abspath(__file__))
ROWS = list(csv.DictReader(open(os.path.join(HERE, '../2026-12-04-H200-session32/job1/cv-samples.csv'))))
F = ['csr', 'ellr', 'sell', 'pellr']
L2 = 25.2e6  # the model's effective L2 (cv.md)


def fl(r, k):
    return float(r[k])


def interval8(m):  # PellrModelInterval()
    i = 0
    while i < 7 and m >= (1 << (12 + 2 * i)):
        i += 1
    return i


def regressors(r, c, opt):  # PellrRegressors(), version 4, plus the variants
    nnz = fl(r, 'nnz'); x = fl(r, 'xsec_' + c); dk = max(fl(r, 'dkept_' + c), 0)
    G = 32 * x if x >= 0 else 8 * nnz
    S = max(fl(r, 'bytes_' + c) - G - 4 * dk, 0)
    l2 = opt.get('l2', L2); p = opt.get('p', 2)
    h = 1.0 if S <= l2 else (l2 / S) ** p
    Sd = min(8 * dk, S) if opt.get('dsplit') else 0
    a = [1, fl(r, 'work_' + c), h * (S - Sd), fl(r, 'crit_' + c), fl(r, 'launches_' + c), (1 - h) * (S - Sd), G]
    if opt.get('gsplit'):
        xb = 8 * fl(r, 'cols'); hx = 1.0 if xb <= l2 else (l2 / xb) ** p
        a = a[:6] + [hx * G, (1 - hx) * G]
    if opt.get('dsplit'):
        a.append(Sd)
    if opt.get('ysec') and c == 'pellr':
        y = fl(r, 'ysec_pellr'); a.append(32 * y if y >= 0 else 0)
    return a


def fit(A, t, huber=0.05):  # PellrFitOne()
    A = np.array(A) / t[:, None]; sc = np.abs(A).max(0); sc[sc == 0] = 1; A = A / sc
    x, _ = nnls(A, np.ones(len(t)), maxiter=5000)
    for _ in range(20):
        r = A @ x - 1; w = np.where(abs(r) <= huber, 1, np.sqrt(huber / np.maximum(abs(r), 1e-300)))
        x, _ = nnls(A * w[:, None], w, maxiter=5000)
    return x / sc


def predict(opt, itvfn=interval8, nint=8, minsamp=10, insample=False):
    itv = np.array([itvfn(int(r['rows'])) for r in ROWS]); fold = np.array([int(r['fold']) for r in ROWS])
    preds = {}
    for c in F:
        valid = np.array([fl(r, 'ts_' + c) > 0 for r in ROWS])
        A = np.array([regressors(r, c, opt) for r in ROWS])
        t = np.array([fl(r, 'ts_' + c) if fl(r, 'ts_' + c) > 0 else np.nan for r in ROWS])
        p = np.full(len(ROWS), np.nan)
        for k in ([None] if insample else range(5)):
            tr = valid if k is None else (fold != k) & valid
            for i in range(nint):
                te = valid & (itv == i) & (True if k is None else (fold == k))
                if not te.any():
                    continue
                lo = hi = i; up = True
                while True:  # PellrModelFit()'s merging of small intervals
                    sel = tr & (itv >= lo) & (itv <= hi)
                    if sel.sum() >= minsamp or (lo == 0 and hi == nint - 1):
                        break
                    if (up and hi < nint - 1) or lo == 0:
                        hi += 1
                    else:
                        lo -= 1
                    up = not up
                p[te] = A[te] @ fit(A[sel], t[sel])
        preds[c] = p
    return preds


def within5(preds):
    out = []
    for c in F:
        t = np.array([fl(r, 'ts_' + c) for r in ROWS]); v = t > 0
        out.append(np.mean(abs(preds[c][v] / t[v] - 1) <= 0.05))
    return out


def show(name, preds):
    print('  %-44s ' % name + '  '.join('%s %.3f' % (c, w) for c, w in zip(F, within5(preds))))


def gbt(X, y, Xt, nt=150, lr=0.1, depth=3, minleaf=5):
    def tree(X, y, d):
        n = len(y)
        if d == 0 or n < 2 * minleaf:
            return ('leaf', y.mean())
        best = None; base = ((y - y.mean()) ** 2).sum()
        for j in range(X.shape[1]):
            o = np.argsort(X[:, j], kind='stable'); xs = X[o, j]; ys = y[o]
            cs = np.cumsum(ys); cs2 = np.cumsum(ys ** 2)
            for i in range(minleaf, n - minleaf + 1):
                if xs[i - 1] == xs[i]:
                    continue
                sl = cs[i - 1]; sr = cs[-1] - sl
                sse = cs2[i - 1] - sl * sl / i + (cs2[-1] - cs2[i - 1]) - sr * sr / (n - i)
                if best is None or sse < best[0]:
                    best = (sse, j, (xs[i - 1] + xs[i]) / 2)
        if best is None or best[0] >= base - 1e-12:
            return ('leaf', y.mean())
        _, j, th = best; l = X[:, j] <= th
        return ('node', j, th, tree(X[l], y[l], d - 1), tree(X[~l], y[~l], d - 1))

    def ev(T, x):
        while T[0] == 'node':
            T = T[3] if x[T[1]] <= T[2] else T[4]
        return T[1]
    f0 = y.mean(); res = y - f0; out = np.full(len(Xt), f0)
    for _ in range(nt):
        T = tree(X, res, depth)
        res = res - lr * np.array([ev(T, x) for x in X]); out += lr * np.array([ev(T, x) for x in Xt])
    return out


def gbt_features(r, c):
    L = lambda v: math.log(max(v, 1.0))
    nnz = fl(r, 'nnz'); x = fl(r, 'xsec_' + c); dk = fl(r, 'dkept_' + c)
    return [L(fl(r, 'rows')), L(nnz), L(fl(r, 'maxlen')), fl(r, 'mean'), fl(r, 'stddev') / max(fl(r, 'mean'), 1e-9),
            L(fl(r, 'work_' + c)), L(fl(r, 'bytes_' + c)), L(fl(r, 'crit_' + c)), fl(r, 'launches_' + c),
            L(fl(r, 'slots_' + c)), x / nnz if x >= 0 else -1, dk / fl(r, 'slots_' + c) if dk >= 0 else -1,
            fl(r, 'empty') / fl(r, 'rows'), fl(r, 'nnz_long') / nnz, L(fl(r, 'cols'))]


if __name__ == '__main__':
    print('Ts within 5%% of the measured time (%d matrices, 5-fold by matrix, as cv.md)' % len(ROWS))
    base = predict({})
    show('built-in form (replica; cv.md: .565 .364 .439 .400)', base)
    show('the same fitted in sample (its ceiling)', predict({}, insample=True))
    for l2 in (15e6, 25.2e6, 40e6):
        for p in (1, 2, 3):
            show('L2 %.0f MB, h = (L2/S)^%d' % (l2 / 1e6, p), predict({'l2': l2, 'p': p}))
    show('4 intervals (2^12, 2^16, 2^20)', predict({}, lambda m: 0 if m < 2 ** 12 else 1 if m < 2 ** 16 else 2 if m < 2 ** 20 else 3, 4))
    show('an interval per power of 2', predict({}, lambda m: max(0, int(math.log2(max(m, 1))) - 10), 16))
    show('x gathers split by x in L2', predict({'gsplit': 1}))
    show('PELLR y sectors as a regressor', predict({'ysec': 1}))
    show('diagonal slots\' values apart', predict({'dsplit': 1}))
    if '--gbt' in sys.argv:
        fold = np.array([int(r['fold']) for r in ROWS])
        for stack in (False, True):
            pr = {}
            for c in F:
                idx = [i for i, r in enumerate(ROWS) if fl(r, 'ts_' + c) > 0]
                X = np.array([gbt_features(ROWS[i], c) for i in idx]); y = np.log([fl(ROWS[i], 'ts_' + c) for i in idx])
                b = np.log(base[c][idx]) if stack else np.zeros(len(idx)); p = np.full(len(ROWS), np.nan)
                for k in range(5):
                    tr = fold[idx] != k; te = ~tr
                    p[np.array(idx)[te]] = np.exp(b[te] + gbt(X[tr], (y - b)[tr], X[te]))
                pr[c] = p
            show('boosted trees on ' + ('the linear residuals' if stack else 'log features alone'), pr)
