#!/usr/bin/env bash
# Builds the Python package (release) into a fresh virtual environment and the release
# command line, then runs scripts/python_bench.py: per-call cost against the Rust
# library, batch throughput against `dominofit solve`, the lazy generate against
# `dominofit generate`, and memory over many calls. Arguments go to python_bench.py
# (`--help` lists them). Needs python3 with venv and pip, and the network for maturin.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --upgrade pip
"$work/venv/bin/python" -m pip install --quiet ./python
cargo build --quiet --release --locked
"$work/venv/bin/python" scripts/python_bench.py --cli "$PWD/target/release/dominofit" "$@"
