#!/usr/bin/env bash
# Slurm end to end (CI runs it), on a private one-node Slurm (scripts/slurm-up.sh, in a
# directory of its own): runs scripts/campaign-slurm.sh over committed workloads in 4
# shards, waits for its merge job and checks that the merged report has the statuses
# and counts of a one-process race; then a second campaign, submitted held, has one
# shard cancelled (scancel) before it runs, and its merge must fail naming that shard,
# as must a third's whose shard is cancelled while it runs. While the private Slurm is
# up, a second slurm-up.sh must refuse to start. Then scripts/slurm-down.sh stops it.
#
# The scripts must change nothing outside their directory, so the test also compares the
# machine before slurm-up and after slurm-down: /etc/slurm, /etc/munge and
# /var/lib/slurm (absent, or every entry and every file's sha256) must be identical;
# every process there before must still run, or have ended on its own (exited, not
# killed by a signal: scripts/process_exits.py watches how processes end, as other work
# on the machine may end meanwhile), and no slurmctld, slurmd, slurmscriptd, slurmstepd
# or munged may run that did not. Stand-ins named munged and slurmstepd (copies of
# sleep) run from the start, and ones named slurmctld and slurmd once the private Slurm
# is up: stopping daemons by name would stop them too.
#
# DOMINOFIT names the binary to test (default: built now, target/debug/dominofit).
# Needs root.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -n "${DOMINOFIT:-}" ]; then
    bin=$(realpath -- "$DOMINOFIT")
else
    cargo build --quiet --locked
    bin="$PWD/target/debug/dominofit"
fi
# The packages first (slurm-up.sh would install them too): the comparison below is of
# what the scripts do to a machine that has them.
source scripts/apt-install.sh
apt_install slurm-test slurm-wlm munge

