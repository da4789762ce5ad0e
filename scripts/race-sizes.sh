#!/usr/bin/env bash
# The race at every size (BENCHMARKS.md, "The paper's boards at every size"): boards made
# by the paper's protocol (`generate --tiling backtrack`, seed 6611; two boards a size
# to 512, one at 1024 and 2048), raced by native, the portfolio, kissat and CBC.
# The boards are made here, not committed: the 2048×2048 one alone is 1.5 MB.
#
#     bash scripts/race-sizes.sh [OUT_DIR] [TIMEOUT_SECONDS]
#
# Writes OUT_DIR (default bench/sizes) as `race --out` does: runs.csv, summary.md,
# cactus.svg, size.svg, index.html. kissat and cbc must be installed
# (scripts/install-solvers.sh); a backend that is missing is reported and skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bench/sizes}
timeout=${2:-20}
cargo build --release --quiet
bin=target/release/dominofit
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
boards="$work/paper-sizes.jsonl"
for size in 64 96 128 192 256 384 512; do
    "$bin" generate --tiling backtrack --rows "$size" --cols "$size" --count 2 --seed 6611 >> "$boards"
done
for size in 1024 2048; do
    "$bin" generate --tiling backtrack --rows "$size" --cols "$size" --count 1 --seed 6611 >> "$boards"
done
"$bin" race "$boards" --backends native,portfolio,kissat,cbc --timeout "$timeout" --out "$out"
