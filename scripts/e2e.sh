#!/usr/bin/env bash
# Browser end-to-end tests of `fairdice serve`: installs what is missing (Debian's
# chromium, the npm packages of tests/e2e; never a browser download), builds the
# release binary, serves it on a free local port, runs tests/e2e with node's test
# runner, saves page screenshots to docs/screenshots/, and stops the server.
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
  # Only the packages named and what they need to run: no recommended extras, and
  # nothing else on the machine upgraded.
  DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq \
    --no-install-recommends --no-upgrade "$@" >/dev/null
}

chromium="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  echo "e2e: installing Debian's chromium (the browser the tests drive; needs root or sudo)"
  apt_install chromium
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "e2e: installing node and npm (to run the browser tests)"
  apt_install nodejs npm
fi
# playwright-core drives the system browser; it must never fetch one of its own.
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
if [ ! -d tests/e2e/node_modules/playwright-core ] \
  || [ tests/e2e/package-lock.json -nt tests/e2e/node_modules/.package-lock.json ]; then
  (cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error)
fi

cargo build --release --bin fairdice
bin="$root/target/release/fairdice"

log="$(mktemp)"
# A short time limit lets the tests see a computation stopped by it quickly, yet
# leaves the full default tuner search (about 0.5 s of work) well inside it.
"$bin" serve --port 0 --time-limit 3 >"$log" 2>&1 &
server=$!
cleanup() {
  kill "$server" 2>/dev/null || true
  wait "$server" 2>/dev/null || true
  rm -f "$log"
}
trap cleanup EXIT

url=""
for _ in $(seq 1 100); do
  url="$(grep -o 'http://[^ ]*' "$log" | head -n 1 || true)"
  [ -n "$url" ] && break
  if ! kill -0 "$server" 2>/dev/null; then
    cat "$log" >&2
    echo "e2e: fairdice serve exited" >&2
    exit 1
  fi
  sleep 0.1
done
if [ -z "$url" ]; then
  echo "e2e: fairdice serve printed no address" >&2
  exit 1
fi
echo "e2e: testing $url"

cd tests/e2e
FAIRDICE_URL="$url" FAIRDICE_BIN="$bin" CHROMIUM="$chromium" \
  SCREENSHOT_DIR="$root/docs/screenshots" \
  node --test --test-concurrency=1 --test-reporter=spec