work=$(mktemp -d)
# munged wants every directory above its socket searchable by all; mktemp's are not.
slurmdir=$(mktemp -d "${TMPDIR:-/tmp}/dominofit-slurm-test.XXXXXX")
export DOMINOFIT_SLURM_DIR=$slurmdir
stopped=no
stand_ins=()
watcher=""
cleanup() {
    [ "$stopped" = yes ] || bash scripts/slurm-down.sh "$slurmdir" >/dev/null 2>&1 || true
    if [ ${#stand_ins[@]} -gt 0 ]; then kill "${stand_ins[@]}" 2>/dev/null || true; fi
    if [ -n "$watcher" ]; then kill "$watcher" 2>/dev/null || true; fi
    rm -rf "$work" "$slurmdir"
}
trap cleanup EXIT
fail() {
    echo "slurm-test: $*" >&2
    exit 1
}

# A process named $1 that does nothing for an hour (a copy of sleep: the name is its
# executable's), one of this test's children.
stand_in() {
    mkdir -p "$work/bin"
    cp /bin/sleep "$work/bin/$1"
    "$work/bin/$1" 3600 &
    stand_ins+=($!)
}

# What the scripts must leave alone on disk: each directory absent, or every entry
# (type, mode, owner) and every file's sha256.
system_files() {
    local d
    for d in /etc/slurm /etc/munge /var/lib/slurm; do
        if [ ! -e "$d" ]; then
            echo "$d absent"
            continue
        fi
        find "$d" -printf '%y %m %u:%g %p %l\n' | sort
        find "$d" -type f -print0 | sort -z | xargs -0 -r sha256sum
    done
}
# Every process as `PID NAME`, sorted, leaving out kernel threads (pid 2 and its
# children), zombies (ended, not yet reaped) and this test's own processes (its shell and
# everything under it: ps here, the stand-ins, the watcher below).
processes() {
    ps -e -o pid=,ppid=,stat=,comm= | awk -v me="$$" '
        {
            p = $1; parent[p] = $2; state[p] = $3; order[NR] = p
            name = $0
            sub(/^ *[0-9]+ +[0-9]+ +[^ ]+ +/, "", name)
            comm[p] = name
        }
        END {
            for (i = 1; i <= NR; i++) {
                p = order[i]
                if (p == 2 || parent[p] == 2 || state[p] ~ /^Z/) continue
                q = p; mine = 0
                for (n = 0; n < 1000 && (q in parent); n++) {
                    if (q == me) { mine = 1; break }
                    q = parent[q]
                }
                if (!mine) print p, comm[p]
            }
        }' | sort
}

# How processes end, from now on (a child of this test, as are the stand-ins).
python3 scripts/process_exits.py "$work/exits" 2>"$work/exits.log" &
watcher=$!
for _ in $(seq 50); do
    [ -s "$work/exits" ] && break
    sleep 0.1
done
if [ ! -s "$work/exits" ]; then
    echo "slurm-test: how processes end is not watched ($(cat "$work/exits.log")):" \
        "any process of the machine that ends during the test fails it" >&2
fi
stand_in munged
stand_in slurmstepd
files_before=$(system_files)
processes_before=$(processes)
commands_before=$(ps -e -o pid=,args=)

bash scripts/slurm-up.sh
# shellcheck source=/dev/null # written by slurm-up.sh
source "$slurmdir/env"
[ "$SLURM_CONF" = "$slurmdir/slurm.conf" ] || fail "slurm-up's env names $SLURM_CONF"
config=$(scontrol show config)
grep -q '^ClusterName *= *dominofit-private$' <<<"$config" ||
    fail "scontrol does not reach the private controller"
# A second one refuses, touching nothing, while this one runs.
if DOMINOFIT_SLURM_DIR="$work/second" bash scripts/slurm-up.sh >"$work/second.log" 2>&1; then
    fail "a second slurm-up.sh started while the private Slurm runs: $(cat "$work/second.log")"
fi
grep -q 'slurmctld or slurmd already runs on this machine.*; not starting' "$work/second.log" ||
    fail "the second slurm-up.sh failed without saying why: $(cat "$work/second.log")"
[ ! -e "$work/second" ] || fail "the second slurm-up.sh made its directory"
echo "slurm-test: a second slurm-up refused: $(tail -n 1 "$work/second.log")"
stand_in slurmctld
stand_in slurmd

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
bash scripts/slurm-down.sh "$slurmdir"

# Nothing outside the directory changed.
if ! diff <(echo "$files_before") <(system_files) >"$work/files.diff"; then
    fail "the scripts changed files outside $slurmdir:
$(cat "$work/files.diff")"
fi
processes_after=$(processes)
# Those that ran before and are gone must have ended on their own: the first exit
# recorded for the pid (a later one is of a process that reused it) with no signal.
gone=$(comm -23 <(echo "$processes_before") <(echo "$processes_after"))
command_of() {
    grep -E "^ *$1 " <<<"$commands_before" || echo "$1 (command line not recorded)"
}
killed=""
while read -r pid name; do
    [ -n "$pid" ] || continue
    status=$(awk -v pid="$pid" '$1 == pid { print $2; exit }' "$work/exits")
    if [ -z "$status" ]; then
        killed+="$name: gone, no exit seen: $(command_of "$pid")"$'\n'
    elif ((status & 127)); then
        killed+="$name: ended by signal $((status & 127)): $(command_of "$pid")"$'\n'
    fi
done <<<"$gone"
[ -z "$killed" ] || fail "processes that ran before slurm-up did not end on their own:
$killed"
new=$(comm -13 <(echo "$processes_before") <(echo "$processes_after") |
    awk '$2 ~ /^(slurmctld|slurmd|slurmscriptd|slurmstepd|munged)$/')
[ -z "$new" ] || fail "daemons left running after slurm-down: $new"
for pid in "${stand_ins[@]}"; do
    kill -0 "$pid" 2>/dev/null || fail "stand-in $pid ($(cat "/proc/$pid/comm" 2>/dev/null)) was stopped"
done
echo "slurm-test: outside $slurmdir: files unchanged; of $(wc -l <<<"$processes_before")" \
    "processes, $(grep -c . <<<"$gone" || true) ended on their own and none was stopped" \
    "(nor the stand-ins named munged, slurmstepd, slurmctld, slurmd); no daemon left"
