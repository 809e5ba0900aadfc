#!/usr/bin/env bash
# Builds the static web app into target/site/ (or the folder given as $1): the
# pages, styles and scripts of web/, the fairdice WebAssembly module
# (scripts/build-wasm.sh) and the Seats page's example games (docs/games). Every
# page computes in the browser, so the folder can be published on any static file
# host as it is.
set -euo pipefail
cd "$(dirname "$0")/.."

site="${1:-target/site}"
./scripts/build-wasm.sh
rm -rf "$site"
mkdir -p "$site/wasm"
cp -R web/. "$site/"
# The head, navigation and footer every page shares, from web/partials/chrome.html.
python3 scripts/chrome.py "$site"
rm -r "$site/partials"
cp target/wasm/fairdice_wasm.js target/wasm/fairdice_wasm_bg.wasm "$site/wasm/"
# The Seats page's example games: docs/games/*.json and the list of their names.
mkdir -p "$site/games"
cp docs/games/*.json "$site/games/"
python3 -c 'import json, pathlib; print(json.dumps(sorted(p.stem for p in pathlib.Path("docs/games").glob("*.json"))))' \
  >"$site/games/index.json"
echo "build-site: $site ($(du -sk "$site" | cut -f1) KiB); serve it with any static file server, e.g."
echo "  python3 -m http.server --directory $site 8000"
