#!/usr/bin/env python3
"""Writes report.md of a benchmark results folder from its CSV files (standard library only, so it runs on the
GPU machine; plots are made by plot.py).  Usage: python3 bench/report.py bench/results/<date>-<gpu>"""
import csv
import math
import os
import sys

# the peers every component is compared with, and our types
SPMV_BASE = "aijcusparse"
SPMV_PEERS = ["aijcusparse", "sellcuda"]
FACT_BASE = "ilu_cusparse"


def load(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return list(csv.DictReader(f))


def num(x):
    try:
        v = float(x)
        return v if math.isfinite(v) else None
    except (TypeError, ValueError):
        return None


def fmt(v, digits=3, scale=1.0):
    if v is None:
        return "–"
    v *= scale
    if v == 0:
        return "0"
    if abs(v) >= 100:
        return f"{v:.0f}"
    return f"{v:.{digits}g}"


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def ordered(seq):
    seen, out = set(), []
    for s in seq:
        if s not in seen:
            seen.add(s)
            out.append(s)
    return out


def spmv_section(rows):
    md = ["## SpMV (`bench_spmv`)", ""]
    copy = [r for r in rows if r["matrix"] == "_device"]
    host = [r for r in rows if r["matrix"] == "_host"]
    copybw = num(copy[0]["eff_GBs"]) if copy else None
    if copy:
        md.append(f"Device copy bandwidth (cudaMemcpy D2D, 1 GiB, read+write, median of {copy[0]['reps']}): **{fmt(copybw)} GB/s** on {copy[0]['note']}.")
    if host:
        md.append(f"Host one-core memcpy bandwidth: {fmt(num(host[0]['eff_GBs']))} GB/s (reference for host formats).")
    md.append("")
    data = [r for r in rows if not r["matrix"].startswith("_") and r["status"] == "ok"]
    for op in ordered(r["op"] for r in data):
        d = [r for r in data if r["op"] == op]
        fmts = ordered(r["format"] for r in d)
        mats = ordered(r["matrix"] for r in d)
        by = {(r["matrix"], r["format"]): r for r in d}
        md += [f"### {op}: time per call (ms, median) / effective bandwidth (GB/s, % of the copy bandwidth: device for device types, one-core host for host types)", ""]
        hdr = ["matrix", "rows", "nnz"] + fmts + ([f"{f} vs {SPMV_BASE}" for f in fmts if f != SPMV_BASE and SPMV_BASE in fmts])
        trs = []
        for m in mats:
            any_r = next(by[(m, f)] for f in fmts if (m, f) in by)
            tr = [m, any_r["rows"], any_r["nnz"]]
            for f in fmts:
                r = by.get((m, f))
                if not r:
                    tr.append("–")
                    continue
                pct = num(r["copy_ratio"])
                tr.append(f"{fmt(num(r['time_s']), 3, 1e3)} / {fmt(num(r['eff_GBs']))} ({fmt(pct, 2, 100)}%)")
            base = by.get((m, SPMV_BASE))
            for f in fmts:
                if f == SPMV_BASE or SPMV_BASE not in fmts:
                    continue
                r = by.get((m, f))
                tr.append(fmt(num(base["time_s"]) / num(r["time_s"])) + "×" if base and r and num(r["time_s"]) else "–")
            trs.append(tr)
        md += [table(hdr, trs), ""]
        # geometric means over the large (generated / scaled-up) set
        kind = {r["matrix"]: r["kind"] for r in d}
        large = [m for m in mats if kind.get(m) != "mtx"]
        if large:
            lines = []
            for f in fmts:
                for p in SPMV_PEERS:
                    if f == p or p not in fmts:
                        continue
                    g = geomean([num(by[(m, p)]["time_s"]) / num(by[(m, f)]["time_s"]) for m in large if (m, p) in by and (m, f) in by and num(by[(m, f)]["time_s"])])
                    if g:
                        lines.append(f"- {f} vs {p}: geometric-mean speedup {fmt(g)}× over {len(large)} large matrices")
            md += [f"Large set (generated and scaled-up matrices, {op}):", ""] + lines + [""]
    # setup and memory
    d = [r for r in data if r["op"] == "mult"]
    if d:
        fmts = ordered(r["format"] for r in d)
        mats = ordered(r["matrix"] for r in d if r["kind"] != "mtx")
        by = {(r["matrix"], r["format"]): r for r in d}
        md += ["### Setup (MatConvert from AIJ + first MatMult incl. host-to-device copy, s) and device memory (× CSR bytes)", ""]
        trs = []
        for m in mats:
            tr = [m]
            for f in fmts:
                r = by.get((m, f))
                if not r:
                    tr.append("–")
                    continue
                memr = num(r["mem_ratio"])
                t = num(r["time_s"])
                setup = (num(r["convert_s"]) or 0) + (num(r["first_s"]) or 0)
                tr.append(f"{fmt(num(r['convert_s']))}+{fmt(num(r['first_s']))}" + (f" (= {fmt(setup / t)} SpMVs)" if t else "") + (f", mem {fmt(memr)}×" if memr is not None else ""))
            trs.append(tr)
        md += [table(["matrix"] + fmts, trs), ""]
    return md


def factor_section(rows):
    md = ["## ILU(0)/ICC(0)/ILU(1) apply (`bench_factor`)", ""]
    d = [r for r in rows if r["status"] not in ("unavailable", "skipped_time_limit")]
    ok = [r for r in d if r["status"] == "ok"]
    if not ok:
        return md + ["No successful factorization cases.", ""]
    pcs = ordered(r["pc"] for r in ok)
    keys = ordered((r["matrix"], r["ordering"], r["levels"]) for r in ok)
    by = {(r["matrix"], r["ordering"], r["levels"], r["pc"]): r for r in ok}
    md += ["Time per apply in ms (median), `spsv` = the two cuSPARSE SpSV solves only; depth = levels of the L / U dependency DAG of A's pattern under the ordering.", ""]
    trs = []
    for k in keys:
        any_r = next(by[k + (p,)] for p in pcs if k + (p,) in by)
        tr = [k[0], any_r["rows"], k[1], k[2], f"{any_r['depth_L']}/{any_r['depth_U']}"]
        for p in pcs:
            r = by.get(k + (p,))
            tr.append(f"{fmt(num(r['apply_s']), 3, 1e3)}" + (f" ({fmt(num(r['gflops']))} GF/s)" if r and num(r["gflops"]) else "") if r else "–")
        trs.append(tr)
    md += [table(["matrix", "rows", "ordering", "levels", "depth L/U"] + pcs, trs), ""]
    md += ["Setup: first PCSetUp (symbolic+numeric, incl. transfer) / refactorization with the same pattern (median); `spsv`: SpSV analysis (L+U) / re-analysis, and cusparseSpSV_updateMatrix in the last column. Seconds.", ""]
    trs = []
    for k in keys:
        tr = [k[0], k[1], k[2]]
        for p in pcs:
            r = by.get(k + (p,))
            tr.append(f"{fmt(num(r['setup_s']))} / {fmt(num(r['refactor_s']))}" if r else "–")
        sp = by.get(k + ("spsv",))
        tr.append(fmt(num(sp["update_s"])) if sp else "–")
        trs.append(tr)
    md += [table(["matrix", "ordering", "levels"] + pcs + ["spsv updateMatrix"], trs), ""]
    ksp = [r for r in ok if r["ksp_type"] not in ("-", "")]
    if ksp:
        md += ["End-to-end KSPSolve (rtol 1e-8 unless changed, x0 = 0, random right-hand side):", ""]
        md += [table(["matrix", "ordering", "levels", "pc", "ksp", "its", "reason", "time (s)"], [[r["matrix"], r["ordering"], r["levels"], r["pc"], r["ksp_type"], r["ksp_its"], r["ksp_reason"], fmt(num(r["ksp_s"]))] for r in ksp]), ""]
    fails = [r for r in d if r["status"].startswith("failed") or r["status"] == "nonfinite_result"]
    if fails:
        md += ["Failed cases (expected for matrices with zero or missing diagonals):", ""]
        md += [table(["matrix", "pc", "ordering", "levels", "status", "note"], [[r["matrix"], r["pc"], r["ordering"], r["levels"], r["status"], r["note"]] for r in fails]), ""]
    return md


def order_section(rows):
    md = ["## Orderings (`bench_order`): end-to-end MatGetOrdering time", ""]
    ok = [r for r in rows if r["status"] == "ok"]
    if not ok:
        return md + ["No successful ordering cases.", ""]
    ords = ordered(r["ordering"] for r in ok)
    mats = ordered(r["matrix"] for r in ok)
    by = {(r["matrix"], r["ordering"]): r for r in ok}
    md += ["Time in ms (median); `×rcm` = speedup over PETSc rcm; bandwidth before → after; identical = same permutation as PETSc rcm.", ""]
    trs = []
    for m in mats:
        any_r = next(by[(m, o)] for o in ords if (m, o) in by)
        tr = [m, any_r["rows"], any_r["nnz"]]
        base = by.get((m, "rcm"))
        for o in ords:
            r = by.get((m, o))
            if not r:
                tr.append("–")
                continue
            s = fmt(num(r["time_s"]), 3, 1e3)
            if base and o != "rcm" and num(r["time_s"]):
                s += f" ({fmt(num(base['time_s']) / num(r['time_s']))}×rcm, bw {r['bandwidth_after']}, identical {r['identical_to_rcm']})"
            elif o == "rcm":
                s += f" (bw {r['bandwidth_before']}→{r['bandwidth_after']})"
            tr.append(s)
        trs.append(tr)
    md += [table(["matrix", "rows", "nnz"] + ords, trs), ""]
    return md


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else None
    if not d:
        base = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")
        d = os.path.join(base, sorted(os.listdir(base))[-1])
    spmv, fact, order = (load(os.path.join(d, n)) for n in ("spmv.csv", "factor.csv", "order.csv"))
    md = [f"# Benchmark report: {os.path.basename(os.path.normpath(d))}", ""]
    run = os.path.join(d, "run.txt")
    if os.path.exists(run):
        md += ["How it was run (exact commands; `make bench` runs `bench/run.sh`, which runs these):", "", "```", open(run).read().rstrip(), "```", ""]
    md += ["Method: CUDA events on PETSc's stream around each call, median of the timed calls after untimed warm-up calls; "
           "setup/conversion timed separately with device synchronization; host timings with PetscTime(). "
           "PETSc's -log_view GPU times are not used. Effective bandwidth = compulsory CSR bytes (12 nnz + 4(m+1) + 8n + 8m, "
           "+8m for multadd) / time. See bench/README.md.", ""]
    skipped = [r["matrix"] for r in spmv + fact + order if r.get("status") == "skipped_time_limit"]
    if skipped:
        md += [f"**Skipped for time** (stage time share used up): {', '.join(ordered(skipped))}", ""]
    unavailable = ordered((r.get("format") or r.get("pc") or r.get("ordering")) for r in spmv + fact + order if r.get("status") == "unavailable")
    if unavailable:
        md += [f"Not registered in this run (not built yet or library not loaded): {', '.join(unavailable)}", ""]
    md += spmv_section(spmv) + factor_section(fact) + order_section(order)
    pngs = sorted(f for f in os.listdir(d) if f.endswith(".png"))
    if pngs:
        md += ["## Plots", ""] + [f"![{p}]({p})" for p in pngs] + [""]
    with open(os.path.join(d, "report.md"), "w") as f:
        f.write("\n".join(md))
    print(f"wrote {os.path.join(d, 'report.md')}")


if __name__ == "__main__":
    main()
