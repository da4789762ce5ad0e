#!/usr/bin/env python3
"""Game-size speed, side by side: per-board medians of in-process calls for several
dominofit backends (and, when given, the Python port of the paper's solver), measured
in alternating rounds pinned to one core, so that drift on a noisy machine hits every
contender alike.

    python3 scripts/game_speed.py [--binary target/release/dominofit]
        [--backends native,native-general] [--limit 2] [--rounds 5] [--repeat 201]
        [--paper scripts/paper_solver.py --paper-repeat 21] WORKLOAD.jsonl...

For each round and each contender, every board is timed with `solve --repeat N` (three
warm-up calls, then the median of N timed calls, compile and search in-process); a
board's figure is the median over rounds, and a workload's the median over its boards.
Prints one Markdown table: contenders as columns, workloads as rows, with each
contender's ratio to the first.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys


def pinned(command):
    """The command on core 1 when taskset is there (core 0 takes the system's noise)."""
    if (os.cpu_count() or 1) > 1 and shutil.which("taskset"):
        return ["taskset", "-c", "1", *command]
    return command


def dominofit_times(binary, workload, backend, limit, repeat):
    out = subprocess.run(
        pinned([binary, "solve", workload, "--backend", backend, "--limit", str(limit),
                "--repeat", str(repeat), "--format", "json"]),
        capture_output=True, text=True, check=True,
    ).stdout
    times = {}
    for line in out.splitlines():
        answer = json.loads(line)
        times[answer["name"]] = (answer["stats"]["time_ms"], answer["status"])
    return times


def paper_times(script, workload, limit, repeat):
    out = subprocess.run(
        pinned([sys.executable, script, workload, "--limit", str(limit), "--repeat", str(repeat)]),
        capture_output=True, text=True, check=True,
    ).stdout
    times = {}
    for line in out.splitlines():
        answer = json.loads(line)
        times[answer["name"]] = (answer["time_ms"], answer["status"])
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("workloads", nargs="+")
    parser.add_argument("--binary", default="target/release/dominofit")
    parser.add_argument("--backends", default="native,native-general")
    parser.add_argument("--limit", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=201)
    parser.add_argument("--paper", help="the Python port of the paper's solver")
    parser.add_argument("--paper-repeat", type=int, default=21)
    args = parser.parse_args()

    contenders = args.backends.split(",")
    if args.paper:
        contenders.append("paper (Python)")
    rows = []
    for workload in args.workloads:
        samples = {c: {} for c in contenders}
        statuses = {}
        for _ in range(args.rounds):
            for contender in contenders:
                if contender == "paper (Python)":
                    times = paper_times(args.paper, workload, args.limit, args.paper_repeat)
                else:
                    times = dominofit_times(args.binary, workload, contender, args.limit, args.repeat)
                for name, (ms, status) in times.items():
                    samples[contender].setdefault(name, []).append(ms)
                    known = statuses.setdefault(name, status)
                    if known != status:
                        sys.exit(f"{workload}: {name} is {known} for one contender and {status} for {contender}")
        medians = {
            c: statistics.median(statistics.median(v) for v in samples[c].values())
            for c in contenders
        }
        rows.append((os.path.basename(workload), len(statuses), medians))

    first = contenders[0]
    print("| workload | boards | " + " | ".join(f"{c} (µs)" for c in contenders)
          + " | " + " | ".join(f"{c} / {first}" for c in contenders[1:]) + " |")
    print("|---" * (2 + 2 * len(contenders) - 1) + "|")
    for name, boards, medians in rows:
        cells = [f"{medians[c] * 1000:.2f}" for c in contenders]
        ratios = [f"{medians[c] / medians[first]:.1f}×" for c in contenders[1:]]
        print(f"| {name} | {boards} | " + " | ".join(cells) + " | " + " | ".join(ratios) + " |")


if __name__ == "__main__":
    main()
