#!/usr/bin/env bash
# Builds the fairdice npm package in place: the WebAssembly module
# (scripts/build-wasm.sh) copied into packages/fairdice/wasm/. `npm pack
# ./packages/fairdice` then makes the tarball (without `./`, npm reads a GitHub name).
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/build-wasm.sh
mkdir -p packages/fairdice/wasm
cp target/wasm/fairdice_wasm.js target/wasm/fairdice_wasm_bg.wasm packages/fairdice/wasm/
echo "build-npm: packages/fairdice (npm pack ./packages/fairdice makes the tarball)"
