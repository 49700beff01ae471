#!/usr/bin/env bash
# API fuzzing: schemathesis (PyPI) generates requests from the served description
# (/api/openapi.json) for every documented call, as a signed-in admin and as a signed-in
# dealer, against the real portal (SQLite, demo data, local mode) on 127.0.0.1. It fails when
# an answer is a 5xx or does not match the description (status code, content type, headers,
# JSON shape). Afterwards the database must pass SQLite's integrity and foreign-key checks and
# the server log must hold no panic: no input may leave a half-written record behind.
#
#   scripts/fuzz.sh                      part of scripts/test.sh
#   AP_FUZZ_EXAMPLES=200 scripts/fuzz.sh more cases per call (default 25)
#   AP_FUZZ_SEED=123 scripts/fuzz.sh     repeat a run (its seed is printed)
#
# schemathesis is installed once into a virtual environment under ~/.cache (AP_FUZZ_VENV).
set -euo pipefail
cd "$(dirname "$0")/.."

version=4.32.5
venv="${AP_FUZZ_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/aktionsportal/schemathesis-$version}"
if [ ! -x "$venv/bin/schemathesis" ]; then
  echo "==> schemathesis $version nach $venv installieren"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check "schemathesis==$version"
fi

# The same build as scripts/e2e.sh (with the example, so dev-dependency features match):
# nothing is compiled again after the browser tests.
cargo build --locked --lib --bins --example fake_brevo
bin="${CARGO_TARGET_DIR:-target}/debug/aktionsportal"
data=$(mktemp -d)
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$data"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

unset DATABASE_URL AP_BREVO_API_KEY AP_BREVO_BASE_URL AP_PLANNING_URL
RUST_LOG=warn "$bin" --data "$data" seed-demo >"$data/seed.txt"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
base="http://127.0.0.1:$port"
RUST_LOG=warn "$bin" --data "$data" serve --addr "127.0.0.1:$port" >"$data/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 100); do
  curl -fsS "$base/healthz" >/dev/null 2>&1 && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$data/server.log"; echo "Server ist nicht gestartet." >&2; exit 1; }
  sleep 0.2
done

session() { # <login>: signs in through the form and prints the session cookie's value
  local password
  password=$(sed -n "s/^Konto angelegt: Login $1, Passwort \\([^ ]*\\) .*/\\1/p" "$data/seed.txt")
  curl -s -o /dev/null -c - --data-urlencode "login=$1" --data-urlencode "password=$password" \
    "$base/api/auth/login" | awk '$6 == "ap_session" { print $7 }'
}

seed="${AP_FUZZ_SEED:-$(python3 -c 'import random; print(random.randrange(2**32))')}"
checks=not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance
# Both sign in first: the runs try the login form with made-up passwords, which the login
# throttle counts against this address.
declare -A cookies
for login in admin haendler; do
  cookies[$login]=$(session "$login")
  [ -n "${cookies[$login]}" ] || { echo "!! Anmeldung als $login fehlgeschlagen" >&2; exit 1; }
done
total=0
for login in admin haendler; do
  cookie=${cookies[$login]}
  echo "==> schemathesis als $login (Seed $seed)"
  # Signing out would end the session the run uses; those two calls are left out.
  if ! "$venv/bin/schemathesis" run "$base/api/openapi.json" --url "$base" \
    -H "Cookie: ap_session=$cookie" --exclude-path-regex '/api/auth/logout' \
    --checks "$checks" --max-examples "${AP_FUZZ_EXAMPLES:-25}" --workers 1 --seed "$seed" \
    --no-color >"$data/st-$login.log" 2>&1; then
    cat "$data/st-$login.log"
    echo "!! schemathesis als $login: Fehler (Seed $seed)" >&2
    exit 1
  fi
  grep -E '^ *(Selected:|[0-9]+ generated)' "$data/st-$login.log" | sed 's/^ */   /'
  cases=$(sed -n 's/^ *\([0-9]*\) generated.*/\1/p' "$data/st-$login.log")
  total=$((total + ${cases:-0}))
done

if grep -q 'panicked' "$data/server.log"; then
  grep -B2 -A10 'panicked' "$data/server.log" >&2
  echo "!! Der Server ist beim Fuzzing in Panik geraten." >&2
  exit 1
fi
python3 - "$data/aktionsportal.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
integrity = db.execute("pragma integrity_check").fetchall()
broken = db.execute("pragma foreign_key_check").fetchall()
if integrity != [("ok",)] or broken:
    sys.exit(f"!! Datenbank nach dem Fuzzing beschädigt: {integrity} {broken[:10]}")
PY
echo "==> API-Fuzzing: $total Fälle ohne Befund; Datenbank unversehrt"
