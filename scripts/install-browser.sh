#!/usr/bin/env bash
# Installs Debian's Chromium and its WebDriver, which the race page's browser tests
# drive (scripts/browser-test.sh). Idempotent. Needs root (or sudo).
set -euo pipefail

packages=(chromium chromium-driver)
missing=()
for p in "${packages[@]}"; do
    dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-browser: Debian packages present (${packages[*]})"
else
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
    echo "install-browser: installed ${missing[*]}"
fi
