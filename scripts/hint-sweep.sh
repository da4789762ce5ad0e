#!/usr/bin/env bash
# Every step of the walkthrough of 203 generated unique boards (29 of each even size from
# 12×12 to 24×24, seed 5501), each proved by `hint --proof`'s derivation and checked by
# VeriPB. The boards are made by `dominofit generate --unique` (uniqueness certified by
# the native search); what is measured is the hint proofs, which VeriPB alone judges.
#
#   scripts/hint-sweep.sh [OUT_DIR]     (default: target/hint-sweep)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/hint-sweep}"
mkdir -p "$out"
cargo build --release --quiet
boards="$out/unique-12-24-s5501.jsonl"
: > "$boards.part"
for size in 12 14 16 18 20 22 24; do
    target/release/dominofit generate --unique --rows "$size" --cols "$size" \
        --count 29 --seed 5501 >> "$boards.part"
done
mv "$boards.part" "$boards"
echo "boards: $(wc -l < "$boards") in $boards"
DOMINOFIT_HINT_SWEEP="$(realpath "$boards")" cargo test --quiet --test suite -- \
    --exact hint_sweep::every_hint_of_generated_unique_boards_is_a_derivation_veripb_checks \
    --nocapture
