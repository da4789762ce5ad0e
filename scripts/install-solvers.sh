#!/usr/bin/env bash
# Installs the external solvers the tests and benchmarks drive, and GNU parallel for
# sharded campaigns (scripts/campaign-parallel.sh), from Debian's packages, and the proof
# checkers from crates.io: VeriPB (cutting-planes proofs) and rate (DRAT).
# Idempotent: packages already present are left alone. Needs root (or sudo).
set -euo pipefail

packages=(cadical minisat picosat cryptominisat coinor-cbc glpk-utils minisat+ minizinc flatzinc parallel)
source "$(dirname "$0")/apt-install.sh"
apt_install install-solvers "${packages[@]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi

# Debian has no kissat; the PyPI package passagemath-kissat ships a standalone binary.
if ! command -v kissat >/dev/null 2>&1; then
    python3 -m pip install --quiet --disable-pip-version-check passagemath-kissat
    binary=$(python3 -m pip show -f passagemath-kissat \
        | awk '/^Location:/ {loc=$2} /sage_wheels\/bin\/kissat$/ {print loc "/" $1}')
    if [ -z "$binary" ] || [ ! -f "$binary" ]; then
        echo "install-solvers: passagemath-kissat installed but its kissat binary was not found" >&2
        exit 1
    fi
    chmod +x "$binary"
    $sudo ln -sf "$binary" /usr/local/bin/kissat
    echo "install-solvers: installed kissat ($binary)"
fi

# A checker from crates.io, linked onto the PATH when Cargo's bin directory is not on the
# PATH of whoever runs the tests.
install_crate() {
    local name=$1
    if ! command -v "$name" >/dev/null 2>&1; then
        cargo install --quiet --locked "$name"
        local binary="${CARGO_HOME:-$HOME/.cargo}/bin/$name"
        if ! command -v "$name" >/dev/null 2>&1; then
            $sudo ln -sf "$binary" "/usr/local/bin/$name"
        fi
        echo "install-solvers: installed $name ($binary)"
    fi
}

# The DRAT checker for `check-certificate` (docs/CERTIFICATES.md).
install_crate rate
# The VeriPB checker for the native engine's cutting-planes certificates
# (docs/CERTIFICATES.md).
install_crate veripb
