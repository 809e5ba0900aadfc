#!/usr/bin/env bash
# Runs every test of fairdice: unit, integration and doc tests of every crate but
# the benchmark crate (its peers and their engine-agreement tests run with
# `benches/compare.sh`), then the web app's browser tests (scripts/e2e.sh; it
# installs Chromium when missing, saying so), then the Python package's pytest suite
# (scripts/test-python.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --exclude fairdice-bench --release
./scripts/e2e.sh
FAIRDICE_CLI="$PWD/target/release/fairdice" ./scripts/test-python.sh
