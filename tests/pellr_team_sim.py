#!/usr/bin/env python3
# Host emulation of the format predictor's GPU column-access counts (src/mat/impls/pellr/pellrpredict.cu): a team of P
# warps per sampled 32-row group, warp t taking the warp steps j = t, t + P, ... (reading step j - 1 again for the
# previous step's sectors) and the row chunks numbered t, t + P, ... across the group's rows, and a team AND for the
# diagonal test; against session 36's single warp per group (the kernels the GPU tests compared with the host's
# features), on random groups: short and long rows, empty lanes, fewer than 32 rows, repeated and shared sectors,
# diagonal and almost diagonal groups, caps. The counts must be equal for every P in 1, 2, 4, 8, 16, 32. Checks the
# algorithm only, not the CUDA code (not run by make check). Usage: python3 tests/pellr_team_sim.py
import random

SLICE = 32


def distinct(act, val):
    """WarpDistinct(): active lanes whose value is the first (lowest lane) of its value among the active lanes"""
    seen, n = set(), 0
    for a, v in zip(act, val):
        if a and v not in seen:
            seen.add(v)
            n += 1
    return n


def group_step(cj, has, beg, ln, j, psec_from_prev):
    """one warp step j: (new sectors, entries); psec_from_prev(lane) -> the lane's sector at step j - 1 or None"""
    act = [has[l] and ln[l] > j for l in range(SLICE)]
    sec = [cj[beg[l] + j] // 4 if act[l] else 0 for l in range(SLICE)]
    prev = {psec_from_prev(l) for l in range(SLICE)} - {None}
    fresh, first = 0, set()
    for l in range(SLICE):  # the lowest lane of each value, and not among the previous step's sectors
        if act[l] and sec[l] not in first:
            first.add(sec[l])
            if sec[l] not in prev: fresh += 1
    return fresh, sum(act), act, sec


def group_sectors_single(cj, has, beg, ln, cap):
    w = min(max([ln[l] for l in range(SLICE) if has[l]] + [0]), cap)
    fresh = ent = 0
    pact, psec = [False] * SLICE, [0] * SLICE
    for j in range(w):
        f, e, act, sec = group_step(cj, has, beg, ln, j, lambda l: psec[l] if pact[l] else None)
        fresh += f; ent += e; pact, psec = act, sec
    return fresh, ent


def group_sectors_team(cj, has, beg, ln, cap, P):
    w = min(max([ln[l] for l in range(SLICE) if has[l]] + [0]), cap)
    fresh = ent = 0
    for t in range(P):
        for j in range(t, w, P):
            def prev(l):
                return cj[beg[l] + j - 1] // 4 if (j > 0 and has[l] and ln[l] > j - 1) else None
            f, e, _, _ = group_step(cj, has, beg, ln, j, prev)
            fresh += f; ent += e
    return fresh, ent


def row_chunks_single(cj, k, beg, ln, cap, long_min):
    c = [0, 0, 0, 0]  # xc, ec, xl, el
    for r in range(k):
        L = min(ln[r], cap)
        for q in range(0, L, SLICE):
            act = [q + l < L for l in range(SLICE)]
            fr = distinct(act, [cj[beg[r] + q + l] // 4 if act[l] else 0 for l in range(SLICE)])
            en = min(SLICE, L - q)
            c[0] += fr; c[1] += en
            if long_min and ln[r] >= long_min: c[2] += fr; c[3] += en
    return c


def row_chunks_team(cj, k, beg, ln, cap, long_min, P):
    c = [0, 0, 0, 0]
    for t in range(P):
        base = 0
        for r in range(k):
            L = min(ln[r], cap)
            nc = (L + SLICE - 1) // SLICE
            qi = ((t - base) % P + P) % P  # (C's % of a negative number is negative: as in the kernel)
            while qi < nc:
                q = qi * SLICE
                act = [q + l < L for l in range(SLICE)]
                fr = distinct(act, [cj[beg[r] + q + l] // 4 if act[l] else 0 for l in range(SLICE)])
                en = min(SLICE, L - q)
                c[0] += fr; c[1] += en
                if long_min and ln[r] >= long_min: c[2] += fr; c[3] += en
                qi += P
            base += nc
    return c


def diagonal(cj, k, rows, beg, ln, w, P, nnz_cap):
    if k != SLICE or w <= 0 or w > nnz_cap // 4 or any(ln[l] != w for l in range(SLICE)): return False
    ok = True
    for t in range(P):  # each warp's steps, then the team's AND
        for j in range(t, w, P):
            d0 = cj[beg[0] + j] - rows[0]
            ok = ok and all(cj[beg[l] + j] - rows[l] == d0 for l in range(SLICE))
    return ok


def diagonal_single(cj, k, rows, beg, ln, w, nnz_cap):
    return diagonal(cj, k, rows, beg, ln, w, 1, nnz_cap)


random.seed(3)
checked = 0
for trial in range(1500):
    k = random.choice([SLICE] * 3 + [random.randint(1, SLICE)])
    kind = random.random()
    ncols = random.choice([64, 1000, 10 ** 6])
    cap = random.choice([4096, 40, 100])
    if kind < 0.25:  # diagonal: every row w entries at the same offsets from its row
        w = random.choice([3, 31, 32, 33, 64, 160])
        ln = [w] * k
    else:
        ln = [random.choice([0, 1, 5, random.randint(0, 40), random.randint(0, 300)]) for _ in range(k)]
    ln += [0] * (SLICE - k)
    rows = [1000 + l for l in range(SLICE)]
    cj, beg = [], []
    offs = sorted(random.sample(range(-200, 200), max(ln))) if kind < 0.25 else None
    for l in range(SLICE):
        beg.append(len(cj))
        if l >= k: continue
        if kind < 0.25:
            cols = [rows[l] + o for o in offs[:ln[l]]]
            if kind < 0.08 and ln[l] > 0 and l == SLICE - 1: cols[-1] += 1  # almost diagonal
        elif kind < 0.5:
            cols = sorted(random.randrange(ncols) for _ in range(ln[l]))
        else:  # rows sharing columns (shared sectors between lanes and steps)
            cols = [(rows[l] // 7 + j * random.choice([1, 1, 2])) % ncols for j in range(ln[l])]
        cj += cols
    cj += [0] * 8
    has = [l < k for l in range(SLICE)]
    long_min = random.choice([0, 4, 40, 256])
    ref_g = group_sectors_single(cj, has, beg, ln, cap)
    ref_r = row_chunks_single(cj, k, beg, ln, cap, long_min)
    wmax = max(ln[:k])
    ref_d = diagonal_single(cj, k, rows, beg, ln, wmax, 1 << 14)
    for P in (1, 2, 4, 8, 16, 32):
        assert group_sectors_team(cj, has, beg, ln, cap, P) == ref_g, (trial, P, 'group')
        assert row_chunks_team(cj, k, beg, ln, cap, long_min, P) == ref_r, (trial, P, 'rows')
        assert diagonal(cj, k, rows, beg, ln, wmax, P, 1 << 14) == ref_d, (trial, P, 'diagonal')
        checked += 1
print(f"{checked} team counts (1500 random groups x 6 team sizes) equal the single warp's: yes")
