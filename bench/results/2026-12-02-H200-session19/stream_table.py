# job 4: the csr format forced, its GPU product by cuSPARSE, our vector kernel (T from the rule) and the row-block
# (stream) kernel with E entries a thread block; auto's choice from job 3 for comparison. MatMult medians in µs.
import csv, os, re
here = os.path.dirname(os.path.abspath(__file__))
t = {}
for tag in ['cusparse0', 'vector0', 'stream512', 'stream1024', 'stream2048']:
    for r in csv.DictReader(open(os.path.join(here, 'job4', 'spmv-%s.csv' % tag))):
        if r['kind'] != 'reference' and r['status'] == 'ok' and r['op'] == 'mult':
            t.setdefault(r['matrix'], {})[tag] = float(r['time_s']) * 1e6
auto = {}
for r in csv.DictReader(open(os.path.join(here, 'job3', 'spmv-auto.csv'))):
    if r['kind'] != 'reference' and r['status'] == 'ok' and r['format'] == 'pellrcuda':
        m = re.search(r'format=(\w+)', r['note'])
        auto[r['matrix']] = (float(r['time_s']) * 1e6, m.group(1) if m else '')
print('| matrix | cuSPARSE | vector | stream E=512 | E=1024 | E=2048 | auto (job 3) |')
print('|---|---|---|---|---|---|---|')
for m, v in t.items():
    a = auto.get(m)
    print('| %s | %s | %s |' % (m, ' | '.join('%.1f' % v[k] for k in ['cusparse0', 'vector0', 'stream512', 'stream1024', 'stream2048']), '%.1f (%s)' % a if a else '-'))
