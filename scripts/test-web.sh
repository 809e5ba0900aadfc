#!/usr/bin/env bash
# Tests of the static web app and the npm package, from a clean clone: installs
# what is missing (the wasm32 target and wasm-bindgen-cli from crates.io, Debian's
# chromium and node when absent, the npm packages of tests/web with `npm ci`; never
# a browser download), builds `fairdice` (shared with scripts/test.sh's `cargo
# test`), the site and the package, serves target/site with a plain static
# file server, and runs tests/web with node's test runner: the package in Node,
# in a Vite bundle and under TypeScript, and every page in headless Chromium
# (screenshots in docs/screenshots/).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}
apt_updated=""
apt_install() {
  if [ -z "$apt_updated" ]; then
    as_root apt-get update -qq
    apt_updated=yes
  fi
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq \
    --no-install-recommends --no-upgrade "$@" >/dev/null
}

chromium="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  echo "test-web: installing Debian's chromium (the browser the tests drive; needs root or sudo)"
  apt_install chromium
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "test-web: installing node and npm (to run the tests)"
  apt_install nodejs npm
fi
# playwright-core drives the system browser; it must never fetch one of its own.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
if [ ! -d tests/web/node_modules/playwright-core ] \
  || [ tests/web/package-lock.json -nt tests/web/node_modules/.package-lock.json ]; then
  (cd tests/web && npm ci --no-audit --no-fund --loglevel=error)
fi

# The command line: scripts/test.sh's Rust phase built it (FAIRDICE_BUILT=1), with
# the features its tests unify; building it again alone would compile the library
# once more with other features (two to three minutes). Every build here uses the
# cargo profile $FAIRDICE_PROFILE (default `release`; scripts/test.sh: `testing`).
profile="${FAIRDICE_PROFILE:-release}"
fairdice="$root/target/$profile/fairdice"
if [ -z "${FAIRDICE_BUILT:-}" ] || [ ! -x "$fairdice" ]; then
  cargo build --profile "$profile" --quiet --bin fairdice
fi
FAIRDICE_BIN="$fairdice" ./scripts/build-site.sh target/site
./scripts/build-npm.sh >/dev/null

log="$(mktemp)"
python3 -u -m http.server --bind 127.0.0.1 --directory target/site 0 >"$log" 2>&1 &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -f "$log"
}
trap cleanup EXIT
port=""
for _ in $(seq 1 100); do
  port="$(sed -n 's/.* port \([0-9]*\) .*/\1/p' "$log" | head -n 1)"
  [ -n "$port" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$log" >&2; echo "test-web: the static server exited" >&2; exit 1; }
  sleep 0.1
done
[ -n "$port" ] || { echo "test-web: the static server printed no port" >&2; exit 1; }
echo "test-web: testing the static build at http://127.0.0.1:$port/"

cd tests/web
export FAIRDICE_BIN="$fairdice" FAIRDICE_PACKAGE="$root/packages/fairdice" CHROMIUM="$chromium"
FAIRDICE_SITE_URL="http://127.0.0.1:$port" SCREENSHOT_DIR="$root/docs/screenshots" \
  node --test --test-concurrency=1 --test-reporter=spec "${@:-.}"

# The same pages served by `fairdice serve` as a plain `cargo install` builds it:
# the pages compiled in, no WebAssembly module, so every page sends its requests
# to the server (`POST /api/page/NAME`). The server's own tests (its headers, its
# paths, its errors), the Dice page's (cancel, hostile input) and the Seats page's
# (the example games fetched as JSON), which between them fetch every kind of
# file the pages load; screenshots thrown away.
if [ $# -eq 0 ]; then
  serve_log="$(mktemp)"
  "$fairdice" serve --port 0 >"$serve_log" 2>&1 &
  serve=$!
  trap 'cleanup; kill "$serve" 2>/dev/null || true; wait "$serve" 2>/dev/null || true; rm -f "$serve_log"' EXIT
  url=""
  for _ in $(seq 1 100); do
    url="$(grep -o 'http://[^ ]*' "$serve_log" | head -n 1 || true)"
    [ -n "$url" ] && break
    kill -0 "$serve" 2>/dev/null || { cat "$serve_log" >&2; echo "test-web: fairdice serve exited" >&2; exit 1; }
    sleep 0.1
  done
  [ -n "$url" ] || { echo "test-web: fairdice serve printed no address" >&2; exit 1; }
  echo "test-web: testing the same pages served by fairdice serve at $url"
  shots="$(mktemp -d)"
  FAIRDICE_SERVE=1 FAIRDICE_ON_SERVER=1 FAIRDICE_SITE_URL="$url" SCREENSHOT_DIR="$shots" node --test --test-concurrency=1 --test-reporter=spec \
    dice.test.mjs seats.test.mjs serve.test.mjs
  rm -rf "$shots"
fi
