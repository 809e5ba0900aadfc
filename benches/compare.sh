#!/usr/bin/env bash
# Builds the benchmarks, sets up icepool, and prints fairdice against its peers in one run.
#
# Usage: benches/compare.sh [--family NAME] [--no-warm] [compare options...]
#   --family NAME  the case table benches/cases/NAME.tsv (default: dice); its criterion bench,
#                  benches/NAME.rs, runs first when it exists
#   --no-warm      skip criterion (the warm table then shows the last results, if any)
#   other options go to the runner: --runs N, --wall-runs N, --case NAME (repeatable),
#                  --warm-runs N (icepool's in-process calls, 0: none), --map-code, --help
# Needs Python 3.12 for icepool 2.2.2: $PYTHON312, else pyenv's 3.12.1, else python3.12.
set -euo pipefail
cd "$(dirname "$0")/.."

family=dice
warm=1
runner_args=()
while (($#)); do
  case "$1" in
    --family) family="$2"; shift 2 ;;
    --no-warm) warm=0; shift ;;
    *) runner_args+=("$1"); shift ;;
  esac
done
cases="benches/cases/$family.tsv"
[[ -f "$cases" ]] || { echo "no case table $cases" >&2; exit 2; }

source benches/icepool_venv.sh

cargo build --release --quiet -p fairdice-cli -p fairdice-bench --bins
# The engines must agree outcome by outcome before they are timed (the benchmark
# crate's own tests, kept out of the project's test command).
cargo test --release --quiet -p fairdice-bench
# Measure at raised priority where allowed, so that concurrent builds disturb the timings less.
priority=()
if nice -n -10 true 2>/dev/null; then priority=(nice -n -10); fi

echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(uname -sr)"
echo "versions: fairdice $(grep -m1 '^version' Cargo.toml | cut -d'"' -f2)," \
  "xdy $(grep -A1 '^name = "xdy"' Cargo.lock | sed -n 's/version = "\(.*\)"/\1/p')," \
  "icepool $("$venv/bin/python" benches/peers/icepool_dice.py --version)," \
  "$("$venv/bin/python" --version), $(rustc --version)"

if ((warm)) && [[ -f "benches/$family.rs" ]]; then
  log="target/criterion-$family.log"
  echo "criterion: cargo bench -p fairdice-bench --bench $family (log: $log)"
  cargo bench --quiet -p fairdice-bench --bench "$family" --no-run
  "${priority[@]}" cargo bench --quiet -p fairdice-bench --bench "$family" >"$log" 2>&1 ||
    { cat "$log" >&2; exit 1; }
fi
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); priority: ${priority[*]:-normal}"
echo
"${priority[@]}" target/release/compare --cases "$cases" "${runner_args[@]}"
