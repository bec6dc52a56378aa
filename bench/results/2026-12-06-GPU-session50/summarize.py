#!/usr/bin/env python3
"""Session 50: tables and plot of -pc_subtree_ilu_cuda_long_row (jobs 2 and 4), from the CSVs of bench_factor.
Run from this folder:  python3 summarize.py   (writes longrow.png, prints Markdown tables)"""
import csv, glob, math, os
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

def load(pattern):
    d = {}  # (matrix, pc, ordering, levels) -> {lr: [apply ms, one per round]}
    for f in sorted(glob.glob(pattern)):
        lr = int(os.path.basename(f).split("-lr")[1].split("-")[0])
        for row in csv.DictReader(open(f)):
            if row["status"] != "ok":
                continue
            k = (row["matrix"], row["pc"], row["ordering"], row["levels"])
            d.setdefault(k, {}).setdefault(lr, []).append(1e3 * float(row["apply_s"]))
    return d

def med(v):
    v = sorted(v)
    return v[len(v) // 2] if len(v) % 2 else 0.5 * (v[len(v) // 2 - 1] + v[len(v) // 2])

pl, grid, real = load("job2/pl-lr*.csv"), load("job2/grid-lr*.csv"), load("job4/real-lr*.csv")
lrs = [0, 4, 8, 16, 32]
print("| matrix | PETSc cuSPARSE ILU(0) | " + " | ".join(f"long_row {l}" for l in lrs) + " |")
print("|---|---|" + "---|" * len(lrs))
for m in ("powerlaw_1M_16", "powerlaw_100k_8"):
    cu = med(sum(pl[(m, "ilu_cusparse", "natural", "0")].values(), []))
    st = pl[(m, "subtree_ilu", "natural", "0")]
    print(f"| {m} | {cu:.3f} ms | " + " | ".join(f"{med(st[l]):.3f} ms" for l in lrs) + " |")
print()
print("| grid | ordering | ILU(k) | " + " | ".join(f"long_row {l}" for l in (0, 4, 8, 16)) + " |")
print("|---|---|---|---|---|---|---|")
for k in sorted(grid):
    print(f"| {k[0]} | {k[2]} | {k[3]} | " + " | ".join(f"{med(grid[k][l]):.3f}" for l in (0, 4, 8, 16)) + " |")
print()
rat = []
for k in sorted(real):
    if k[1] == "subtree_ilu" and 0 in real[k] and 8 in real[k]:
        rat.append((med(real[k][8]) / med(real[k][0]), f"{k[0]} {k[2]}"))
rat.sort()
g = math.exp(sum(math.log(r) for r, _ in rat) / len(rat))
print(f"real matrices, subtree_ilu ILU(0) apply, long_row 8 / long_row 0 (medians of two rounds): geometric mean {g:.3f} over {len(rat)}; "
      f"lowest {rat[0][0]:.3f} ({rat[0][1]}), highest {rat[-1][0]:.3f} ({rat[-1][1]})")
for r, n in rat:
    if r < 0.97 or r > 1.015:
        print(f"  {n}: {r:.3f}")

fig, ax = plt.subplots(1, 2, figsize=(12, 4.2))
for m, c in (("powerlaw_1M_16", "C0"), ("powerlaw_100k_8", "C1")):
    st = pl[(m, "subtree_ilu", "natural", "0")]
    cu = med(sum(pl[(m, "ilu_cusparse", "natural", "0")].values(), []))
    x = range(len(lrs))
    ax[0].plot(x, [med(st[l]) for l in lrs], "o-", color=c, label=f"subtree_ilu {m}")
    ax[0].axhline(cu, color=c, ls="--", label=f"PETSc cuSPARSE ILU(0) {m}")
ax[0].set_xticks(range(len(lrs)), [str(l) + (" (former path)" if l == 0 else "") for l in lrs])
ax[0].set_yscale("log"); ax[0].set_xlabel("-pc_subtree_ilu_cuda_long_row"); ax[0].set_ylabel("ILU(0) apply, ms (log)")
ax[0].set_title("power-law matrices, H100 (session 50 job 2)"); ax[0].legend(fontsize=7)
ax[1].bar(range(len(rat)), [r for r, _ in rat], color=["C2" if r < 1 else "C3" for r, _ in rat])
ax[1].axhline(1.0, color="k", lw=0.8); ax[1].set_ylim(0.5, 1.1)
ax[1].set_xticks(range(len(rat)), [n for _, n in rat], rotation=90, fontsize=6)
ax[1].set_ylabel("apply time, long_row 8 / long_row 0"); ax[1].set_title(f"shared matrices, ILU(0) (job 4): geometric mean {g:.3f}")
fig.tight_layout(); fig.savefig("longrow.png", dpi=110)
