#!/usr/bin/env python3
# A Python reimplementation of the predictor's fit (robust NNLS on the relative error per row interval, intervals merged
# to 10 samples, 5 folds by group) on the regressors of a -mat_pellr_cv_samples CSV, for trying model forms offline.
# Usage: python3 fit_model_form.py cv-samples-session21.csv base [xg] [in]   (xg: gathers split by x's share of L2;
# a last argument containing "in": also the in-sample fit). Needs numpy and scipy.
import csv, math, sys, numpy as np
from scipy.optimize import nnls
rows=list(csv.DictReader(open(sys.argv[1])))
C=['csr','ellr','sell','pellr']
L2=21e6
def interval(m):
    if m < 1<<12: return 0
    if m >= 1<<24: return 7
    return (int(math.log2(m))-10)//2
def regs(r,c,variant):
    bytes_=float(r['bytes_'+c]); xs=float(r['xsec_'+c]); G=32*xs if xs>=0 else 8*float(r['nnz'])
    S=max(bytes_-G,0); h=1.0 if S<=L2 else (L2/S)**2
    a=[1,float(r['work_'+c]),h*S,float(r['crit_'+c]),float(r['launches_'+c]),(1-h)*S,G]
    if 'xg' in variant: # gathers split by x's share in L2
        xb=8*float(r['cols']); hx=1.0 if xb<=L2 else (L2/xb)
        a=a[:6]+[G*hx, G*(1-hx)]
    return a
def huber_nnls(A,t):
    Ar=A/t[:,None]; sc=np.abs(Ar).max(0); sc[sc==0]=1; Ar=Ar/sc
    b=np.ones(len(t)); x,_=nnls(Ar,b,maxiter=2000)
    for it in range(20):
        r=Ar@x-1; w=np.where(np.abs(r)<=0.05,1,np.sqrt(0.05/np.maximum(np.abs(r),1e-300)))
        x,_=nnls(Ar*w[:,None],w,maxiter=2000)
    return x/sc
def fit(train,c,variant,minS=10):
    coef={}
    itv=[interval(int(r['rows'])) for r in train]
    for i in range(8):
        lo=hi=i; up=True
        while True:
            sel=[k for k,r in enumerate(train) if lo<=itv[k]<=hi and float(r['ts_'+c])>0]
            if len(sel)>=minS or (lo==0 and hi==7): break
            if (up and hi<7) or lo==0: hi+=1
            else: lo-=1
            up=not up
        if len(sel)<minS: coef[i]=None; continue
        A=np.array([regs(train[k],c,variant) for k in sel]); t=np.array([float(train[k]['ts_'+c]) for k in sel])
        coef[i]=huber_nnls(A,t)
    return coef
def folds(k=5):
    """each sample's fold: 5 folds by group, as the C cross-validation"""
    groups=sorted(set(int(r['group']) for r in rows)); gi={g:i for i,g in enumerate(groups)}
    return [gi[int(r['group'])]%k for r in rows]
def predict(co,r,c,variant):
    """Ts of candidate c for sample r from the fitted coefficients co (nan where an interval has none)"""
    x=co[interval(int(r['rows']))]
    return float(np.dot(x,regs(r,c,variant))) if x is not None else float('nan')
def cv(variant,k=5):
    fold=folds(k)
    pred=[{} for _ in rows]
    for f in range(k):
        train=[r for q,r in enumerate(rows) if fold[q]!=f]
        for c in C:
            co=fit(train,c,variant)
            for q,r in enumerate(rows):
                if fold[q]!=f: continue
                pred[q][c]=predict(co,r,c,variant)
    return score(pred)
def score(pred):
    """pred[q][c]: the predicted Ts of every sample and candidate. Returns the fraction within 5% per candidate, and of
    the choice by products alone: top-1 within 5%, geometric mean fastest/chosen, worst"""
    res={}
    for c in C:
        n=ok=0
        for q,r in enumerate(rows):
            t=float(r['ts_'+c])
            if t>0: n+=1; ok+=abs(pred[q][c]-t)<=0.05*t
        res[c]=round(ok/n,3)
    # choice (products only)
    n=top=0; ls=0; worst=1
    for q,r in enumerate(rows):
        meas={c:float(r['ts_'+c]) for c in C if float(r['ts_'+c])>0}
        if not meas: continue
        best=min(meas.values()); ch=min(meas,key=lambda c:pred[q][c])
        n+=1; top+=meas[ch]<=1.05*best; ls+=math.log(best/meas[ch]); worst=min(worst,best/meas[ch])
    return res, round(top/n,4), round(math.exp(ls/n),4), round(worst,4)
for v in sys.argv[2:]:
    print(v, cv(v))
def insample(variant):
    res={}
    for c in C:
        co=fit(rows,c,variant); n=ok=0
        for r in rows:
            t=float(r['ts_'+c])
            if t>0:
                x=co[interval(int(r['rows']))]; p=float(np.dot(x,regs(r,c,variant)))
                n+=1; ok+=abs(p-t)<=0.05*t
        res[c]=round(ok/n,3)
    return res
if __name__=='__main__' and 'in' in sys.argv[-1]:
    print('insample', insample('base'))
