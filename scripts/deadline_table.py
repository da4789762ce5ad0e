#!/usr/bin/env python3
"""Wall time against --timeout for every backend, on open or planted boards of each size.

Runs `dominofit solve BOARD --backend B --timeout T` for every built-in backend, every
installed external solver and a few SAT encodings, three times each, and prints a
Markdown table: the median wall time, the worst of the three, and how the run ended
(unknown at the limit, sat within it, or the refusal). The limit a run must keep is
T + 10% + 0.5 s. `--busy N` keeps N busy loops running beside the runs (a loaded
machine), `--kind planted` uses planted boards with holes (`generate`, seed 5) instead
of open ones.

    python3 scripts/deadline_table.py [--cli target/release/dominofit] [--timeout 1]
    python3 scripts/deadline_table.py --kind planted --sizes 96,128,160,256 --busy 1
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time


def backends(cli):
    listed = subprocess.run([cli, "backends", "--format", "json"], capture_output=True,
                            text=True, check=True).stdout
    names = []
    for line in listed.splitlines():
        backend = json.loads(line)
        if backend["status"] in ("available", "found"):
            names.append(backend["name"])
    names += ["varisat:pairwise", "varisat:sequential", "varisat:sorting-network"]
    if "kissat" in names:
        names += ["kissat:sorting-network", "portfolio:native+kissat"]
    if "cadical" in names:
        names.append("cadical:sorting-network")
    return names


def run(cli, board, backend, timeout):
    started = time.monotonic()
    done = subprocess.run(
        [cli, "solve", board, "--backend", backend, "--timeout", str(timeout),
         "--format", "json", "--memory", "8192"],
        capture_output=True, text=True)
    took = time.monotonic() - started
    if done.returncode in (0, 3):
        ended = json.loads(done.stdout)["status"]
    elif done.returncode == 1 and "cannot take this" in done.stderr:
        ended = "refused (too large)"
    else:
        ended = f"exit {done.returncode}: {done.stderr.strip()[:80]}"
    return took, ended


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", default="target/release/dominofit")
    parser.add_argument("--timeout", type=float, default=1.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="512,1024", help="board sides, comma-separated")
    parser.add_argument("--kind", choices=["open", "planted"], default="open")
    parser.add_argument("--busy", type=int, default=0, help="busy loops beside the runs")
    args = parser.parse_args()
    allowed = args.timeout * 1.1 + 0.5
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(args.busy)]
    try:
        table(args, allowed)
    finally:
        for loop in busy:
            loop.kill()
            loop.wait()


def table(args, allowed):
    with tempfile.TemporaryDirectory() as scratch:
        boards = {}
        for side in [int(s) for s in args.sizes.split(",")]:
            path = os.path.join(scratch, f"{args.kind}-{side}.json")
            kind = ["--open"] if args.kind == "open" else []
            with open(path, "w") as out:
                subprocess.run([args.cli, "generate", *kind, "--rows", str(side), "--cols",
                                str(side), "--seed", "5"], stdout=out, check=True)
            boards[side] = path
        print(f"| backend | side | median wall s | worst of {args.runs} s | ended | "
              f"within {allowed:.2f} s |")
        print("|---|---|---|---|---|---|")
        for backend in backends(args.cli):
            for side, board in boards.items():
                runs = [run(args.cli, board, backend, args.timeout) for _ in range(args.runs)]
                times = [t for t, _ in runs]
                ended = sorted({e for _, e in runs})
                ok = "yes" if max(times) <= allowed else "**no**"
                print(f"| {backend} | {side} | {statistics.median(times):.2f} | "
                      f"{max(times):.2f} | {', '.join(ended)} | {ok} |", flush=True)


if __name__ == "__main__":
    main()
