#!/usr/bin/env bash
# A race campaign on a Slurm cluster: an array job runs one shard per task, and a merge
# job that waits for all of them combines the shards into one report.
#
#     OUT=/scratch/campaign SHARDS=32 scripts/campaign-slurm.sh RACE_ARGS...
#
# submits both jobs with sbatch and prints their ids. RACE_ARGS: what `dominofit race` takes besides --shard
# and --out (workloads, --backends, --limit, --repeat, --timeout, ...). DOMINOFIT names
# the binary (default: target/release/dominofit, which must be visible to the nodes).
# Each task asks for one core (--cpus-per-task=1, add --exclusive for quieter timings)
# and a time limit of TIME (default 4:00:00); SBATCH_ARGS is passed on to both sbatch
# calls (partition, account, ...).
#
# It submits to the Slurm its environment names (SLURM_CONF, else the machine's default
# configuration). DOMINOFIT_SLURM_DIR=DIR submits to the private one-node Slurm that
# scripts/slurm-up.sh started in DIR instead (through DIR/env's SLURM_CONF).
set -euo pipefail

: "${OUT:?set OUT to the campaign directory}"
: "${SHARDS:?set SHARDS to the number of shards (array tasks)}"
bin=${DOMINOFIT:-target/release/dominofit}
time=${TIME:-4:00:00}
if ! [[ $SHARDS =~ ^[1-9][0-9]*$ ]]; then
    echo "campaign-slurm: SHARDS must be a whole number of shards, not '$SHARDS'" >&2
    exit 2
fi
where="the Slurm of ${SLURM_CONF:-the default configuration}"
if [ -n "${DOMINOFIT_SLURM_DIR:-}" ]; then
    if [ ! -f "$DOMINOFIT_SLURM_DIR/env" ]; then
        echo "campaign-slurm: $DOMINOFIT_SLURM_DIR holds no Slurm started by scripts/slurm-up.sh" >&2
        exit 1
    fi
    # shellcheck source=/dev/null # written by slurm-up.sh
    source "$DOMINOFIT_SLURM_DIR/env"
    where="the private Slurm in $DOMINOFIT_SLURM_DIR"
fi
mkdir -p "$OUT"
if compgen -G "$OUT/shard-*" >/dev/null || [ -e "$OUT/all" ]; then
    echo "campaign-slurm: $OUT already holds a campaign; give a new OUT" >&2
    exit 1
fi
# Each shard runs this script with its task id. A shard that ran to its end leaves
# shard-K.done beside its runs.csv; one stopped by its time limit or scancel (SIGTERM:
# the race writes what it measured and exits 130 or 143) leaves none, so its partial
# runs.csv is never merged.
shard="$OUT/shard.sh"
{
    echo '#!/usr/bin/env bash'
    printf 'out=%q\nshards=%q\nbin=%q\n' "$OUT" "$SHARDS" "$bin"
    printf 'race=('
    printf '%q ' "$@"
    printf ')\n'
    cat <<'SHARD'
k=$SLURM_ARRAY_TASK_ID
status=0
"$bin" race "${race[@]}" --shard "$k/$shards" --out "$out/shard-$k" || status=$?
case $status in
130 | 143) ;;
*) [ -f "$out/shard-$k/runs.csv" ] && touch "$out/shard-$k.done" ;;
esac
exit "$status"
SHARD
} > "$shard"
# shellcheck disable=SC2086 # SBATCH_ARGS is a list of options on purpose
array=$(sbatch --parsable ${SBATCH_ARGS:-} --array="1-$SHARDS" --cpus-per-task=1 \
    --time="$time" --job-name=dominofit-race --output="$OUT/shard-%a.log" "$shard")
array=${array%%;*} # `id;cluster` on a federated cluster
# The merge runs once every shard has ended, however it ended (a shard with `unknown`
# runs exits 3), and merges only if every shard ran to its end; otherwise it fails
# naming the shards that did not.
merge="$OUT/merge.sh"
{
    echo '#!/usr/bin/env bash'
    echo 'set -euo pipefail'
    printf 'out=%q\nshards=%q\nbin=%q\n' "$OUT" "$SHARDS" "$bin"
    cat <<'MERGE'
missing=()
for i in $(seq 1 "$shards"); do
    [ -f "$out/shard-$i.done" ] || missing+=("$i")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "merge: shard ${missing[*]} of $shards did not run to its end (cancelled, failed or out of time: see $out/shard-${missing[0]}.log); nothing merged" >&2
    exit 1
fi
files=()
for i in $(seq 1 "$shards"); do files+=("$out/shard-$i/runs.csv"); done
"$bin" race --merge "${files[@]}" --out "$out/all"
MERGE
} > "$merge"
# shellcheck disable=SC2086
merge_job=$(sbatch --parsable ${SBATCH_ARGS:-} --dependency="afterany:$array" \
    --cpus-per-task=1 --job-name=dominofit-merge --output="$OUT/merge.log" "$merge")
merge_job=${merge_job%%;*}
echo "submitted array job $array ($SHARDS shards) and merge job $merge_job; the report goes to $OUT/all (on $where)"
