#!/usr/bin/env bash
# Bounded coverage-guided fuzzing (fuzz/README.md): every target, or the one
# named, for SECONDS each (default 60), from the seeds in fuzz/seeds and what
# earlier runs kept in fuzz/corpus. Installs cargo-fuzz from crates.io when it is
# missing, saying so. Exits non-zero on a finding (libFuzzer prints the input and
# writes it to fuzz/artifacts/TARGET/).
#
#   ./scripts/fuzz.sh [TARGET [SECONDS]]
set -euo pipefail
cd "$(dirname "$0")/../fuzz"

targets=(expression request session ffi)
if [ $# -ge 1 ]; then targets=("$1"); fi
seconds="${2:-60}"

if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "fuzz: installing cargo-fuzz 0.13.2 from crates.io (builds and runs the fuzz targets)"
  cargo install cargo-fuzz --locked --version 0.13.2 --quiet
fi

# No sanitizer: the workspace forbids unsafe code, so what is looked for is
# panics, hangs and memory past the budget, which need none (and stable Rust
# builds the targets then).
build=(--sanitizer none --release --debug-assertions)
cargo fuzz build "${build[@]}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
for target in "${targets[@]}"; do
  mkdir -p "corpus/$target"
  dict=()
  # The C entry points read specs and sessions: the session words serve them.
  words="$target"
  if [ "$target" = ffi ]; then words=session; fi
  if [ -f "dictionaries/$words.dict" ]; then dict=(-dict="dictionaries/$words.dict"); fi
  echo "fuzz: $target for $seconds s"
  status=0
  cargo fuzz run "${build[@]}" "$target" "corpus/$target" "seeds/$target" -- \
    "${dict[@]}" -max_total_time="$seconds" -seed=1 -timeout=10 -rss_limit_mb=1024 \
    -max_len=1024 -print_final_stats=1 >"$log" 2>&1 || status=$?
  grep -E 'stat::number_of_executed_units|stat::peak_rss_mb|Done [0-9]+ runs' "$log" || true
  if [ "$status" -ne 0 ]; then
    tail -n 60 "$log"
    echo "fuzz: $target found a failing input (above); it is in fuzz/artifacts/$target/" >&2
    exit "$status"
  fi
done
