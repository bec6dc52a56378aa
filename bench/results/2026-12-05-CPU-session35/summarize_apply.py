#!/usr/bin/env python3
"""Table of apply_times.csv: subtree_ilu's serial apply (ms, median over rounds) before/after, beside PETSc's MatSolve
(ilu_host/icc_host, both libraries' runs pooled: PETSc's code is the same in both)."""
import csv, statistics, sys
from collections import defaultdict
f = sys.argv[1] if len(sys.argv) > 1 else "apply_times.csv"
t = defaultdict(list)
for r in csv.DictReader(open(f)):
    lib = r["library"] if r["pc"].startswith("subtree") else "petsc"
    t[(r["matrix"], r["ordering"], r["pc"], lib)].append(float(r["apply_s"]) * 1e3)
med = {k: statistics.median(v) for k, v in t.items()}
print("| matrix | ordering | factor | PETSc MatSolve | subtree_ilu before | after | before/after | after/PETSc |")
print("|---|---|---|---|---|---|---|---|")
for (m, o, pc, lib) in sorted(k for k in med if k[3] == "petsc"):
    ours = "subtree_ilu" if pc == "ilu_host" else "subtree_icc"
    p, b, a = med[(m, o, pc, lib)], med.get((m, o, ours, "before")), med.get((m, o, ours, "after"))
    if b is None or a is None: continue
    print(f"| {m} | {o} | {'ILU(0)' if pc == 'ilu_host' else 'ICC(0)'} | {p:.2f} | {b:.2f} | {a:.2f} | {b / a:.2f}x | {a / p:.2f} |")
