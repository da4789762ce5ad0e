#!/usr/bin/env bash
# A race campaign on one machine split into shards that GNU parallel (Debian's
# `parallel`) runs side by side, then merged into one report.
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
if ! [[ $shards =~ ^[1-9][0-9]*$ ]]; then
    echo "campaign-parallel: SHARDS must be a whole number of shards, not '$shards'" >&2
    exit 2
fi
if ! command -v parallel >/dev/null 2>&1; then
    echo "campaign-parallel: GNU parallel is not installed (scripts/install-solvers.sh)" >&2
    exit 1
fi
mkdir -p "$out"
# GNU parallel rewrites every argument of the command it is given ({}, {.}, {#}, {1}, ...
# are replaced, -q or not), so nothing the user typed goes through it: the race
# arguments are written NUL-separated to OUT/race-args and read back by each shard, OUT
# and the binary travel in the environment, and parallel hands run_shard only the
# shard's number (appended, as no replacement string is given).
printf '%s\0' "$@" >"$out/race-args"
run_shard() {
    local k=$1 race
    mapfile -d '' race <"$out/race-args"
    "$bin" race "${race[@]}" --shard "$k/$shards" --out "$out/shard-$k" \
        >"$out/shard-$k.log" 2>&1
}
export -f run_shard
export bin shards out
seq 1 "$shards" | PARALLEL_SHELL=bash parallel --will-cite --halt now,fail=1 \
    --jobs "$jobs" run_shard
# The shards of this campaign by name, not by a glob that would take in the leftovers of
# an earlier campaign with more shards in the same OUT.
files=()
for k in $(seq 1 "$shards"); do files+=("$out/shard-$k/runs.csv"); done
"$bin" race --merge "${files[@]}" --out "$out/all"
