#!/usr/bin/env bash
# Benchmarks: each figure is a ratio against a reference measured in the same run, written to
# docs/benchmarks.md together with the machine and the date. Not part of the test command.
#
#   scripts/bench.sh            every benchmark
#   scripts/bench.sh pages      only the named ones (pages)
#
# Needs a release build (built here), wrk and python3 (Debian: apt-get install wrk).
set -euo pipefail
cd "$(dirname "$0")/.."

selected=("$@")
[ ${#selected[@]} -eq 0 ] && selected=(pages)
wants() { local name; for name in "${selected[@]}"; do [ "$name" = "$1" ] && return 0; done; return 1; }

for tool in wrk python3; do
  command -v "$tool" >/dev/null || { echo "!! $tool fehlt (apt-get install $tool)" >&2; exit 1; }
done

echo "==> Release-Build"
cargo build --release --locked --bin aktionsportal
bin="${CARGO_TARGET_DIR:-target}/release/aktionsportal"

work=$(mktemp -d)
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Starts the portal on SQLite with the demo data in $work/data; sets $base and $admin_cookie.
start_portal() {
  local port accounts password
  port=$(free_port)
  base="http://127.0.0.1:$port"
  "$bin" --data "$work/data" migrate >/dev/null
  accounts=$("$bin" --data "$work/data" seed-demo)
  password=$(echo "$accounts" | sed -n 's/^Konto angelegt: Login admin, Passwort \([^ ]*\) .*/\1/p')
  RUST_LOG=warn AP_MAX_CONNECTIONS_PER_ADDRESS=1024 "$bin" --data "$work/data" serve --addr "127.0.0.1:$port" \
    >"$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 100); do curl -fs "$base/healthz" >/dev/null && break; sleep 0.1; done
  admin_cookie=$(curl -s -o /dev/null -c - -d "login=admin&password=$password" "$base/api/auth/login" \
    | awk '$6 == "ap_session" { print $7 }')
  [ -n "$admin_cookie" ] || { echo "!! Anmeldung als admin fehlgeschlagen" >&2; exit 1; }
}

# Requests per second of wrk against a URL: rps <connections> <seconds> <url> [header]
rps() {
  local connections=$1 seconds=$2 url=$3 header=${4:-}
  local args=(-t2 -c"$connections" -d"${seconds}s" --latency)
  [ -n "$header" ] && args+=(-H "$header")
  wrk "${args[@]}" "$url" | awk '/Requests\/sec/ { print $2 }'
}

# Each benchmark writes its section into $work/<name>.md; sections of benchmarks not run this
# time stay as they are in docs/benchmarks.md.

if wants pages; then
  echo "==> Seiten unter Last: 50 gleichzeitige angemeldete Nutzer"
  start_portal
  cookie="Cookie: ap_session=$admin_cookie"
  reference=$(rps 50 10 "$base/healthz")
  results="$work/pages.md"
  {
    echo "### Pages at 50 concurrent signed-in users (SQLite, demo data)"
    echo
    echo "Reference: \`/healthz\` (one database round trip, no page): **$reference req/s**."
    echo
    echo "| Page | req/s | ratio to /healthz |"
    echo "|---|---:|---:|"
  } >>"$results"
  for path in /admin/provider/1 /admin/provider/999999 /admin/contacts /admin/downloads /user/downloads /login; do
    value=$(rps 50 10 "$base$path" "$cookie")
    ratio=$(python3 -c "print(f'{$value / $reference:.2f}')")
    echo "   $path: $value req/s ($ratio)"
    echo "| \`$path\` | $value | $ratio |" >>"$results"
  done
  kill "$server_pid"; wait "$server_pid" 2>/dev/null || true; server_pid=""
  rm -rf "$work/data"
fi

machine="$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(free -g | awk '/Mem:/ { print $2 }') GiB RAM, $(uname -sr)"
mkdir -p docs
python3 - "$work" "$machine" <<'PY'
import datetime, pathlib, re, sys
work, machine = pathlib.Path(sys.argv[1]), sys.argv[2]
doc = pathlib.Path("docs/benchmarks.md")
text = doc.read_text() if doc.exists() else (
    "# Benchmarks\n\nWritten by `scripts/bench.sh`; every figure is a ratio against a reference "
    "measured in the same run on the same machine. Each section names when and where it ran.\n")
stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
for section in sorted(work.glob("*.md")):
    name = section.stem
    body = f"<!-- bench:{name} -->\n_Run {stamp} on {machine}; release build._\n\n{section.read_text().rstrip()}\n<!-- /bench:{name} -->"
    pattern = re.compile(rf"<!-- bench:{name} -->.*?<!-- /bench:{name} -->", re.S)
    text = pattern.sub(lambda _: body, text) if pattern.search(text) else text.rstrip() + "\n\n" + body + "\n"
doc.write_text(text)
PY
echo "==> Ergebnisse in docs/benchmarks.md"
