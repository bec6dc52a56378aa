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
        devfmts = ordered(r["format"] for r in d if r["note"].split(" ")[0] == "device")
        base, cmp = (SPMV_BASE, devfmts) if devfmts else ("aij", fmts)  # CPU run: host formats against aij
        peers = [p for p in (SPMV_PEERS if devfmts else ["aij"]) if p in fmts]
        md += [f"### {op}: time per call (ms, median) / effective bandwidth (GB/s, % of the copy bandwidth: device for device types, one-core host for host types)", ""]
        hdr = ["matrix", "rows", "nnz"] + fmts + [f"{f} vs {base}" for f in cmp if f != base and base in fmts]
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
            b = by.get((m, base))
            for f in cmp:
                if f == base or base not in fmts:
                    continue
                r = by.get((m, f))
                tr.append(fmt(num(b["time_s"]) / num(r["time_s"])) + "×" if b and r and num(r["time_s"]) else "–")
            trs.append(tr)
        md += [table(hdr, trs), ""]
        # geometric means over the large (generated / scaled-up) set
        kind = {r["matrix"]: r["kind"] for r in d}
        large = [m for m in mats if kind.get(m) != "mtx"]
        if large:
            lines = []
            for f in cmp:
                for p in peers:
                    if f == p or (f in peers and peers.index(f) < peers.index(p)):
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
    md += ["Time in ms (median of the steady calls); `×rcm` = speedup over PETSc rcm; `first` = the process's first call of that ordering on that matrix (one-time setup included; absent in CSVs before session 48); bandwidth before → after; identical = same permutation as PETSc rcm.", ""]
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
            first = f", first {fmt(num(r['first_s']), 3, 1e3)}" if num(r.get("first_s") or "") else ""
            if base and o != "rcm" and num(r["time_s"]):
                s += f" ({fmt(num(base['time_s']) / num(r['time_s']))}×rcm{first}, bw {r['bandwidth_after']}, identical {r['identical_to_rcm']})"
            elif o == "rcm":
                s += f" (bw {r['bandwidth_before']}→{r['bandwidth_after']}{first})"
            tr.append(s)
        trs.append(tr)
    md += [table(["matrix", "rows", "nnz"] + ords, trs), ""]
    return md


