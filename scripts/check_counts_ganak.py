#!/usr/bin/env python3
"""Checks `dominofit count --backend dp` against Ganak, an independent exact model
counter, on the DIMACS export of the raw rules projected on the placements (the
export's `c p show` line), and prints both counts with their times.

    python3 -m venv /tmp/ganak && /tmp/ganak/bin/pip install pyganak
    /tmp/ganak/bin/python scripts/check_counts_ganak.py            # default sample
    /tmp/ganak/bin/python scripts/check_counts_ganak.py FILE...    # your boards
    GANAK_TIMEOUT=120 /tmp/ganak/bin/python scripts/check_counts_ganak.py

The default sample: the observed boards, the first ten `game` and four `larger`
boards, and open narrow boards (no holes, clues from a random tiling) of growing
length. Ganak gets GANAK_TIMEOUT seconds a board (default 60); a board it does not
finish is reported, not failed. Exit status 1 on any disagreement.
"""

import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("DOMINOFIT_BIN", os.path.join(ROOT, "target", "release", "dominofit"))
TIMEOUT = float(os.environ.get("GANAK_TIMEOUT", "60"))


def dominofit(*args, stdin=None):
    return subprocess.run([BIN, *args], input=stdin, capture_output=True, text=True, check=True)


def parse_dimacs(text):
    clauses, show, clause = [], [], []
    for line in text.splitlines():
        if line.startswith("c p show"):
            show = [int(x) for x in line.split()[3:] if x != "0"]
        elif line.startswith(("c", "p")) or not line.strip():
            continue
        else:
            for lit in map(int, line.split()):
                if lit == 0:
                    clauses.append(clause)
                    clause = []
                else:
                    clause.append(lit)
    return clauses, show


def ganak_count(clauses, show, out):
    import pyganak

    counter = pyganak.Counter()
    counter.add_clauses(clauses)
    counter.set_sampling_set(show)
    out.put(str(counter.count()))


def with_ganak(dimacs):
    clauses, show = parse_dimacs(dimacs)
    out = multiprocessing.Queue()
    worker = multiprocessing.Process(target=ganak_count, args=(clauses, show, out))
    start = time.perf_counter()
    worker.start()
    worker.join(TIMEOUT)
    if worker.is_alive():
        worker.kill()
        worker.join()
        return None, TIMEOUT
    return (out.get() if not out.empty() else None), time.perf_counter() - start


def boards(paths):
    if paths:
        for path in paths:
            for line in open(path):
                if line.strip():
                    yield json.loads(line)
        return
    for path in ["models/observed.jsonl"]:
        yield from boards([os.path.join(ROOT, path)])
    for path, first in [("models/game.jsonl", 10), ("models/larger.jsonl", 4)]:
        with open(os.path.join(ROOT, path)) as f:
            for line in list(f)[:first]:
                yield json.loads(line)
    for rows, cols in [(4, 10), (4, 20), (4, 30), (4, 40), (5, 20), (6, 12), (6, 20)]:
        text = dominofit("generate", "--open", "--rows", str(rows), "--cols", str(cols),
                         "--seed", "7").stdout
        yield json.loads(text)


def main():
    if not os.path.exists(BIN):
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    failures = 0
    print(f"{'board':<24} {'dp count':>28} {'dp ms':>9} {'ganak':>10} {'ganak s':>8}")
    for board in boards(sys.argv[1:]):
        text = json.dumps(board)
        counted = json.loads(dominofit("count", "-", "--backend", "dp", "--format", "json",
                                       stdin=text).stdout)
        dimacs = dominofit("emit", "-", "--to", "dimacs", "--families", "raw", stdin=text).stdout
        ganak, seconds = with_ganak(dimacs)
        if ganak is None:
            verdict = "timeout"
        elif ganak == counted["count"]:
            verdict = "agree"
        else:
            verdict = f"DISAGREE ({ganak})"
            failures += 1
        print(f"{board.get('name', '?'):<24} {counted['count']:>28} "
              f"{counted['stats']['time_ms']:>9.3f} {verdict:>10} {seconds:>8.2f}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
