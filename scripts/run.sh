#!/usr/bin/env bash
# Installs what the portal needs, builds it, creates demo data and demo accounts (their
# passwords are printed on the first run) and serves on http://127.0.0.1:3000 with SQLite.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "==> Islands (npm) installieren und bauen"
(cd islands && npm ci --no-audit --no-fund && npm run build)

echo "==> Server bauen (cargo, release)"
cargo build --release --locked

bin="${CARGO_TARGET_DIR:-target}/release/aktionsportal"
echo "==> Datenbank migrieren und Demo-Daten anlegen"
"$bin" migrate
"$bin" seed-demo

echo "==> Portal startet auf http://${AP_ADDR:-127.0.0.1:3000} (Strg+C beendet)"
exec "$bin" serve
