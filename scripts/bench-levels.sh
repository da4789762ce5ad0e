#!/usr/bin/env bash
# Puzzles at an exact level of the deduction ladder (`generate --unique --level L`): for
# each binary given (to compare two builds side by side, in one run), size and level, the
# last line generate prints on standard error (the candidates rejected per puzzle; with
# exit 3, the boards it skipped) and the wall time for COUNT puzzles.
#   scripts/bench-levels.sh OLD_BINARY target/release/dominofit
# SIZES (default "6 8 12 16"), LEVELS (default "singles colours pairs trial"), COUNT (5),
# SEED (7) and LIMIT (seconds per run, 300; a run past it is reported as stopped).
set -euo pipefail
sizes=${SIZES:-6 8 12 16}
levels=${LEVELS:-singles colours pairs trial}
count=${COUNT:-5}
seed=${SEED:-7}
limit=${LIMIT:-300}
[ $# -gt 0 ] || set -- target/release/dominofit
echo "| binary | size | level | what generate said | wall s |"
echo "|---|---|---|---|---:|"
for size in $sizes; do
    for level in $levels; do
        for bin in "$@"; do
            start=$(date +%s.%N)
            status=0
            said=$(timeout "$limit" "$bin" generate --unique --level "$level" --rows "$size" \
                --cols "$size" --count "$count" --seed "$seed" --timeout 10 2>&1 >/dev/null \
                | tail -n 1) || status=$?
            case $status in
                0) ;;
                124) said="stopped after ${limit} s" ;;
                *) said="exit $status: $said" ;;
            esac
            end=$(date +%s.%N)
            printf '| %s | %s×%s | %s | %s | %s |\n' "$bin" "$size" "$size" "$level" "$said" \
                "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')"
        done
    done
done
