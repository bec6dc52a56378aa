#!/usr/bin/env python3
"""Session 38: the predictor's features (host pass and GPU warp kernels, session 36's thread kernels beside them)
against one PELLR conversion on the 15 large matrices. Usage: python3 feature_cost_plot.py  ->  feature_cost.png"""
import csv
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

new = list(csv.DictReader(open("job2/feature-times.csv")))
old = {r["matrix"]: r for r in csv.DictReader(open("../2026-12-05-H200-session36/job1/feature-times.csv"))}
names = [r["matrix"] for r in new]
conv = [float(r["conv_pellr_s"]) for r in new]
host = [100 * float(r["host_features_s"]) / c for r, c in zip(new, conv)]
warp = [100 * float(r["gpu_features_s"]) / c for r, c in zip(new, conv)]
thread = [100 * float(old[n]["gpu_features_s"]) / c if n in old else float("nan") for n, c in zip(names, conv)]
x = range(len(names))
fig, ax = plt.subplots(figsize=(11, 4.5))
w = 0.27
ax.bar([i - w for i in x], host, w, label="host pass")
ax.bar(list(x), thread, w, label="GPU, thread per group (session 36)")
ax.bar([i + w for i in x], warp, w, label="GPU, warp kernels (session 38, default)")
ax.axhline(1.0, color="k", lw=0.8, ls="--")
ax.set_yscale("log")
ax.set_ylabel("% of one PELLR conversion")
ax.set_xticks(list(x))
ax.set_xticklabels(names, rotation=40, ha="right", fontsize=8)
ax.set_title("Format predictor's features on the H200 (dashed: issue 6's 1% target)")
ax.legend(fontsize=8)
fig.tight_layout()
fig.savefig("feature_cost.png", dpi=110)
