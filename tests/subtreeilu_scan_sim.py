#!/usr/bin/env python3
# Host emulation of subtree_ilu's GPU solve, phase 2 (SolveKernel in src/ksp/pc/impls/subtreeilu/subtreeilu.cu): the
# Hillis-Steele affine scan x_q = alpha_q + beta_q x_(q-1) over a warp's group of 32 rows, where a row without an
# in-group input (nin == 0) cuts the chain: at step off a lane composes the map before its range only if
# lane - seg >= off (seg: the last cut at or before it, from one warp ballot). Random groups with cuts, stored zero
# coefficients and NaN/Inf values, against the row-by-row recurrence (PETSc's order): the non-finite entries must be the
# same, the others equal to 1e-12. The scan without the cut (before session 44) is counted too: it turns a NaN before a
# cut into a NaN after it. Checks the algorithm only, not the CUDA code (not run by make check). Usage: python3 tests/subtreeilu_scan_sim.py
import random, math
def seq(alpha, beta, nin):
    x = []
    for q in range(32):
        if nin[q] == 0: x.append(alpha[q])
        else: x.append(alpha[q] + beta[q] * x[q-1])
    return x
def scan(alpha, beta, nin, cut=True):
    a = list(alpha); b = list(beta)
    cuts = [nin[q] == 0 for q in range(32)]
    seg = [max(l for l in range(q+1) if cuts[l]) if any(cuts[:q+1]) else -1 for q in range(32)]
    off = 1
    while off < 32:
        ap = [a[q-off] if q >= off else a[q] for q in range(32)]
        bp = [b[q-off] if q >= off else b[q] for q in range(32)]
        for q in range(32):
            ok = (q - seg[q] >= off) if cut else (q >= off)
            if ok:
                a[q] = a[q] + b[q] * ap[q]
                b[q] = b[q] * bp[q]
        off <<= 1
    return a
def nf(v): return math.isnan(v) or math.isinf(v)
random.seed(1)
bad_old = bad_new = 0
for trial in range(20000):
    nin = [0] + [1 if random.random() < 0.8 else 0 for _ in range(31)]
    alpha = [random.uniform(-1, 1) for _ in range(32)]
    beta = [0.0 if nin[q] == 0 else (0.0 if random.random() < 0.05 else random.uniform(-1, 1)) for q in range(32)]
    for _ in range(random.randint(0, 3)):
        alpha[random.randrange(32)] = random.choice([float('nan'), float('inf'), -float('inf')])
    if random.random() < 0.2:
        q = random.randrange(1, 32)
        if nin[q]: beta[q] = random.choice([float('nan'), 0.0])
    s = seq(alpha, beta, nin)
    for cut, name in ((True, 'new'), (False, 'old')):
        x = scan(alpha, beta, nin, cut)
        ok = all(nf(x[q]) == nf(s[q]) and (nf(s[q]) or abs(x[q] - s[q]) <= 1e-12 * (1 + abs(s[q]))) for q in range(32))
        if not ok:
            if cut: bad_new += 1
            else: bad_old += 1
print("trials 20000: mismatches old scan", bad_old, "new scan", bad_new)
assert bad_new == 0, "the scan with the cut differs from the row-by-row recurrence"
assert bad_old > 0, "the emulation no longer tells the scan without the cut apart"
