#!/usr/bin/env bash
# A race campaign on one machine (or several, with --sshlogin) split into shards that GNU
# parallel (Debian's `parallel`) runs side by side, then merged into one report.
#
#     scripts/campaign-parallel.sh OUT SHARDS JOBS RACE_ARGS...
#
# OUT: the campaign's directory (shard-K/ for each shard, all/ for the merged report);
# SHARDS: how many slices of the instances (`race --shard K/SHARDS`); JOBS: how many run
# at once (more than the cores makes every time noisier; 1 gives the timings of a
# one-process race). RACE_ARGS: what `dominofit race` takes besides --shard and --out
# (workloads, --backends, --limit, --repeat, --timeout, ...). DOMINOFIT names the binary
# (default: target/release/dominofit).
#
# The merge (`race --merge`) refuses overlapping shards and stops on contradictory
# answers or counts between them, as one race would.
set -euo pipefail

if [ $# -lt 4 ]; then
    sed -n '2,15p' "$0" >&2
    exit 2
fi
out=$1
shards=$2
jobs=$3
shift 3
bin=${DOMINOFIT:-target/release/dominofit}
if ! command -v parallel >/dev/null 2>&1; then
    echo "campaign-parallel: GNU parallel is not installed (scripts/install-solvers.sh)" >&2
    exit 1
fi
mkdir -p "$out"
# Each shard gets its own output directory and log; -q hands the race arguments on
# quoted, so workload paths may hold spaces.
run_shard() {
    local k=$1
    shift
    "$bin" race "$@" --shard "$k/$shards" --out "$out/shard-$k" >"$out/shard-$k.log" 2>&1
}
export -f run_shard
export bin shards out
seq 1 "$shards" | PARALLEL_SHELL=bash parallel --will-cite --halt now,fail=1 \
    --jobs "$jobs" -q run_shard {} "$@"
"$bin" race --merge "$out"/shard-*/runs.csv --out "$out/all"
