#!/usr/bin/env python3
"""Plots of session 12 (run from this folder): factor_apply.png (ILU(0) apply: cuSPARSE SpSV, PETSc's cuSPARSE ILU(0),
subtree_ilu at the start of the session (job 1) and at its end (job 5)); factor_apply_ilu1.png (ILU(1): PETSc's
cuSPARSE ILU(1), subtree_ilu job 1 (2D 1000^2 and 3D 100^3 only) and job 5)."""
import csv
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def pick(rows, pc, col="apply_s"):
    return {(r["matrix"], r["ordering"]): float(r[col]) for r in rows if r["pc"] == pc and r["status"] == "ok"}


j1, j1i1, j5, j5i1 = load("job1/bps0.csv"), load("job1/ilu1-bps0.csv"), load("job5/factor.csv"), load("job5/factor-ilu1.csv")
cases = [(m, o) for m in ("lap2d5_1000", "lap3d7_100", "lap2d5_2000", "lap3d7_160") for o in ("natural", "rcm")]
labels = [f"{m.replace('lap', '').replace('5_', ' ').replace('7_', ' ')} {o}" for m, o in cases]


def bars(fname, title, series, ylabel):
    fig, ax = plt.subplots(figsize=(9, 4))
    w = 0.8 / len(series)
    for i, (name, vals) in enumerate(series):
        xs = [g + (i - (len(series) - 1) / 2) * w for g in range(len(cases))]
        ax.bar(xs, [1e3 * vals.get(c, float("nan")) for c in cases], w, label=name)
    ax.set_xticks(range(len(cases)))
    ax.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(fname, dpi=110)


bars("factor_apply.png", "ILU(0) apply on the H200, session 12 (lower is better)",
     [("cuSPARSE SpSV", pick(j5, "spsv")), ("PETSc cuSPARSE ILU(0)", pick(j5, "ilu_cusparse")),
      ("subtree_ilu, job 1 (start)", pick(j1, "subtree_ilu")), ("subtree_ilu, job 5 (end)", pick(j5, "subtree_ilu"))], "ms per apply")
bars("factor_apply_ilu1.png", "ILU(1) apply on the H200, session 12 (lower is better)",
     [("PETSc cuSPARSE ILU(1)", pick(j5i1, "ilu_cusparse")), ("subtree_ilu, job 1 (start)", pick(j1i1, "subtree_ilu")),
      ("subtree_ilu, job 5 (end)", pick(j5i1, "subtree_ilu"))], "ms per apply")
