#!/usr/bin/env python3
"""Steady GPU refactorizations of subtree_ilu by lanes per chain (session 43's job 2 and this session's job 4, both on
an H100) beside cuSPARSE's SpSV analysis (session 42, job 6, another H100 host). Medians over the rounds.
Usage (from the repository root): python3 bench/results/2026-12-05-GPU-session44/plot_refactor_lanes.py"""
import csv
import glob
import os
import statistics

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
s43 = os.path.join(here, "..", "2026-12-05-CPU-session43", "job2")


def medians(pattern):
    vals = {}
    for f in glob.glob(pattern):
        for r in csv.DictReader(open(f)):
            key = (r["matrix"], r["pc"], r["ordering"])
            vals.setdefault(key, []).append(float(r["refactor_s"]) * 1e3)
    return {k: statistics.median(v) for k, v in vals.items()}


series = {
    "32 lanes": medians(os.path.join(s43, "refactor-lanes32-r*.csv")),
    "16 lanes": medians(os.path.join(s43, "refactor-lanes16-r*.csv")),
    "8 lanes": medians(os.path.join(s43, "refactor-lanes8-r*.csv")),
    "automatic (job 4)": medians(os.path.join(here, "job4", "refactor-lanes0-r*.csv")),
}
# SpSV analysis, session 42 (README, NOTE of session 42: job 6), ms
spsv = {("lap2d5_1000", "natural"): 17.13, ("lap2d5_1000", "rcm"): 16.49, ("lap3d7_100", "natural"): 3.25,
        ("lap3d7_100", "rcm"): 3.16, ("lap3d7_160", "natural"): 7.46, ("lap3d7_160", "rcm"): 7.28}
names = {"lap2d5_1000": "2D 1000²", "lap3d7_100": "3D 100³", "lap3d7_160": "3D 160³"}
keys = [(m, pc, o) for m in names for o in ("natural", "rcm") for pc in ("subtree_ilu", "subtree_icc")]
fig, ax = plt.subplots(figsize=(11, 4.5))
n = len(series) + 1
w = 0.8 / n
for i, (label, vals) in enumerate(list(series.items()) + [("cuSPARSE SpSV analysis (session 42)", None)]):
    xs = [g + (i - (n - 1) / 2) * w for g in range(len(keys))]
    ys = [spsv[(m, o)] if vals is None else vals.get((m, pc, o), 0) for (m, pc, o) in keys]
    ax.bar(xs, ys, w, label=label, color="0.6" if vals is None else None)
ax.set_xticks(range(len(keys)))
ax.set_xticklabels([f"{names[m]} {o}\n{'ILU(0)' if pc == 'subtree_ilu' else 'ICC(0)'}" for (m, pc, o) in keys], fontsize=7, rotation=30, ha="right")
ax.set_ylabel("steady refactorization (ms), H100")
ax.set_yscale("log")
ax.set_title("subtree_ilu GPU refactorization by lanes per chain (session 44)")
ax.legend(fontsize=7)
fig.tight_layout()
fig.savefig(os.path.join(here, "refactor_lanes.png"), dpi=110)
print("wrote", os.path.join(here, "refactor_lanes.png"))
