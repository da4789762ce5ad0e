#!/usr/bin/env python3
"""Two dominofit binaries side by side, board by board, on the same workloads.

Each board is solved by the binary from before and the one after, alternating (before,
after, before, after, ...) so the machine's drift reaches both alike, one process at a
time. Every call gets the board on standard input with `solve - --format json
--timeout T`; the time is the solver's own `time_ms`, the peak memory the child's
maximum resident set (wait4).

Prints one Markdown table per workload set (decided, medians, totals, worst ratio) and,
with --csv, writes every call's row.

    python3 scripts/compare_binaries.py --before OLD/dominofit --after target/release/dominofit \
        --timeout 60 --repeat 3 models/stress.jsonl models/unsat.jsonl
"""

import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path


def solve_measured(binary, line, timeout, limit):
    """One call: status, solver time, nodes, restarts, and the child's peak memory (wait4)."""
    proc = subprocess.Popen(
        [binary, "solve", "-", "--format", "json", "--timeout", str(timeout), "--limit", str(limit)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    proc.stdin.write(line.encode())
    proc.stdin.close()
    out = proc.stdout.read()
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 3):  # 3: some board `unknown` (FORMAT.md)
        sys.exit(f"{binary} failed ({code}): {err.decode(errors='replace').strip()}")
    result = json.loads(out)
    stats = result.get("stats", {})
    return {
        "status": result["status"],
        "time_ms": float(stats.get("time_ms", 0.0)),
        "nodes": int(stats.get("nodes", 0)),
        "restarts": int(stats.get("restarts", 0)),
        "peak_mib": usage.ru_maxrss / 1024.0,
    }


DECIDED = {"sat", "unsat", "unique", "multiple", "all"}


def fmt(x):
    return "-" if x is None else f"{x:,.2f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", required=True, help="binary from before")
    ap.add_argument("--after", required=True, help="binary after the change")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per call (default 60)")
    ap.add_argument("--limit", type=int, default=1, help="solutions looked for (default 1)")
    ap.add_argument("--repeat", type=int, default=1, help="calls per binary and board (default 1)")
    ap.add_argument("--csv", type=Path, help="write every call's row here")
    ap.add_argument("workloads", nargs="+", type=Path)
    args = ap.parse_args()

    rows = []
    tables = []
    for workload in args.workloads:
        boards = [l for l in workload.read_text().splitlines() if l.strip()]
        per = []
        for line in boards:
            name = json.loads(line)["name"]
            runs = {"before": [], "after": []}
            for _ in range(args.repeat):
                for side in ("before", "after"):
                    binary = args.before if side == "before" else args.after
                    r = solve_measured(binary, line, args.timeout, args.limit)
                    runs[side].append(r)
                    rows.append({"workload": workload.stem, "board": name, "side": side, **r})
            summary = {}
            for side, rs in runs.items():
                decided = all(r["status"] in DECIDED for r in rs)
                summary[side] = {
                    "decided": decided,
                    "status": rs[-1]["status"],
                    "time_ms": statistics.median(r["time_ms"] for r in rs),
                    "nodes": statistics.median(r["nodes"] for r in rs),
                    "restarts": statistics.median(r["restarts"] for r in rs),
                    "peak_mib": max(r["peak_mib"] for r in rs),
                }
            if summary["before"]["decided"] and summary["after"]["decided"]:
                if summary["before"]["status"] != summary["after"]["status"]:
                    sys.exit(f"{name}: before says {summary['before']['status']}, after {summary['after']['status']}")
            per.append((name, summary))
            b, a = summary["before"], summary["after"]
            print(
                f"{workload.stem} {name}: {b['status']} {b['time_ms']:.2f} ms {b['nodes']:.0f} nodes"
                f" | {a['status']} {a['time_ms']:.2f} ms {a['nodes']:.0f} nodes",
                file=sys.stderr,
                flush=True,
            )
        tables.append((workload.stem, per))

    print(
        "| workload | boards | decided before | decided after | median before (ms) | median after (ms)"
        " | total before (s) | total after (s) | worst ratio after/before | boards whose nodes changed"
        " | peak MiB before | peak MiB after |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|")
    for stem, per in tables:
        cols = {}
        for side in ("before", "after"):
            s = [p[1][side] for p in per]
            cols[side] = (
                sum(x["decided"] for x in s),
                statistics.median(x["time_ms"] for x in s),
                sum(x["time_ms"] for x in s) / 1000.0,
                max(x["peak_mib"] for x in s),
            )
        worst = None
        for name, s in per:
            if s["before"]["decided"] and s["after"]["decided"] and s["before"]["time_ms"] > 0:
                ratio = s["after"]["time_ms"] / s["before"]["time_ms"]
                if worst is None or ratio > worst[0]:
                    worst = (ratio, name)
        changed = sum(s["before"]["nodes"] != s["after"]["nodes"] for _, s in per)
        worst_text = "-" if worst is None else f"{worst[0]:.2f} ({worst[1]})"
        b, a = cols["before"], cols["after"]
        print(
            f"| {stem} | {len(per)} | {b[0]} | {a[0]} | {fmt(b[1])} | {fmt(a[1])} | {b[2]:.1f} | {a[2]:.1f}"
            f" | {worst_text} | {changed} | {b[3]:.0f} | {a[3]:.0f} |"
        )

    if args.csv:
        with args.csv.open("w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(rows)


if __name__ == "__main__":
    main()
