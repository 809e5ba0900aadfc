#!/usr/bin/env bash
# Tests of the C library (crates/fairdice-c) from C and from C#: installs what is
# missing (Debian's valgrind, and Mono's compiler and runtime, the runtime Unity's
# scripting grew from), builds the library (shared with scripts/test.sh's `cargo
# test`), then
#   - compiles tests/c/test.c against include/fairdice.h, linked to the shared and
#     to the static library, and runs its checks, under valgrind too (any memory
#     error, or memory lost, fails);
#   - compiles the C# binding users copy (examples/csharp/Fairdice.cs) with
#     tests/csharp/Test.cs and runs its checks on Mono;
#   - for every randomizer family, checks that C and C# draw what
#     `fairdice sample SPEC --seed S` draws, and that a session saved by one
#     continues in the others.
# The profile is $FAIRDICE_PROFILE (release by default); FAIRDICE_BUILT=1 skips
# the cargo build and uses what scripts/test.sh's `cargo test` built.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
profile="${FAIRDICE_PROFILE:-release}"
out="$root/target/$profile"

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}
missing=()
command -v valgrind >/dev/null || missing+=(valgrind)
command -v mcs >/dev/null || missing+=(mono-mcs)
command -v mono >/dev/null || missing+=(mono-runtime)
if [ ${#missing[@]} -gt 0 ]; then
  echo "test-c: installing Debian's ${missing[*]} (needs root or sudo)"
  as_root apt-get update -qq
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq \
    --no-install-recommends --no-upgrade "${missing[@]}" >/dev/null
fi

fairdice="$out/fairdice"
lib="$out"
if [ -n "${FAIRDICE_BUILT:-}" ] && [ -e "$out/deps/libfairdice_c.so" ]; then
  # scripts/test.sh's `cargo test` built the library (for its doctests) and left it
  # among the test build's files, where every build of it lands first; a `cargo
  # build` here would build the crates again with other features.
  lib="$out/deps"
else
  cargo build --profile "$profile" -p fairdice-c -p fairdice-cli
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "test-c: C, linked to the shared and to the static library"
cflags=(-std=c11 -O1 -g -Wall -Wextra -Werror -pedantic -I crates/fairdice-c/include)
gcc "${cflags[@]}" tests/c/test.c -L "$lib" -lfairdice_c -Wl,-rpath,"$lib" -o "$work/test"
gcc "${cflags[@]}" tests/c/test.c "$lib/libfairdice_c.a" -lpthread -ldl -lm -o "$work/test-static"
"$work/test" test
"$work/test-static" test
echo "test-c: C under valgrind"
valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
  "$work/test" test
valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect \
  "$work/test" draw "tgm3" 7 200 >/dev/null

echo "test-c: examples/c/dice_bag.c, built as the README builds it"
cc -Wall -Wextra -Werror -I crates/fairdice-c/include examples/c/dice_bag.c -L "$lib" -lfairdice_c -o "$work/dice_bag"
turns="$(LD_LIBRARY_PATH="$lib" "$work/dice_bag" | sed -n 's/^turns [0-9-]*: //p' | xargs)"
if [ "$turns" != "$("$fairdice" sample 'bag(min=1, max=6, sets=1)' --seed 42 --samples 12)" ]; then
  echo "test-c: the dice bag example's turns are not the command line's: $turns" >&2
  exit 1
fi

echo "test-c: benches/c/draws.c builds and runs (a few draws; the benchmark is benches/c/draws.sh)"
gcc -std=c11 -O2 -Wall -Wextra -Werror -I crates/fairdice-c/include benches/c/draws.c -L "$lib" -lfairdice_c \
  -Wl,-rpath,"$lib" -o "$work/draws"
"$work/draws" 1000 1 | grep -q '^| d6: '

echo "test-c: C# on Mono ($(mono --version | head -n 1))"
mcs -nologo -warnaserror -out:"$work/test.exe" examples/csharp/Fairdice.cs tests/csharp/Test.cs
export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
mono "$work/test.exe" test
# The engine examples of examples/csharp/README.md, each block as a file, compiled
# with the binding against stand-ins of the engine types they use.
awk -v dir="$work" '/^```csharp$/ { n++; on = 1; next } /^```$/ { on = 0 } on { print > (dir "/example" n ".cs") }' \
  examples/csharp/README.md
[ "$(ls "$work"/example*.cs | wc -l)" -ge 2 ] || { echo "test-c: no C# examples read from the README" >&2; exit 1; }
mcs -nologo -warnaserror -target:library -out:"$work/examples.dll" examples/csharp/Fairdice.cs \
  tests/csharp/EngineStubs.cs "$work"/example*.cs

# Every family's example (the registry's, as web/js/families.js lists it) and two
# specs over dice expressions.
mapfile -t specs < <(sed -n 's/^ *"example": "\(.*\)",$/\1/p' web/js/families.js)
specs+=("dice(base=2d6)" "deck(base=2d6, copies=1, refill_below=6, refill=reshuffle)")
[ ${#specs[@]} -ge 15 ] || { echo "test-c: read only ${#specs[@]} specs from web/js/families.js" >&2; exit 1; }
echo "test-c: the same draws as the command line, and saved sessions continued, for ${#specs[@]} specs"
seed=11
for spec in "${specs[@]}"; do
  seed=$((seed + 1))
  expected="$("$fairdice" sample "$spec" --seed "$seed" --samples 60)"
  for program in "$work/test" "mono $work/test.exe"; do
    drawn="$($program draw "$spec" "$seed" 60)"
    if [ "$drawn" != "$expected" ]; then
      printf 'test-c: %s draws differently from `fairdice sample %q --seed %s`:\n  %s\n  %s\n' \
        "$program" "$spec" "$seed" "$drawn" "$expected" >&2
      exit 1
    fi
  done
  # Saved by C, continued by the command line and C#; saved by the command line,
  # continued by C.
  first="$("$work/test" save "$spec" "$seed" 25 "$work/c.json")"
  cli_rest="$("$fairdice" sample --resume "$work/c.json" --samples 35)"
  csharp_rest="$(mono "$work/test.exe" resume "$work/c.json" 35)"
  "$fairdice" sample "$spec" --seed "$seed" --samples 25 --save "$work/cli.json" >/dev/null
  c_rest="$("$work/test" resume "$work/cli.json" 35)"
  for rest in "$cli_rest" "$csharp_rest" "$c_rest"; do
    if [ "$first $rest" != "$expected" ]; then
      printf 'test-c: a saved session of %q did not continue as drawn uninterrupted:\n  %s\n  %s\n' \
        "$spec" "$first $rest" "$expected" >&2
      exit 1
    fi
  done
done
echo "test-c: every check passed"
