#!/usr/bin/env bash
# Installs what the build and tests need on a fresh machine. Idempotent.
# The default build needs only a Rust toolchain with rustfmt and clippy; external
# solver packages will be added here as the backends that use them arrive.
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
cargo fetch --locked
