#!/usr/bin/env bash
# Regenerates the committed planted workloads under models/ from their seeds.
# Deterministic: running it again gives the same bytes.
#   game.jsonl    20 boards each of 6x6, 7x7, 8x8 (the paper's game-size set)
#   larger.jsonl   6 boards each of 10x10, 12x12 (the paper's larger set)
#   stress.jsonl   3 boards each of 16, 24, 32, 48, 64, 96, 128 rows and columns
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/dominofit

make() { # file seed count size...
    local file=$1 seed=$2 count=$3
    shift 3
    : > "models/$file.tmp"
    for size in "$@"; do
        "$bin" generate --rows "$size" --cols "$size" --count "$count" --seed "$seed" >> "models/$file.tmp"
    done
    mv "models/$file.tmp" "models/$file"
    echo "models/$file: $(wc -l < "models/$file") boards"
}

make game.jsonl 6601 20 6 7 8
make larger.jsonl 6602 6 10 12
make stress.jsonl 6603 3 16 24 32 48 64 96 128
