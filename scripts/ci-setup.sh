#!/usr/bin/env bash
# Installs what the build and tests need on a fresh machine. Idempotent.
#
# The default build needs only a Rust toolchain with rustfmt and clippy (CI adds the
# wasm32-unknown-unknown target, for which it builds the core crate); the tests need
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

build_packages=(python3 libclang-dev cmake coinor-libcbc-dev)
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
