#!/usr/bin/env python3
"""Benchmarks exact counting: the frontier DP (`count --backend dp`) against counting
by native enumeration (capped by a time limit) and, when the `pyganak` module is
importable, against Ganak on the projected DIMACS export of the raw rules. Prints
Markdown tables for BENCHMARKS.md.

    python3 scripts/bench_dp.py                          # DP and enumeration
    /tmp/ganak/bin/python scripts/bench_dp.py            # with Ganak (pip install pyganak)
    ENUM_TIMEOUT=10 GANAK_TIMEOUT=120 python3 scripts/bench_dp.py

DP times are the median of five runs of the in-process time that `count` reports
(compilation and sweep). Enumeration is one run with ENUM_TIMEOUT seconds (default
10); Ganak one run with GANAK_TIMEOUT seconds (default 120), timed as a whole call.
"""

import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_counts_ganak import BIN, ROOT, dominofit, with_ganak  # noqa: E402

import check_counts_ganak  # noqa: E402

ENUM_TIMEOUT = os.environ.get("ENUM_TIMEOUT", "10")
check_counts_ganak.TIMEOUT = float(os.environ.get("GANAK_TIMEOUT", "120"))

try:
    import pyganak  # noqa: F401

    HAVE_GANAK = True
except ImportError:
    HAVE_GANAK = False


def count(text, backend, timeout=None):
    args = ["count", "-", "--backend", backend, "--format", "json"]
    if timeout:
        args += ["--timeout", timeout]
    run = subprocess.run([BIN, *args], input=text, capture_output=True, text=True)
    if run.returncode not in (0, 3):
        raise RuntimeError(run.stderr)
    return json.loads(run.stdout)


def dp_median(text):
    runs = [count(text, "dp") for _ in range(5)]
    return runs[0]["count"], statistics.median(r["stats"]["time_ms"] for r in runs)


def narrow():
    print("| board | solutions (dp) | dp ms | enumeration | Ganak |")
    print("|---|---:|---:|---|---|")
    for rows, cols in [(4, 40), (4, 60), (5, 60), (6, 40), (6, 100)]:
        for seed in (1, 2, 3):
            text = dominofit("generate", "--open", "--rows", str(rows), "--cols", str(cols),
                             "--seed", str(seed)).stdout
            name = json.loads(text)["name"]
            n, ms = dp_median(text)
            e = count(text, "native", ENUM_TIMEOUT)
            enum = (f"{float(e['stats']['time_ms']):.0f} ms" if e["complete"]
                    else f"≥ {e['count']} in {ENUM_TIMEOUT} s (capped)")
            if e["complete"] and e["count"] != n:
                raise SystemExit(f"{name}: dp {n} but enumeration {e['count']}")
            if HAVE_GANAK and rows * cols <= 240:
                dimacs = dominofit("emit", "-", "--to", "dimacs", "--families", "raw",
                                   stdin=text).stdout
                g, seconds = with_ganak(dimacs)
                if g is not None and g != n:
                    raise SystemExit(f"{name}: dp {n} but Ganak {g}")
                ganak = (f"{seconds:.2f} s" if g is not None
                         else f"not in {check_counts_ganak.TIMEOUT:.0f} s")
            else:
                ganak = "–"
            print(f"| {name} | {n} | {ms:.3f} | {enum} | {ganak} |")


def sets():
    print("\n| set | boards | solutions in all | median | max | dp total ms | native total ms |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for path in ["models/observed.jsonl", "models/game.jsonl", "models/larger.jsonl"]:
        dp_runs = [json.loads(l) for l in dominofit(
            "count", os.path.join(ROOT, path), "--backend", "dp", "--format", "json"
        ).stdout.splitlines()]
        native_runs = [json.loads(l) for l in dominofit(
            "count", os.path.join(ROOT, path), "--format", "json").stdout.splitlines()]
        counts = [int(r["count"]) for r in dp_runs]
        if counts != [int(r["count"]) for r in native_runs]:
            raise SystemExit(f"{path}: dp and native counts differ")
        dp_ms = sum(r["stats"]["time_ms"] for r in dp_runs)
        native_ms = sum(r["stats"]["time_ms"] for r in native_runs)
        name = os.path.basename(path).split(".")[0]
        print(f"| {name} | {len(counts)} | {sum(counts)} | {statistics.median(counts)} | "
              f"{max(counts)} | {dp_ms:.2f} | {native_ms:.2f} |")


if __name__ == "__main__":
    if not os.path.exists(BIN):
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
    narrow()
    sets()
