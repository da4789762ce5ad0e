#!/usr/bin/env python3
"""Boards of the paper's protocol (Zhao, *Domino Fit as Constrained Perfect Matching*,
Section 6.2), made without any of dominofit's code, for held-out measurements: a
tiling by randomized row-major backtracking (on an odd area the bottom-right cell is
blocked first), then a number of whole pieces drawn uniformly from zero to a fifth of
the pieces, removed as blocked cells; the clues are read off the pieces kept.

Plain backtracking stalls on large boards (a choice rows above the bottom can leave the
last rows untileable, and is undone only after everything below it was tried). Here
each choice is first put to an oracle, a perfect matching of the uncovered cells kept
by alternating-path search: a choice whose subtree holds no tiling is refused at once,
which is what backtracking returns after exploring it. The coins are Python's, seeded
by the seed, the size and the board's number.

    python3 scripts/paper_protocol.py --seed 1206 --count 3 --sizes 96 128 256 512 \
        -o held-out-paper.jsonl

Every tiling is checked here (each cell covered once) before its board is written.
"""
import argparse
import json
import random
from collections import deque


def tiling(m, n, rng):
    """The pieces `(orientation, row, col)` of a tiling of the open m x n board by
    randomized row-major backtracking (a fair coin where both pieces fit), and whether
    the bottom-right cell was blocked for an odd area."""
    N = m * n
    covered = [False] * N
    mate = [-1] * N
    if N % 2:
        covered[N - 1] = True
    if n % 2 == 0:
        for r in range(m):
            for c in range(0, n, 2):
                mate[r*n+c], mate[r*n+c+1] = r*n+c+1, r*n+c
    elif m % 2 == 0:
        for r in range(0, m, 2):
            for c in range(n):
                mate[r*n+c], mate[(r+1)*n+c] = (r+1)*n+c, r*n+c
    else:
        for r in range(0, m - 1, 2):
            for c in range(n):
                mate[r*n+c], mate[(r+1)*n+c] = (r+1)*n+c, r*n+c
        r = m - 1
        for c in range(0, n - 1, 2):
            mate[r*n+c], mate[r*n+c+1] = r*n+c+1, r*n+c

    def neighbours(x):
        r, c = divmod(x, n)
        if r > 0: yield x - n
        if r + 1 < m: yield x + n
        if c > 0: yield x - 1
        if c + 1 < n: yield x + 1

    def place(p, q):
        """Covers p and q if the rest stays tileable; whether it did."""
        if mate[p] == q:
            covered[p] = covered[q] = True
            return True
        a, b = mate[p], mate[q]   # a must be rematched; b is the free end to reach
        covered[p] = covered[q] = True
        parent = {a: None}
        queue = deque([a])
        found = None
        while queue and found is None:
            x = queue.popleft()
            for y in neighbours(x):
                if covered[y] or y == mate[x]:
                    continue
                if y == b:
                    found = (x, y)
                    break
                z = mate[y]
                if z in parent or covered[z]:
                    continue
                parent[z] = (x, y)
                queue.append(z)
        if found is None:
            covered[p] = covered[q] = False
            return False
        x, y = found
        while True:
            mate[x], mate[y] = y, x
            step = parent[x]
            if step is None:
                break
            x, y = step
        mate[p], mate[q] = q, p
        return True

    pieces = []
    p = 0
    while True:
        while p < N and covered[p]:
            p += 1
        if p == N:
            break
        r, c = divmod(p, n)
        ways = []
        if r + 1 < m and not covered[p + n]:
            ways.append(("v", p + n))
        if c + 1 < n and not covered[p + 1]:
            ways.append(("h", p + 1))
        if len(ways) == 2 and rng.random() < 0.5:
            ways.reverse()
        for o, q in ways:
            if place(p, q):
                pieces.append((o, r, c))
                break
        else:
            raise RuntimeError(f"no way at {r},{c}: the oracle failed")
    return pieces, N % 2

def board(m, n, seed, k):
    """Board `k` of size m x n for `seed`, as one line of an instance workload (JSON)."""
    rng = random.Random(f"{seed}-{m}-{n}-{k}")
    pieces, odd = tiling(m, n, rng)
    remove = rng.randint(0, len(pieces) // 5)
    gone = set(rng.sample(range(len(pieces)), remove))
    blocked = [[m, n]] if odd else []
    rows, cols = [0] * m, [0] * n
    seen = set()
    for i, (o, r, c) in enumerate(pieces):
        cells = [(r, c), (r, c + 1)] if o == "h" else [(r, c), (r + 1, c)]
        for cell in cells:
            assert cell not in seen
            seen.add(cell)
        if i in gone:
            blocked += [[a + 1, b + 1] for a, b in cells]
            continue
        if o == "v":
            rows[r] += 1; cols[c] += 1
        else:
            rows[r] += 2; cols[c + 1] += 2
    assert len(seen) + odd == m * n
    blocked.sort()
    return {"name": f"protocol-{m}x{n}-s{seed}-{k}", "rows": m, "cols": n, "blocked": blocked,
            "row_clues": rows, "col_clues": cols}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", required=True, help="board sides (square boards)")
    ap.add_argument("--count", type=int, default=3, help="boards per size")
    ap.add_argument("--seed", type=int, default=1206)
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    with open(args.output, "w", encoding="utf-8") as out:
        for size in args.sizes:
            for k in range(1, args.count + 1):
                out.write(json.dumps(board(size, size, args.seed, k)) + "\n")


if __name__ == "__main__":
    main()
