#!/usr/bin/env bash
# Instructions of one warm evaluation, fairdice against icepool, counted by valgrind's
# callgrind: a measure that does not move with the machine's load, for the shape of a curve
# (its fitted exponent) where timings on a shared machine spread too much to tell two close
# exponents apart.
#
# A warm evaluation is the count of a process making two calls less that of one making one:
# `cold --calls N` for fairdice; `icepool_dice.py --calls N` for icepool, which empties its
# caches after the first call (see that script). Both print the fingerprint of their result,
# and the two engines must agree on it. Instructions are not time: an instruction of Python's
# interpreter and one of fairdice's arithmetic differ, so compare exponents and how a ratio
# moves along a curve, not the ratio's size (the timed ratios are compare.sh's).
#
# Usage: benches/instructions.sh [--family NAME] [--case NAME]... [--fit]
#   --family NAME  the case table benches/cases/NAME.tsv (default: mixed)
#   --case NAME    only this row (repeatable; default: every row)
#   --fit          fit the exponents of the counts, by least squares, against the number each
#                  row's name starts with (a curve's n: 5x3kh2, 10x3kh5, ...; give one curve's
#                  rows with --case)
# The mixed curve of issue 19:
#   benches/instructions.sh --fit --case 5x3kh2 --case 10x3kh5 --case 20x3kh10 \
#     --case 30x3kh15 --case 40x3kh20 --case 60x3kh30
# Needs valgrind, and Python 3.12 for icepool 2.2.2 (see icepool_venv.sh). Under callgrind
# icepool runs about 50 times slower: the six rows of the mixed curve take about 6 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."

family=mixed
only=()
fit=0
while (($#)); do
  case "$1" in
    --fit) fit=1; shift ;;
    --family) family="$2"; shift 2 ;;
    --case) only+=("$2"); shift 2 ;;
    *) echo "unknown option $1 (see the head of $0)" >&2; exit 2 ;;
  esac
done
cases="benches/cases/$family.tsv"
[[ -f "$cases" ]] || { echo "no case table $cases" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "needs valgrind (Debian: apt install valgrind)" >&2; exit 2; }

source benches/icepool_venv.sh
# Python salts its string hashes per process, which moves icepool's counts by a few percent.
export PYTHONHASHSEED=0
cargo build --release --quiet -p fairdice-bench --bin cold

# instructions COMMAND...: the instructions callgrind counted in COMMAND; its output in $out.
out=$(mktemp)
trap 'rm -f "$out" "$out.log"' EXIT
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null --log-file="$out.log" "$@" >"$out"
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$out.log"
}

echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); $(valgrind --version); icepool" \
  "$("$venv/bin/python" benches/peers/icepool_dice.py --version)"
echo
rows=()
while IFS=$'\t' read -r name ours theirs _; do
  [[ -z "$name" || "$name" == \#* || "$name" == case ]] && continue
  if ((${#only[@]})) && [[ ! " ${only[*]} " == *" $name "* ]]; then continue; fi
  echo "counting $name" >&2
  fd1=$(instructions target/release/cold --calls 1 "$ours")
  fd2=$(instructions target/release/cold --calls 2 "$ours")
  fd_print=$(cat "$out")
  ip1=$(instructions "$venv/bin/python" benches/peers/icepool_dice.py --calls 1 "$theirs")
  ip2=$(instructions "$venv/bin/python" benches/peers/icepool_dice.py --calls 2 "$theirs")
  if [[ "$fd_print" != "$(cat "$out")" ]]; then
    echo "$name: the engines disagree: fairdice $fd_print, icepool $(cat "$out")" >&2
    exit 1
  fi
  rows+=("$name $((fd2 - fd1)) $((ip2 - ip1))")
done <"$cases"
((${#rows[@]})) || { echo "no rows selected" >&2; exit 2; }

# The table, and with --fit the least-squares slopes of log(instructions) against log(n), n
# the number each row's name starts with.
printf '%s\n' "${rows[@]}" | "$venv/bin/python" -c '
import math, re, sys
fit = sys.argv[1] == "1"
rows = [(name, int(ours), int(theirs)) for name, ours, theirs in map(str.split, sys.stdin)]
print()
print("| case | fairdice | icepool | icepool / fairdice |")
print("|---|---:|---:|---:|")
for name, ours, theirs in rows:
    print(f"| {name} | {ours:,} | {theirs:,} | ×{theirs / ours:.0f} |")
if not fit:
    sys.exit(0)
sizes = [re.match(r"\d+", name) for name, _, _ in rows]
if len(rows) < 2 or not all(sizes):
    sys.exit("--fit needs two rows or more, each named from its n")
n = [int(m.group()) for m in sizes]
x = [math.log(size) for size in n]
def slope(column):
    y = [math.log(row[column]) for row in rows]
    mx, my = sum(x) / len(x), sum(y) / len(y)
    return sum((a - mx) * (b - my) for a, b in zip(x, y)) / sum((a - mx) ** 2 for a in x)
over = ", ".join(map(str, n))
print(f"\nfitted exponent over n = {over}: fairdice {slope(1):.2f}, icepool {slope(2):.2f}")
' "$fit"
