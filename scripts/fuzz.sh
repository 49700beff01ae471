#!/usr/bin/env bash
# API fuzzing: schemathesis (PyPI) generates requests from the served description
# (/api/openapi.json) for every documented call, as a signed-in admin and as a signed-in
# dealer, against the real portal (demo data, local mode) on 127.0.0.1, once on SQLite and once
# on PostgreSQL. Every check schemathesis has is on: no 5xx; status codes, content types,
# headers and JSON shapes as described; a request the schema allows is accepted and one it
# forbids is refused. A call that refuses schema-valid requests by rules a schema cannot state
# (an id that must exist, a right, an email that is taken) names those statuses in its
# description (`x-rule-statuses`), and only those are allowed besides schemathesis' defaults.
# Then scripts/fuzz_hostile.py sends values just outside the parameters' patterns (dates,
# ids, paging), which schemathesis' strategies do not reach, to every GET that reads them.
# Afterwards the database must pass its integrity checks and the server log must hold no panic.
#
#   scripts/fuzz.sh                      part of scripts/test.sh
#   AP_FUZZ_EXAMPLES=200 scripts/fuzz.sh more cases per call (default 25)
#   AP_FUZZ_SEED=123 scripts/fuzz.sh     repeat a run (its seed is printed)
#   AP_FUZZ_BACKENDS=sqlite scripts/fuzz.sh   one database only (default: sqlite postgres)
#   AP_FUZZ_MIN_CASES=500                fewer cases than this per run fail it (default 500)
# PostgreSQL: AP_TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres); each
# run creates a database of its own there and drops it afterwards.
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
pg_admin_url="${AP_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}"
seed="${AP_FUZZ_SEED:-$(python3 -c 'import random; print(random.randrange(2**32))')}"
min_cases="${AP_FUZZ_MIN_CASES:-500}"
examples="${AP_FUZZ_EXAMPLES:-25}"
backends="${AP_FUZZ_BACKENDS:-sqlite postgres}"
# The portal refuses AP_ variables it does not know; these are the script's own.
unset AP_FUZZ_SEED AP_FUZZ_MIN_CASES AP_FUZZ_EXAMPLES AP_FUZZ_BACKENDS AP_FUZZ_VENV
echo "==> API-Fuzzing mit Seed $seed (wiederholen: AP_FUZZ_SEED=$seed scripts/fuzz.sh)"

data=""
server_pid=""
pg_db=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  server_pid=""
  [ -n "$data" ] && rm -rf "$data"
  data=""
  [ -n "$pg_db" ] && psql -q "$pg_admin_url" -c "drop database if exists $pg_db with (force)" >/dev/null 2>&1
  pg_db=""
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

unset DATABASE_URL AP_BREVO_API_KEY AP_BREVO_BASE_URL AP_PLANNING_URL

