#!/usr/bin/env python3
"""Plots of session 13 (run from this folder): factor_apply.png (ILU(0) apply: cuSPARSE SpSV, PETSc's cuSPARSE ILU(0),
subtree_ilu, job 3); factor_apply_ilu1.png (ILU(1): PETSc's cuSPARSE ILU(1), subtree_ilu without cut_late (job 2) and
with it, the new default (job 3)); spmv_pellr.png (pellrcuda forced to the pellr format on the irregular matrices:
session 10 job 7's kernels where measured, this session's job 1 (block rows in chunks) and job 2 (unrolled slices),
cuSPARSE CSR)."""
import csv
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def pick(rows, pc, col="apply_s"):
    return {(r["matrix"], r["ordering"]): float(r[col]) for r in rows if r["pc"] == pc and r["status"] == "ok"}


j3, j3i1, j2i1 = load("job3/factor.csv"), load("job3/factor-ilu1.csv"), load("job2/ilu1.csv")
cases = [(m, o) for m in ("lap2d5_1000", "lap3d7_100", "lap2d5_2000", "lap3d7_160") for o in ("natural", "rcm")]
labels = [f"{m.replace('lap', '').replace('5_', ' ').replace('7_', ' ')} {o}" for m, o in cases]


def bars(fname, title, series, ylabel, keys, ticklabels, scale=1e3):
    fig, ax = plt.subplots(figsize=(9, 4))
    w = 0.8 / len(series)
    for i, (name, vals) in enumerate(series):
        xs = [g + (i - (len(series) - 1) / 2) * w for g in range(len(keys))]
        ax.bar(xs, [scale * vals.get(c, float("nan")) for c in keys], w, label=name)
    ax.set_xticks(range(len(keys)))
    ax.set_xticklabels(ticklabels, rotation=30, ha="right", fontsize=8)
    ax.set_yscale("log")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=9)
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(fname, dpi=110)


bars("factor_apply.png", "ILU(0) apply on the H200, session 13 job 3 (lower is better)",
     [("cuSPARSE SpSV", pick(j3, "spsv")), ("PETSc cuSPARSE ILU(0)", pick(j3, "ilu_cusparse")), ("subtree_ilu", pick(j3, "subtree_ilu"))],
     "ms per apply", cases, labels)
bars("factor_apply_ilu1.png", "ILU(1) apply on the H200, session 13 (lower is better)",
     [("PETSc cuSPARSE ILU(1)", pick(j3i1, "ilu_cusparse")), ("subtree_ilu, cut_late off (job 2)", pick(j2i1, "subtree_ilu")),
      ("subtree_ilu, cut_late on: default (job 3)", pick(j3i1, "subtree_ilu"))], "ms per apply", cases, labels)


def spmv(path, fmt="pellrcuda", op="mult"):
    return {r["matrix"]: float(r["time_s"]) for r in load(path) if r["format"] == fmt and r["op"] == op and r["status"] == "ok"}


mats = ["powerlaw_1M_16", "powerlaw_4M_8", "blkdiag_bcsstk17_x24", "kron_pde900_jpwh_991", "blkdiag_e30r4000_x33", "blkdiag_bayer10_x106", "kron_bcsstk01_bcsstk13"]
bars("spmv_pellr.png", "SpMV with pellrcuda forced to the PELLR format, H200 (lower is better)",
     [("cuSPARSE CSR (aijcusparse, job 1)", spmv("job1/spmv-auto.csv", "aijcusparse")), ("PELLR, block rows in chunks (job 1)", spmv("job1/spmv-pellr.csv")),
      ("PELLR, + unrolled slices (job 2)", spmv("job2/spmv-pellr.csv"))], "us per product", mats, mats, scale=1e6)
