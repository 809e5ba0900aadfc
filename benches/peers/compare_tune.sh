#!/usr/bin/env bash
# Times, in one run, `fairdice tune` (the racing search: exact where cheap, seeded
# Monte Carlo with confidence intervals elsewhere, exact confirmation of the
# winners where the budget allows) against the article's own Monte Carlo
# procedure in Python (`article_search.py`, 10,000 runs per candidate) on the
# sizes of issue 20: 6/25, 4/30, 10/50, 20/100 (outcomes / samples). Both sides
# are timed in CPU seconds (user + system) with peak memory, one process each.
#
# Usage: benches/peers/compare_tune.sh [python]   (run from the workspace root)
#        ROWS="6/25 4/30" benches/peers/compare_tune.sh   (a subset)
#        FAIRDICE=path/to/fairdice benches/peers/compare_tune.sh   (a built binary)
set -euo pipefail
python="${1:-$HOME/.pyenv/versions/3.12.1/bin/python}"
rows="${ROWS:-6/25 4/30 10/50 20/100}"
binary="${FAIRDICE:-}"
if [ -z "$binary" ]; then
  cargo build --release --quiet -p fairdice-cli
  binary=target/release/fairdice
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

cpu() { # cpu FILE -> "user+sys seconds" and "peak MiB" from GNU time's -f output
  awk '{printf "%.2f %.0f", $1 + $2, $3 / 1024}' "$1"
}

printf '| outcomes / samples | fairdice CPU s | fairdice peak MiB | winners (fairdice) | article procedure CPU s | peak MiB | winners (Python) | ratio |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for row in $rows; do
  values=${row%/*}
  samples=${row#*/}
  /usr/bin/time -f '%U %S %M' -o "$out/f.time" \
    "$binary" tune --values "$values" --samples "$samples" --json > "$out/f.json"
  read -r f_cpu f_mem <<< "$(cpu "$out/f.time")"
  f_win=$("$python" -c '
import json, sys
d = json.load(open(sys.argv[1]))
print("; ".join(
    "%s %s %.4f%s" % (s["system"], s["params"], s["outcome_variance"], "" if s["certain"] else " (not certain)")
    for s in d["systems"]))' "$out/f.json")
  /usr/bin/time -f '%U %S %M' -o "$out/p.time" \
    "$python" benches/peers/article_search.py --values "$values" --samples "$samples" --runs 10000 > "$out/p.txt"
  read -r p_cpu p_mem <<< "$(cpu "$out/p.time")"
  p_win=$(grep -E '^(deck|dynamic)' "$out/p.txt" | sed 's/: mean entropy [0-9.]*, outcome variance/ /' | paste -sd';' -)
  ratio=$(echo "$p_cpu / $f_cpu" | bc -l | xargs printf '%.0f')
  printf '| %s | %s | %s | %s | %s | %s | %s | %s |\n' \
    "$row" "$f_cpu" "$f_mem" "$f_win" "$p_cpu" "$p_mem" "$p_win" "$ratio"
done
echo
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
