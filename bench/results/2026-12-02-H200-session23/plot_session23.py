#!/usr/bin/env python3
"""Session 23: the pellrcuda GPU build in products (build_s / SpMV time of the same run) on the 15 large matrices,
session 22 job 4 (aeab6c4) against this session's job 2 (8939b1b) and job 4 (090f55c, cudaMalloc for the layout).
python3 plot_session23.py [-plot]   (prints the table; -plot writes build_session23.png)"""
import csv, math, os, re, sys

here = os.path.dirname(os.path.abspath(__file__))
runs = [("session 22 job 4 (aeab6c4)", os.path.join(here, "..", "2026-12-02-H200-session22", "job4", "spmv-auto.csv")),
        ("job 2 (8939b1b)", os.path.join(here, "job2", "spmv-auto.csv")),
        ("job 4 (090f55c, cudaMalloc)", os.path.join(here, "job4", "spmv-auto.csv"))]


def load(path):
    out = {}
    for r in csv.DictReader(open(path)):
        if r["format"] != "pellrcuda" or r["status"] != "ok":
            continue
        b = re.search(r"build_s=([0-9.e+-]+)", r["note"])
        t = float(r["time_s"])
        out[r["matrix"]] = (t, float(b.group(1)) if b else float("nan"))
    return out


data = [(name, load(p)) for name, p in runs]
mats = list(data[0][1].keys())
print("%-24s" % "matrix" + "".join("%30s" % n for n, _ in data))
for m in mats:
    print("%-24s" % m + "".join("%18.3f ms (%5.1f)" % (d[m][1] * 1e3, d[m][1] / d[m][0]) if m in d else "%30s" % "-" for _, d in data))
for n, d in data:
    k = [d[m][1] / d[m][0] for m in mats if m in d]
    print("%-30s build <= 10 SpMVs on %d of %d" % (n, sum(x <= 10 for x in k), len(k)))
if "-plot" in sys.argv:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(11, 4.5))
    w = 0.27
    for i, (n, d) in enumerate(data):
        ax.bar([j + (i - 1) * w for j in range(len(mats))], [d[m][1] / d[m][0] if m in d else 0 for m in mats], w, label=n)
    ax.axhline(10, color="k", lw=1, ls="--")
    ax.set_xticks(range(len(mats)))
    ax.set_xticklabels(mats, rotation=40, ha="right", fontsize=8)
    ax.set_ylabel("GPU build / SpMV time")
    ax.set_title("pellrcuda auto: GPU layout build in products, H200 (goal <= 10, dashed)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(here, "build_session23.png"), dpi=110)
    print("wrote build_session23.png")
