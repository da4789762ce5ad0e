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
set -euo pipefail

: "${OUT:?set OUT to the campaign directory}"
: "${SHARDS:?set SHARDS to the number of shards (array tasks)}"
bin=${DOMINOFIT:-target/release/dominofit}
time=${TIME:-4:00:00}
mkdir -p "$OUT"
# shellcheck disable=SC2086 # SBATCH_ARGS is a list of options on purpose
array=$(sbatch --parsable ${SBATCH_ARGS:-} --array="1-$SHARDS" --cpus-per-task=1 \
    --time="$time" --job-name=dominofit-race --output="$OUT/shard-%a.log" \
    --wrap="$(printf '%q ' "$bin" race "$@") --shard \$SLURM_ARRAY_TASK_ID/$SHARDS --out $(printf '%q' "$OUT")/shard-\$SLURM_ARRAY_TASK_ID")
# The merge runs once every shard has ended, however it ended (a shard with `unknown`
# runs exits 3), and merges only if every shard wrote its runs.csv; otherwise it fails
# naming the shards that did not.
merge="$OUT/merge.sh"
{
    echo '#!/usr/bin/env bash'
    echo 'set -euo pipefail'
    printf 'out=%q\nshards=%q\nbin=%q\n' "$OUT" "$SHARDS" "$bin"
    cat <<'MERGE'
missing=()
for i in $(seq 1 "$shards"); do
    [ -f "$out/shard-$i/runs.csv" ] || missing+=("$i")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "merge: shard ${missing[*]} of $shards wrote no runs.csv (cancelled, failed or out of time: see $out/shard-${missing[0]}.log); nothing merged" >&2
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
echo "submitted array job $array ($SHARDS shards) and merge job $merge_job; the report goes to $OUT/all"
