#!/usr/bin/env python3
"""Session 29: subtree_ilu's first setup on the H200, before (session 18 job 1, the plan made at the symbolic setup,
L and U copied separately) and after (job 3 at d0df7ef), beside PETSc's cuSPARSE ILU(0)/ICC(0) of the same run, and
the first refactorization (which now makes the plan). Run: python3 summarize.py [--plot setup_session29.png]"""
import csv, re, sys, os
here = os.path.dirname(os.path.abspath(__file__))
before = {(r['matrix'], r['pc']): r for r in csv.DictReader(open(os.path.join(here, '../2026-12-02-H200-session18/job1/refactor-lanes0.csv'))) if r['ordering'] == 'natural'}
after = {(r['matrix'], r['pc']): r for r in csv.DictReader(open(os.path.join(here, 'job3/setup.csv')))}
mats = ['lap2d5_1000', 'lap3d7_100', 'lap2d5_2000', 'lap3d7_160']
first = lambda r: float(re.search(r'first refactor ([0-9.e+-]+)', r['note']).group(1))
rows = []
print(f"{'matrix':14s} {'pc':12s} {'before':>8s} {'after':>8s} {'PETSc':>8s} {'x PETSc':>8s} {'1st refact':>10s} {'refact':>8s} {'PETSc ref':>9s}   (s, natural ordering)")
for m in mats:
    for pc, peer in (('subtree_ilu', 'ilu_cusparse'), ('subtree_icc', 'icc_cusparse')):
        b, a, p = before[(m, pc)], after[(m, pc)], after[(m, peer)]
        rows.append((m, pc, float(b['setup_s']), float(a['setup_s']), float(p['setup_s'])))
        print(f"{m:14s} {pc:12s} {float(b['setup_s']):8.3f} {float(a['setup_s']):8.3f} {float(p['setup_s']):8.3f} {float(a['setup_s'])/float(p['setup_s']):8.2f} {first(a):10.3f} {float(a['refactor_s']):8.4f} {float(p['refactor_s']):9.4f}")
if '--plot' in sys.argv:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    out = sys.argv[sys.argv.index('--plot') + 1]
    fig, ax = plt.subplots(figsize=(10, 4))
    w = 0.27
    for k, (lab, idx, col) in enumerate((('subtree_ilu, session 18', 2, '#bbbbbb'), ('subtree_ilu, session 29', 3, '#1f77b4'), ("PETSc cuSPARSE (same run)", 4, '#ff7f0e'))):
        ax.bar([i + (k - 1) * w for i in range(len(rows))], [r[idx] for r in rows], w, label=lab, color=col)
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([f"{r[0]}\n{'ILU(0)' if r[1] == 'subtree_ilu' else 'ICC(0)'}" for r in rows], fontsize=8)
    ax.set_ylabel('first PCSetUp (s)')
    ax.set_title('subtree_ilu first setup on the H200 (natural ordering; bench_factor)')
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(here, out), dpi=110)

# job 5 (d8fe992, another machine): natural and rcm, level 0 with an ordering factored on the permuted matrix
j5 = {(r['matrix'], r['pc'], r['ordering']): r for r in csv.DictReader(open(os.path.join(here, 'job5/setup.csv')))}
print("\njob 5 (d8fe992): first setup / steady refactorization, ours against PETSc's cuSPARSE factorization (s)")
print(f"{'matrix':14s} {'ordering':8s} {'pc':12s} {'setup':>8s} {'PETSc':>8s} {'refact':>8s} {'PETSc ref':>9s} {'1st refact':>10s}")
for m in mats:
    for o in ('natural', 'rcm'):
        for pc, peer in (('subtree_ilu', 'ilu_cusparse'), ('subtree_icc', 'icc_cusparse')):
            a, p = j5[(m, pc, o)], j5[(m, peer, o)]
            print(f"{m:14s} {o:8s} {pc:12s} {float(a['setup_s']):8.3f} {float(p['setup_s']):8.3f} {float(a['refactor_s']):8.4f} {float(p['refactor_s']):9.4f} {first(a):10.3f}")
