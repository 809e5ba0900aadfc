#!/usr/bin/env bash
# Writes crates/fairdice-cli/first-call.ld, the linker script that places the code of a
# first evaluation together (the build scripts of fairdice-cli and fairdice-bench link
# their binaries with it on Linux; FAIRDICE_LINK_LAYOUT=0 turns that off).
#
# A fresh process maps its code page by page as it first runs it, and Linux maps at most
# 64 KiB around each fault; scattered over the executable, the functions of one small
# evaluation cost a fault each. This script runs the benchmark cases and a few everyday
# commands under valgrind's callgrind, collects every function of the executables they
# ran, and lists their sections in one output section placed before `.text`: by their
# exact names first, then hash-free (`.text._ZN…17h*`), so that a build whose symbol
# hashes differ still gathers most of them.
#
# Run it again after large changes to the engine (needs valgrind); a stale script only
# costs speed. Usage: scripts/first-call-layout.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "first-call-layout: needs valgrind" >&2; exit 2; }

cargo build --release --quiet -p fairdice-cli -p fairdice-bench --bins
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

traced=0
trace() {
  traced=$((traced + 1))
  valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/trace.$traced" "$@" \
    >/dev/null 2>&1
}
for expression in 3d6 10d10 100d6 4d6kh3 10d10kh3 20d20kh5 100d10kh10 'd20+5 >= 15' '8d6!' \
  '4d6r1'; do
  trace target/release/cold fairdice "$expression"
  trace target/release/fairdice dist "$expression" --json
done
trace target/release/fairdice dist 4d6kh3
trace target/release/fairdice roll 4d6kh3 --seed 1
trace target/release/fairdice contest 3d6 3d6 --json

# Every function name each trace saw (callgrind names a function once per file, on its
# first `fn=` or `cfn=` line), kept where one of the two executables defines it, most
# traced first: the functions every evaluation runs lead, then those of fewer cases.
nm --defined-only target/release/cold target/release/fairdice 2>/dev/null |
  awk 'NF == 3 && $2 ~ /^[tTwW]$/ { print $3 }' | sort -u >"$work/defined"
for trace in "$work"/trace.*; do
  sed -n 's/^c\{0,1\}fn=([0-9]*) \(.*\)$/\1/p' "$trace" | sort -u
done | sort | uniq -c | sort -k1,1nr -k2 | awk '{ print $2 }' >"$work/ran"
awk 'NR == FNR { defined[$1] = 1; next } defined[$1]' "$work/defined" "$work/ran" >"$work/exact"
# Then every other instance of the same functions, by a pattern without the hash, which
# still matches where the hashes differ (another feature set, another compiler).
sed -nE 's/^(_ZN.*17h)[0-9a-f]{16}E(\.llvm\.[0-9]+)?$/\1*/p' "$work/exact" | awk '!seen[$0]++' >"$work/patterns"

script=crates/fairdice-cli/first-call.ld
{
  echo "/* The code a first evaluation runs, placed together before .text."
  echo "   Written by scripts/first-call-layout.sh ($(wc -l <"$work/exact") functions); run it"
  echo "   again after large changes to the engine. */"
  echo "SECTIONS"
  echo "{"
  echo "  .text.first_call : {"
  # A function LLVM judged cold sits in `.text.unlikely.NAME` (growing a vector is one).
  sed 's/^.*$/    *(.text.& .text.unlikely.&)/' "$work/exact" "$work/patterns"
  echo "  }"
  echo "}"
  echo "INSERT BEFORE .text;"
} >"$script"
echo "first-call-layout: $script lists $(wc -l <"$work/exact") functions from $traced traces"
