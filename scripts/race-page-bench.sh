#!/usr/bin/env bash
# How long the race page takes to open at 10,200 runs, in headless Chromium
# (BENCHMARKS.md, "The race page"): a race of 3,400 generated 8×8 boards on three
# backends (boards and tilings on the page), and the same runs merged from runs.csv
# (no boards). Needs scripts/install-browser.sh's packages and the network for selenium.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet "selenium==4.51.0"
cargo build --quiet --release --locked
cli=target/release/dominofit
$cli generate --rows 8 --cols 8 --count 3400 --seed 5 > "$work/boards.jsonl"
$cli race "$work/boards.jsonl" --backends native,dp,portfolio --limit 2 --repeat 1 \
    --out "$work/raced" > /dev/null
$cli race --merge "$work/raced/runs.csv" --out "$work/merged" > /dev/null
cd "$work"
"$work/venv/bin/python" "$OLDPWD/scripts/race_page_open.py" raced/index.html merged/index.html
