#!/usr/bin/env python3
"""Session 52 tables (summary.md) from the jobs' CSVs: job 1b (the compact update map against fc17bd4's, same host)
and job 2 (the first numeric factorization by PETSc or on the GPU, same host). Run from this folder."""
import csv, glob, re, statistics as st

def rows(pattern):
    out = []
    for f in sorted(glob.glob(pattern)):
        with open(f) as h:
            out += list(csv.DictReader(h))
    return out

def first(r):
    m = re.search(r"first refactor ([0-9.e+-]+) s", r.get("note", ""))
    return float(m.group(1)) if m else float("nan")

def key(r):
    return (r["matrix"], r["pc"], r["ordering"], r["levels"])

def med(v):
    v = [x for x in v if x == x]
    return st.median(v) if v else float("nan")

lines = ["# Session 52 summary (H100 hosts; medians over the rounds of each job)", ""]
lines += ["## Job 1b: GPU refactorization, compact update map (new) against fc17bd4 (base), ms", "",
          "| matrix | pc | ordering | levels | steady base | steady new | base/new | first base | first new |", "|---|---|---|---|---|---|---|---|---|"]
data = {}
for v in ("base", "new"):
    for r in rows(f"job1b/*-{v}*.csv"):
        if r["pc"].startswith("subtree"):
            data.setdefault(key(r), {}).setdefault(v, []).append((float(r["refactor_s"]), first(r)))
for k, d in data.items():
    if "base" not in d or "new" not in d:
        continue
    sb, sn = med([a for a, _ in d["base"]]) * 1e3, med([a for a, _ in d["new"]]) * 1e3
    fb, fn = med([b for _, b in d["base"]]) * 1e3, med([b for _, b in d["new"]]) * 1e3
    lines.append(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | {sb:.2f} | {sn:.2f} | {sb / sn:.2f} | {fb:.1f} | {fn:.1f} |")
lines += ["", "## Job 2: the first numeric factorization, PETSc's (petsc) or the plan on the GPU (auto), s", "",
          "| matrix | pc | first factorization | setup | first refactorization | steady refactorization | setup + first refactorization | apply ms | GMRES s |", "|---|---|---|---|---|---|---|---|---|"]
data = {}
for v in ("petsc", "auto"):
    for r in rows(f"job2/pl-{v}-r*.csv"):
        tag = v if r["pc"].startswith("subtree") else "-"
        data.setdefault((r["matrix"], r["pc"], tag), []).append(r)
for (m, pc, v), rs in sorted(data.items()):
    s, f, rf = med([float(r["setup_s"]) for r in rs]), med([first(r) for r in rs]), med([float(r["refactor_s"]) for r in rs])
    a, k = med([float(r["apply_s"]) for r in rs]) * 1e3, med([float(r["ksp_s"]) for r in rs])
    lines.append(f"| {m} | {pc} | {v} | {s:.3f} | {f:.3f} | {rf:.4f} | {s + f:.3f} | {a:.3f} | {k:.3f} |")
for job, title in (("job4", "Job 4: the plan written from per-range bounds (41271d5) against fc17bd4, same host, medians of 3 (grids) and 2 (power-law)"),
                   ("job5", "Job 5: the final code (0035efa: exact counts near the diagonal) against fc17bd4, same host, medians of 2")):
    lines += ["", f"## {title}, GPU refactorization ms and setup s", "",
              "| matrix | pc | ordering | setup base | setup new | first base | first new | steady base | steady new |", "|---|---|---|---|---|---|---|---|---|"]
    data = {}
    for v in ("base", "new"):
        for r in rows(f"{job}/*-{v}*.csv"):
            if r["pc"].startswith("subtree"):
                data.setdefault(key(r), {}).setdefault(v, []).append((float(r["setup_s"]), first(r), float(r["refactor_s"])))
    for k, d in data.items():
        if "base" not in d or "new" not in d:
            continue
        m = lambda l, i: med([t[i] for t in l])
        lines.append(f"| {k[0]} | {k[1]} | {k[2]} | {m(d['base'], 0):.3f} | {m(d['new'], 0):.3f} | {m(d['base'], 1) * 1e3:.1f} | {m(d['new'], 1) * 1e3:.1f} | {m(d['base'], 2) * 1e3:.2f} | {m(d['new'], 2) * 1e3:.2f} |")
open("summary.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
