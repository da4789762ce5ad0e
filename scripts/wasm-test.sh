#!/usr/bin/env bash
# The engine in WebAssembly: the web crate built for wasm32-unknown-unknown, bound for
# Node.js by the wasm-bindgen command line of the crate's exact version
# (scripts/ci-setup.sh installs both), and its calls held byte for byte to the command
# line's output on the observed, game and level boards (scripts/wasm_parity.py).
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's/^wasm-bindgen = "=\(.*\)"$/\1/p' web/Cargo.toml)
if ! command -v wasm-bindgen >/dev/null 2>&1; then
    echo "wasm-test: wasm-bindgen is missing: run scripts/ci-setup.sh" >&2
    exit 1
fi
if [ "$(wasm-bindgen --version)" != "wasm-bindgen $version" ]; then
    echo "wasm-test: $(wasm-bindgen --version) does not match the crate's $version: run scripts/ci-setup.sh" >&2
    exit 1
fi
if ! command -v node >/dev/null 2>&1; then
    echo "wasm-test: node is missing: run scripts/ci-setup.sh" >&2
    exit 1
fi
cargo build --quiet --locked --release -p dominofit-web --target wasm32-unknown-unknown
out=target/wasm/node
wasm-bindgen --target nodejs --out-dir "$out" target/wasm32-unknown-unknown/release/dominofit_web.wasm
cargo build --quiet --locked
python3 scripts/wasm_parity.py --cli target/debug/dominofit --module "$out/dominofit_web.js"
# The page's own bounds and words: numbers, time limits, memory and text-size refusals.
node tests/wasm/limits.js "$out/dominofit_web.js"
