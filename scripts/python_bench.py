#!/usr/bin/env python3
"""The Python package against the Rust library and the command line, side by side.

Per-call cost of solve, count and verify from a dict and from JSON text, next to the
same work done by a Rust caller in the same process (`_native.rust_seconds_per_call`:
the board read once, the answer left as a Rust value; and from JSON text to JSON
text); batch throughput against `dominofit solve` on the same JSON Lines file; the
lazy `generate` against `dominofit generate`; and resident memory over many calls.
Measurements alternate in rounds and report medians, so that the machine's noise
falls on all of them alike. Prints Markdown tables.

Run through scripts/python-bench.sh, which builds the package and the CLI first.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import dominofit
from dominofit import _native

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def seconds_per_call(call, calls):
    start = time.perf_counter()
    for _ in range(calls):
        call()
    return (time.perf_counter() - start) / calls


def side_by_side(named, rounds):
    """Median seconds of each timing function, run in turn, round after round."""
    times = {name: [] for name in named}
    for _ in range(rounds):
        for name, timing in named.items():
            times[name].append(timing())
    return {name: statistics.median(t) for name, t in times.items()}


def per_call_table(boards, calls, rounds):
    print("| board | call | Python, dict (µs) | Python, JSON text (µs) | Rust, board read (µs) "
          "| Rust, JSON in and out (µs) | dict − Rust read (µs) | dict − Rust JSON (µs) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for label, board, limit in boards:
        # As many calls per timing on a large board as take about as long as on a
        # game board.
        calls = max(10, calls * 64 // (board["rows"] * board["cols"]))
        text = json.dumps(board)
        tiling = dominofit.solve(board)["solutions"][0]
        tiling_text = json.dumps(tiling)
        rows = {
            f"solve limit={limit}": {
                "dict": lambda: seconds_per_call(lambda: dominofit.solve(board, limit=limit), calls),
                "text": lambda: seconds_per_call(lambda: dominofit.solve(text, limit=limit), calls),
                "rust": lambda: _native.rust_seconds_per_call("solve", board, "native", limit, calls),
                "rust json": lambda: _native.rust_seconds_per_call(
                    "solve-json", board, "native", limit, calls),
            },
            "verify": {
                "dict": lambda: seconds_per_call(lambda: dominofit.verify(board, tiling), calls),
                "text": lambda: seconds_per_call(lambda: dominofit.verify(text, tiling_text), calls),
                "rust": lambda: _native.rust_seconds_per_call("verify", board, "native", 1, calls),
            },
        }
        if board["rows"] * board["cols"] <= 100:
            rows["count"] = {
                "dict": lambda: seconds_per_call(lambda: dominofit.count(board), calls),
                "text": lambda: seconds_per_call(lambda: dominofit.count(text), calls),
                "rust": lambda: _native.rust_seconds_per_call("count", board, "native", 0, calls),
            }
        for call, timings in rows.items():
            m = {k: v * 1e6 for k, v in side_by_side(timings, rounds).items()}
            rust_json = m.get("rust json")
            json_cell = "" if rust_json is None else f"{rust_json:.2f}"
            over_json = "" if rust_json is None else f"{m['dict'] - rust_json:.2f}"
            print(f"| {label} | {call} | {m['dict']:.2f} | {m['text']:.2f} | {m['rust']:.2f} | "
                  f"{json_cell} | {m['dict'] - m['rust']:.2f} | {over_json} |")


def wall(call):
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def batch_table(cli, count, rounds):
    with tempfile.TemporaryDirectory() as scratch:
        workload = os.path.join(scratch, "unique.jsonl")
        with open(workload, "w") as out:
            subprocess.run([cli, "generate", "--rows", "8", "--cols", "8", "--count", str(count),
                            "--unique", "--seed", "11"], stdout=out, check=True)

        def cli_solve():
            subprocess.run([cli, "solve", workload, "--limit", "2", "--format", "json"],
                           stdout=subprocess.DEVNULL, check=True)

        with open(workload) as f:
            read = [json.loads(line) for line in f]

        def python_solve(threads, given):
            def run():
                if given == "read":
                    boards = read
                else:
                    with open(workload) as f:
                        lines = f.read().splitlines()
                    boards = [json.loads(line) for line in lines] if given == "dict" else lines
                answers = dominofit.solve_many(boards, limit=2, threads=threads)
                assert len(answers) == count
            return run

        named = {
            "cli": lambda: wall(cli_solve),
            "py1 text": lambda: wall(python_solve(1, "text")),
            "py2 text": lambda: wall(python_solve(2, "text")),
            "py1 dict": lambda: wall(python_solve(1, "dict")),
            "py2 dict": lambda: wall(python_solve(2, "dict")),
            "py1 read": lambda: wall(python_solve(1, "read")),
            "py2 read": lambda: wall(python_solve(2, "read")),
        }
        m = side_by_side(named, rounds)
    print(f"| {count:,} unique 8×8 boards, limit 2 | wall (s) | boards/s | CLI's rate ÷ this |")
    print("|---|---:|---:|---:|")
    labels = {
        "cli": "`dominofit solve FILE --format json` (one thread)",
        "py1 text": "`solve_many(lines, threads=1)`, JSON text per board",
        "py2 text": "`solve_many(lines, threads=2)`, JSON text per board",
        "py1 dict": "`solve_many(dicts, threads=1)` (json.loads included)",
        "py2 dict": "`solve_many(dicts, threads=2)` (json.loads included)",
        "py1 read": "`solve_many(dicts, threads=1)`, dicts made beforehand",
        "py2 read": "`solve_many(dicts, threads=2)`, dicts made beforehand",
    }
    for name, label in labels.items():
        print(f"| {label} | {m[name]:.2f} | {count / m[name]:,.0f} | {m[name] / m['cli']:.2f} |")


def generate_table(cli, count, rounds):
    def cli_generate():
        subprocess.run([cli, "generate", "--rows", "8", "--cols", "8", "--count", str(count),
                        "--unique", "--seed", "5"], stdout=subprocess.DEVNULL, check=True)

    def python_generate():
        made = sum(1 for _ in dominofit.generate(8, 8, count=count, seed=5, kind="unique"))
        assert made == count

    m = side_by_side({"cli": lambda: wall(cli_generate), "py": lambda: wall(python_generate)}, rounds)
    print(f"| {count:,} unique 8×8 boards made | wall (s) | boards/s | this ÷ CLI |")
    print("|---|---:|---:|---:|")
    print(f"| `dominofit generate --unique` | {m['cli']:.2f} | {count / m['cli']:,.0f} | 1.00 |")
    print(f"| `dominofit.generate(kind=\"unique\")`, read to the end | {m['py']:.2f} | "
          f"{count / m['py']:,.0f} | {m['py'] / m['cli']:.2f} |")


def resident_mib():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def memory_table(calls):
    board = json.load(open(os.path.join(ROOT, "models", "observed", "8x8.json")))
    tiling = dominofit.solve(board)["solutions"][0]
    # Warm: the backend is made and the allocator has its working set.
    for _ in range(1000):
        dominofit.solve(board, limit=2)
    before = resident_mib()
    start = time.perf_counter()
    for k in range(calls):
        dominofit.solve(board, limit=2)
        if k % 10 == 0:
            dominofit.verify(board, tiling)
    took = time.perf_counter() - start
    after = resident_mib()
    print("| calls | RSS before (MiB) | RSS after (MiB) | µs per call |")
    print("|---:|---:|---:|---:|")
    print(f"| {calls:,} solve (and {calls // 10:,} verify) | {before:.1f} | {after:.1f} | "
          f"{took / calls * 1e6:.2f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", default=os.path.join(ROOT, "target", "release", "dominofit"))
    parser.add_argument("--calls", type=int, default=2000, help="calls per timing")
    parser.add_argument("--rounds", type=int, default=7, help="rounds of side-by-side timings")
    parser.add_argument("--batch", type=int, default=100_000, help="boards in the batch file")
    parser.add_argument("--generate", type=int, default=5_000, help="boards generate makes")
    parser.add_argument("--memory-calls", type=int, default=1_000_000)
    args = parser.parse_args()

    game = json.load(open(os.path.join(ROOT, "models", "observed", "8x8.json")))
    [planted32] = list(dominofit.generate(32, 32, count=1, seed=1))
    boards = [("observed 8×8 (game size)", game, 2), ("planted 32×32", planted32, 1)]
    print(f"dominofit {dominofit.__version__}, Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cores; medians of {args.rounds} rounds\n")
    per_call_table(boards, args.calls, args.rounds)
    print()
    batch_table(args.cli, args.batch, max(3, args.rounds // 2))
    print()
    generate_table(args.cli, args.generate, max(3, args.rounds // 2))
    print()
    memory_table(args.memory_calls)


if __name__ == "__main__":
    main()
