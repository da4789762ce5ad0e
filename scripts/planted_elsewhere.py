#!/usr/bin/env python3
"""Planted boards made without dominofit's generator, for held-out measurements: a
random tiling is grown here by other methods, holes are placed otherwise, and the
clues are read off with the game's rules (one dot on a vertical piece's top cell, two
on a horizontal piece's right cell). Three methods, mixed by --method:

  greedy  cells in random order each take a random free neighbour; cells left alone
          become single-cell holes (about 5-10% of the board, scattered);
  flips   a brick tiling randomised by 2x2 flips (the Glauber chain of domino tilings,
          near-uniform after enough sweeps), then a random share of its pieces become
          two-cell holes;
  open    the flip chain on the whole board: no holes at all.

    python3 scripts/planted_elsewhere.py --sizes 96 128 160 192 256 --count 2 \
        --seed 5 -o held-out-planted.jsonl

Every board gets a tiling check here before it is written.
"""
import argparse
import json
import random
import sys


def greedy(m, n, rng):
    """Random maximal matching of the grid: pieces, and the cells left as holes."""
    mate = [[None] * n for _ in range(m)]
    order = [(r, c) for r in range(m) for c in range(n)]
    rng.shuffle(order)
    pieces = []
    for r, c in order:
        if mate[r][c] is not None:
            continue
        around = [(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))]
        around = [(a, b) for a, b in around if 0 <= a < m and 0 <= b < n and mate[a][b] is None]
        if not around:
            continue
        a, b = rng.choice(around)
        mate[r][c] = (a, b)
        mate[a][b] = (r, c)
        pieces.append(tuple(sorted(((r, c), (a, b)))))
    holes = [(r, c) for r in range(m) for c in range(n) if mate[r][c] is None]
    return pieces, holes


def flip_chain(m, n, rng, sweeps):
    """A domino tiling of the m x n board (m*n even) after `sweeps` * m * n random
    attempts at flipping a 2x2 square made of two parallel pieces."""
    mate = [[None] * n for _ in range(m)]
    if n % 2 == 0:
        for r in range(m):
            for c in range(0, n, 2):
                mate[r][c], mate[r][c + 1] = (r, c + 1), (r, c)
    else:
        for c in range(n):
            for r in range(0, m, 2):
                mate[r][c], mate[r + 1][c] = (r + 1, c), (r, c)
    for _ in range(sweeps * m * n):
        r, c = rng.randrange(m - 1), rng.randrange(n - 1)
        if mate[r][c] == (r, c + 1) and mate[r + 1][c] == (r + 1, c + 1):
            mate[r][c], mate[r + 1][c] = (r + 1, c), (r, c)
            mate[r][c + 1], mate[r + 1][c + 1] = (r + 1, c + 1), (r, c + 1)
        elif mate[r][c] == (r + 1, c) and mate[r][c + 1] == (r + 1, c + 1):
            mate[r][c], mate[r][c + 1] = (r, c + 1), (r, c)
            mate[r + 1][c], mate[r + 1][c + 1] = (r + 1, c + 1), (r + 1, c)
    pieces = set()
    for r in range(m):
        for c in range(n):
            pieces.add(tuple(sorted(((r, c), mate[r][c]))))
    return sorted(pieces)


def board(name, m, n, pieces, holes):
    rows, cols = [0] * m, [0] * n
    seen = set(holes)
    for (r1, c1), (r2, c2) in pieces:
        assert (r1, c1) not in seen and (r2, c2) not in seen, "cell covered twice"
        seen.update(((r1, c1), (r2, c2)))
        if r1 == r2:  # horizontal: two dots on the right cell
            rows[r1] += 2
            cols[c2] += 2
        else:  # vertical: one dot on the top cell
            rows[r1] += 1
            cols[c1] += 1
    assert len(seen) == m * n, "a cell neither covered nor a hole"
    return {
        "name": name,
        "rows": m,
        "cols": n,
        "blocked": [[r + 1, c + 1] for r, c in sorted(holes)],
        "row_clues": rows,
        "col_clues": cols,
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", required=True)
    ap.add_argument("--count", type=int, default=2, help="boards per size and method")
    ap.add_argument("--method", choices=["greedy", "flips", "open", "all"], default="all")
    ap.add_argument("--hole-share", type=float, default=0.1,
                    help="flips: share of pieces turned into holes")
    ap.add_argument("--sweeps", type=int, default=20)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    methods = ["greedy", "flips", "open"] if args.method == "all" else [args.method]
    rng = random.Random(args.seed)
    with open(args.output, "w") as out:
        for size in args.sizes:
            for method in methods:
                for k in range(1, args.count + 1):
                    m = n = size
                    if method == "greedy":
                        pieces, holes = greedy(m, n, rng)
                    else:
                        pieces = flip_chain(m, n, rng, args.sweeps)
                        holes = []
                        if method == "flips":
                            rng.shuffle(pieces)
                            cut = int(len(pieces) * args.hole_share)
                            holes = [cell for piece in pieces[:cut] for cell in piece]
                            pieces = pieces[cut:]
                    name = f"elsewhere-{method}-{size}x{size}-s{args.seed}-{k}"
                    out.write(json.dumps(board(name, m, n, pieces, holes),
                                         separators=(",", ":")) + "\n")
                    out.flush()
                    print(f"{name}: {len(holes)} holes", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
