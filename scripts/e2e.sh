#!/usr/bin/env bash
# Browser tests: starts the real portal (SQLite in a temporary data folder, demo data, the
# islands build) on a free port of 127.0.0.1 and runs end2end/ against it in Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

[ -f islands/dist/.vite/manifest.json ] || (cd islands && npm run build)
cargo build --locked
bin="${CARGO_TARGET_DIR:-target}/debug/aktionsportal"

data=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
log="$data/server.log"
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
  rm -rf "$data"
}
trap cleanup EXIT

# The browser tests sign in as the demo accounts; their passwords come from seed-demo.
unset DATABASE_URL
"$bin" --data "$data" seed-demo > "$data/seed.txt"
export AP_E2E_ACCOUNTS="$data/seed.txt"
AP_PRODUCT_NAME="E2E" "$bin" --data "$data" serve --addr "127.0.0.1:$port" > "$log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$log"; echo "Server ist nicht gestartet." >&2; exit 1; }
  sleep 0.2
done

export AP_BASE_URL="http://127.0.0.1:$port"
(cd end2end && npm ci --no-audit --no-fund && npm test) || { echo "--- Server-Log ---"; tail -n 50 "$log"; exit 1; }
