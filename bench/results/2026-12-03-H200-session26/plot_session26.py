#!/usr/bin/env python3
"""Session 26: the pellrcuda GPU build in products (build time / SpMV time of the same run) on the 15 large matrices:
session 24 job 1 (11f2273, first builds) against this session's job 1 (first build of each matrix, and the median of
its rebuilds, -rebuilds 3).
python3 plot_session26.py [job] [-plot]   (prints the table; -plot writes build_session26.png)"""
import csv, os, re, sys

here = os.path.dirname(os.path.abspath(__file__))
job = next((a for a in sys.argv[1:] if not a.startswith("-")), "job1")
runs = [("session 24 job 1, first build", os.path.join(here, "..", "2026-12-02-H200-session24", "job1", "spmv-auto.csv"), "build_s"),
        ("session 26 %s, first build" % job, os.path.join(here, job, "spmv-auto.csv"), "build_s"),
        ("session 26 %s, rebuilds (median of 3)" % job, os.path.join(here, job, "spmv-auto.csv"), "rebuild_s")]


def load(path, key):
    out = {}
    for r in csv.DictReader(open(path)):
        if r["format"] != "pellrcuda" or r["status"] != "ok":
            continue
        b = re.search(key + r"=([0-9.e+-]+)", r["note"])
        f = re.search(r"format=(\w+)", r["note"])
        if b:
            out[r["matrix"]] = (float(r["time_s"]), float(b.group(1)), f.group(1) if f else "?")
    return out


data = [(name, load(p, k)) for name, p, k in runs if os.path.exists(p)]
mats = list(data[-1][1].keys()) if data else []
print("%-24s %6s" % ("matrix", "format") + "".join("%34s" % n[:32] for n, _ in data))
for m in mats:
    fmt = data[-1][1][m][2]
    print("%-24s %6s" % (m, fmt) + "".join("%22.3f ms (%5.1f)" % (d[m][1] * 1e3, d[m][1] / d[m][0]) if m in d else "%34s" % "-" for _, d in data))
for n, d in data:
    k = [d[m][1] / d[m][0] for m in mats if m in d]
    print("%-44s build <= 10 SpMVs on %d of %d (max %.1f)" % (n, sum(x <= 10 for x in k), len(k), max(k) if k else float("nan")))
if "-plot" in sys.argv:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(11, 4.5))
    w = 0.8 / max(len(data), 1)
    for i, (n, d) in enumerate(data):
        ax.bar([j + (i - (len(data) - 1) / 2) * w for j in range(len(mats))], [d[m][1] / d[m][0] if m in d else 0 for m in mats], w, label=n)
    ax.axhline(10, color="k", lw=1, ls="--")
    ax.set_xticks(range(len(mats)))
    ax.set_xticklabels(mats, rotation=40, ha="right", fontsize=8)
    ax.set_ylabel("GPU build / SpMV time")
    ax.set_title("pellrcuda auto: GPU layout build in products, H200 (goal <= 10, dashed)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(here, "build_session26.png"), dpi=110)
    print("wrote build_session26.png")
