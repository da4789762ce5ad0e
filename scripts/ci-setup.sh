#!/usr/bin/env bash
# Installs what the build and tests need on a fresh machine. Idempotent.
#
# The default build needs only a Rust toolchain with rustfmt and clippy (CI adds the
# wasm32-unknown-unknown target and the wasm-bindgen command line, and tests the web
# crate's module under Node.js); the tests need
# python3 too (scripts/module_graph.py reads the module graph). The optional Cargo
# features need Debian packages, which CI installs to build and test them too:
#   cadical-lib  libclang-dev (bindgen)
#   highs     cmake, libclang-dev
#   coin-cbc  coinor-libcbc-dev
set -euo pipefail

if ! command -v cargo >/dev/null 2>&1; then
    echo "ci-setup: cargo is not installed; install a Rust toolchain first" >&2
    exit 1
fi
if command -v rustup >/dev/null 2>&1; then
    rustup component add rustfmt clippy >/dev/null 2>&1 || true
    # The core crate is built for the browser in CI: without the target that check
    # cannot run, so a failure here fails the set-up.
    rustup target add wasm32-unknown-unknown >/dev/null
fi
if ! rustc --print target-libdir --target wasm32-unknown-unknown >/dev/null 2>&1 \
    || [ ! -d "$(rustc --print target-libdir --target wasm32-unknown-unknown)" ]; then
    echo "ci-setup: the wasm32-unknown-unknown target is not installed (rustup target add wasm32-unknown-unknown)" >&2
    exit 1
fi
cargo fmt --version >/dev/null
cargo clippy --version >/dev/null

build_packages=(python3 nodejs libclang-dev cmake coinor-libcbc-dev)
missing=()
for p in "${build_packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
    echo "ci-setup: installed ${missing[*]}"
fi
cargo fetch --locked

# The wasm-bindgen command line must be the exact version of the wasm-bindgen crate the
# web crate pins (web/Cargo.toml): the two speak one format. Built from crates.io (about
# four minutes on two cores) unless that version is on the PATH already. Not --locked:
# its own lock file names a prerelease that the registry does not serve.
wasm_bindgen=$(sed -n 's/^wasm-bindgen = "=\(.*\)"$/\1/p' web/Cargo.toml)
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $wasm_bindgen" ]; then
    cargo install --quiet wasm-bindgen-cli --version "$wasm_bindgen"
fi
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $wasm_bindgen" ]; then
    echo "ci-setup: wasm-bindgen $wasm_bindgen is not on the PATH after installing it" >&2
    exit 1
fi
