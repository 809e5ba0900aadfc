#!/usr/bin/env bash
# Runs every test of fairdice: unit, integration and doc tests of every crate.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --workspace --release