def targets_section(spmv, fact, order):
    """The component issues' targets, evaluated from this run (peers' reference numbers first)."""
    md = ["## Targets of the component issues (evaluated from this run)", ""]
    rows = []

    def add(what, value, ok):
        rows.append([what, value, "–" if ok is None else ("yes" if ok else "**no**")])

    # peers' reference numbers quoted in the issues
    fo = [r for r in fact if r["status"] == "ok"]
    oo = [r for r in order if r["status"] == "ok"]
    so = [r for r in spmv if r["status"] == "ok" and r["op"] == "mult" and not r["matrix"].startswith("_")]

    def frow(mat, pc, ordering="natural", lev="0"):
        return next((r for r in fo if r["matrix"] == mat and r["pc"] == pc and r["ordering"] == ordering and r["levels"] == lev), None)

    def orow(mat, o):
        return next((r for r in oo if r["matrix"] == mat and r["ordering"] == o), None)

    for mat, pc, quoted in (("lap2d5_1000", "ilu_cusparse", "7.4 ms"), ("lap3d7_100", "ilu_cusparse", "1.25 ms"), ("lap2d5_1000", "icc_cusparse", "7.2 ms")):
        r = frow(mat, pc)
        if r:
            add(f"peer: {pc} apply on {mat}, natural (issue 5 quotes {quoted})", fmt(num(r["apply_s"]), 3, 1e3) + " ms", None)
    for mat, quoted in (("lap2d5_1000", "0.124 s"), ("lap3d7_100", "0.198 s")):
        r = orow(mat, "rcm")
        if r:
            add(f"peer: PETSc rcm on {mat} (issue 3 quotes {quoted})", fmt(num(r["time_s"])) + " s", None)

    # issue 4: pellrcuda
    dev = {(r["matrix"], r["format"]): r for r in so if r["note"].split(" ")[0] == "device"}
    kind = {r["matrix"]: r["kind"] for r in so}
    large = ordered(m for (m, f) in dev if kind.get(m) != "mtx")
    ours = "pellrcuda"
    if any(f == ours for (_, f) in dev):
        regular = [m for m in large if kind[m].startswith("lap")]
        cr = [num(dev[(m, ours)]["copy_ratio"]) for m in regular if (m, ours) in dev]
        if cr:
            add(f"issue 4: {ours} effective bandwidth ≥ 85% of copy on large regular matrices (min over {len(cr)})", fmt(min(cr), 3, 100) + "%", min(cr) >= 0.85)
        for peer, goal in (("aijcusparse", 1.3), ("sellcuda", 1.1)):
            g = geomean([num(dev[(m, peer)]["time_s"]) / num(dev[(m, ours)]["time_s"]) for m in large if (m, peer) in dev and (m, ours) in dev])
            if g:
                add(f"issue 4: {ours} geometric-mean speedup over {peer} ≥ {goal}× (large set)", fmt(g) + "×", g >= goal)
        mr = [num(dev[(m, ours)]["mem_ratio"]) for m in large if (m, ours) in dev and num(dev[(m, ours)]["mem_ratio"]) is not None and num(dev[(m, ours)]["csr_bytes"]) > 1e8]
        if mr:
            add(f"issue 4: {ours} device memory ≤ 1.15× CSR (max over large matrices > 100 MB)", fmt(max(mr)) + "×", max(mr) <= 1.15)
        def build_s(r):  # the layout build from the CSR on the GPU (event PELLRBuild), in the note of newer runs
            for tok in (r.get("note") or "").split():
                if tok.startswith("build_s="):
                    return num(tok[8:])
            return None
        bv = [build_s(dev[(m, ours)]) / num(dev[(m, ours)]["time_s"]) for m in large if (m, ours) in dev and num(dev[(m, ours)]["time_s"]) and build_s(dev[(m, ours)]) is not None]
        if bv:
            add(f"issue 4: {ours} conversion CSR → PELLR on the GPU ≤ 10 SpMVs (max over {len(bv)} of the PELLRBuild event / SpMV time)", fmt(max(bv)), max(bv) <= 10)
        cv = [(num(dev[(m, ours)]["convert_s"]) or 0) / num(dev[(m, ours)]["time_s"]) for m in large if (m, ours) in dev and num(dev[(m, ours)]["time_s"])]
        if cv:
            add(f"issue 4 (context): {ours} MatConvert from a host AIJ (host copy + upload + build) in SpMVs (max; aijcusparse's is similar)", fmt(max(cv)), None)
    else:
        add("issue 4: pellrcuda targets", "pellrcuda not registered in this run", None)

    # issue 5: subtree_ilu
    if any(r["pc"] in ("subtree_ilu", "subtree_icc") for r in fo):
        for mat, pc, base in (("lap2d5_1000", "subtree_ilu", "ilu_cusparse"), ("lap3d7_100", "subtree_ilu", "ilu_cusparse"), ("lap2d5_1000", "subtree_icc", "icc_cusparse")):
            a, b = frow(mat, pc), frow(mat, base)
            if a and b and num(a["apply_s"]):
                sp = num(b["apply_s"]) / num(a["apply_s"])
                add(f"issue 5: {pc} apply ≥ 3× faster than {base} on {mat} (natural, level 0)", fmt(sp) + "×", sp >= 3)
        keys = ordered((r["matrix"], r["ordering"]) for r in fo if r["kind"] != "mtx" and r["levels"] == "0")
        pairs = [(frow(m, "subtree_ilu", o), frow(m, "spsv", o)) for m, o in keys]
        pairs = [(a, b) for a, b in pairs if a and b and num(a["apply_s"])]
        g = geomean([num(b["apply_s"]) / num(a["apply_s"]) for a, b in pairs])
        if g:
            add(f"issue 5: subtree_ilu geometric-mean speedup over cuSPARSE SpSV solve ≥ 2× ({len(pairs)} large cases)", fmt(g) + "×", g >= 2)
        g = geomean([num(b["setup_s"]) / num(a["refactor_s"]) for a, b in pairs if num(a["refactor_s"])])
        if g:
            add("issue 5: subtree_ilu refactorization setup ≥ 10× cheaper than SpSV analysis (geometric mean)", fmt(g) + "×", g >= 10)
    else:
        add("issue 5: subtree_ilu targets", "subtree_ilu not registered in this run", None)

    # issue 3: gpurcm
    gp = [o for o in ordered(r["ordering"] for r in oo) if o.startswith("gpurcm")]
    if gp:
        meshes = ordered(r["matrix"] for r in oo if r["kind"] != "mtx" and int(r["rows"]) >= 1000000)
        fast = "gpurcm@cuda" if "gpurcm@cuda" in gp else gp[0]
        sp = [(m, num(orow(m, "rcm")["time_s"]) / num(orow(m, fast)["time_s"])) for m in meshes if orow(m, "rcm") and orow(m, fast) and num(orow(m, fast)["time_s"])]
        if sp:
            worst = min(sp, key=lambda x: x[1])
            add(f"issue 3: {fast} ≥ 20× faster than PETSc rcm on every mesh ≥ 1M rows (worst of {len(sp)})", f"{fmt(worst[1])}× ({worst[0]})", worst[1] >= 20)
        sc = [(m, num(orow(m, "cusolver_rcm")["time_s"]) / num(orow(m, fast)["time_s"])) for m in meshes if orow(m, "cusolver_rcm") and orow(m, fast) and num(orow(m, fast)["time_s"])]
        if sc:
            worst = min(sc, key=lambda x: x[1])
            add(f"issue 3: {fast} ≥ 100× faster than cusolverSpXcsrsymrcmHost (worst of {len(sc)})", f"{fmt(worst[1])}× ({worst[0]})", worst[1] >= 100)
        th = [(m, num(orow(m, "gpurcm@serial")["time_s"]) / num(orow(m, "gpurcm@threads:16")["time_s"])) for m in meshes if orow(m, "gpurcm@serial") and orow(m, "gpurcm@threads:16")]
        if th:
            worst = min(th, key=lambda x: x[1])
            add(f"issue 3: 16 threads ≥ 6× faster than serial (worst of {len(th)})", f"{fmt(worst[1])}× ({worst[0]})", worst[1] >= 6)
        notid = [f"{r['matrix']} {r['ordering']}" for r in oo if r["ordering"].startswith("gpurcm") and r["identical_to_rcm"] != "yes"]
        add("issue 3: every gpurcm permutation identical to PETSc rcm", "all identical" if not notid else "differs: " + ", ".join(notid[:8]), not notid)
    else:
        add("issue 3: gpurcm targets", "gpurcm not registered in this run", None)
    return md + [table(["target", "measured", "met"], rows), ""]


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
    md += targets_section(spmv, fact, order) + spmv_section(spmv) + factor_section(fact) + order_section(order)
    pngs = sorted(f for f in os.listdir(d) if f.endswith(".png"))
    if pngs:
        md += ["## Plots", ""] + [f"![{p}]({p})" for p in pngs] + [""]
    with open(os.path.join(d, "report.md"), "w") as f:
        f.write("\n".join(md))
    print(f"wrote {os.path.join(d, 'report.md')}")


if __name__ == "__main__":
    main()
