#!/usr/bin/env python3
"""A tileable N x N shape with many holes, as instance JSON on standard output (its clues
zero: a shape, as the studio's random tiling takes it): a random tiling made by 2x2 flips
from rows of horizontal pieces, then the cells of HOLES/2 of its pieces, drawn at random,
blocked. Usage: holed_shape.py N HOLES SEED. Made without dominofit's code, for
examples/shape_tiling (BENCHMARKS.md)."""
import json, random, sys
n = int(sys.argv[1]); holes = int(sys.argv[2]); seed = int(sys.argv[3])
rnd = random.Random(seed)
mate = [0] * (n * n)
for r in range(n):
    for c in range(0, n, 2):
        a = r * n + c; mate[a] = a + 1; mate[a + 1] = a
for _ in range(4 * n * n):
    r = rnd.randrange(n - 1); c = rnd.randrange(n - 1)
    a = r * n + c; b = a + 1; d = a + n; e = d + 1
    if mate[a] == b and mate[d] == e:
        mate[a] = d; mate[d] = a; mate[b] = e; mate[e] = b
    elif mate[a] == d and mate[b] == e:
        mate[a] = b; mate[b] = a; mate[d] = e; mate[e] = d
pieces = [a for a in range(n * n) if mate[a] > a]
rnd.shuffle(pieces)
blocked = []
for a in pieces[: holes // 2]:
    for x in (a, mate[a]):
        blocked.append([x // n + 1, x % n + 1])
blocked.sort()
json.dump({"name": f"holed-{n}", "rows": n, "cols": n, "blocked": blocked,
           "row_clues": [0] * n, "col_clues": [0] * n}, sys.stdout)
