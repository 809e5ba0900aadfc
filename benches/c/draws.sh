#!/usr/bin/env bash
# Builds the C library (release) and benches/c/draws.c against it (gcc -O2), then
# times fairdice_randomizer_next against plain C doing the same job:
#
#   benches/c/draws.sh [DRAWS [ROUNDS]]     (defaults: 10,000,000 draws, 15 rounds)
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release -q -p fairdice-c
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
gcc -std=c11 -O2 -Wall -Wextra -Werror -I crates/fairdice-c/include benches/c/draws.c \
  -L target/release -lfairdice_c -Wl,-rpath,"$PWD/target/release" -o "$out/draws"
"$out/draws" "$@"
