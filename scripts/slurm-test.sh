#!/usr/bin/env bash
# Slurm end to end (CI runs it): starts a one-node Slurm (scripts/slurm-up.sh), runs
# scripts/campaign-slurm.sh over committed workloads in 4 shards, waits for its merge
# job and checks that the merged report has the statuses and counts of a one-process
# race; then a second campaign, submitted held, has one shard cancelled (scancel) before
# it runs, and its merge must fail naming that shard, as must a third's whose shard is
# cancelled while it runs. Stops every daemon at the end
# (scripts/slurm-down.sh), leaving nothing running. Needs root.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --quiet --locked
bin="$PWD/target/debug/dominofit"
work=$(mktemp -d)
stopped=no
cleanup() {
    [ "$stopped" = yes ] || bash scripts/slurm-down.sh >/dev/null 2>&1 || true
    rm -rf "$work"
}
trap cleanup EXIT
fail() {
    echo "slurm-test: $*" >&2
    exit 1
}

# The state of job $1 once it has ended (waits up to five minutes).
ended() {
    local state
    for _ in $(seq 300); do
        state=$(scontrol show job -o "$1" | grep -o 'JobState=[A-Z_]*' | head -1 | cut -d= -f2)
        case "$state" in
        COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY)
            echo "$state"
            return 0
            ;;
        esac
        sleep 1
    done
    fail "job $1 did not end within five minutes (state $state)"
}

# The merge job $2 of the campaign in $1 must fail naming shard $3 of $4, and merge
# nothing ($5 says which case this is).
refused() {
    local state
    state=$(ended "$2")
    [ "$state" = FAILED ] || fail "$5: the merge ended $state"
    grep -q "merge: shard $3 of $4 did not run to its end" "$1/merge.log" ||
        fail "$5: the merge's message does not name shard $3: $(cat "$1/merge.log")"
    [ ! -e "$1/all" ] || fail "$5: a report was merged"
    echo "slurm-test: $5: $(cat "$1/merge.log")"
}

bash scripts/slurm-up.sh
race=(models/observed.jsonl models/game.jsonl --backends native,dp --limit 2 --repeat 1)
"$bin" race "${race[@]}" --out "$work/one" >/dev/null

# A campaign of 4 shards and its merge.
said=$(OUT="$work/campaign" SHARDS=4 DOMINOFIT="$bin" TIME=10:00 \
    bash scripts/campaign-slurm.sh "${race[@]}")
echo "slurm-test: $said"
merge=$(sed -n 's/.* merge job \([0-9]*\);.*/\1/p' <<<"$said")
[ -n "$merge" ] || fail "no merge job id in: $said"
state=$(ended "$merge")
[ "$state" = COMPLETED ] || fail "the merge job ended $state: $(cat "$work/campaign/merge.log")"
python3 - "$work/one" "$work/campaign/all" <<'PY'
import csv, json, sys
one, merged = sys.argv[1:]
def runs(d):
    with open(f"{d}/runs.csv", newline="") as f:
        keep = ("workload", "instance", "backend", "status", "complete", "solutions", "end")
        return sorted(tuple(r[k] for k in keep) for r in csv.DictReader(f))
def counts(d):
    s = json.load(open(f"{d}/summary.json"))
    return {b: (a["instances"], a["solved"], a["unknown"], a["errors"]) for b, a in s["backends"].items()}
a, b = runs(one), runs(merged)
assert a == b, f"the merged runs differ from the one-process race: {set(a) ^ set(b)}"
assert counts(one) == counts(merged), (counts(one), counts(merged))
print(f"slurm-test: merged campaign agrees with the one-process race ({len(a)} runs)")
PY

# A campaign with one shard cancelled: held at submission so the cancel comes first.
said=$(OUT="$work/cancelled" SHARDS=4 DOMINOFIT="$bin" TIME=10:00 SBATCH_ARGS=--hold \
    bash scripts/campaign-slurm.sh "${race[@]}")
array=$(sed -n 's/^submitted array job \([0-9]*\) .*/\1/p' <<<"$said")
merge=$(sed -n 's/.* merge job \([0-9]*\);.*/\1/p' <<<"$said")
[ -n "$array" ] && [ -n "$merge" ] || fail "no job ids in: $said"
scancel "${array}_2"
scontrol release "$array" "$merge"
refused "$work/cancelled" "$merge" 2 4 "a shard cancelled before it ran"

# A shard cancelled while it runs: the race writes what it measured, which must not be
# merged as if the shard were whole.
said=$(OUT="$work/stopped" SHARDS=1 DOMINOFIT="$bin" TIME=10:00 \
    bash scripts/campaign-slurm.sh models/huge.jsonl --backends varisat --limit 2 --repeat 1 \
    --timeout 60)
array=$(sed -n 's/^submitted array job \([0-9]*\) .*/\1/p' <<<"$said")
merge=$(sed -n 's/.* merge job \([0-9]*\);.*/\1/p' <<<"$said")
for _ in $(seq 120); do
    [ "$(squeue -h -j "${array}_1" -o %T 2>/dev/null)" = RUNNING ] && break
    sleep 0.5
done
sleep 2
scancel "${array}_1"
refused "$work/stopped" "$merge" 1 1 "a shard cancelled while it ran"

stopped=yes
bash scripts/slurm-down.sh
