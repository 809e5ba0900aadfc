#!/usr/bin/env bash
# Builds the static web app into target/site/ (or the folder given as $1): the
# pages `fairdice serve` serves (web/ with the chrome every page shares put in,
# and the Seats page's example games, written by `fairdice serve --write-site`)
# and the fairdice WebAssembly module (scripts/build-wasm.sh) they compute with.
# Every page computes in the browser, so the folder can be published on any
# static file host as it is. The command is $FAIRDICE_BIN when set, else the
# build of this repository with the cargo profile $FAIRDICE_PROFILE (default
# `release`; built when missing).
set -euo pipefail
cd "$(dirname "$0")/.."

site="${1:-target/site}"
profile="${FAIRDICE_PROFILE:-release}"
fairdice="${FAIRDICE_BIN:-target/$profile/fairdice}"
if [ ! -x "$fairdice" ]; then
  cargo build --profile "$profile" --quiet --bin fairdice
fi
./scripts/build-wasm.sh
rm -rf "$site"
"$fairdice" serve --write-site "$site" >/dev/null
mkdir -p "$site/wasm"
cp target/wasm/fairdice_wasm.js target/wasm/fairdice_wasm_bg.wasm "$site/wasm/"
echo "build-site: $site ($(du -sk "$site" | cut -f1) KiB); serve it with any static file server, e.g."
echo "  python3 -m http.server --directory $site 8000"
