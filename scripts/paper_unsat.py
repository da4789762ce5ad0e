#!/usr/bin/env python3
"""Unsat at scale from the paper's protocol: clue perturbations of paper-protocol planted
boards that clue inversion does not refute, and what the default native search makes of
them: sat, unsat with a VeriPB proof that veripb accepts, or unknown.

    python3 scripts/paper_unsat.py --sizes 64 96 128 --count 6 --seed 37 \
        -o models/paper-perturbed.jsonl --table table.md

Candidates are chosen without the search: a board from `generate --tiling backtrack`, one or
two dots moved between two rows or two columns (the totals kept), kept when clue inversion
(Theorem 3.1 of the paper, checked here in Python) passes. So the workload measures the
search rather than being picked by it. Each kept candidate is then solved with
`solve --certify`; an `unsat` counts as certified only when `check-certificate` (which runs
veripb on the proof) accepts its bundle. The instances go to --output, the per-size table to
--table (Markdown) and each board's outcome to standard error.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

from perturbed_unsat import inversion_passes, perturb


def candidates(cli, size, count, seed, attempts, rng):
    """Up to `count` perturbed paper-protocol boards of side `size` that pass inversion."""
    kept = []
    for attempt in range(attempts):
        if len(kept) == count:
            break
        planted = subprocess.run(
            [cli, "generate", "--tiling", "backtrack", "--rows", str(size), "--cols",
             str(size), "--seed", str(seed * 100000 + size * 100 + attempt)],
            capture_output=True, text=True, check=True)
        board = json.loads(planted.stdout)
        before = (list(board["row_clues"]), list(board["col_clues"]))
        perturb(board, rng)
        if (board["row_clues"], board["col_clues"]) == before or not inversion_passes(board):
            continue
        board["name"] = f"paper-perturbed-{size}x{size}-s{seed}-{len(kept) + 1}"
        kept.append(board)
    return kept


def classify(cli, board, seconds, scratch):
    """The board's outcome: (status, certified, seconds) under the default native search."""
    path = os.path.join(scratch, "board.json")
    with open(path, "w") as f:
        json.dump(board, f)
    bundles = os.path.join(scratch, "certs")
    done = subprocess.run(
        [cli, "solve", path, "--timeout", str(seconds), "--format", "json",
         "--certify", bundles],
        capture_output=True, text=True)
    if done.returncode not in (0, 3):
        raise SystemExit(f"{board['name']}: solve failed: {done.stderr.strip()}")
    answer = json.loads(done.stdout)
    status, secs = answer["status"], answer["stats"]["time_ms"] / 1000
    certified = False
    if status == "unsat":
        check = subprocess.run([cli, "check-certificate", bundles],
                               capture_output=True, text=True)
        certified = check.returncode == 0
    return status, certified, secs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cli", default="target/release/dominofit")
    ap.add_argument("--sizes", type=int, nargs="+", default=[64, 96, 128])
    ap.add_argument("--count", type=int, default=6, help="candidates per size")
    ap.add_argument("--seed", type=int, default=37)
    ap.add_argument("--attempts", type=int, default=400,
                    help="generated boards tried per size at most")
    ap.add_argument("--timeout", type=float, default=30, help="seconds per solve")
    ap.add_argument("-o", "--output", required=True, help="the candidates, as JSON Lines")
    ap.add_argument("--table", help="write the per-size table (Markdown) here")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    rows = []
    with open(args.output, "w") as out:
        for size in args.sizes:
            tally = {"sat": 0, "unsat": 0, "certified": 0, "unknown": 0}
            times = []
            boards = candidates(args.cli, size, args.count, args.seed, args.attempts, rng)
            for board in boards:
                out.write(json.dumps(board, separators=(",", ":")) + "\n")
                out.flush()
                with tempfile.TemporaryDirectory() as scratch:
                    status, certified, secs = classify(args.cli, board, args.timeout, scratch)
                tally[status if status in tally else "unknown"] += 1
                tally["certified"] += certified
                if status != "unknown":
                    times.append(secs)
                print(f"{board['name']}: {status}{' (certified)' if certified else ''}"
                      f" in {secs:.2f} s", file=sys.stderr, flush=True)
            times.sort()
            median = f"{times[len(times) // 2]:.2f}" if times else "–"
            rows.append(f"| {size} | {len(boards)} | {tally['sat']} | {tally['unsat']} | "
                        f"{tally['certified']} | {tally['unknown']} | {median} |")
    table = ("| side | candidates | sat | unsat | unsat, proof checked by veripb | unknown "
             "| median s (decided) |\n|---|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n")
    print(table, end="")
    if args.table:
        with open(args.table, "w") as f:
            f.write(table)


if __name__ == "__main__":
    main()
