# pellrcuda auto at the final revision 3d35cc8 over the 15 large matrices: job 5 (3d35cc8) for the three matrices its
# compact-columns rule stores in 16 bits, job 4 (833250b) for the other twelve, where neither revision compacts (job 4's
# rule compacted none of the 15), so the code that ran is the final one. Prints the table and the geometric means.
import csv, math, sys
THREE = {'lap3d27_100', 'lap3d27_160', 'kron_pde900_jpwh_991'}

def final_table():
    """{matrix: {format: (time_s, chosen format, job folder)}} at the final revision, as described above"""
    d = {}
    def load(f, only=None):
        for x in csv.DictReader(open(f)):
            if x['status'] == 'ok' and x['kind'] != 'reference' and (only is None or x['matrix'] in only):
                fm = [y for y in x['note'].split() if y.startswith('format=')]
                d.setdefault(x['matrix'], {})[x['format']] = (float(x['time_s']), fm[0][7:] if fm else '', f.split('/')[0])
    load('job4/spmv-auto-compactauto.csv')
    for m in THREE: d.pop(m, None)
    load('job5/spmv-compactauto.csv', THREE)
    return d

if __name__ == '__main__':
    d = final_table()
    ga = gs = gb = 0
    print('| matrix | aijcusparse | sellcuda | pellrcuda auto | vs aijcusparse | vs sellcuda | vs better peer | run |')
    print('|---|---|---|---|---|---|---|---|')
    for m, v in d.items():
        a, s, p = v['aijcusparse'][0], v['sellcuda'][0], v['pellrcuda'][0]
        ga += math.log(a / p); gs += math.log(s / p); gb += math.log(min(a, s) / p)
        print('| %s | %.1f µs | %.1f µs | %.1f µs (%s%s) | %.2f× | %.2f× | %.2f× | %s |' % (m, 1e6 * a, 1e6 * s, 1e6 * p, v['pellrcuda'][1], ', 16-bit' if m in THREE else '', a / p, s / p, min(a, s) / p, v['pellrcuda'][2]))
    n = len(d)
    print('\ngeometric mean over %d: %.3f× aijcusparse, %.3f× sellcuda, %.3f× the better of the two' % (n, math.exp(ga / n), math.exp(gs / n), math.exp(gb / n)))
