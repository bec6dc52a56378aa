#!/usr/bin/env python3
# Session 33: a regression tree on the log residuals of the version-3 model form (per format), cross-validated as
# fit_model_form.py (5 folds by matrix) on session 21's regressors. Usage: python3 residual_tree.py [cv-samples csv]
# Needs numpy and scipy; imports ../2026-12-04-CPU-session32/fit_model_form.py.
import csv, math, os, sys, numpy as np
sys.argv=['x', sys.argv[1] if len(sys.argv)>1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '2026-12-04-CPU-session32', 'cv-samples-session21.csv')]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '2026-12-04-CPU-session32'))
import fit_model_form as F
rows=F.rows; C=F.C
def feats(r,c):
    nnz=float(r['nnz']); m=float(r['rows']); mean=float(r['mean']); xs=float(r['xsec_'+c])
    return [math.log2(m), math.log2(max(mean,1e-3)), float(r['stddev'])/max(mean,1e-9), xs/max(nnz,1), float(r['nnz_long'])/max(nnz,1), math.log2(float(r['maxlen'])+1), float(r['slots_'+c])/max(nnz,1), float(r['cols'])/m]
def build(X,y,depth,minleaf):
    # least-squares CART on y (log residual); returns nested tuples
    if depth==0 or len(y)<2*minleaf: return ('leaf', float(np.mean(y)) if len(y) else 0.0)
    best=None; base=((y-y.mean())**2).sum()
    for j in range(X.shape[1]):
        o=np.argsort(X[:,j],kind='stable'); xs=X[o,j]; ys=y[o]
        cs=np.cumsum(ys); cs2=np.cumsum(ys*ys); n=len(ys)
        for i in range(minleaf, n-minleaf+1):
            if xs[i-1]==xs[i]: continue
            l=cs[i-1]; l2=cs2[i-1]; r_=cs[-1]-l; r2=cs2[-1]-l2
            sse=(l2-l*l/i)+(r2-r_*r_/(n-i))
            if best is None or sse<best[0]: best=(sse,j,0.5*(xs[i-1]+xs[i]))
    if best is None or best[0]>=base*0.999: return ('leaf', float(np.mean(y)))
    _,j,t=best; L=X[:,j]<=t
    return ('node',j,t,build(X[L],y[L],depth-1,minleaf),build(X[~L],y[~L],depth-1,minleaf))
def apply(tr,x):
    while tr[0]=='node': tr=tr[3] if x[tr[1]]<=tr[2] else tr[4]
    return tr[1]
def run(depth,minleaf,shrink=1.0,k=5):
    fold=F.folds(k)
    pred=[{} for _ in rows]
    for f in range(k):
        train=[r for q,r in enumerate(rows) if fold[q]!=f]
        for c in C:
            co=F.fit(train,c,'base')
            def base(r): return F.predict(co,r,c,'base')
            tr=None
            if depth>0:
                X=[];y=[]
                for r in train:
                    t=float(r['ts_'+c]); p=base(r)
                    if t>0 and p>0: X.append(feats(r,c)); y.append(math.log(t/p))
                tr=build(np.array(X),np.array(y),depth,minleaf)
            for q,r in enumerate(rows):
                if fold[q]!=f: continue
                p=base(r)
                if tr is not None and p>0: p*=math.exp(shrink*apply(tr,feats(r,c)))
                pred[q][c]=p
    return F.score(pred)
for d,ml in [(0,0),(1,10),(2,10),(3,10),(3,6),(4,6),(4,10),(5,8)]:
    print(d,ml,run(d,ml))
def run_nested(depth,minleaf,k=5,shrink=1.0):
    fold=F.folds(k)
    pred=[{} for _ in rows]
    for f in range(k):
        tri=[q for q in range(len(rows)) if fold[q]!=f]
        for c in C:
            # out-of-fold base predictions within the training set
            X=[];y=[]
            for g in range(k):
                inner_train=[rows[q] for j,q in enumerate(tri) if j%k!=g]
                co=F.fit(inner_train,c,'base')
                for j,q in enumerate(tri):
                    if j%k!=g: continue
                    r=rows[q]; t=float(r['ts_'+c]); p=F.predict(co,r,c,'base')
                    if t>0 and p>0: X.append(feats(r,c)); y.append(math.log(t/p))
            tr=build(np.array(X),np.array(y),depth,minleaf)
            co=F.fit([rows[q] for q in tri],c,'base')
            for q,r in enumerate(rows):
                if fold[q]!=f: continue
                p=F.predict(co,r,c,'base')
                if p>0: p*=math.exp(shrink*apply(tr,feats(r,c)))
                pred[q][c]=p
    return F.score(pred)
print('nested')
for d,ml in [(1,10),(2,10),(3,10),(3,15),(4,10)]:
    print(d,ml,run_nested(d,ml))
