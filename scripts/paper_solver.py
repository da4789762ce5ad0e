#!/usr/bin/env python3
"""Python baseline: the bitset quota solver of Zhao's Domino Fit paper.

This script is a self-contained, standard-library-only port of the exact
solver described in Jinze Zhao, *Domino Fit as Constrained Perfect Matching*
(2026), written so that the paper's algorithm can be timed, as published,
next to the Rust engine.  It is a measuring stick, not an optimised solver:
nothing beyond what the paper describes has been added.

What is ported
--------------
* Section 2 -- the exact-cover model: one binary placement per legal vertical
  piece V(i, j) (cells (i, j), (i+1, j), one dot on the top cell) and per
  legal horizontal piece H(i, j) (cells (i, j), (i, j+1), two dots on the
  right cell), plus the conservation rejection tests of Eq. (5)
  (equal clue totals, even N, N/2 <= S <= N).
* Section 3, Theorem 3.1 -- clue inversion.  The row clues give the vertical
  cut counts u_i and the horizontal row counts p_i; the column clues give the
  horizontal cut counts t_j by the recurrence t_j = b_j - 2 C_j + 3 t_{j-1}
  and the vertical column counts q_j.  Margins must be non-negative integers,
  with R_1 = a_1 (u_0 = 0) and t_n = 0; the cut recurrences are rejected as
  soon as a margin exceeds the number of placements that can cross the cut.
  All four families (u, p, q, t) are kept as quota groups (the paper keeps
  the redundant p, q for propagation).  The checkerboard splits of
  Section 3.1 belong to the paper's separate "colour quotas" variant, not to
  the bitset solver, so they are not used here.
* Section 4 -- the recommended bitset solver: Python-int bitsets of free
  cells F and active placements A; per-cell and per-group incidence bitsets;
  a conflict bitset per placement (union of its endpoints' incidence sets).
  Propagation (4.1) to a fixed point: zero-quota deletion and negative-quota
  rejection; dead cells rejected and single-candidate cells forced; groups
  with fewer candidates than their quota rejected and saturated groups
  forced; forced placements committed in a batch, rejecting overlaps.  When
  propagation stalls: greedy path capacity of every row-of-horizontals (p)
  and column-of-verticals (q) group, and colour balance of every connected
  component of the active-placement graph.  Search (4.2): minimum-remaining-
  values branching on a free cell, ties broken row-major, alternatives tried
  by stored placement index, and a per-call cache of proved-failure entry
  states keyed by (F, k).
* Section 6.2 -- the timing protocol: three untimed warm-up calls, then N
  timed calls with time.perf_counter; the median is reported.  One call =
  board construction + quota preparation + search with a fresh failure
  cache; JSON parsing, output and verification are outside the interval.
  The paper's soft 250 ms cap (checked every 256 search entries) is
  available as --cap-ms 250 and is off by default.

Places where the paper leaves a choice open (and what is done here):
placements are stored in row-major order of their anchor cell (top cell of a
vertical, left cell of a horizontal), the vertical before the horizontal at
the same anchor; a rejection by the stall checks is a proved failure and is
cached like a propagation contradiction; a search entry that is answered
from the failure cache still counts as a node.

The paper's own figures (CPython 3.12.14, Windows 11, AMD64 Family 26
Model 68), medians of 15 timed calls, up-to-two search, bitset solver:
observed 6x6 0.094 ms, 7x7 0.124 ms, 8x8 0.198 ms, one search entry each
(14, 20 and 29 forced placements, no branching).  On its own 60 generated
game-size boards: median 0.180 ms (P95 0.444 ms) to the first solution and
0.192 ms (P95 0.538 ms) up to two solutions.  (Those 60 boards were generated
by the paper's script and are not the boards in models/game.jsonl.)

Usage
-----
    python3 scripts/paper_solver.py WORKLOAD.jsonl [--limit 1|2|0]
                                    [--repeat N] [--warmup W]
                                    [--cap-ms MS] [--check]

WORKLOAD.jsonl has one instance per line, e.g.
{"name": "observed-8x8", "rows": 8, "cols": 8, "blocked": [[1, 8], ...],
 "row_clues": [...], "col_clues": [...]}, coordinates one-based.  For each
instance one JSON line is printed:
{"name", "status", "solutions", "time_ms", "nodes"}, where status is
"sat"/"unsat" for --limit 1 and "unique"/"multiple"/"unsat" for --limit 2
or 0 (0 enumerates every tiling); "capped" only appears with --cap-ms.
Solutions list vertical top cells and horizontal left cells, one-based,
sorted row-major.  --check re-verifies every reported solution against the
raw rules with an independent checker and exits with status 1 on any
failure.
"""

