#!/usr/bin/env python3
"""Session 31: subtree_ilu's first setup on the H200 (bench_factor, natural ordering): session 29's final code (job 3
at d0df7ef), this session's setup threads alone (job 2 at 12c97b1) and with the threaded build during PETSc's
numeric factorization (job 4 at 860a363), beside PETSc's cuSPARSE ILU(0)/ICC(0) of job 4's run; and the 128^3 Poisson
end to end (tutorials/ex1, jobs 4 and 5). Run: python3 summarize.py [--plot setup_session31.png]"""
import csv, re, sys, os, statistics
here = os.path.dirname(os.path.abspath(__file__))
def load(path):
    return {(r['matrix'], r['pc']): r for r in csv.DictReader(open(os.path.join(here, path)))}
s29 = load('../2026-12-03-H200-session29/job3/setup.csv')
j2 = load('job2/setup.csv')
j4 = load('job4/setup.csv')
mats = ['lap2d5_1000', 'lap3d7_100', 'lap2d5_2000', 'lap3d7_160']
rows = []
print(f"{'matrix':14s} {'pc':12s} {'s29':>7s} {'job2':>7s} {'job4':>7s} {'PETSc':>7s} {'x s29':>6s} {'x PETSc':>7s}   (first PCSetUp, s)")
for m in mats:
    for pc, peer in (('subtree_ilu', 'ilu_cusparse'), ('subtree_icc', 'icc_cusparse')):
        a, b, c, p = (float(d[(m, k)]['setup_s']) for d, k in ((s29, pc), (j2, pc), (j4, pc), (j4, peer)))
        rows.append((m, pc, a, b, c, p))
        print(f"{m:14s} {pc:12s} {a:7.3f} {b:7.3f} {c:7.3f} {p:7.3f} {a / c:6.2f} {c / p:7.2f}")
def e2e(path):
    out, name = {}, None
    for line in open(os.path.join(here, path)):
        if line.startswith('== '): name = line[3:].strip()
        mm = re.search(r'KSP setup ([0-9.]+) s, solve ([0-9.]+) s', line)
        if mm and name: out.setdefault(name, []).append((float(mm.group(1)), float(mm.group(2))))
    return out
for path in ('job4/e2e.txt', 'job5/e2e.txt'):
    print(f"\n{path}: 128^3 Poisson, CG, KSP setup and solve (s): median of the runs [all runs]")
    for name, v in e2e(path).items():
        print(f"  {name:62s} setup {statistics.median(x[0] for x in v):.3f} [{', '.join(f'{x[0]:.3f}' for x in v)}]  solve {statistics.median(x[1] for x in v):.4f}")
if '--plot' in sys.argv:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    out = sys.argv[sys.argv.index('--plot') + 1]
    fig, ax = plt.subplots(figsize=(10, 4))
    w = 0.2
    for k, (lab, idx, col) in enumerate((('subtree_ilu, session 29', 2, '#bbbbbb'), ('setup threads (job 2)', 3, '#9ecae1'), ('+ build during the numeric factorization (job 4)', 4, '#1f77b4'), ('PETSc cuSPARSE (job 4)', 5, '#ff7f0e'))):
        ax.bar([i + (k - 1.5) * w for i in range(len(rows))], [r[idx] for r in rows], w, label=lab, color=col)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([f"{r[0]}\n{'ILU(0)' if r[1] == 'subtree_ilu' else 'ICC(0)'}" for r in rows], fontsize=8)
    ax.set_ylabel('first PCSetUp (s)')
    ax.set_title('subtree_ilu first setup on the H200 (natural ordering; bench_factor)')
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print('wrote', out)
