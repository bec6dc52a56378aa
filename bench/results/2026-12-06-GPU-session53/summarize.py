#!/usr/bin/env python3
"""Session 53 tables (summary.md) from the jobs' CSVs: each job's A/B of the new library against b12a4da (base, built
in the same job, rounds alternated): setup, first and steady GPU refactorizations, apply. Run from this folder."""
import csv, glob, os, re, statistics as st

def rows(pattern):
    out = []
    for f in sorted(glob.glob(pattern)):
        with open(f) as h:
            out += list(csv.DictReader(h))
    return out

def first(r):
    m = re.search(r"first refactor ([0-9.e+-]+) s", r.get("note", ""))
    return float(m.group(1)) if m else float("nan")

def med(v):
    v = [x for x in v if x == x]
    return st.median(v) if v else float("nan")

lines = ["# Session 53 summary (H100 hosts; medians over the rounds of each job; base = b12a4da built in the same job)", ""]
for job in sorted(d for d in os.listdir(".") if re.fullmatch(r"job\d+", d)):
    data = {}
    for v in ("base", "new"):
        for r in rows(f"{job}/*-{v}*.csv"):
            if r["pc"].startswith("subtree"):
                k = (r["matrix"], r["pc"], r["ordering"], r["levels"])
                data.setdefault(k, {}).setdefault(v, []).append(r)
    if not any("base" in d and "new" in d for d in data.values()):
        continue
    n = max(len(d.get("new", [])) for d in data.values())
    lines += [f"## {job} (up to {n} rounds)", "",
              "| matrix | pc | ordering | levels | setup base s | setup new s | first base ms | first new ms | steady base ms | steady new ms | new/base steady | apply base ms | apply new ms |",
              "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for k, d in data.items():
        if "base" not in d or "new" not in d:
            continue
        f = lambda v, g: med([g(r) for r in d[v]])
        sb, sn = f("base", lambda r: float(r["setup_s"])), f("new", lambda r: float(r["setup_s"]))
        fb, fn = f("base", first) * 1e3, f("new", first) * 1e3
        rb, rn = f("base", lambda r: float(r["refactor_s"])) * 1e3, f("new", lambda r: float(r["refactor_s"])) * 1e3
        ab, an = f("base", lambda r: float(r["apply_s"])) * 1e3, f("new", lambda r: float(r["apply_s"])) * 1e3
        lines.append(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | {sb:.3f} | {sn:.3f} | {fb:.1f} | {fn:.1f} | {rb:.3f} | {rn:.3f} | {rn / rb:.3f} | {ab:.3f} | {an:.3f} |")
    lines.append("")
open("summary.md", "w").write("\n".join(lines))
print("\n".join(lines))
