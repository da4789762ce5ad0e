#!/usr/bin/env bash
# Installs the external solvers the tests and benchmarks drive, from Debian's packages.
# Idempotent: packages already present are left alone. Needs root (or sudo).
set -euo pipefail

packages=(cadical coinor-cbc glpk-utils)
missing=()
for p in "${packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-solvers: all present (${packages[*]})"
    exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
echo "install-solvers: installed ${missing[*]}"
