#!/usr/bin/env bash
# Runs every test of fairdice: unit, integration and doc tests of every crate but
# the benchmark crate (its peers and their engine-agreement tests run with
# `benches/compare.sh`); then the C library from C and C# (scripts/test-c.sh:
# under valgrind, and on Mono; it installs both when missing); then the web app
# and the npm package (scripts/test-web.sh: the site built to WebAssembly, every
# page in headless Chromium, from a plain static server and from `fairdice serve`;
# it installs Chromium and node when missing, saying so); then the Python package
# (scripts/test-python.sh). Every step
# builds with the cargo profile `testing` and reuses the command the first built.
# Each phase says when it starts, and the last line says whether everything
# passed, with each phase's time.
set -euo pipefail
cd "$(dirname "$0")/.."
# Every step builds with the cargo profile `testing` (Cargo.toml): one build for all.
export FAIRDICE_PROFILE=testing

started=$SECONDS
phase=""
timings=""
begin() {
    phase=$1
    phase_started=$SECONDS
    printf '\n=== %s (%d s so far)\n' "$phase" $((SECONDS - started))
}
done_phase() {
    timings+="${timings:+, }$phase $((SECONDS - phase_started)) s"
}
finish() {
    local status=$?
    if [[ $status -eq 0 ]]; then
        printf '\n=== every test passed in %d s (%s)\n' $((SECONDS - started)) "$timings"
    else
        printf '\n=== FAILED in %s after %d s (exit status %d; passed before it: %s)\n' \
            "$phase" $((SECONDS - started)) "$status" "${timings:-nothing}" >&2
    fi
}
trap finish EXIT

begin "Rust: build and run the tests of every crate"
cargo test --workspace --exclude fairdice-bench --profile testing
done_phase
begin "C library: from C (under valgrind) and from C# (Mono)"
FAIRDICE_BUILT=1 ./scripts/test-c.sh
done_phase
begin "web app and npm package"
FAIRDICE_BUILT=1 ./scripts/test-web.sh
done_phase
begin "Python package"
FAIRDICE_CLI="$PWD/target/testing/fairdice" ./scripts/test-python.sh
done_phase
