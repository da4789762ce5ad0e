#!/usr/bin/env bash
# Installs what the build and tests need on a fresh machine. Idempotent.
#
# The default build needs only a Rust toolchain with rustfmt and clippy. The optional
# Cargo feature `cadical` (in-process CaDiCaL) needs Debian's libclang-dev for bindgen;
# CI builds and tests that feature too.
set -euo pipefail

if ! command -v cargo >/dev/null 2>&1; then
    echo "ci-setup: cargo is not installed; install a Rust toolchain first" >&2
    exit 1
fi
if command -v rustup >/dev/null 2>&1; then
    rustup component add rustfmt clippy >/dev/null 2>&1 || true
fi
cargo fmt --version >/dev/null
cargo clippy --version >/dev/null

if ! dpkg -s libclang-dev >/dev/null 2>&1; then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq libclang-dev >/dev/null
    echo "ci-setup: installed libclang-dev"
fi
cargo fetch --locked
