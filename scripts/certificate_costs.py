#!/usr/bin/env python3
"""What certificates cost: for each workload, `solve --certify` then `check-certificate`,
and per status the boards certified, the median solve time (the answer, before any
proof), the median and largest proof, and the median and largest times to prove and to
check (BENCHMARKS.md, "Certificates"). A proof the answer's own search logged (the
native engine's VeriPB proofs) has no proving time of its own: it is in the solve time.

    python3 scripts/certificate_costs.py [--prover native] [--timeout 30] [--binary PATH]
        [--extra NAME=FILE ...]

`--prover native` (the default) writes the native engine's VeriPB proofs, checked by
veripb; `--prover auto` (or cadical, kissat, varisat) DRAT proofs, checked by rate.
"""
import argparse
import json
import re
import statistics
import subprocess
import tempfile

WORKLOADS = [
    ("observed", ["models/observed/6x6.json", "models/observed/7x7.json", "models/observed/8x8.json"], "2"),
    ("game", ["models/game.jsonl"], "2"),
    ("larger", ["models/larger.jsonl"], "2"),
    ("unsat", ["models/unsat.jsonl"], "1"),
    ("unsat-hard", ["models/unsat-hard.jsonl"], "1"),
]
UNITS = {"B": 1, "KiB": 1024, "MiB": 1024**2, "GiB": 1024**3}
# A proof run after the answer says its prover and time; one the answer's own search
# logged says so, and its time is the solve time.
WRITTEN = re.compile(r"^certificate: (\S+) \((\w+)(?:, rules.(?:cnf|opb) (\d+) (\w+), proof.(?:drat|pbp) (\d+) (\w+) "
                     r"(?:by \S+ in ([\d.]+) ms|logged by the answer's search[^)]*))?\)$")
CHECKED = re.compile(r"^(\S+): accepted: (\w+) .*?(?:proof.(?:drat|pbp) \d+ \w+ verified by \S+ in ([\d.]+) ms)?\)$")


def size(number, unit):
    return int(number) * UNITS[unit]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--prover", default="native")
    ap.add_argument("--timeout", default="30")
    ap.add_argument("--binary", default="target/release/dominofit")
    ap.add_argument("--extra", nargs="*", default=[], help="more unsat workloads, NAME=FILE")
    args = ap.parse_args()
    workloads = WORKLOADS + [(e.split("=", 1)[0], [e.split("=", 1)[1]], "1") for e in args.extra]
    print("| Set | Status | Certified | Solve median ms | Proof median | Proof largest | Prove median ms | Prove max ms | Check median ms | Check max ms |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, files, limit in workloads:
        with tempfile.TemporaryDirectory() as certs:
            answered = 0
            unproved = 0
            written = {}
            solved = {}
            for f in files:
                run = subprocess.run(
                    [args.binary, "solve", f, "--limit", limit, "--format", "json",
                     "--certify", certs, "--prover", args.prover, "--timeout", args.timeout],
                    capture_output=True, text=True)
                answered += len(run.stdout.splitlines())
                for line in run.stdout.splitlines():
                    answer = json.loads(line)
                    solved[answer["name"]] = (answer["status"], answer["stats"]["time_ms"])
                for line in run.stderr.splitlines():
                    unproved += "no certificate:" in line
                    m = WRITTEN.match(line)
                    if m:
                        proof = size(m.group(5), m.group(6)) if m.group(5) else 0
                        # A proving time; "logged" for a proof the answer's own search
                        # wrote (its time is the solve's); None where there is no proof.
                        prove = float(m.group(7)) if m.group(7) else ("logged" if m.group(5) else None)
                        written[m.group(1)] = (m.group(2), proof, prove)
            check = subprocess.run([args.binary, "check-certificate", certs], capture_output=True, text=True)
            checked = {}
            for line in check.stdout.splitlines():
                m = CHECKED.match(line)
                if m:
                    checked[m.group(1)] = float(m.group(3)) if m.group(3) else 0.0
            for status in ["unique", "multiple", "sat", "unsat"]:
                rows = [(d, v) for d, v in written.items() if v[0] == status]
                if not rows:
                    continue
                solves = [t for st, t in solved.values() if st == status]
                proofs = [v[1] for _, v in rows]
                proves = [v[2] for _, v in rows if isinstance(v[2], float)]
                logged = any(v[2] == "logged" for _, v in rows)
                checks = [checked[d] for d, _ in rows if d in checked]
                accepted = sum(1 for d, _ in rows if d in checked)

                def kib(b):
                    return f"{b / 1024:,.0f} KiB" if b < 1024**2 else f"{b / 1024**2:,.1f} MiB"
                solve = f"{statistics.median(solves):,.3f}" if solves else "—"
                # Proofs the answer's search logged took no time of their own.
                unproved_words = "in the solve" if logged else "—"
                prove_median = f"{statistics.median(proves):.1f}" if proves else unproved_words
                prove_max = f"{max(proves):,.1f}" if proves else unproved_words
                print(f"| {name} | {status} | {accepted}/{len(rows)} accepted | {solve} | "
                      f"{kib(statistics.median(proofs))} | {kib(max(proofs))} | {prove_median} | "
                      f"{prove_max} | {statistics.median(checks) if checks else 0:.1f} | {max(checks) if checks else 0:,.1f} |")
            if unproved:
                print(f"| {name} | not proved within {args.timeout} s | {unproved} of {answered} answered | | | | | | | |")


if __name__ == "__main__":
    main()
