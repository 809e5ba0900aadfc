#!/usr/bin/env bash
# The WebAssembly build against the native build and icepool 2.2.2 on the dice
# benchmark cases (not part of the test command): builds the native timer
# (benches/bin/use_case.rs) and the wasm module, sets up benches/.venv with icepool
# (benches/icepool_venv.sh), and prints the table (benches/wasm/compare.mjs).
#
# Usage: benches/wasm/run.sh [--runs N] [--case NAME]...
set -euo pipefail
cd "$(dirname "$0")/../.."

source benches/icepool_venv.sh
cargo build --release --quiet -p fairdice-bench --bin use_case
./scripts/build-wasm.sh >&2

priority=()
if nice -n -10 true 2>/dev/null; then priority=(nice -n -10); fi
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(uname -sr)"
echo "versions: fairdice $(grep -m1 '^version' Cargo.toml | cut -d'"' -f2), node $(node --version)," \
  "icepool $("$venv/bin/python" benches/peers/icepool_dice.py --version), $("$venv/bin/python" --version), $(rustc --version)"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); priority: ${priority[*]:-normal}"
echo
"${priority[@]}" node benches/wasm/compare.mjs --native target/release/use_case --wasm target/wasm \
  --python "$venv/bin/python" "$@"
