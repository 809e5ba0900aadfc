#!/usr/bin/env bash
# Runs every test of fairdice: unit, integration and doc tests of every crate, then
# the web app's browser tests (scripts/e2e.sh; it installs Chromium when missing).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --release
./scripts/e2e.sh
