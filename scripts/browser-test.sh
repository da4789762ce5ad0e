#!/usr/bin/env bash
# The race page (`race --out DIR` writes DIR/index.html) and the walkthrough page (`explain
# --format html`) opened in headless Chromium and
# checked by Selenium: tests/browser/. Needs Debian's chromium and chromium-driver
# (scripts/install-browser.sh): without them the tests fail, as they do without a
# solver. With RACE_PAGE_SCREENSHOT=FILE the tests also save the page as README shows it,
# and with STUDIO_SCREENSHOT=FILE the studio's designer view. The studio is built first
# (scripts/studio.sh: needs the wasm32 target and wasm-bindgen, as scripts/ci-setup.sh
# installs them).
set -euo pipefail
cd "$(dirname "$0")/.."

for program in /usr/bin/chromium /usr/bin/chromedriver; do
    if [ ! -x "$program" ]; then
        echo "browser-test: $program is missing: run scripts/install-browser.sh" >&2
        exit 1
    fi
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/venv"
# 4.51.0: the newest selenium whose dependencies Debian's Python and PyPI mirrors have.
"$work/venv/bin/python" -m pip install --quiet "selenium==4.51.0" pytest
cargo build --quiet --locked
# The studio page: the engine in WebAssembly, built into target/studio.
bash scripts/studio.sh
DOMINOFIT_CLI="$PWD/target/debug/dominofit" "$work/venv/bin/python" -m pytest -q -rs tests/browser "$@"
