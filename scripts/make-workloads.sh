#!/usr/bin/env bash
# Regenerates the committed planted workloads under models/ from their seeds.
# Deterministic: running it again gives the same bytes.
#   observed.jsonl the three observed boards of models/observed/, as one workload
#   game.jsonl    20 boards each of 6x6, 7x7, 8x8 (the paper's game-size set)
#   larger.jsonl   6 boards each of 10x10, 12x12 (the paper's larger set)
#   stress.jsonl   3 boards each of 16, 24, 32, 48, 64, 96, 128 rows and columns
#   unsat.jsonl    4 adversarial unsatisfiable boards each of 6, 8, 12, 16, 24, 32
#   unsat-hard.jsonl 4 each of 16, 24, 32, 40, 48, ranked harder (a pool of 48
#                  candidates, native capped at 200000 nodes)
#                  (generate --unsat: they pass clue inversion; the default native
#                  search ranks candidates by its nodes and the hardest one refuted by
#                  an independent prover -- microlp on the raw clue sums, or varisat --
#                  within --timeout is kept)
#   huge.jsonl     4 planted boards each of 64, 96, 128
#   giant.jsonl    2 planted boards each of 96, 128, 160, 192, 256
#   paper.jsonl    3 boards each of 64, 96, 128, 160, 192, 256 by the paper's protocol
#                  (--tiling backtrack: randomized row-major backtracking)
#   paper-large.jsonl 2 boards each of 384 and 512 and one of 1024 by the paper's
#                  protocol (boards of every size to 2048x2048 by the same protocol are
#                  made, not committed, by scripts/race-sizes.sh)
#   paper-small.jsonl 3 boards each of 8, 16, 24, 32, 48 by the paper's protocol
#   paper-perturbed.jsonl (not made here: scripts/paper_unsat.py) 6 boards each of 64,
#                  96, 128: paper-protocol boards with one or two dots moved, kept when
#                  clue inversion passes
#   levels.jsonl   2 unique 8x8 boards at each level singles, colours, pairs, trial of
#                  the deduction ladder (generate --unique --level: the walkthroughs,
#                  hints and their page are tested on them)
# The unsat workloads take several minutes.
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
make huge.jsonl 6606 4 64 96 128
make giant.jsonl 6607 2 96 128 160 192 256
# The paper's own protocol (randomized row-major backtracking), beside the flip chain's.
make paper.jsonl 6608 3 --tiling=backtrack 64 96 128 160 192 256
make paper-small.jsonl 6609 3 --tiling=backtrack 8 16 24 32 48
: > models/paper-large.jsonl.tmp
for size in 384 512; do
    "$bin" generate --tiling backtrack --rows "$size" --cols "$size" --count 2 --seed 6610 \
        >> models/paper-large.jsonl.tmp
done
"$bin" generate --tiling backtrack --rows 1024 --cols 1024 --count 1 --seed 6610 \
    >> models/paper-large.jsonl.tmp
mv models/paper-large.jsonl.tmp models/paper-large.jsonl
echo "models/paper-large.jsonl: $(wc -l < models/paper-large.jsonl) boards"
: > models/levels.jsonl.tmp
for level in singles colours pairs trial; do
    "$bin" generate --unique --level "$level" --rows 8 --cols 8 --count 2 --seed 5 \
        2>/dev/null >> models/levels.jsonl.tmp
done
mv models/levels.jsonl.tmp models/levels.jsonl
echo "models/levels.jsonl: $(wc -l < models/levels.jsonl) boards"
make unsat.jsonl 6604 4 --unsat --timeout=10 6 8 12 16 24 32
make unsat-hard.jsonl 6605 4 --unsat --timeout=30 --pool=48 --node-cap=200000 16 24 32 40 48
