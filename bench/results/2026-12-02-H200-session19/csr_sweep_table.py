# job 2's sweep of our CSR kernel (csr format forced): threads a row T, one entry a load (T) or two (100 + T, 16-byte
# loads), against cuSPARSE (T = 0, through pellrcuda's csr format) and aijcusparse, MatMult medians in µs
import csv, glob, os
here = os.path.dirname(os.path.abspath(__file__))
t = {}
for f in glob.glob(os.path.join(here, 'job2', 'spmv-csr*.csv')):
    tag = os.path.basename(f)[8:-4]
    for r in csv.DictReader(open(f)):
        if r['kind'] == 'reference' or r['status'] != 'ok' or r['op'] != 'mult': continue
        t.setdefault(r['matrix'], {})[(tag, r['format'])] = float(r['time_s']) * 1e6
cols = ['0', '4', '8', '16', '32', '104', '108', '116', '132']
print('| matrix | aijcusparse | cuSPARSE (csr) | T=4 | T=8 | T=16 | T=32 | two a load, T=4 | T=8 | T=16 | T=32 |')
print('|---|' + '---|' * 10)
for m, v in t.items():
    row = [v.get(('0', 'aijcusparse'))] + [v.get((c, 'pellrcuda')) for c in cols]
    print('| %s | ' % m + ' | '.join('%.1f' % x if x else '-' for x in row) + ' |')
