#!/usr/bin/env python3
"""Unsatisfiable boards made without the native engine: planted boards whose clues are
perturbed (a dot moved between two rows, or two columns, keeping the totals), kept when
they pass clue inversion (checked here, independently) and an independent solver proves
them infeasible: cbc on the raw-sums LP, or kissat on the raw-rules CNF. The native
search never chooses or certifies these boards, so they can measure it.

    python3 scripts/perturbed_unsat.py --sizes 40 48 56 64 --count 3 --seed 7 -o out.jsonl

Each board's line is the instance; the prover that refuted it goes to standard error.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile


def perturb(board, rng):
    """Moves one or two dots between two rows or two columns, keeping both totals."""
    for _ in range(rng.randint(1, 2)):
        clues = board["row_clues"] if rng.random() < 0.5 else board["col_clues"]
        a, b = rng.sample(range(len(clues)), 2)
        k = rng.choice([1, 2])
        if clues[b] >= k:
            clues[a] += k
            clues[b] -= k


def inversion_passes(board):
    """Clue inversion's necessary conditions (Theorem 3.1 of the paper), without colours:
    every crossing and line count a nonnegative whole number within its room."""
    m, n = board["rows"], board["cols"]
    blocked = {(r - 1, c - 1) for r, c in board["blocked"]}
    open_ = lambda r, c: 0 <= r < m and 0 <= c < n and (r, c) not in blocked
    R, C = board["row_clues"], board["col_clues"]
    rows_open = [sum(open_(r, c) for c in range(n)) for r in range(m)]
    cols_open = [sum(open_(r, c) for r in range(m)) for c in range(n)]
    if sum(rows_open) % 2 or sum(R) != sum(C):
        return False
    if rows_open[0] != R[0]:
        return False
    u = [0] * m
    for i in range(m - 1):
        need = rows_open[i + 1] - R[i + 1]
        cap = sum(open_(i, c) and open_(i + 1, c) for c in range(n))
        if need < 0 or need > cap:
            return False
        u[i] = need
    for i in range(m):
        half = R[i] - u[i]
        if half < 0 or half % 2:
            return False
    t_prev = 0
    for j in range(n):
        need = cols_open[j] - 2 * C[j] + 3 * t_prev
        cap = sum(open_(r, j) and open_(r, j + 1) for r in range(m))
        if need < 0 or need > cap:
            return False
        if C[j] - 2 * t_prev < 0:
            return False
        t_prev = need
    return True


def refuted(cli, board, seconds):
    """The name of an independent solver that proves the board infeasible, or None."""
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, "board.json")
        with open(path, "w") as f:
            json.dump(board, f)
        for backend in ("cbc", "kissat"):
            done = subprocess.run(
                [cli, "solve", path, "--backend", backend, "--families", "raw",
                 "--timeout", str(seconds), "--format", "json"],
                capture_output=True, text=True)
            if done.returncode == 0 and json.loads(done.stdout)["status"] == "unsat":
                return backend
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default="target/release/dominofit")
    ap.add_argument("--sizes", type=int, nargs="+", required=True)
    ap.add_argument("--count", type=int, default=3)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--prover-seconds", type=float, default=60)
    ap.add_argument("--attempts", type=int, default=200)
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    with open(args.output, "w") as out:
        for size in args.sizes:
            kept = 0
            for attempt in range(args.attempts):
                if kept == args.count:
                    break
                # A fresh planted board per attempt.
                planted = subprocess.run(
                    [args.cli, "generate", "--rows", str(size), "--cols", str(size),
                     "--seed", str(args.seed * 100000 + size * 100 + attempt)],
                    capture_output=True, text=True, check=True)
                board = json.loads(planted.stdout)
                perturb(board, rng)
                if not inversion_passes(board):
                    continue
                prover = refuted(args.cli, board, args.prover_seconds)
                if prover is None:
                    continue
                kept += 1
                board["name"] = f"perturbed-{size}x{size}-s{args.seed}-{kept}"
                out.write(json.dumps(board, separators=(",", ":")) + "\n")
                out.flush()
                print(f"{board['name']}: refuted by {prover} (attempt {attempt + 1})",
                      file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
