#!/usr/bin/env bash
# The exact seat sweep against a plain Monte Carlo of the same question, in the same
# run: whole `fairdice seats` processes, `--exact` against `--runs N`, where N is the
# number of runs whose standard error on the headline figure (the spread over all
# rolls, E[best total - worst total]) is below $TARGET_SE (0.0005, three digits).
# N is derived from a pilot run of $PILOT_RUNS runs: N = ceil(pilot * (SE / target)^2).
# Then $ROUNDS rounds, each one exact process and one Monte Carlo process in turn
# (interleaved, so a change in the machine's load falls on both), timed by GNU time;
# the table shows medians of the wall clock and of CPU (user + system), the two
# answers and the ratio. Afterwards, the growth table (`seat_growth`: steps, pairs,
# heap and time of the exact sweep over players x outcomes x T) unless GROWTH=0.
#
# Usage: benches/seats.sh                        (run from the workspace root)
#        ROUNDS=5 CASES="catan" benches/seats.sh  (a subset: catan, sevens, three)
#        FAIRDICE=path/to/fairdice benches/seats.sh
set -euo pipefail
rounds="${ROUNDS:-3}"
target_se="${TARGET_SE:-0.0005}"
pilot="${PILOT_RUNS:-100000}"
cases="${CASES:-catan sevens three}"
binary="${FAIRDICE:-}"
if [ -z "$binary" ]; then
  cargo build --release --quiet -p fairdice-cli
  binary=target/release/fairdice
fi
if [ "${GROWTH:-1}" != 0 ]; then
  cargo build --release --quiet -p fairdice-bench --bin seat_growth
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# A generated game beside the two of docs/games: three players over a d6, two faces each.
cat > "$out/three.json" <<'EOF'
{"name": "three players, two faces of a d6 each",
 "players": ["a", "b", "c"],
 "payoffs": {"1": [1, 0, 0], "2": [1, 0, 0], "3": [0, 1, 0], "4": [0, 1, 0], "5": [0, 0, 1], "6": [0, 0, 1]}}
EOF

case_args() { # case NAME -> "game|spec|T"
  case "$1" in
    catan) echo "docs/games/catan-beginner.json|dice(base=2d6)|30" ;;
    sevens) echo "docs/games/sevens-1v1.json|dice(base=2d6)|50" ;;
    three) echo "$out/three.json|dice(values=6)|60" ;;
    *) echo "unknown case $1" >&2; exit 2 ;;
  esac
}

field() { # field FILE EXPR -> a value of the report's JSON
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}

median() { # median of the numbers on stdin
  sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}

timed() { # timed TAG ARGS... -> appends "wall cpu peak_kib" to $out/TAG.times, JSON in $out/TAG.json
  local tag=$1
  shift
  /usr/bin/time -f '%e %U %S %M' -o "$out/$tag.time" "$binary" seats "$@" --json > "$out/$tag.json"
  awk '{printf "%s %.2f %s\n", $1, $2 + $3, $4}' "$out/$tag.time" >> "$out/$tag.times"
}

echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "versions: $("$binary" --version), $(rustc --version), commit $(git rev-parse --short HEAD)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '| case | T | exact: pairs a step | exact wall (CPU) | pilot SE at %s runs | N for SE < %s | Monte Carlo wall (CPU) | exact spread | Monte Carlo spread ± SE | wall ratio MC / exact | goal |\n' "$pilot" "$target_se"
printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n'
for name in $cases; do
  IFS='|' read -r game spec samples <<< "$(case_args "$name")"
  args=("$game" --randomizer "$spec" --samples "$samples")
  "$binary" seats "${args[@]}" --runs "$pilot" --json > "$out/pilot.json"
  pilot_se=$(field "$out/pilot.json" 'd["all_rolls"]["spread"]["error"]')
  runs=$(python3 -c "import math; print(math.ceil($pilot * ($pilot_se / $target_se) ** 2))")
  rm -f "$out/exact.times" "$out/mc.times"
  for _ in $(seq "$rounds"); do
    timed exact "${args[@]}" --exact
    # A run of millions of matches is past the default step budget (2e9): lift it.
    timed mc "${args[@]}" --runs "$runs" --max-steps 1000000000000000
  done
  states=$(field "$out/exact.json" 'd["peak_states"]')
  exact_spread=$(field "$out/exact.json" '"%.5f" % d["all_rolls"]["spread"]["value"]')
  mc_spread=$(field "$out/mc.json" '"%.5f ± %.5f" % (d["all_rolls"]["spread"]["value"], d["all_rolls"]["spread"]["error"])')
  e_wall=$(cut -d' ' -f1 "$out/exact.times" | median)
  e_cpu=$(cut -d' ' -f2 "$out/exact.times" | median)
  m_wall=$(cut -d' ' -f1 "$out/mc.times" | median)
  m_cpu=$(cut -d' ' -f2 "$out/mc.times" | median)
  ratio=$(python3 -c "print('%.1f' % ($m_wall / max($e_wall, 0.01)))")
  goal=$(python3 -c "print('met' if $e_wall < $m_wall else 'not met')")
  printf '| %s | %s | %s | %s s (%s s) | %.5f | %s | %s s (%s s) | %s | %s | %s | %s |\n' \
    "$name" "$samples" "$states" "$e_wall" "$e_cpu" "$pilot_se" "$runs" "$m_wall" "$m_cpu" \
    "$exact_spread" "$mc_spread" "$ratio" "$goal"
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "${GROWTH:-1}" != 0 ]; then
  echo
  target/release/seat_growth
  echo
  echo "load average after the growth table: $(cut -d' ' -f1-3 /proc/loadavg)"
fi
