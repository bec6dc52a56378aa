# Would a correction for drift in time help? For each sample of a cross-validation (cv-samples.csv of bench_calibrate
# -mat_pellr_cv_samples; the sample index is the order of measurement), divide its measured time by the median
# measured/predicted ratio of its W neighbours in measurement order (matrices below 2^16 rows only) and count again
# the Ts within 5%. Usage: python3 drift_correction.py <cv-samples.csv> [W]
import csv, sys, statistics as st
C=['csr','ellr','sell','pellr']
S=sorted(csv.DictReader(open(sys.argv[1])), key=lambda s:int(s['sample']))
W=int(sys.argv[2]) if len(sys.argv)>2 else 3
# drift of sample i: median over neighbours j (|i-j|<=W, j!=i, small matrices only) and formats of meas/pred
small=[int(s['rows'])<2**16 for s in S]
def ratio(s,c):
    t=float(s['ts_'+c]); p=float(s['ts_pred_'+c])
    return t/p if t>0 and p>0 else None
base={c:[0,0] for c in C}; corr={c:[0,0] for c in C}
for i,s in enumerate(S):
    nb=[ratio(S[j],c) for j in range(max(0,i-W),min(len(S),i+W+1)) if j!=i and small[j] for c in C]
    nb=[r for r in nb if r]
    d=st.median(nb) if (small[i] and nb) else 1.0
    for c in C:
        r=ratio(s,c)
        if r is None: continue
        base[c][0]+=abs(1/r-1)<=0.05; base[c][1]+=1
        corr[c][0]+=abs(d/r-1)<=0.05; corr[c][1]+=1
for c in C: print(c, 'within5 %.3f -> drift-corrected %.3f'%(base[c][0]/base[c][1], corr[c][0]/corr[c][1]))
