#!/usr/bin/env bash
# Runs every test of fairdice: unit, integration and doc tests of every crate but
# the benchmark crate (its peers and their engine-agreement tests run with
# `benches/compare.sh`); then the web app and the npm package (scripts/test-web.sh:
# the site built to WebAssembly, every page in headless Chromium, from a plain
# static server and from `fairdice serve`; it installs Chromium and node when
# missing, saying so); then the Python package (scripts/test-python.sh). Every step
# shares the one release build of the first.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --exclude fairdice-bench --release
./scripts/test-web.sh
FAIRDICE_CLI="$PWD/target/release/fairdice" ./scripts/test-python.sh
