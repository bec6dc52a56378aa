#!/usr/bin/env python3
"""Plots of session 11 (run from this folder): factor_apply.png (ILU(0) apply: cuSPARSE SpSV, subtree_ilu before
the block tickets (job 7) and after (job 8 natural, job 9 RCM)), factor_refactor.png (per-refactorization cost:
SpSV analysis, PETSc cuSPARSE ILU(0) refactorization, subtree_ilu GPU refactorization ILU(0)/ICC(0), job 7)."""
import csv
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def pick(rows, pc, col):
    return {(r["matrix"], r["ordering"]): float(r[col]) for r in rows if r["pc"] == pc and r["levels"] == "0" and r["status"] == "ok"}


j7, j8, j9 = load("job7/factor.csv"), load("job8/factor.csv"), load("job9/factor.csv")
cases = [(m, o) for m in ("lap2d5_1000", "lap3d7_100", "lap2d5_2000", "lap3d7_160") for o in ("natural", "rcm")]
labels = [f"{m.replace('lap', '').replace('5_', ' ').replace('7_', ' ')} {o}" for m, o in cases]
final = {c: (pick(j8, "subtree_ilu", "apply_s") if c[1] == "natural" else pick(j9, "subtree_ilu", "apply_s"))[c] for c in cases}
series = [("cuSPARSE SpSV", pick(j8, "spsv", "apply_s")), ("subtree_ilu (job 7)", pick(j7, "subtree_ilu", "apply_s")), ("subtree_ilu (jobs 8/9)", final)]


def bars(fname, title, series, ylabel):
    fig, ax = plt.subplots(figsize=(9, 4))
    w = 0.8 / len(series)
    for i, (name, vals) in enumerate(series):
        xs = [g + (i - (len(series) - 1) / 2) * w for g in range(len(cases))]
        ax.bar(xs, [1e3 * vals[c] for c in cases], w, label=name)
    ax.set_xticks(range(len(cases)))
    ax.set_xticklabels(labels, rotation=30, ha="right", fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(fname, dpi=110)


bars("factor_apply.png", "ILU(0) apply on the H200 (lower is better)", series, "ms per apply")
bars("factor_refactor.png", "Per refactorization, same pattern, new values on the GPU (lower is better)",
     [("SpSV analysis (L+U)", pick(j7, "spsv", "refactor_s")), ("PETSc cuSPARSE ILU(0)", pick(j7, "ilu_cusparse", "refactor_s")),
      ("subtree_ilu ILU(0)", pick(j7, "subtree_ilu", "refactor_s")), ("subtree_ilu ICC(0)", pick(j7, "subtree_icc", "refactor_s"))], "ms")
