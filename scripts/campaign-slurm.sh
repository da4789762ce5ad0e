#!/usr/bin/env bash
# A race campaign on a Slurm cluster: an array job runs one shard per task, and a merge
# job that waits for all of them combines the shards into one report.
#
#     OUT=/scratch/campaign SHARDS=32 scripts/campaign-slurm.sh RACE_ARGS...
#
# submits both jobs with sbatch. RACE_ARGS: what `dominofit race` takes besides --shard
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
# shellcheck disable=SC2086
sbatch --parsable ${SBATCH_ARGS:-} --dependency="afterok:$array" --cpus-per-task=1 \
    --job-name=dominofit-merge --output="$OUT/merge.log" \
    --wrap="$(printf '%q ' "$bin") race --merge $(printf '%q' "$OUT")/shard-*/runs.csv --out $(printf '%q' "$OUT")/all"
echo "submitted array job $array ($SHARDS shards) and its merge; the report goes to $OUT/all"
