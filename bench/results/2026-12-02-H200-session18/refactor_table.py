# The GPU refactorization (whole PCSetUp after MatScale, median, ms) of jobs 1-3: the warp path against the lane path
# (job 1: first form; jobs 2-3: with level-ordered tickets and early loads), SpSV's re-analysis (job 1).
# Run from this folder: python3 refactor_table.py
import csv
def load(f, pc=None):
    d = {}
    for r in csv.DictReader(open(f)):
        if r['status'] != 'ok' or (pc and r['pc'] != pc): continue
        d[(r['matrix'], r['pc'], r['ordering'])] = 1e3 * float(r['refactor_s'])
    return d
w1, l1 = load('job1/refactor-lanes0.csv'), load('job1/refactor-lanes1.csv')
w2, l2 = load('job2/refactor-lanes0.csv'), load('job2/refactor-lanes1.csv')
w3, l3 = load('job3/sweep-warps.csv'), load('job3/sweep-lanes.csv')
sp = {(k[0], k[2]): v for k, v in load('job1/spsv.csv').items()}
print('| matrix | pc | ordering | warp path (jobs 1 / 2 / 3) | lane path, first form (job 1) | lane path, final form (jobs 2 / 3) | SpSV re-analysis |')
print('|---|---|---|---|---|---|---|')
f = lambda d, k: '%.1f' % d[k] if k in d else '-'
for k in w1:
    print('| %s | %s | %s | %s / %s / %s | %s | %s / %s | %s |' % (k[0], k[1], k[2], f(w1, k), f(w2, k), f(w3, k), f(l1, k), f(l2, k), f(l3, k), f(sp, (k[0], k[2]))))
