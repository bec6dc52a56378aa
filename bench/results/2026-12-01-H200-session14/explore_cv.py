# Offline model-form experiments on job2/cv-samples.csv (written by bench_calibrate -times ... -mat_pellr_cv_samples, see
# NOTE.md): numpy re-implementations on the same folds of a per-interval NNLS (base), extra regressors, k-nearest
# neighbours in log-feature space, a log-linear fit and NNLS plus a kNN correction of its log residual. Prints the
# fraction of Ts within 5% per format. Run from this folder: python3 explore_cv.py
import csv, math, numpy as np
S = list(csv.DictReader(open('job2/cv-samples.csv')))
C = ['csr','ellr','sell','pellr']
def nnls(A, b, iters=500):
    # Lawson-Hanson active set
    m, n = A.shape; P = np.zeros(n, bool); x = np.zeros(n)
    w = A.T @ (b - A @ x)
    for _ in range(iters):
        if P.all() or w[~P].max() <= 1e-12: break
        j = np.argmax(np.where(~P, w, -np.inf)); P[j] = True
        while True:
            z = np.zeros(n); z[P] = np.linalg.lstsq(A[:, P], b, rcond=None)[0]
            if (z[P] > 0).all(): x = z; break
            neg = P & (z <= 0)
            alpha = np.min(x[neg] / (x[neg] - z[neg]))
            x = x + alpha * (z - x); P &= x > 1e-15; x[~P] = 0
        w = A.T @ (b - A @ x)
    return x
def interval(m):
    i = 0; lo = 4096
    while m >= lo and i < 7: i += 1; lo *= 4
    return i
data = {c: [] for c in C}
for s in S:
    m = int(s['rows'])
    for c in C:
        t = float(s['ts_'+c])
        if not (t > 0): continue
        f = [1.0, float(s['work_'+c]), float(s['bytes_'+c]), float(s['crit_'+c]), float(s['launches_'+c])]
        data[c].append((int(s['fold']), interval(m), m, np.array(f), t, float(s['ts_pred_'+c]), int(s['nnz'])))
def cv(c, featfun, per_interval=True, minsamp=10):
    D = data[c]; errs = []
    for k in range(5):
        tr = [d for d in D if d[0] != k]; te = [d for d in D if d[0] == k]
        models = {}
        for i in range(8):
            sel = [d for d in tr if d[1] == i] if per_interval else tr
            lo, hi = i, i
            while per_interval and len(sel) < minsamp and (lo > 0 or hi < 7):
                lo = max(0, lo - 1); hi = min(7, hi + 1); sel = [d for d in tr if lo <= d[1] <= hi]
            A = np.array([featfun(d) for d in sel]); b = np.array([d[4] for d in sel])
            Aw = A / b[:, None]; bw = np.ones(len(b))   # relative error
            sc = np.abs(Aw).max(axis=0) + 1e-300
            x = nnls(Aw / sc, bw) / sc
            models[i] = x
            if not per_interval: break
        for d in te:
            x = models[d[1] if per_interval else 0]
            p = float(np.dot(featfun(d), x)); errs.append(p / d[4] - 1)
    e = np.abs(np.array(errs)); return (e <= 0.05).mean(), len(e)
base = lambda d: d[3]
def ext(d):
    f = d[3]; m = d[2]
    return np.concatenate([f, [f[2] * (1.0 if m >= 2**22 else 0.0), math.sqrt(f[1]), math.log2(m) ]])
def ext2(d):
    f = d[3]
    return np.concatenate([f, [math.sqrt(f[1]*f[2]), math.sqrt(f[2])]])
for c in C:
    orig = np.mean([abs(d[5]/d[4]-1) <= 0.05 for d in data[c]])
    print(c, 'C model %.3f' % orig, 'py base %.3f' % cv(c, base)[0], 'ext %.3f' % cv(c, ext)[0], 'ext2 %.3f' % cv(c, ext2)[0])

def logf(d):
    f = d[3]
    return np.array([math.log(max(f[1],1)), math.log(max(f[2],1)), math.log(max(f[3],1)), math.log(max(f[4],1)+1), math.log(d[2]), math.log(d[6]+1)])
def cv_knn(c, k=3):
    D = data[c]; errs = []
    for fo in range(5):
        tr = [d for d in D if d[0] != fo]; te = [d for d in D if d[0] == fo]
        X = np.array([logf(d) for d in tr]); y = np.array([math.log(d[4]) for d in tr])
        mu, sd = X.mean(0), X.std(0) + 1e-9
        Xn = (X - mu) / sd
        for d in te:
            q = (logf(d) - mu) / sd
            dist = np.sqrt(((Xn - q)**2).sum(1)); idx = np.argsort(dist)[:k]
            w = 1 / (dist[idx] + 1e-3); p = math.exp((w * y[idx]).sum() / w.sum())
            errs.append(p / d[4] - 1)
    e = np.abs(np.array(errs)); return (e <= 0.05).mean()
def cv_loglin(c):
    D = data[c]; errs = []
    for fo in range(5):
        tr = [d for d in D if d[0] != fo]; te = [d for d in D if d[0] == fo]
        X = np.array([np.concatenate([[1], logf(d)]) for d in tr]); y = np.array([math.log(d[4]) for d in tr])
        beta = np.linalg.lstsq(X, y, rcond=None)[0]
        for d in te:
            p = math.exp(np.dot(np.concatenate([[1], logf(d)]), beta)); errs.append(p / d[4] - 1)
    e = np.abs(np.array(errs)); return (e <= 0.05).mean()
def cv_hybrid(c, k=5):
    # C-like linear model (python base) + kNN correction of its log residual
    D = data[c]; errs = []
    for fo in range(5):
        tr = [d for d in D if d[0] != fo]; te = [d for d in D if d[0] == fo]
        models = {}
        for i in range(8):
            sel = [d for d in tr if d[1] == i]; lo = hi = i
            while len(sel) < 10 and (lo > 0 or hi < 7):
                lo = max(0, lo-1); hi = min(7, hi+1); sel = [d for d in tr if lo <= d[1] <= hi]
            A = np.array([d[3] for d in sel]); b = np.array([d[4] for d in sel]); Aw = A / b[:, None]
            sc = np.abs(Aw).max(0) + 1e-300; models[i] = nnls(Aw / sc, np.ones(len(b))) / sc
        r = np.array([math.log(d[4] / max(np.dot(d[3], models[d[1]]), 1e-9)) for d in tr])
        X = np.array([logf(d) for d in tr]); mu, sd = X.mean(0), X.std(0) + 1e-9; Xn = (X - mu) / sd
        for d in te:
            p0 = max(np.dot(d[3], models[d[1]]), 1e-9)
            q = (logf(d) - mu) / sd; dist = np.sqrt(((Xn - q)**2).sum(1)); idx = np.argsort(dist)[:k]
            w = 1 / (dist[idx] + 1e-2); corr = (w * r[idx]).sum() / w.sum()
            errs.append(p0 * math.exp(corr) / d[4] - 1)
    e = np.abs(np.array(errs)); return (e <= 0.05).mean()
for c in C:
    print(c, 'knn3 %.3f knn1 %.3f loglin %.3f hybrid %.3f' % (cv_knn(c, 3), cv_knn(c, 1), cv_loglin(c), cv_hybrid(c)))
