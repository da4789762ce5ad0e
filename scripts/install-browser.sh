#!/usr/bin/env bash
# Installs Debian's Chromium and its WebDriver, which the race page's browser tests
# drive (scripts/browser-test.sh). Idempotent. Needs root (or sudo).
set -euo pipefail

source "$(dirname "$0")/apt-install.sh"
apt_install install-browser chromium chromium-driver
