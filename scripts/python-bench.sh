#!/usr/bin/env bash
# Builds the Python package (release) into a fresh virtual environment and the release
# command line, then runs scripts/python_bench.py: per-call cost against the Rust
# library, batch throughput against `dominofit solve`, the lazy generate against
# `dominofit generate`, and memory over many calls. Arguments go to python_bench.py
# (`--help` lists them).
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/python-venv.sh
python_venv
cargo build --quiet --release --locked
"$PYTHON" scripts/python_bench.py --cli "$PWD/target/release/dominofit" "$@"