import argparse
import json
import statistics
import sys
import time

VERTICAL = 0
HORIZONTAL = 1

# The paper's soft cap is polled once every this many search entries.
CAP_POLL_INTERVAL = 256


def iter_bits(mask):
    """Yield the indices of the set bits of ``mask`` in increasing order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Unsolvable(Exception):
    """Raised while preparing quotas when the clues cannot be met."""


class Board:
    """Placements, incidence bitsets and quota groups of one instance.

    Cells are numbered ``r * cols + c`` with zero-based ``r`` and ``c``.
    Quota groups are numbered in four consecutive families:
    u_r (verticals whose top cell is in row r, r < rows - 1),
    p_r (horizontals in row r), q_c (verticals in column c) and
    t_c (horizontals whose left cell is in column c, c < cols - 1).
    """

    def __init__(self, instance):
        rows = self.rows = instance["rows"]
        cols = self.cols = instance["cols"]
        blocked = {(r - 1, c - 1) for r, c in instance["blocked"]}
        self.open_cells = 0
        self.black = 0  # cells with r + c even
        for r in range(rows):
            for c in range(cols):
                if (r, c) in blocked:
                    continue
                bit = 1 << (r * cols + c)
                self.open_cells |= bit
                if (r + c) % 2 == 0:
                    self.black |= bit

        self.u_base = 0
        self.p_base = self.u_base + max(rows - 1, 0)
        self.q_base = self.p_base + rows
        self.t_base = self.q_base + cols
        self.num_groups = self.t_base + max(cols - 1, 0)

        # Per placement: kind, anchor row/col, both cells, both groups.
        self.kind = []
        self.anchor = []
        self.cells = []
        self.cell_pair = []
        self.groups = []
        self.cell_inc = [0] * (rows * cols)
        self.group_members = [0] * self.num_groups

        def is_open(r, c):
            return (self.open_cells >> (r * cols + c)) & 1

        for r in range(rows):
            for c in range(cols):
                if not is_open(r, c):
                    continue
                if r + 1 < rows and is_open(r + 1, c):
                    self._add(VERTICAL, r, c, (r + 1) * cols + c,
                              self.u_base + r, self.q_base + c)
                if c + 1 < cols and is_open(r, c + 1):
                    self._add(HORIZONTAL, r, c, r * cols + c + 1,
                              self.p_base + r, self.t_base + c)

        self.all_placements = (1 << len(self.kind)) - 1
        self.conflict = [self.cell_inc[a] | self.cell_inc[b]
                         for a, b in self.cells]

        # Path groups (p_r and q_c): members ordered along the line, with
        # their position (column for p, row for q) for the greedy capacity.
        self.path_groups = []
        for g in range(self.p_base, self.t_base):
            ordered = []
            for p in iter_bits(self.group_members[g]):
                r, c = self.anchor[p]
                ordered.append((p, c if self.kind[p] == HORIZONTAL else r))
            ordered.sort(key=lambda item: item[1])
            self.path_groups.append((g, ordered))

    def _add(self, kind, r, c, other, group_a, group_b):
        p = len(self.kind)
        first = r * self.cols + c
        self.kind.append(kind)
        self.anchor.append((r, c))
        self.cells.append((first, other))
        self.cell_pair.append((1 << first) | (1 << other))
        self.groups.append((group_a, group_b))
        self.cell_inc[first] |= 1 << p
        self.cell_inc[other] |= 1 << p
        self.group_members[group_a] |= 1 << p
        self.group_members[group_b] |= 1 << p

    def invert_clues(self, row_clues, col_clues):
        """Theorem 3.1: turn the dot clues into the initial quota vector."""
        rows, cols = self.rows, self.cols
        if len(row_clues) != rows or len(col_clues) != cols:
            raise Unsolvable("clue vector length")
        a = [0] * rows
        b = [0] * cols
        for cell in iter_bits(self.open_cells):
            a[cell // cols] += 1
            b[cell % cols] += 1

        # Conservation tests of Eq. (5).
        n_open = sum(a)
        total = sum(row_clues)
        if total != sum(col_clues) or n_open % 2:
            raise Unsolvable("conservation")
        if not n_open // 2 <= total <= n_open:
            raise Unsolvable("conservation")

        def size(g):
            return self.group_members[g].bit_count()

        k = [0] * self.num_groups
        # Rows: u_0 = 0 forces R_1 = a_1; u_i = a_{i+1} - R_{i+1}.
        if row_clues[0] != a[0]:
            raise Unsolvable("top row")
        u = [0] * (rows + 1)  # u[r] for zero-based row r; u[rows - 1] = 0
        for r in range(rows - 1):
            u[r] = a[r + 1] - row_clues[r + 1]
            if u[r] < 0 or u[r] > size(self.u_base + r):
                raise Unsolvable("vertical cut")
            k[self.u_base + r] = u[r]
        for r in range(rows):
            twice_p = row_clues[r] - u[r]
            if twice_p < 0 or twice_p % 2:
                raise Unsolvable("row pairs")
            k[self.p_base + r] = twice_p // 2

        # Columns: t_j = b_j - 2 C_j + 3 t_{j-1}, q_j = C_j - 2 t_{j-1}.
        t_prev = 0
        for c in range(cols):
            q = col_clues[c] - 2 * t_prev
            if q < 0:
                raise Unsolvable("column verticals")
            k[self.q_base + c] = q
            t = b[c] - 2 * col_clues[c] + 3 * t_prev
            if c == cols - 1:
                if t != 0:
                    raise Unsolvable("last cut")
            else:
                if t < 0 or t > size(self.t_base + c):
                    raise Unsolvable("horizontal cut")
                k[self.t_base + c] = t
            t_prev = t
        return k

    def to_solution(self, chosen):
        vertical, horizontal = [], []
        for p in chosen:
            r, c = self.anchor[p]
            target = vertical if self.kind[p] == VERTICAL else horizontal
            target.append([r + 1, c + 1])
        return {"vertical": sorted(vertical), "horizontal": sorted(horizontal)}


class Search:
    """ExactSolve of Section 4.2 with the propagation of Section 4.1."""

    def __init__(self, board, limit, cap_seconds=0.0):
        self.board = board
        self.limit = limit
        self.solutions = []
        self.nodes = 0
        self.failed = set()  # proved-failure entry states (F, k)
        self.stopped = False  # limit reached or cap hit
        self.capped = False
        self.deadline = (time.perf_counter() + cap_seconds
                         if cap_seconds > 0 else None)

    # -- propagation ------------------------------------------------------

    def propagate(self, free, active, k, chosen):
        """Run rules 1-4 to a fixed point; return the state or None."""
        board = self.board
        cell_inc, members = board.cell_inc, board.group_members
        while True:
            # Rule 1: zero quotas delete their group, negative ones fail.
            for g, quota in enumerate(k):
                if quota < 0:
                    return None
                if quota == 0:
                    active &= ~members[g]

            forced = 0
            # Rule 2: dead cells fail, single-candidate cells are forced.
            for cell in iter_bits(free):
                inc = cell_inc[cell] & active
                if not inc:
                    return None
                if inc & (inc - 1) == 0:
                    forced |= inc
            # Rule 3: short groups fail, saturated groups are forced.
            for g, quota in enumerate(k):
                candidates = members[g] & active
                count = candidates.bit_count()
                if count < quota:
                    return None
                if quota > 0 and count == quota:
                    forced |= candidates
            if not forced:
                return free, active, k, chosen

            # Rule 4: commit the batch; a forced placement already removed
            # by an earlier one in the batch means two forced pieces overlap.
            for p in iter_bits(forced):
                if not (active >> p) & 1:
                    return None
                free &= ~board.cell_pair[p]
                active &= ~board.conflict[p]
                g1, g2 = board.groups[p]
                k[g1] -= 1
                k[g2] -= 1
                chosen.append(p)

    def stall_checks(self, free, active, k):
        """Path capacities and active-component colour balance."""
        board = self.board
        for g, ordered in board.path_groups:
            quota = k[g]
            if quota == 0:
                continue
            capacity = 0
            last_end = -2
            for p, pos in ordered:
                if (active >> p) & 1 and pos > last_end:
                    capacity += 1
                    last_end = pos + 1
            if capacity < quota:
                return False

        cell_inc, cell_pair = board.cell_inc, board.cell_pair
        remaining = free
        while remaining:
            component = frontier = remaining & -remaining
            while frontier:
                reached = 0
                for cell in iter_bits(frontier):
                    for p in iter_bits(cell_inc[cell] & active):
                        reached |= cell_pair[p]
                frontier = reached & ~component
                component |= frontier
            if 2 * (component & board.black).bit_count() != \
                    component.bit_count():
                return False
            remaining &= ~component
        return True

    # -- search -----------------------------------------------------------

    def solve(self, free, active, k, chosen):
        """One search entry; returns True if a solution lies below it."""
        self.nodes += 1
        if (self.deadline is not None
                and self.nodes % CAP_POLL_INTERVAL == 0
                and time.perf_counter() > self.deadline):
            self.capped = self.stopped = True
            return False

        key = (free, tuple(k))
        if key in self.failed:
            return False

        state = self.propagate(free, active, list(k), list(chosen))
        if state is None:
            self.failed.add(key)
            return False
        free, active, k, chosen = state

        if not free:
            if any(k):
                self.failed.add(key)
                return False
            self.solutions.append(self.board.to_solution(chosen))
            if self.limit and len(self.solutions) >= self.limit:
                self.stopped = True
            return True

        if not self.stall_checks(free, active, k):
            self.failed.add(key)
            return False

        # Minimum remaining values; strict '<' keeps the row-major first.
        cell_inc = self.board.cell_inc
        best_cell, best_count = -1, 5
        for cell in iter_bits(free):
            count = (cell_inc[cell] & active).bit_count()
            if count < best_count:
                best_cell, best_count = cell, count

        board = self.board
        found = False
        for p in iter_bits(cell_inc[best_cell] & active):
            child_k = list(k)
            g1, g2 = board.groups[p]
            child_k[g1] -= 1
            child_k[g2] -= 1
            if self.solve(free & ~board.cell_pair[p],
                          active & ~board.conflict[p],
                          child_k, chosen + [p]):
                found = True
            if self.stopped:
                return found
        if not found:
            self.failed.add(key)
        return found


def run_once(instance, limit, cap_seconds=0.0):
    """One timed call: build, invert clues, search up to ``limit``."""
    board = Board(instance)
    try:
        k = board.invert_clues(instance["row_clues"], instance["col_clues"])
    except Unsolvable:
        return [], 0, False
    search = Search(board, limit, cap_seconds)
    search.solve(board.open_cells, board.all_placements, k, [])
    return search.solutions, search.nodes, search.capped


def status_of(solutions, limit, capped):
    if capped:
        return "capped"  # stopped early: no proof either way
    if limit == 1:
        return "sat" if solutions else "unsat"
    if not solutions:
        return "unsat"
    return "unique" if len(solutions) == 1 else "multiple"


def verify(instance, solution):
    """Check a solution against the raw game rules; return error or None."""
    rows, cols = instance["rows"], instance["cols"]
    blocked = {tuple(cell) for cell in instance["blocked"]}
    owner = {}
    row_dots = [0] * (rows + 1)
    col_dots = [0] * (cols + 1)
    pieces = ([("V", tuple(cell)) for cell in solution["vertical"]]
              + [("H", tuple(cell)) for cell in solution["horizontal"]])
    for index, (kind, (r, c)) in enumerate(pieces):
        if kind == "V":
            covered = [(r, c), (r + 1, c)]
            dots = [(r, c, 1)]
        else:
            covered = [(r, c), (r, c + 1)]
            dots = [(r, c + 1, 2)]
        for cell in covered:
            cr, cc = cell
            if not (1 <= cr <= rows and 1 <= cc <= cols):
                return f"{kind} piece at {(r, c)} leaves the board"
            if cell in blocked:
                return f"{kind} piece at {(r, c)} covers blocked {cell}"
            if cell in owner:
                return f"cell {cell} covered twice"
            owner[cell] = index
        for dr, dc, count in dots:
            row_dots[dr] += count
            col_dots[dc] += count
    for r in range(1, rows + 1):
        for c in range(1, cols + 1):
            if (r, c) not in blocked and (r, c) not in owner:
                return f"open cell {(r, c)} uncovered"
    if row_dots[1:] != list(instance["row_clues"]):
        return f"row sums {row_dots[1:]} != {instance['row_clues']}"
    if col_dots[1:] != list(instance["col_clues"]):
        return f"column sums {col_dots[1:]} != {instance['col_clues']}"
    return None


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Time the bitset quota solver of Zhao's Domino Fit "
                    "paper (Section 4) on a JSON Lines workload.")
    parser.add_argument("workload", help="JSON Lines file of instances")
    parser.add_argument("--limit", type=int, default=2, choices=(0, 1, 2),
                        help="solutions to search for (0 = all)")
    parser.add_argument("--repeat", type=int, default=15,
                        help="timed calls per instance (paper: 15 for the "
                             "observed boards, 7 for generated ones)")
    parser.add_argument("--warmup", type=int, default=3,
                        help="untimed warm-up calls (paper: 3)")
    parser.add_argument("--cap-ms", type=float, default=0.0,
                        help="soft per-call cap in ms, polled every 256 "
                             "search entries (paper: 250; 0 = off)")
    parser.add_argument("--check", action="store_true",
                        help="verify every solution; exit 1 on failure")
    args = parser.parse_args(argv)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")

    cap_seconds = args.cap_ms / 1000.0
    with open(args.workload) as f:
        instances = [json.loads(line) for line in f if line.strip()]

    bad = 0
    for instance in instances:
        for _ in range(args.warmup):
            run_once(instance, args.limit, cap_seconds)
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            solutions, nodes, capped = run_once(instance, args.limit,
                                                cap_seconds)
            times.append(time.perf_counter() - start)
        status = status_of(solutions, args.limit, capped)
        print(json.dumps({
            "name": instance.get("name"),
            "status": status,
            "solutions": solutions,
            "time_ms": round(statistics.median(times) * 1000.0, 4),
            "nodes": nodes,
        }), flush=True)

        if args.check:
            seen = set()
            for solution in solutions:
                error = verify(instance, solution)
                key = json.dumps(solution, sort_keys=True)
                if error is None and key in seen:
                    error = "duplicate solution"
                seen.add(key)
                if error:
                    bad += 1
                    print(f"INVALID {instance.get('name')}: {error}",
                          file=sys.stderr)
    if args.check:
        print(f"check: {len(instances)} instances, "
              f"{bad} invalid solutions", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
