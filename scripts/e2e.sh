#!/usr/bin/env bash
# Browser tests: starts the real portal twice (each with SQLite in its own temporary data folder,
# demo data and the islands build) on free ports of 127.0.0.1 and runs end2end/ against them in
# Chromium:
# - AP_BASE_URL / AP_E2E_ACCOUNTS: local mode (no Brevo key; folders and lists only in the
#   portal's database);
# - AP_BASE_URL_BREVO / AP_E2E_ACCOUNTS_BREVO: Brevo mode, against the stateful fake Brevo of
#   the Rust tests (examples/fake_brevo.rs), which this script starts too.
# Then a third portal, set up like the first but on a fresh PostgreSQL database (created on
# AP_TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres, and dropped at the
# end), runs the customer page, the download form and the contact editor once more (POSTGRES_TESTS
# below; with file arguments, only those of them that were named). If PostgreSQL is unreachable
# the run fails; locally, AP_SKIP_POSTGRES=1 skips that part and says so (as scripts/test.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
export AP_TEST_POSTGRES_URL="${AP_TEST_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}"

# The test files run against PostgreSQL as well (paths relative to end2end/).
POSTGRES_TESTS=(tests/customer_downloads.test.mjs tests/admin_downloads.test.mjs tests/contact_editor.test.mjs)
postgres_tests=()
for file in "${POSTGRES_TESTS[@]}"; do
  if [ $# -eq 0 ]; then
    postgres_tests+=("$file")
  else
    for arg in "$@"; do
      [ "$(basename "$arg")" = "$(basename "$file")" ] && postgres_tests+=("$file") && break
    done
  fi
done
if [ ${#postgres_tests[@]} -gt 0 ] && ! psql "$AP_TEST_POSTGRES_URL" -qtAc 'select 1' >/dev/null 2>&1; then
  if [ "${CI:-}" != "true" ] && [ "${AP_SKIP_POSTGRES:-}" = "1" ]; then
    echo "!! PostgreSQL nicht erreichbar: die Browser-Tests auf PostgreSQL werden NICHT ausgeführt (AP_SKIP_POSTGRES=1)."
    postgres_tests=()
  else
    echo "!! PostgreSQL unter $AP_TEST_POSTGRES_URL nicht erreichbar (lokal überspringt AP_SKIP_POSTGRES=1 diesen Teil)." >&2
    exit 1
  fi
fi

# Debian's Chromium (no browser download): installed here when missing and we may.
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "==> Chromium aus den Debian-Paketen installieren"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "!! Chromium fehlt unter $chromium: bitte 'apt-get install chromium' ausführen." >&2
    exit 1
  fi
fi

# The islands build, again when a source (or the shared styles) is newer than it (tests of the
# islands do not count).
manifest=islands/dist/.vite/manifest.json
if [ ! -f "$manifest" ] || [ -n "$(find islands/src style islands/vite.config.ts islands/package.json islands/package-lock.json \
  -newer "$manifest" -type f -not -name '*.test.*' -print -quit 2>/dev/null)" ]; then
  (cd islands && npm run build)
fi
# One cargo run for the portal and the fake Brevo (an example: it reuses tests/common/).
cargo build --locked --lib --bins --example fake_brevo
target="${CARGO_TARGET_DIR:-target}/debug"
bin="$target/aktionsportal"
fake_bin="$target/examples/fake_brevo"

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

data=$(mktemp -d)
data_brevo=$(mktemp -d)
data_pg=$(mktemp -d)
log="$data/server.log"
log_brevo="$data_brevo/server.log"
log_pg="$data_pg/server.log"
server_pid=""
server_brevo_pid=""
server_pg_pid=""
fake_pid=""
planning_pid=""
pg_database=""
stop() {
  [ -n "$1" ] && kill "$1" 2>/dev/null && wait "$1" 2>/dev/null || true
}
cleanup() {
  stop "$server_pid"
  stop "$server_brevo_pid"
  stop "$server_pg_pid"
  stop "$fake_pid"
  stop "$planning_pid"
  if [ -n "$pg_database" ]; then
    psql "$AP_TEST_POSTGRES_URL" -qc "drop database if exists $pg_database with (force)" >/dev/null ||
      echo "!! Die Datenbank $pg_database wurde nicht gelöscht." >&2
  fi
  rm -rf "$data" "$data_brevo" "$data_pg"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Waits until the portal answers /healthz; shows its log and fails when it dies first.
wait_healthy() { # <port> <pid> <log>
  for _ in $(seq 1 100); do
    curl -fsS "http://127.0.0.1:$1/healthz" >/dev/null 2>&1 && return 0
    kill -0 "$2" 2>/dev/null || { cat "$3"; echo "Server ist nicht gestartet." >&2; exit 1; }
    sleep 0.2
  done
  cat "$3"
  echo "Server antwortet nicht." >&2
  exit 1
}

# The browser tests sign in as the demo accounts; their passwords come from seed-demo.
unset DATABASE_URL AP_BREVO_API_KEY AP_BREVO_BASE_URL AP_PLANNING_URL

# Portal 1: local mode. Besides the demo accounts, a dealer whose customer number is on no
# list (`fremdhaendler`: must see nothing of the others' packages), printed like seed-demo's.
# AP_BROWSER_ZIP_LIMIT_MB=1: a selection over 1 MiB (the customer test uploads one) takes the
# server-ZIP path of the download manager; the demo files stay below it and zip in the browser.
# The fake planning system (end2end/lib/fake_planning.mjs) for the contact editor's import
# candidates: portal 1 is connected to it, portal 2 is not.
node end2end/lib/fake_planning.mjs > "$data/planning.txt" 2> "$data/planning.log" &
planning_pid=$!
planning_url=""
for _ in $(seq 1 100); do
  planning_url=$(sed -n 's/^FAKE_PLANNING //p' "$data/planning.txt" 2>/dev/null | head -n1)
  [ -n "$planning_url" ] && break
  kill -0 "$planning_pid" 2>/dev/null || { cat "$data/planning.log"; echo "Fake-Planung ist nicht gestartet." >&2; exit 1; }
  sleep 0.1
done
[ -n "$planning_url" ] || { echo "Fake-Planung hat keine Adresse gemeldet." >&2; exit 1; }
export AP_E2E_PLANNING_URL="$planning_url"

# Demo data and the stranger into the portal of the data folder <dir> (and DATABASE_URL, when
# set); the accounts go to <dir>/seed.txt.
seed_local() { # <dir>
  "$bin" --data "$1" seed-demo > "$1/seed.txt"
  local stranger_password
  stranger_password=$(python3 -c 'import secrets; print(secrets.token_urlsafe(12))')
  printf '%s\n' "$stranger_password" | "$bin" --data "$1" user add --login fremdhaendler --password-stdin \
    --roles GS-Aktionsportal --email fremd@example.de --customer-number 100099 --name "Fremder Händler" >/dev/null
  echo "Konto angelegt: Login fremdhaendler, Passwort $stranger_password (Rollen: GS-Aktionsportal)" >> "$1/seed.txt"
}
# A local-mode portal on the data folder <dir> (and DATABASE_URL, when set). Call it with `&`
# only: the portal replaces the background shell, so `$!` is the portal's own pid.
serve_local() { # <dir> <port>
  AP_PRODUCT_NAME="E2E" AP_BROWSER_ZIP_LIMIT_MB=1 AP_PLANNING_URL="$planning_url" AP_PLANNING_TIMEOUT_SECS=2 \
    exec "$bin" --data "$1" serve --addr "127.0.0.1:$2" > "$1/server.log" 2>&1
}

port=$(free_port)
seed_local "$data"
export AP_E2E_ACCOUNTS="$data/seed.txt"
# Without Brevo or SMTP the portal writes its mails as .eml files here (double opt-in test).
export AP_E2E_OUTBOX="$data/outbox"
serve_local "$data" "$port" &
server_pid=$!

# Portal 3: as portal 1, on a fresh PostgreSQL database (only when tests run against it).
if [ ${#postgres_tests[@]} -gt 0 ]; then
  pg_database="ap_test_e2e_$(python3 -c 'import secrets; print(secrets.token_hex(6))')"
  psql "$AP_TEST_POSTGRES_URL" -qc "create database $pg_database" >/dev/null
  # The same server and credentials, the new database as the path.
  pg_url=$(python3 -c 'import sys, urllib.parse as u; p = u.urlsplit(sys.argv[1]); print(u.urlunsplit(p._replace(path="/" + sys.argv[2])))' \
    "$AP_TEST_POSTGRES_URL" "$pg_database")
  port_pg=$(free_port)
  DATABASE_URL="$pg_url" seed_local "$data_pg"
  DATABASE_URL="$pg_url" serve_local "$data_pg" "$port_pg" &
  server_pg_pid=$!
fi

# The fake Brevo: prints `FAKE_BREVO <base_url> <api_key>` once it listens.
"$fake_bin" > "$data_brevo/fake.txt" 2> "$data_brevo/fake.log" &
fake_pid=$!
fake_line=""
for _ in $(seq 1 100); do
  fake_line=$(grep -m1 '^FAKE_BREVO ' "$data_brevo/fake.txt" 2>/dev/null || true)
  [ -n "$fake_line" ] && break
  kill -0 "$fake_pid" 2>/dev/null || { cat "$data_brevo/fake.log"; echo "Fake-Brevo ist nicht gestartet." >&2; exit 1; }
  sleep 0.1
done
[ -n "$fake_line" ] || { echo "Fake-Brevo hat keine Adresse gemeldet." >&2; exit 1; }
read -r _ fake_url fake_key <<< "$fake_line"
# The browser tests put contacts into the fake Brevo through its API (the sync manager test).
export AP_E2E_FAKE_BREVO_URL="$fake_url" AP_E2E_FAKE_BREVO_KEY="$fake_key"

# Portal 2: Brevo mode against the fake. Its seeded providers point at local folder ids the
# fake does not know; the tests in Brevo mode create their own providers. Its upload limit is
# 1 MB, for the refusals of spec §8 (end2end/tests/upload_refusals.test.mjs).
port_brevo=$(free_port)
"$bin" --data "$data_brevo" seed-demo > "$data_brevo/seed.txt"
export AP_E2E_ACCOUNTS_BREVO="$data_brevo/seed.txt"
AP_PRODUCT_NAME="E2E" AP_BREVO_API_KEY="$fake_key" AP_BREVO_BASE_URL="$fake_url" AP_UPLOAD_LIMIT_MB=1 \
  "$bin" --data "$data_brevo" serve --addr "127.0.0.1:$port_brevo" > "$log_brevo" 2>&1 &
server_brevo_pid=$!

wait_healthy "$port" "$server_pid" "$log"
wait_healthy "$port_brevo" "$server_brevo_pid" "$log_brevo"
[ -z "$server_pg_pid" ] || wait_healthy "$port_pg" "$server_pg_pid" "$log_pg"

export AP_BASE_URL="http://127.0.0.1:$port"
export AP_BASE_URL_BREVO="http://127.0.0.1:$port_brevo"
# Arguments (optional) choose test files, e.g. scripts/e2e.sh tests/providers.test.mjs
run_tests() {
  if [ $# -gt 0 ]; then node --test --test-concurrency=1 "$@"; else npm test; fi
}
(cd end2end && npm ci --no-audit --no-fund && run_tests "$@") || {
  echo "--- Server-Log (lokal) ---"
  tail -n 50 "$log"
  echo "--- Server-Log (Brevo) ---"
  tail -n 50 "$log_brevo"
  exit 1
}

# The same files once more against portal 3 (PostgreSQL); the Brevo-mode portal stays the same.
if [ ${#postgres_tests[@]} -gt 0 ]; then
  echo "==> Browser-Tests auf PostgreSQL: ${postgres_tests[*]}"
  (cd end2end && AP_BASE_URL="http://127.0.0.1:$port_pg" AP_E2E_ACCOUNTS="$data_pg/seed.txt" AP_E2E_OUTBOX="$data_pg/outbox" \
    node --test --test-concurrency=1 "${postgres_tests[@]}") || {
    echo "--- Server-Log (PostgreSQL) ---"
    tail -n 50 "$log_pg"
    exit 1
  }
fi
