#!/usr/bin/env python3
"""Measures the native backend on the observed boards and on planted boards of growing
size, and prints Markdown tables for BENCHMARKS.md.

Every figure comes from `dominofit solve --repeat`, which times compilation and search
in-process (three warm-up calls, then the median of N timed calls). An instance that
does not finish within the time limit in a first, untimed attempt is reported as capped
and left out of the time aggregates, as in the paper's protocol.

Usage: scripts/bench_native.py [--timeout S] [--sizes 8,16,...] [--count K] [--seed S]
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# DOMINOFIT_BIN runs a copy of the binary, so that rebuilding during a long run
# cannot change the program under measurement.
BIN = os.environ.get("DOMINOFIT_BIN", os.path.join(ROOT, "target", "release", "dominofit"))


def run(args, stdin=None):
    out = subprocess.run([BIN] + args, input=stdin, capture_output=True, text=True)
    if out.returncode not in (0, 3):
        sys.exit(f"dominofit {' '.join(args)} failed: {out.stderr}")
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def nearest_rank(values, q):
    ordered = sorted(values)
    k = max(1, -(-len(ordered) * q // 100))  # ceil(n*q/100), at least 1
    return ordered[int(k) - 1]


def measure(instance_line, limit, timeout, repeat):
    """One instance: (status, median ms or None if capped, nodes)."""
    first = run(["solve", "-", "--limit", str(limit), "--timeout", str(timeout),
                 "--format", "json"], stdin=instance_line)[0]
    if first["status"] == "unknown":
        return first["status"], None, first["stats"].get("nodes")
    timed = run(["solve", "-", "--limit", str(limit), "--repeat", str(repeat),
                 "--format", "json"], stdin=instance_line)[0]
    return timed["status"], timed["stats"]["time_ms"], timed["stats"].get("nodes")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument("--sizes", default="8,16,24,32,48,64,96,128")
    parser.add_argument("--count", type=int, default=6)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()

    if "DOMINOFIT_BIN" not in os.environ:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    cpu = "unknown cpu"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    print(f"Machine: {platform.system()} {platform.machine()}, {cpu}, "
          f"{os.cpu_count()} cores.\n")

    print("### Observed boards: uniqueness check (`--limit 2`), median of 2001 calls\n")
    print("| board | status | nodes | forced | median µs |")
    print("|---|---|---|---|---|")
    for name in ["6x6", "7x7", "8x8"]:
        path = os.path.join(ROOT, "models", "observed", f"{name}.json")
        r = run(["solve", path, "--limit", "2", "--repeat", "2001", "--format", "json"])[0]
        s = r["stats"]
        print(f"| {name} | {r['status']} | {s['nodes']} | {s['forced']} | "
              f"{s['time_ms'] * 1000:.1f} |")

    for limit in (1, 2):
        what = "first solution" if limit == 1 else "uniqueness check"
        print(f"\n### Planted boards: {what} (`--limit {limit}`), seed {args.seed}, "
              f"{args.count} per size, timeout {args.timeout:g} s\n")
        print("| size | solved | capped | median ms | P95 ms | max ms | median nodes |")
        print("|---|---|---|---|---|---|---|")
        for size in [int(s) for s in args.sizes.split(",")]:
            workload = subprocess.run(
                [BIN, "generate", "--rows", str(size), "--cols", str(size),
                 "--count", str(args.count), "--seed", str(args.seed)],
                capture_output=True, text=True, check=True).stdout.splitlines()
            repeat = 21 if size <= 32 else 5
            times, nodes, capped = [], [], 0
            for line in workload:
                status, ms, n = measure(line + "\n", limit, args.timeout, repeat)
                if ms is None:
                    capped += 1
                else:
                    times.append(ms)
                    nodes.append(n)
            if times:
                print(f"| {size}×{size} | {len(times)} | {capped} | "
                      f"{statistics.median(times):.3f} | {nearest_rank(times, 95):.3f} | "
                      f"{max(times):.3f} | {statistics.median(nodes):g} |")
            else:
                print(f"| {size}×{size} | 0 | {capped} | – | – | – | – |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
