#!/usr/bin/env python3
"""Session 20 tables: the pellrcuda GPU build (PELLRBuild event, build_s in the note) against SpMV time, before
(session 19 job 3 at 13090d5, and this session's job 1 at d811aed) and after (job 2 at 8d365d0, job 3 at f6ed901);
the auto table of job 3 (aijcusparse / sellcuda / pellrcuda in one run). Run: python3 build_table.py"""
import csv, math, os
here = os.path.dirname(os.path.abspath(__file__))
def rows(path):
    return [r for r in csv.DictReader(open(path)) if r["kind"] != "reference" and r["status"] == "ok"]
def build(r):
    for t in r["note"].split():
        if t.startswith("build_s="): return float(t[8:])
    return float("nan")
def fmt(r):
    for t in r["note"].split():
        if t.startswith("format="): return t[7:]
    return "?"
def ours(path):
    return {r["matrix"]: r for r in rows(path) if r["format"] == "pellrcuda" and r["op"] == "mult"}
s19 = ours(os.path.join(here, "../2026-12-02-H200-session19/job3/spmv-auto.csv"))
j2 = ours(os.path.join(here, "job2/spmv-auto.csv"))
j3 = ours(os.path.join(here, "job3/spmv-auto.csv"))
print("## GPU build in SpMVs (build_s / SpMV time), pellrcuda auto, the 15 large matrices in bench order\n")
print("| matrix | format | SpMV (job 3) | build s19 job 3 | SpMVs | build job 2 | SpMVs | build job 3 | SpMVs |")
print("|---|---|---|---|---|---|---|---|---|")
cnt = {"s19": 0, "j2": 0, "j3": 0}
for m, r in j3.items():
    t = float(r["time_s"])
    cells = []
    for tag, d in (("s19", s19), ("j2", j2), ("j3", j3)):
        if m in d:
            b, tt = build(d[m]), float(d[m]["time_s"])
            cnt[tag] += b / tt <= 10
            cells += ["%.0f us" % (1e6 * b), "%.1f" % (b / tt)]
        else: cells += ["-", "-"]
    print("| %s | %s | %.1f us | %s |" % (m, fmt(r), 1e6 * t, " | ".join(cells)))
print("\n<= 10 SpMVs: session 19 job 3 %d of 15, job 2 %d, job 3 %d\n" % (cnt["s19"], cnt["j2"], cnt["j3"]))
print("## Build of one format on a cold and a warm pool (each matrix twice in a row), us\n")
print("| format | matrix | job 1 (d811aed) first | second | job 3 (f6ed901) first | second |")
print("|---|---|---|---|---|---|")
for f in ("sell", "pellr", "csr", "ellr"):
    a = os.path.join(here, "job1/spmv-build-%s.csv" % f); b = os.path.join(here, "job3/spmv-build-%s.csv" % f)
    ra = [r for r in rows(a)] if os.path.exists(a) else []
    rb = [r for r in rows(b)]
    for k in range(0, len(rb), 2):
        m = rb[k]["matrix"]
        old = ["%.0f" % (1e6 * build(ra[k])), "%.0f" % (1e6 * build(ra[k + 1]))] if ra else ["-", "-"]
        print("| %s | %s | %s | %s | %.0f | %.0f |" % (f, m, old[0], old[1], 1e6 * build(rb[k]), 1e6 * build(rb[k + 1])))
print("\n## SpMV, job 3 (f6ed901): aijcusparse / sellcuda / pellrcuda auto in one run\n")
allr = rows(os.path.join(here, "job3/spmv-auto.csv"))
t = {}
for r in allr:
    if r["op"] == "mult": t.setdefault(r["matrix"], {})[r["format"]] = r
print("| matrix | aijcusparse | sellcuda | pellrcuda auto | vs aijcusparse | vs better peer | % copy bw | memory / CSR |")
print("|---|---|---|---|---|---|---|---|")
g1, g2 = [], []
for m, v in t.items():
    a, s, p = (float(v[k]["time_s"]) for k in ("aijcusparse", "sellcuda", "pellrcuda"))
    g1.append(a / p); g2.append(min(a, s) / p)
    print("| %s | %.1f us | %.1f us | %.1f us (%s) | %.2fx | %.2fx | %.0f%% | %.2f |" % (m, 1e6 * a, 1e6 * s, 1e6 * p, fmt(v["pellrcuda"]), a / p, min(a, s) / p, 100 * float(v["pellrcuda"]["copy_ratio"]), float(v["pellrcuda"]["mem_ratio"])))
g = lambda l: math.exp(sum(map(math.log, l)) / len(l))
print("\ngeomean %.3fx aijcusparse, %.3fx the better peer, lowest %.3f" % (g(g1), g(g2), min(g2)))
