#!/usr/bin/env python3
"""A valid 2048x2048 board made for the first tiling to be slow, as JSON on standard output.

Rows 1-2047 are open; under the last row 1,000 pendant cells stay open (500 of one colour
on the left, 500 of the other on the right); the clues come from a planted tiling of
nested U-shaped bands whose legs end on the pendants. Row-major greedy pairs leave the
pendants' partners a band's length away. tests/deadlines.rs builds the same board
(`far_singles`); BENCHMARKS.md times `solve --timeout T` on it.
"""
import json
import sys

H, W, K = 2047, 2048, 500
M = H + 1
V, HZ = [], []


def tile(cells):
    for j in range(0, len(cells), 2):
        (r1, c1), (r2, c2) = cells[j], cells[j + 1]
        if r1 == r2:
            HZ.append((r1, min(c1, c2)))
        else:
            V.append((min(r1, r2), c1))


def band(left, right, top):
    return ([(r, left) for r in range(H, top - 1, -1)] + [(top, c) for c in range(left + 1, right)]
            + [(r, right) for r in range(top, H + 1)])


pendants = set()
for i in range(K):
    left, right = 2 * i + 1, W - 2 * i
    tile(band(left, right, 2 * i + 1)[1:-1])
    V += [(H, left), (H, right)]
    pendants |= {(M, left), (M, right)}
    tile(band(2 * i + 2, W - 2 * i - 1, 2 * i + 2))
HZ += [(r, c) for r in range(2 * K + 1, H + 1) for c in range(2 * K + 1, W - 2 * K + 1, 2)]
rows, cols = [0] * (M + 1), [0] * (W + 1)
for r, c in V:
    rows[r] += 1
    cols[c] += 1
for r, c in HZ:
    rows[r] += 2
    cols[c + 1] += 2
json.dump({"name": "far-singles", "rows": M, "cols": W,
           "blocked": [[M, c] for c in range(1, W + 1) if (M, c) not in pendants],
           "row_clues": rows[1:], "col_clues": cols[1:]}, sys.stdout)
sys.stdout.write("\n")
