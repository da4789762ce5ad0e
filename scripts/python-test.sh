#!/usr/bin/env bash
# Builds the Python package (an abi3 wheel, with maturin) into a fresh virtual
# environment, and runs its pytest suite against the command line built beside it.
# Needs python3 with venv and pip, and the network for maturin, pytest and jsonschema.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/python-venv.sh
python_venv pytest jsonschema
# The CLI the package's answers are compared with.
cargo build --quiet --locked
DOMINOFIT_CLI="$PWD/target/debug/dominofit" "$PYTHON" -m pytest -q -rs python/tests
