#!/usr/bin/env python3
"""PNG plots of a benchmark results folder (matplotlib; run it on any machine after the GPU run).
Usage: python3 bench/plot.py [bench/results/<date>-<gpu>]   (default: the newest folder)
Writes spmv_speedup.png, spmv_bandwidth.png, factor_apply.png, order_time.png and refreshes report.md."""
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import geomean, load, num, ordered  # noqa: E402


def bars(ax, groups, series, values, ylabel, log=False):
    n = max(len(series), 1)
    w = 0.8 / n
    for i, s in enumerate(series):
        xs = [g + (i - (n - 1) / 2) * w for g in range(len(groups))]
        ys = [values.get((grp, s)) or 0 for grp in groups]
        ax.bar(xs, ys, w, label=s)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, rotation=60, ha="right", fontsize=7)
    ax.set_ylabel(ylabel)
    if log:
        ax.set_yscale("log")
    ax.legend(fontsize=7)
    ax.grid(axis="y", alpha=0.3)


def spmv_plots(d, rows):
    data = [r for r in rows if r["status"] == "ok" and r["op"] == "mult" and not r["matrix"].startswith("_")]
    dev = [r for r in data if r["note"].split(" ")[0] == "device"]
    if not dev:
        dev = data  # CPU run: host formats
    mats = ordered(r["matrix"] for r in dev if r["kind"] != "mtx") or ordered(r["matrix"] for r in dev)
    fmts = ordered(r["format"] for r in dev)
    by = {(r["matrix"], r["format"]): r for r in dev}
    base = "aijcusparse" if "aijcusparse" in fmts else fmts[0]
    sp = {}
    for m in mats:
        b = by.get((m, base))
        for f in fmts:
            r = by.get((m, f))
            if b and r and num(r["time_s"]):
                sp[(m, f)] = num(b["time_s"]) / num(r["time_s"])
    fig, ax = plt.subplots(figsize=(max(8, 0.6 * len(mats)), 5))
    bars(ax, mats, fmts, sp, f"speedup over {base} (MatMult)")
    ax.axhline(1.0, color="k", lw=0.8)
    title = f"SpMV speedup over {base}"
    gm = [f"{f}: {geomean([sp.get((m, f)) for m in mats]):.2f}x" for f in fmts if f != base and geomean([sp.get((m, f)) for m in mats])]
    if gm:
        title += " (geomean " + ", ".join(gm) + ")"
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(d, "spmv_speedup.png"), dpi=110)
    plt.close(fig)

    copy = [r for r in rows if r["matrix"] == ("_device" if dev is not data else "_host")]
    bw = {(m, f): num(by[(m, f)]["eff_GBs"]) for (m, f) in by if m in mats}
    fig, ax = plt.subplots(figsize=(max(8, 0.6 * len(mats)), 5))
    bars(ax, mats, fmts, bw, "effective bandwidth (GB/s, compulsory CSR bytes / time)")
    if copy and num(copy[0]["eff_GBs"]):
        c = num(copy[0]["eff_GBs"])
        ax.axhline(c, color="r", lw=1, ls="--", label=f"measured copy {c:.0f} GB/s")
        ax.axhline(0.85 * c, color="r", lw=0.8, ls=":", label="85% of copy")
        ax.legend(fontsize=7)
    ax.set_title("SpMV effective bandwidth vs the measured copy bandwidth", fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(d, "spmv_bandwidth.png"), dpi=110)
    plt.close(fig)


def factor_plot(d, rows):
    ok = [r for r in rows if r["status"] == "ok" and r["kind"] != "mtx"]
    if not ok:
        ok = [r for r in rows if r["status"] == "ok"]
    if not ok:
        return
    keys = ordered(f"{r['matrix']} {r['ordering']} L{r['levels']}" for r in ok)
    pcs = ordered(r["pc"] for r in ok)
    vals = {(f"{r['matrix']} {r['ordering']} L{r['levels']}", r["pc"]): 1e3 * num(r["apply_s"]) for r in ok if num(r["apply_s"])}
    fig, ax = plt.subplots(figsize=(max(8, 0.7 * len(keys)), 5))
    bars(ax, keys, pcs, vals, "time per apply (ms, log)", log=True)
    ax.set_title("Triangular-solve apply time (ILU/ICC levels, ordering)", fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(d, "factor_apply.png"), dpi=110)
    plt.close(fig)


def order_plot(d, rows):
    ok = [r for r in rows if r["status"] == "ok"]
    if not ok:
        return
    big = [r for r in ok if r["kind"] != "mtx"] or ok
    mats = ordered(r["matrix"] for r in big)
    ords = ordered(r["ordering"] for r in big)
    vals = {(r["matrix"], r["ordering"]): 1e3 * num(r["time_s"]) for r in big if num(r["time_s"])}
    fig, ax = plt.subplots(figsize=(max(8, 0.7 * len(mats)), 5))
    bars(ax, mats, ords, vals, "end-to-end ordering time (ms, log)", log=True)
    ax.set_title("Ordering time: MatGetOrdering end to end; cusolver_rcm = cusolverSpXcsrsymrcmHost call", fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(d, "order_time.png"), dpi=110)
    plt.close(fig)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    d = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] else None
    if not d:
        base = os.path.join(here, "results")
        d = os.path.join(base, sorted(x for x in os.listdir(base) if os.path.isdir(os.path.join(base, x)))[-1])
    spmv, fact, order = (load(os.path.join(d, n)) for n in ("spmv.csv", "factor.csv", "order.csv"))
    if spmv:
        spmv_plots(d, spmv)
    if fact:
        factor_plot(d, fact)
    if order:
        order_plot(d, order)
    subprocess.run([sys.executable, os.path.join(here, "report.py"), d], check=False)
    print("plots in", d)


if __name__ == "__main__":
    main()
