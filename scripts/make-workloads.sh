#!/usr/bin/env bash
# Regenerates the committed planted workloads under models/ from their seeds.
# Deterministic: running it again gives the same bytes.
#   observed.jsonl the three observed boards of models/observed/, as one workload
#   game.jsonl    20 boards each of 6x6, 7x7, 8x8 (the paper's game-size set)
#   larger.jsonl   6 boards each of 10x10, 12x12 (the paper's larger set)
#   stress.jsonl   3 boards each of 16, 24, 32, 48, 64, 96, 128 rows and columns
#   unsat.jsonl    4 adversarial unsatisfiable boards each of 6, 8, 12, 16, 24, 32
#                  (generate --unsat: they pass clue inversion; each is proven
#                  unsatisfiable by an exhaustive native run, candidates that need
#                  more than 5 s to decide are skipped). Takes a few minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/dominofit

make() { # file seed count [generate flags] size...
    local file=$1 seed=$2 count=$3
    shift 3
    local flags=()
    while [[ $1 == --* ]]; do flags+=("$1"); shift; done
    : > "models/$file.tmp"
    for size in "$@"; do
        "$bin" generate "${flags[@]}" --rows "$size" --cols "$size" --count "$count" \
            --seed "$seed" >> "models/$file.tmp"
    done
    mv "models/$file.tmp" "models/$file"
    echo "models/$file: $(wc -l < "models/$file") boards"
}

cat models/observed/{6x6,7x7,8x8}.json > models/observed.jsonl.tmp
mv models/observed.jsonl.tmp models/observed.jsonl
echo "models/observed.jsonl: $(wc -l < models/observed.jsonl) boards"
make game.jsonl 6601 20 6 7 8
make larger.jsonl 6602 6 10 12
make stress.jsonl 6603 3 16 24 32 48 64 96 128
make unsat.jsonl 6604 4 --unsat --timeout=5 6 8 12 16 24 32