fuzz_on() { # <backend>: seeds a fresh portal on that database, fuzzes it, checks the data
  local backend=$1 database_url=""
  data=$(mktemp -d)
  if [ "$backend" = postgres ]; then
    psql -qAt "$pg_admin_url" -c 'select 1' >/dev/null 2>&1 \
      || { echo "!! PostgreSQL unter $pg_admin_url nicht erreichbar" >&2; exit 1; }
    pg_db="ap_fuzz_$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
    psql -q "$pg_admin_url" -c "create database $pg_db" >/dev/null
    database_url="${pg_admin_url%/*}/$pg_db"
  fi
  env ${database_url:+DATABASE_URL="$database_url"} RUST_LOG=warn "$bin" --data "$data" seed-demo >"$data/seed.txt"
  local port base
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
  base="http://127.0.0.1:$port"
  env ${database_url:+DATABASE_URL="$database_url"} RUST_LOG=warn \
    "$bin" --data "$data" serve --addr "127.0.0.1:$port" >"$data/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 100); do
    curl -fsS "$base/healthz" >/dev/null 2>&1 && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$data/server.log"; echo "Server ist nicht gestartet." >&2; exit 1; }
    sleep 0.2
  done

  # The session goes in through the description's security scheme, so that schemathesis also
  # tries each call without it. Calls that refuse schema-valid requests by a rule name the
  # statuses in `x-rule-statuses`; schemathesis accepts exactly those for them besides its
  # defaults.
  curl -fsS "$base/api/openapi.json" | python3 -c '
import json, sys
defaults = ["2xx", "3xx", "401", "403", "404", "409", "429", "5xx"]
doc = json.load(sys.stdin)
# A body over the 2 MB limit is refused with 413 before it is read: a rejection as good as 400.
rejections = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429", "5xx"]
print("[checks.negative_data_rejection]")
print("expected-statuses = " + json.dumps(rejections))
print()
for name in doc["components"]["securitySchemes"]:
    print("[auth.openapi." + name + "]")
    print("api_key = \"${FUZZ_SESSION}\"")
    print()
for path, item in doc["paths"].items():
    for method, op in item.items():
        extra = op.get("x-rule-statuses") if isinstance(op, dict) else None
        if not extra:
            continue
        statuses = defaults + [str(s) for s in extra if str(s) not in defaults]
        print("[[operations]]")
        print("include-operation-id = " + json.dumps(op["operationId"]))
        print("checks.positive_data_acceptance.expected-statuses = " + json.dumps(statuses))
        print()
' >"$data/schemathesis.toml"

  session() { # <login>: signs in through the form and prints the session cookie's value
    local password
    password=$(sed -n "s/^Konto angelegt: Login $1, Passwort \\([^ ]*\\) .*/\\1/p" "$data/seed.txt")
    curl -s -o /dev/null -c - --data-urlencode "login=$1" --data-urlencode "password=$password" \
      "$base/api/auth/login" | awk '$6 == "ap_session" { print $7 }'
  }
  # Both sign in first: the runs try the login form with made-up passwords, which the login
  # throttle counts against this address.
  local -A cookies
  local login cookie cases
  for login in admin haendler; do
    cookies[$login]=$(session "$login")
    [ -n "${cookies[$login]}" ] || { echo "!! Anmeldung als $login fehlgeschlagen" >&2; exit 1; }
  done
  for login in admin haendler; do
    cookie=${cookies[$login]}
    echo "==> schemathesis auf $backend als $login (Seed $seed)"
    # Signing out would end the session the run uses; that call is left out.
    if ! FUZZ_SESSION=$cookie "$venv/bin/schemathesis" --config-file "$data/schemathesis.toml" \
      run "$base/api/openapi.json" --url "$base" --exclude-path-regex '/api/auth/logout' \
      --checks all --max-examples "$examples" --workers 1 --seed "$seed" \
      --no-color >"$data/st-$login.log" 2>&1; then
      cat "$data/st-$login.log"
      echo "!! schemathesis auf $backend als $login: Fehler (Seed $seed)" >&2
      exit 1
    fi
    grep -E '^ *(Selected:|[0-9]+ generated)' "$data/st-$login.log" | sed 's/^ */   /'
    cases=$(sed -n 's/^ *\([0-9]*\) generated.*/\1/p' "$data/st-$login.log")
    if [ "${cases:-0}" -lt "$min_cases" ]; then
      cat "$data/st-$login.log"
      echo "!! schemathesis auf $backend als $login: nur ${cases:-0} Fälle (mindestens $min_cases)" >&2
      exit 1
    fi
    total=$((total + cases))
    # Values near the parameters' grammars that schemathesis does not draw (signed and
    # five-digit years, 10^18, `+1`, …): refused with 400 and a German message, never a 5xx or
    # a closed connection. The admin may see everything, so there a refusal is exactly 400.
    echo "==> feindliche Werte auf $backend als $login (Seed $seed)"
    python3 scripts/fuzz_hostile.py "$base" "$cookie" "$seed" "$([ "$login" = admin ] && echo strict)" \
      || { echo "!! feindliche Werte auf $backend als $login: Befunde (Seed $seed)" >&2; exit 1; }
  done

  if grep -q 'panicked' "$data/server.log"; then
    grep -B2 -A10 'panicked' "$data/server.log" >&2
    echo "!! Der Server ist beim Fuzzing auf $backend in Panik geraten." >&2
    exit 1
  fi
  if [ "$backend" = sqlite ]; then
    python3 - "$data/aktionsportal.db" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
integrity = db.execute("pragma integrity_check").fetchall()
broken = db.execute("pragma foreign_key_check").fetchall()
if integrity != [("ok",)] or broken:
    sys.exit(f"!! Datenbank nach dem Fuzzing beschädigt: {integrity} {broken[:10]}")
PY
  fi
  # PostgreSQL enforces its foreign keys itself.
  cleanup
}

total=0
for backend in $backends; do
  fuzz_on "$backend"
done
echo "==> API-Fuzzing: $total Fälle ohne Befund (Seed $seed); Datenbanken unversehrt"
