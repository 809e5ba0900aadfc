#!/usr/bin/env bash
# Times, in one run, fairdice's exact search of the article's whole grid (200
# candidates) against a re-run of the article's own Monte Carlo procedure in Python
# (10,000 runs per candidate), for 6 outcomes and 25 samples, and prints the ratio.
#
# Usage: benches/peers/compare_analysis.sh [python]   (run from the workspace root)
set -euo pipefail
python="${1:-$HOME/.pyenv/versions/3.12.1/bin/python}"
cargo build --release --quiet -p fairdice-cli
binary=target/release/fairdice
args=(tune --values 6 --samples 25 --min-entropy 0.9)

echo "== fairdice ${args[*]} (cold process, 5 runs)"
times=()
for _ in 1 2 3 4 5; do
  start=$(date +%s.%N)
  "$binary" "${args[@]}" > /dev/null
  end=$(date +%s.%N)
  times+=("$(echo "$end - $start" | bc -l)")
done
printf '%s\n' "${times[@]}"
best=$(printf '%s\n' "${times[@]}" | sort -g | head -1)
median=$(printf '%s\n' "${times[@]}" | sort -g | sed -n 3p)
"$binary" "${args[@]}"

echo "== Python: the article's procedure, 10,000 runs per candidate"
python_output=$("$python" benches/peers/article_search.py --values 6 --samples 25 --runs 10000)
echo "$python_output"
python_seconds=$(echo "$python_output" | sed -n 's/^seconds //p')

echo "== summary"
echo "fairdice best ${best} s, median ${median} s; python ${python_seconds} s"
echo "ratio (python / fairdice median): $(echo "$python_seconds / $median" | bc -l | xargs printf '%.0f')"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
