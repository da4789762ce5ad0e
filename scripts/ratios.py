#!/usr/bin/env python3
"""Per-board ratios from race runs.csv files, for BENCHMARKS.md.

    scripts/ratios.py runs.csv [more runs.csv ...] [--default native]
                      [--portfolio portfolio --members native,native-matching]

For each workload: how many boards the default decided, its median time, and for each
board the ratio of the default's time to the fastest other backend's (a capped or failed
run counts as infinitely slow); boards where another backend is more than 10x faster are
listed. With --portfolio, the ratio of the portfolio's time to its best member's.
"""

import argparse
import csv
import math
import statistics
from collections import defaultdict


def load(paths):
    times = defaultdict(dict)  # (workload, instance) -> backend -> ms or inf
    for path in paths:
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                key = (row["workload"], row["instance"])
                decided = row["status"] != "unknown" and not row["error"]
                ms = float(row["time_ms"]) if decided and row["time_ms"] else math.inf
                times[key][row["backend"]] = ms
    return times


def fmt(x):
    if math.isinf(x):
        return "capped"
    if x >= 100:
        return f"{x:.0f}"
    if x >= 1:
        return f"{x:.1f}"
    return f"{x:.2f}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("runs", nargs="+")
    ap.add_argument("--default", default="native")
    ap.add_argument("--portfolio", default="portfolio")
    ap.add_argument("--members", default="native,native-matching")
    args = ap.parse_args()
    times = load(args.runs)
    members = args.members.split(",")
    by_workload = defaultdict(list)
    for (workload, instance), per in sorted(times.items()):
        by_workload[workload].append((instance, per))
    print("| Set | Default decided | Default median ms | Worst ratio (board, fastest other) "
          "| Boards >10x | Portfolio / best member, worst |")
    print("|---|---:|---:|---|---:|---:|")
    slow = []
    for workload, boards in by_workload.items():
        name = workload.rsplit("/", 1)[-1].split(".")[0]
        mine = [per.get(args.default, math.inf) for _, per in boards]
        decided = [t for t in mine if not math.isinf(t)]
        worst = (0.0, "", "")
        over = 0
        port_worst = 0.0
        for instance, per in boards:
            own = per.get(args.default, math.inf)
            others = {b: t for b, t in per.items() if b != args.default}
            if not others:
                continue
            best_backend = min(others, key=others.get)
            best = others[best_backend]
            ratio = own / best if best > 0 else math.inf
            if math.isinf(own) and math.isinf(best):
                ratio = 1.0
            if ratio > worst[0]:
                worst = (ratio, instance, best_backend)
            if ratio > 10:
                over += 1
                slow.append((name, instance, own, best_backend, best))
            if args.portfolio in per:
                member_best = min(per.get(m, math.inf) for m in members)
                p = per[args.portfolio]
                if not (math.isinf(p) and math.isinf(member_best)):
                    port_worst = max(port_worst, p / member_best if member_best > 0 else math.inf)
        median = statistics.median(decided) if decided else math.inf
        print(f"| {name} | {len(decided)}/{len(boards)} | {fmt(median)} | "
              f"{fmt(worst[0])}x ({worst[1]}, {worst[2]}) | {over} | {fmt(port_worst)}x |")
    if slow:
        print()
        print("Boards where another backend is more than 10x faster than the default:")
        print()
        for name, instance, own, backend, best in slow:
            print(f"- {name} `{instance}`: default {fmt(own)} ms, {backend} {fmt(best)} ms")


if __name__ == "__main__":
    main()
