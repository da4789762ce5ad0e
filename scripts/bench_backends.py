#!/usr/bin/env python3
"""Compares the SAT backends (every cardinality encoding) and the ILP backend with the
native search on the observed boards and on planted boards, side by side in one run, and
prints Markdown tables for BENCHMARKS.md.

Times are in-process medians from `dominofit solve --repeat N` (three warm-up calls,
then N timed calls; compilation, lowering and solving, not verification). For each set,
the table gives the median and nearest-rank P95 across the per-instance medians.
Backends are interleaved instance by instance so that machine noise hits all alike.

Usage: scripts/bench_backends.py [--features cadical] [--repeat N] [--timeout S]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# DOMINOFIT_BIN runs a copy of the binary, so that rebuilding during a long run
# cannot change the program under measurement.
BIN = os.environ.get("DOMINOFIT_BIN", os.path.join(ROOT, "target", "release", "dominofit"))


def encodings():
    """The cardinality encodings, as the binary lists them (`backends --format json`)."""
    out = subprocess.run([BIN, "backends", "--format", "json"], capture_output=True,
                         text=True, check=True)
    for line in out.stdout.splitlines():
        backend = json.loads(line)
        if backend["name"] == "varisat":
            return backend["encodings"]
    raise SystemExit("the binary lists no varisat backend")


def solve(line, backend, encoding, limit, repeat, timeout):
    """One instance: a first, untimed call with the time limit; only if that answers, the
    timed repetitions (so a capped instance costs one time limit, not fourteen)."""
    args = [BIN, "solve", "-", "--backend", backend, "--limit", str(limit),
            "--format", "json", "--timeout", str(timeout)]
    if encoding:
        args += ["--encoding", encoding]
    out = subprocess.run(args, input=line, capture_output=True, text=True)
    if out.returncode not in (0, 3):
        return None
    first = json.loads(out.stdout.splitlines()[0])
    if not repeat or first["status"] == "unknown":
        return first
    out = subprocess.run(args + ["--repeat", str(repeat)], input=line, capture_output=True,
                         text=True)
    return json.loads(out.stdout.splitlines()[0]) if out.returncode in (0, 3) else None


def nearest_rank(values, q):
    ordered = sorted(values)
    k = max(1, -(-len(ordered) * q // 100))
    return ordered[int(k) - 1]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--features", default="")
    parser.add_argument("--repeat", type=int, default=11)
    parser.add_argument("--timeout", type=float, default=10.0)
    args = parser.parse_args()
    build = ["cargo", "build", "--release", "--quiet"]
    if args.features:
        build += ["--features", args.features]
    if "DOMINOFIT_BIN" not in os.environ:
        subprocess.run(build, cwd=ROOT, check=True)
    encoding_names = encodings()

    backends = [("native", None)] + [("varisat", e) for e in encoding_names]
    if "cadical" in args.features:
        backends += [("cadical-lib", e) for e in encoding_names]
    backends += [("microlp", None)]
    for feature, name in (("highs", "highs"), ("coin-cbc", "coin-cbc")):
        if feature in args.features:
            backends += [(name, None)]

    observed = []
    for name in ["6x6", "7x7", "8x8"]:
        with open(os.path.join(ROOT, "models", "observed", f"{name}.json")) as f:
            observed.append(json.dumps(json.load(f)) + "\n")

    def planted(size, count, seed):
        out = subprocess.run([BIN, "generate", "--rows", str(size), "--cols", str(size),
                              "--count", str(count), "--seed", str(seed)],
                             capture_output=True, text=True, check=True)
        return [l + "\n" for l in out.stdout.splitlines()]

    sets = [("observed (3)", observed),
            ("planted 8×8 (20)", planted(8, 20, 11)),
            ("planted 16×16 (6)", planted(16, 6, 11)),
            ("planted 24×24 (6)", planted(24, 6, 11))]

    print("### Formula sizes (families `all`), mean over each set\n")
    print("| set | encoding | variables | clauses |")
    print("|---|---|---|---|")
    for label, lines in sets:
        for enc in encoding_names:
            sizes = [solve(l, "varisat", enc, 1, None, args.timeout) for l in lines]
            sizes = [s["stats"] for s in sizes if s]
            if sizes:
                print(f"| {label} | {enc} | {statistics.mean(s['vars'] for s in sizes):.0f} | "
                      f"{statistics.mean(s['clauses'] for s in sizes):.0f} |")

    for limit in (1, 2):
        print(f"\n### `--limit {limit}`: median ms across per-instance medians "
              f"({args.repeat} timed calls each)\n")
        print("| set | backend | encoding | solved | median ms | P95 ms | ratio to native |")
        print("|---|---|---|---|---|---|---|")
        for label, lines in sets:
            times = {b: [] for b in backends}
            for line in lines:
                for backend in backends:
                    r = solve(line, backend[0], backend[1], limit, args.repeat, args.timeout)
                    if r and r["status"] != "unknown":
                        times[backend].append(r["stats"]["time_ms"])
            native = statistics.median(times[backends[0]]) if times[backends[0]] else None
            for backend in backends:
                t = times[backend]
                if not t:
                    print(f"| {label} | {backend[0]} | {backend[1] or '–'} | 0/{len(lines)} | – | – | – |")
                    continue
                med = statistics.median(t)
                ratio = f"{med / native:.0f}×" if native else "–"
                print(f"| {label} | {backend[0]} | {backend[1] or '–'} | {len(t)}/{len(lines)} | "
                      f"{med:.3f} | {nearest_rank(t, 95):.3f} | {ratio} |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
