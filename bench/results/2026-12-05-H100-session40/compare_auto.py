#!/usr/bin/env python3
"""auto (pellrcuda) against the better of aijcusparse and sellcuda per matrix, from bench_spmv CSV files (median
product times, the `mult` rows). Usage: compare_auto.py label=file.csv [label=file.csv ...]"""
import csv, math, sys

def load(path):
    t = {}
    for r in csv.DictReader(open(path)):
        if r["op"] != "mult" or r["status"] != "ok" or r["kind"] == "reference":
            continue
        t.setdefault(r["matrix"], {})[r["format"]] = float(r["time_s"])
    return t

runs = [a.split("=", 1) for a in sys.argv[1:]]
data = [(lab, load(f)) for lab, f in runs]
mats = [m for m in data[0][1]]
print("| matrix | " + " | ".join(f"{lab}: auto (us) | × aijcusparse | × better peer" for lab, _ in data) + " |")
print("|---|" + "---|---|---|" * len(data))
summ = {lab: [[], [], 0] for lab, _ in data}
for m in mats:
    row = [m]
    for lab, t in data:
        f = t.get(m, {})
        if not all(k in f for k in ("aijcusparse", "sellcuda", "pellrcuda")):
            row += ["—"] * 3
            continue
        a, s, p = f["aijcusparse"], f["sellcuda"], f["pellrcuda"]
        peer = min(a, s)
        row += [f"{p * 1e6:.1f}", f"{a / p:.3f}", f"{peer / p:.3f}"]
        summ[lab][0].append(a / p); summ[lab][1].append(peer / p); summ[lab][2] += peer / p < 0.95
    print("| " + " | ".join(row) + " |")
for lab, (xa, xp, nbad) in summ.items():
    g = lambda x: math.exp(sum(map(math.log, x)) / len(x))
    print(f"\n{lab}: {len(xa)} matrices, geometric mean {g(xa):.3f}x aijcusparse, {g(xp):.3f}x the better peer, "
          f"worst {min(xp):.3f}x, below 0.95x the better peer on {nbad}")
