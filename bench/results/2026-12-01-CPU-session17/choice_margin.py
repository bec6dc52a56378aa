# Would a margin against the non-CSR formats improve the choice? Out-of-fold predictions of a cross-validation
# (cv-samples.csv), Ts only: each format predicted time times (1 + margin) before the argmin; prints top-1 (within 5%
# of the best), geometric mean best/chosen, worst. Usage: python3 choice_margin.py <cv-samples.csv>...
import csv, math, sys
C=['csr','ellr','sell','pellr']
def ev(path, marg):
    S=list(csv.DictReader(open(path)))
    ok=0; lg=0; worst=1; n=0
    for s in S:
        meas={c:float(s['ts_'+c]) for c in C if float(s['ts_'+c])>0}
        pred={c:float(s['ts_pred_'+c])*(1+marg.get(c,0)) for c in meas}
        ch=min(pred,key=lambda c:(pred[c],C.index(c)))
        b=min(meas.values()); r=b/meas[ch]
        n+=1; ok+=meas[ch]<=1.05*b; lg+=math.log(r); worst=min(worst,r)
    return ok/n, math.exp(lg/n), worst
for p in sys.argv[1:]:
    print(p)
    for m in [0,0.02,0.05,0.1]:
        for mc in [{}, {'ellr':m,'sell':m,'pellr':m}, {'ellr':m}, {'ellr':2*m,'sell':m,'pellr':m}]:
            print(' ',m, mc, '%.3f %.4f %.3f'%ev(p,mc))
