#!/usr/bin/env bash
# Builds crates/fairdice-wasm for the browser and Node into target/wasm/ (the
# wasm-bindgen module, its JS glue and its TypeScript declarations). Installs what
# it needs from source: the wasm32-unknown-unknown target with rustup, and
# wasm-bindgen-cli from crates.io at exactly the wasm-bindgen version in Cargo.lock
# (the CLI and the crate must match); never a prebuilt download. Built with the
# cargo profile $FAIRDICE_PROFILE (default `release`).
set -euo pipefail
cd "$(dirname "$0")/.."

out=target/wasm
target=wasm32-unknown-unknown
profile="${FAIRDICE_PROFILE:-release}"

if ! rustup target list --installed | grep -qx "$target"; then
  echo "build-wasm: adding the $target target (rustup)"
  rustup target add "$target"
fi

version="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"
[ -n "$version" ] || { echo "build-wasm: no wasm-bindgen in Cargo.lock" >&2; exit 1; }
if [ "$(wasm-bindgen --version 2>/dev/null | cut -d' ' -f2)" != "$version" ]; then
  echo "build-wasm: installing wasm-bindgen-cli $version from crates.io (a few minutes, once)"
  # --locked builds the CLI with the dependency versions its authors tested; if the
  # registry no longer offers one of them, the newest compatible versions are used.
  cargo install wasm-bindgen-cli --version "=$version" --locked --quiet \
    || cargo install wasm-bindgen-cli --version "=$version" --quiet
fi

cargo build --profile "$profile" --quiet -p fairdice-wasm --target "$target"
wasm-bindgen --target web --out-dir "$out" --out-name fairdice_wasm \
  "target/$target/$profile/fairdice_wasm.wasm"
echo "build-wasm: $out/fairdice_wasm_bg.wasm ($(du -k "$out/fairdice_wasm_bg.wasm" | cut -f1) KiB)"
