#!/usr/bin/env python3
"""Session 28: the pellrcuda GPU build in SpMVs of the same run (build time / product time) on the 15 large matrices,
-mat_pellr_cuda_reuse_block off and on (job 3, runs a and b of each, alternating in one command): each matrix's first
build and the median of its 5 rebuilds.
python3 plot_session28.py [-plot]   (prints the table; -plot writes build_session28.png)"""
import csv, os, re, statistics, sys

here = os.path.dirname(os.path.abspath(__file__))


def load(path):
    out = {}
    for r in csv.DictReader(open(path)):
        if r["format"] != "pellrcuda" or r["status"] != "ok":
            continue
        t = float(r["time_s"])
        b = float(re.search(r"build_s=(\S+)", r["note"]).group(1))
        rb = float(re.search(r"rebuild_s=(\S+)", r["note"]).group(1))
        out[r["matrix"]] = (b / t, rb / t)
    return out


runs = {(reuse, run): load(os.path.join(here, "job3", "spmv-reuse%d-%s.csv" % (reuse, run))) for reuse in (0, 1) for run in "ab"}
mats = list(runs[(1, "a")].keys())
print("| matrix | first build, reuse off (a / b) | first build, reuse on (a / b) | rebuild, reuse off (a / b) | rebuild, reuse on (a / b) |")
print("|---|---|---|---|---|")
for m in mats:
    cell = lambda reuse, k: "%.1f / %.1f" % (runs[(reuse, "a")][m][k], runs[(reuse, "b")][m][k])
    print("| %s | %s | %s | %s | %s |" % (m, cell(0, 0), cell(1, 0), cell(0, 1), cell(1, 1)))
for reuse in (0, 1):
    for run in "ab":
        d = runs[(reuse, run)]
        print("reuse %d run %s: first build <= 10 SpMVs on %d of %d, rebuild on %d of %d" % (reuse, run, sum(v[0] <= 10 for v in d.values()), len(d), sum(v[1] <= 10 for v in d.values()), len(d)))
if "-plot" in sys.argv:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(12, 4.8))
    w = 0.2
    series = [("first build, reuse on", 1, 0, "#9ecae1"), ("rebuild, reuse off", 0, 1, "#fdae6b"), ("rebuild, reuse on", 1, 1, "#3182bd")]
    for i, (name, reuse, k, c) in enumerate(series):
        ys = [statistics.mean([runs[(reuse, run)][m][k] for run in "ab"]) for m in mats]
        ax.bar([j + (i - 1) * w for j in range(len(mats))], ys, w, label=name + " (mean of runs a, b)", color=c)
    ax.axhline(10, color="red", lw=1, ls="--", label="goal: 10 SpMVs")
    ax.set_xticks(range(len(mats)))
    ax.set_xticklabels(mats, rotation=40, ha="right", fontsize=8)
    ax.set_ylabel("GPU build time / SpMV time")
    ax.set_title("pellrcuda GPU build on the H200, session 28 job 3 (6b15a63)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(here, "build_session28.png"), dpi=110)
