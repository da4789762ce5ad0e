#!/usr/bin/env bash
# Builds the studio page into target/studio: the web crate compiled for
# wasm32-unknown-unknown, bound by wasm-bindgen (the exact version web/Cargo.toml pins)
# for the browser, and web/studio's static files beside it. With --serve, serves it on
# 127.0.0.1 (port 8000, or STUDIO_PORT) for a local look: a module worker and
# WebAssembly are not loaded from file:// pages.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's/^wasm-bindgen = "=\(.*\)"$/\1/p' web/Cargo.toml)
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $version" ]; then
    echo "studio: wasm-bindgen $version is needed: cargo install wasm-bindgen-cli --version $version" >&2
    exit 1
fi
out=target/studio
cargo build --quiet --locked --release -p dominofit-web --target wasm32-unknown-unknown
rm -rf "$out.new"
mkdir -p "$out.new"
wasm-bindgen --target web --out-dir "$out.new/pkg" target/wasm32-unknown-unknown/release/dominofit_web.wasm
cp web/studio/index.html web/studio/studio.js web/studio/worker.js web/studio/studio.css "$out.new/"
rm -rf "$out"
mv "$out.new" "$out"
echo "studio: built $out"
if [ "${1:-}" = "--serve" ]; then
    port=${STUDIO_PORT:-8000}
    echo "studio: http://127.0.0.1:$port/ (Ctrl-C stops it)"
    exec python3 -m http.server --bind 127.0.0.1 --directory "$out" "$port"
fi
