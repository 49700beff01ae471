#!/usr/bin/env bash
# Benchmarks: each figure is a ratio against a reference measured in the same run, written to
# docs/benchmarks.md together with the machine and the date. Not part of the test command.
#
#   scripts/bench.sh                  every benchmark
#   scripts/bench.sh files api        only the named ones (pages, files, zip, upload, api,
#                                     customer-page)
#
#   pages   pages at 50 concurrent signed-in users, against /healthz (demo data)
#   files   a 1 GiB file through the portal against nginx with sendfile: one download, 50 at once
#   zip     the package ZIP (1 GiB file and two small ones) against nginx serving a file as large
#   upload  a 2 GiB upload against dd with fsync to the same disk, and the portal's peak RSS
#   api     the lists (packages for the admin and for a dealer, by name and by file name;
#           contacts with and without search; the contact editor's lookups) and the pages
#           /user/downloads, /admin/downloads/ and /admin/contacts on the large data set
#           (seed-large, measured right after it) at 50 concurrent clients against /healthz,
#           each also alone (right after a change, and kept), and the portal's peak RSS; the
#           statistics of a year and the audit log (issue 24) at 4 concurrent admins; on
#           SQLite, and on PostgreSQL when AP_BENCH_POSTGRES_URL (default
#           postgres://postgres@127.0.0.1:5432/postgres) answers (a throwaway database is used)
#   questions  the lists on the large data set when every request is a new question (issue 41):
#           wrk draws a package number, contact, customer number, page, provider or date range
#           per request (scripts/bench/questions.lua), so no kept answer applies; 50 clients
#           against /healthz, and each question alone (one connection, the slowest of 20
#           different questions); right after seed-large, on SQLite and on PostgreSQL
#   reports the statistics of a year and the audit log on the large data set (issue 24), as
#           at the end of api but without its lists: seed-large, then 4 concurrent admins
#   recording  what counting downloads costs (issue 24): a small file downloaded at 50
#           concurrent clients with the download events recorded (the default) and with
#           AP_STATS_RECORDING=false: the portal's CPU time per 1,000 downloads, and the rate
#   sync    the contact sync of 200,000 contacts from the fake Brevo (examples/fake_brevo) into an
#           empty portal, and again with nothing changed: time against paging through the same
#           contacts directly (curl), Brevo calls per second, and the portal's peak RSS; on SQLite,
#           and on PostgreSQL when it answers
#   instances  downloads of a 64 MiB file on PostgreSQL: from the local folder and from an
#           S3-compatible bucket (moto's server, scripts/moto.sh), and through nginx as load
#           balancer to one and to two portal instances sharing the database and the bucket
#   backup  the archive of a whole installation (issue 25): seed-large on SQLite exported while
#           the portal serves, imported into an empty SQLite and an empty PostgreSQL database,
#           against tar of the stopped data folder (and tar x of it); times, sizes, peak RSS
#   mails   a package's announcement to 50,000 confirmed contacts (issue 37): seed-large on SQLite
#           and on PostgreSQL, with 50,000 confirmed contacts put on one list, a package on it,
#           and its announcement switched on: the time and memory of queueing, the pace of
#           sending (to the outbox) against AP_MAIL_PER_SECOND, and the lists' p99 while it
#           sends against their p99 before
#   kept    the kept answers under attack (issue 34): the demo dealer's session asks the package
#           list with 1,000 random 18-digit provider ids and 1,000 tag ids, new ones every request,
#           from 4 clients for 60 s; the portal's resident memory every 5 s against its size
#           before and the bound of AP_KEPT_ANSWERS_MB (80 MiB)
#   customer-page  the cold load of /user/downloads with 20 rows in headless Chromium: largest
#           contentful paint, layout shift, bytes on the wire and the page's own JavaScript,
#           against the budgets of issue 10 (Chromium and end2end/'s playwright-core needed)
#   phones  the customer page on phones and desktops (issue 21): Lighthouse 13 (npm, installed
#           under ~/.cache) with the mobile and the desktop preset as the demo dealer, axe-core's
#           WCAG 2.2 A/AA rules at 360 and 1,366 px with each dialog open, sideways scrolling and
#           the tour's steps per width, and the time of a preview of each seed PDF and of a
#           10-page brochure on one core against the budget of 500 ms
#
# AP_BENCH_BACKENDS=sqlite or =postgres runs the benchmarks that cover both databases on one of
# them only (default both).
#
# Needs a release build (built here), wrk, curl and python3 (Debian: apt-get install wrk), for
# files and zip Debian's nginx (/usr/sbin/nginx, apt-get install nginx-light), psql for the
# PostgreSQL part of api, and about 12 GB free in the temporary folder. Everything the script
# starts or writes (servers, nginx, the throwaway database, temporary files) is removed on exit,
# also on Ctrl+C; a TERM takes effect when the running measurement has finished.
set -euo pipefail
shopt -s inherit_errexit
cd "$(dirname "$0")/.."

all=(pages files zip upload api questions reports recording customer-page phones sync instances backup kept mails)
selected=("$@")
[ ${#selected[@]} -eq 0 ] && selected=("${all[@]}")
for name in "${selected[@]}"; do
  case " ${all[*]} " in
    *" $name "*) ;;
    *) echo "!! Unbekannter Benchmark: $name (vorhanden: ${all[*]})" >&2; exit 2 ;;
  esac
done
wants() { local name; for name in "${selected[@]}"; do [ "$name" = "$1" ] && return 0; done; return 1; }

for tool in wrk python3 curl; do
  command -v "$tool" >/dev/null || { echo "!! $tool fehlt (apt-get install $tool)" >&2; exit 1; }
done
nginx=/usr/sbin/nginx
if wants files || wants zip || wants instances; then
  [ -x "$nginx" ] || { echo "!! $nginx fehlt (apt-get install nginx-light)" >&2; exit 1; }
fi
pg_admin_url=${AP_BENCH_POSTGRES_URL:-postgres://postgres@127.0.0.1:5432/postgres}
backends=${AP_BENCH_BACKENDS:-both}
# The portal refuses AP_ settings it does not know: the benchmark's own stay in this shell.
unset AP_BENCH_POSTGRES_URL AP_BENCH_BACKENDS

# The portal runs on SQLite unless a benchmark passes a database URL explicitly.
unset DATABASE_URL
export RUST_LOG=warn

echo "==> Release-Build"
cargo build --release --locked --bin aktionsportal
bin="${CARGO_TARGET_DIR:-target}/release/aktionsportal"

work=$(mktemp -d)
server_pid=""
second_pid=""
moto_pid=""
nginx_pid=""
fake_pid=""
pg_db=""
database_url=""
# Extra settings of the next portal started (NAME=value …).
portal_env=()

stop_portal() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
  fi
}

stop_nginx() {
  if [ -n "$nginx_pid" ]; then
    kill "$nginx_pid" 2>/dev/null || true
    wait "$nginx_pid" 2>/dev/null || true
    nginx_pid=""
  fi
}

drop_pg_db() {
  if [ -n "$pg_db" ]; then
    psql -q "$pg_admin_url" -c "drop database if exists $pg_db with (force)" >/dev/null 2>&1 || true
    pg_db=""
  fi
}

cleanup() {
  stop_portal
  stop_nginx
  [ -n "$fake_pid" ] && kill "$fake_pid" 2>/dev/null && wait "$fake_pid" 2>/dev/null
  for pid in $second_pid $moto_pid; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done

  drop_pg_db
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Python one-liners on numbers: calc '<expression>'
calc() { python3 -c "print($1)"; }

# Starts the portal on the data folder $1 (and $database_url, if set); sets $base and $server_pid.
launch_portal() {
  local data=$1 port
  port=$(free_port)
  base="http://127.0.0.1:$port"
  env ${database_url:+DATABASE_URL="$database_url"} AP_MAX_CONNECTIONS_PER_ADDRESS=1024 \
    ${portal_env[@]+"${portal_env[@]}"} "$bin" --data "$data" serve --addr "127.0.0.1:$port" >"$work/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 100); do curl -fs "$base/healthz" >/dev/null && return 0; sleep 0.1; done
  echo "!! Portal startet nicht:" >&2
  cat "$work/server.log" >&2
  exit 1
}

# Signs in and prints the session cookie's value: login <login> <password>
login() {
  local cookie
  cookie=$(curl -s -o /dev/null -c - --data-urlencode "login=$1" --data-urlencode "password=$2" \
    "$base/api/auth/login" | awk '$6 == "ap_session" { print $7 }')
  [ -n "$cookie" ] || { echo "!! Anmeldung als $1 fehlgeschlagen" >&2; exit 1; }
  echo "$cookie"
}

# Starts the portal on SQLite with the demo data in $work/data; sets $base and $admin_cookie.
start_portal() {
  local accounts password
  rm -rf "$work/data"
  "$bin" --data "$work/data" migrate >/dev/null
  accounts=$("$bin" --data "$work/data" seed-demo)
  password=$(echo "$accounts" | sed -n 's/^Konto angelegt: Login admin, Passwort \([^ ]*\) .*/\1/p')
  dealer_password=$(echo "$accounts" | sed -n 's/^Konto angelegt: Login haendler, Passwort \([^ ]*\) .*/\1/p')
  launch_portal "$work/data"
  admin_cookie=$(login admin "$password")
}

# An API call as the admin; prints the answer, fails on a status other than 2xx:
# api <method> <path> [curl arguments…]
api() {
  local method=$1 path=$2 code
  shift 2
  code=$(curl -s -o "$work/api.out" -w '%{http_code}' -X "$method" \
    -H "Cookie: ap_session=$admin_cookie" "$@" "$base$path")
  if [ "${code:0:1}" != 2 ]; then
    echo "!! $method $path: HTTP $code $(head -c 400 "$work/api.out")" >&2
    return 1
  fi
  cat "$work/api.out"
}

# A value of a JSON document on standard input: json <python expression on d>
json() { python3 -c "import json, sys; d = json.load(sys.stdin); print($1)"; }

# Uploads the files as the admin and makes a package of them for the first provider with an
# active list; prints the package (JSON): create_package <name> <file>…
create_package() {
  local name=$1 i=0 file uploaded ids provider list="" body
  shift
  local args=()
  for file in "$@"; do args+=(-F "files[$i]=@$file"); i=$((i + 1)); done
  uploaded=$(api POST /api/upload/ "${args[@]}")
  ids=$(json '",".join(str(u["id"]) for u in d["uploads"])' <<<"$uploaded")
  for provider in $(api GET "/api/providers/?limit=100" | json '" ".join(str(p["id"]) for p in d["content"])'); do
    list=$(api GET "/api/providers/$provider/lists/?limit=100" \
      | json 'next((str(l["id"]) for l in d["content"] if l["active"]), "")')
    [ -n "$list" ] && break
  done
  [ -n "$list" ] || { echo "!! Kein Anbieter mit aktivem Kriterium gefunden" >&2; return 1; }
  body="{\"name\":\"$name\",\"startAt\":\"2026-01-01\",\"endAt\":\"2030-12-31\",\"ProviderId\":$provider,\"listsIds\":[$list],\"uploadsToInsert\":[$ids]}"
  api POST /api/download/ -H 'Content-Type: application/json' -d "$body"
}

# Serves the folder $1 with Debian's nginx (sendfile on) on a free port, as the current user;
# sets $nginx_base and $nginx_pid.
start_nginx() {
  local root=$1 conf="$work/nginx" port user_line=""
  port=$(free_port)
  rm -rf "$conf"
  mkdir -p "$conf"
  # Started as root, nginx would run its workers as nobody, who cannot read the temp folder.
  [ "$(id -u)" -eq 0 ] && user_line="user $(id -un) $(id -gn);"
  cat >"$conf/nginx.conf" <<EOF
$user_line
daemon off;
worker_processes auto;
pid $conf/nginx.pid;
error_log $conf/error.log;
events {}
http {
  access_log off;
  sendfile on;
  client_body_temp_path $conf/body;
  proxy_temp_path $conf/proxy;
  fastcgi_temp_path $conf/fastcgi;
  uwsgi_temp_path $conf/uwsgi;
  scgi_temp_path $conf/scgi;
  server { listen 127.0.0.1:$port; root $root; }
}
EOF
  "$nginx" -p "$conf" -e "$conf/error.log" -c "$conf/nginx.conf" &
  nginx_pid=$!
  nginx_base="http://127.0.0.1:$port"
  for _ in $(seq 1 100); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$nginx_base/")" != 000 ] && return 0
    sleep 0.1
  done
  echo "!! nginx startet nicht:" >&2
  cat "$conf/error.log" >&2
  exit 1
}

# Runs wrk and keeps its report in $work/wrk.out: run_wrk <url> [wrk options…]
run_wrk() {
  local url=$1
  shift
  wrk -t2 "$@" "$url" >"$work/wrk.out"
}

# Requests per second of the last wrk run.
wrk_rps() { awk '/Requests\/sec/ { print $2 }' "$work/wrk.out"; }

# Answers other than 2xx/3xx and socket errors (timeouts included) in the last wrk run (0 when
# wrk reports none).
wrk_bad() {
  awk '/Non-2xx or 3xx responses/ { n += $NF }
       /Socket errors:/ { for (i = 3; i <= NF; i += 2) n += $(i + 1) }
       END { print n + 0 }' "$work/wrk.out"
}

# A latency percentile of the last wrk run (needs --latency) in ms: wrk_latency 50|99
wrk_latency() {
  python3 - "$work/wrk.out" "$1" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
m = re.search(rf"^\s*{sys.argv[2]}%\s+([\d.]+)(us|ms|s|m|h)\s*$", text, re.M)
scale = {"us": 0.001, "ms": 1, "s": 1000, "m": 60000, "h": 3600000}
print(f"{float(m.group(1)) * scale[m.group(2)]:.2f}" if m else "n/a")
PY
}

# Bytes per second transferred in the last wrk run (wrk's Transfer/sec, binary units).
wrk_transfer() {
  python3 - "$work/wrk.out" <<'PY'
import re, sys
m = re.search(r"Transfer/sec:\s+([\d.]+)([KMGT]?B)", open(sys.argv[1]).read())
units = {"B": 0, "KB": 1, "MB": 2, "GB": 3, "TB": 4}
print(int(float(m.group(1)) * 1024 ** units[m.group(2)]) if m else 0)
PY
}

# Requests per second of wrk against a URL: rps <connections> <seconds> <url> [header]
rps() {
  local connections=$1 seconds=$2 url=$3 header=${4:-}
  local args=(-c"$connections" -d"${seconds}s" --latency)
  [ -n "$header" ] && args+=(-H "$header")
  run_wrk "$url" "${args[@]}"
  wrk_rps
}

# The best of three single downloads with curl in bytes/s: best_speed <url> [header]
best_speed() {
  local url=$1 header=${2:-} best=0 code size speed
  local args=(-s -o /dev/null -w '%{http_code} %{size_download} %{speed_download}\n')
  [ -n "$header" ] && args+=(-H "$header")
  for _ in 1 2 3; do
    read -r code size speed < <(curl "${args[@]}" "$url")
    [ "$code" = 200 ] || { echo "!! $url antwortet mit HTTP $code" >&2; return 1; }
    best=$(calc "max($best, $speed)")
  done
  echo "$best"
}

# Bytes/s as MiB/s with one decimal.
mib() { calc "f'{$1 / 1048576:.1f}'"; }

# The portal's peak resident memory so far in MiB (VmHWM).
peak_rss() { awk '/^VmHWM:/ { printf "%.1f\n", $2 / 1024 }' "/proc/$server_pid/status"; }

# 1 GiB of random bytes behind an MP4 header (uploads are checked to fit their extension);
# created once, shared by files, zip and upload.
big="$work/files/Benchmark-Video.mp4"
big_size=$((1024 * 1024 * 1024))
ensure_big_file() {
  [ -f "$big" ] && return 0
  mkdir -p "$work/files"
  echo "   1-GiB-Testdatei wird erzeugt"
  printf '\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom' >"$big"
  head -c $((big_size - 24)) /dev/urandom >>"$big"
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
    ratio=$(calc "f'{$value / $reference:.2f}'")
    echo "   $path: $value req/s ($ratio)"
    echo "| \`$path\` | $value | $ratio |" >>"$results"
  done
  stop_portal
  rm -rf "$work/data"
fi

nginx_version=$("$nginx" -v 2>&1 | sed 's/^nginx version: //' || true)

if wants files; then
  echo "==> Dateien: 1 GiB über das Portal und über nginx"
  ensure_big_file
  start_portal
  cookie="Cookie: ap_session=$admin_cookie"
  echo "   Upload und Paket"
  path=$(create_package "Benchmark-Paket" "$big" | json 'd["Uploads"][0]["path"]')
  portal_url="$base$path"
  start_nginx "$work/files"
  nginx_url="$nginx_base/$(basename "$big")"
  portal_one=$(best_speed "$portal_url" "$cookie")
  nginx_one=$(best_speed "$nginx_url")
  echo "   eine Datei: Portal $(mib "$portal_one") MiB/s, nginx $(mib "$nginx_one") MiB/s"
  run_wrk "$portal_url" -c50 -d15s --timeout 60s -H "$cookie"
  portal_many=$(wrk_transfer)
  portal_bad=$(wrk_bad)
  run_wrk "$nginx_url" -c50 -d15s --timeout 60s
  nginx_many=$(wrk_transfer)
  echo "   50 parallel: Portal $(mib "$portal_many") MiB/s, nginx $(mib "$nginx_many") MiB/s"
  [ "$portal_bad" -eq 0 ] || echo "!! Portal: $portal_bad Antworten ohne 2xx/3xx" >&2
  {
    echo "### Files: one 1 GiB file, portal against nginx"
    echo
    echo "Reference: $nginx_version with \`sendfile on\` serving the same file from the same disk"
    echo "(page cache warm for both). The portal serves \`GET /files/{id}/{name}\` to a signed-in admin."
    echo
    echo "| Measurement | portal | nginx | ratio portal/nginx |"
    echo "|---|---:|---:|---:|"
    echo "| one download (curl, best of 3) | $(mib "$portal_one") MiB/s | $(mib "$nginx_one") MiB/s | $(calc "f'{$portal_one / $nginx_one:.2f}'") |"
    echo "| 50 parallel downloads (wrk -c50 -t2 -d15s, Transfer/sec) | $(mib "$portal_many") MiB/s | $(mib "$nginx_many") MiB/s | $(calc "f'{$portal_many / max($nginx_many, 1):.2f}'") |"
    [ "$portal_bad" -eq 0 ] || { echo; echo "The portal answered $portal_bad requests with a status other than 2xx/3xx."; }
  } >"$work/files.md"
  stop_nginx
  stop_portal
  rm -rf "$work/data"
fi

if wants zip; then
  echo "==> Paket-ZIP: 1 GiB und zwei kleine Dateien, Portal gegen nginx"
  ensure_big_file
  mkdir -p "$work/small"
  printf 'Hinweise zum Benchmark-Paket\n\n- nur für Messungen\n' >"$work/small/Hinweise.txt"
  printf 'Tarif;Preis\nS;19,99\nL;39,99\n' >"$work/small/Preise.csv"
  start_portal
  cookie="Cookie: ap_session=$admin_cookie"
  echo "   Upload und Paket"
  id=$(create_package "Benchmark-ZIP" "$big" "$work/small/Hinweise.txt" "$work/small/Preise.csv" | json 'd["id"]')
  zip_url="$base/api/download/$id/zip"
  zip_size=$(curl -s -I -H "$cookie" "$zip_url" | tr -d '\r' | awk 'tolower($1) == "content-length:" { print $2 }')
  [ -n "$zip_size" ] || { echo "!! ZIP ohne Content-Length" >&2; exit 1; }
  # nginx serves random bytes of exactly the ZIP's length.
  mkdir -p "$work/zipref"
  { cat "$big"; head -c $((zip_size - big_size)) /dev/urandom; } >"$work/zipref/Benchmark.zip"
  start_nginx "$work/zipref"
  portal_zip=$(best_speed "$zip_url" "$cookie")
  nginx_zip=$(best_speed "$nginx_base/Benchmark.zip")
  echo "   ZIP: Portal $(mib "$portal_zip") MiB/s, nginx $(mib "$nginx_zip") MiB/s"
  # The streamed ZIP must be complete and its CRCs right.
  curl -s -H "$cookie" -o "$work/check.zip" "$zip_url"
  zip_check=$(python3 - "$work/check.zip" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    bad = z.testzip()
    print(f"{len(z.namelist())} entries, CRCs correct" if bad is None else f"entry {bad} broken")
PY
  )
  rm -f "$work/check.zip"
  echo "   geprüft: $zip_check"
  {
    echo "### Package ZIP: 1 GiB file and two small files, portal against nginx"
    echo
    echo "The portal streams \`GET /api/download/{id}/zip\` ($zip_size bytes, entries stored,"
    echo "$zip_check). Reference: $nginx_version with \`sendfile on\` serving a file of the same size."
    echo
    echo "| Measurement | portal | nginx | ratio portal/nginx |"
    echo "|---|---:|---:|---:|"
    echo "| one download (curl, best of 3) | $(mib "$portal_zip") MiB/s | $(mib "$nginx_zip") MiB/s | $(calc "f'{$portal_zip / $nginx_zip:.2f}'") |"
  } >"$work/zip.md"
  stop_nginx
  stop_portal
  rm -rf "$work/data" "$work/zipref"
fi

if wants upload; then
  echo "==> Upload: 2 GiB, Portal gegen dd mit fsync"
  ensure_big_file
  big2="$work/files/Benchmark-2GiB.mp4"
  cat "$big" "$big" >"$big2"
  upload_size=$((2 * big_size))
  sync
  start_portal
  rss_before=$(peak_rss)
  portal_up=0
  for _ in 1 2 3; do
    read -r code speed < <(curl -s -o "$work/upload.out" -w '%{http_code} %{speed_upload}\n' \
      -H "Cookie: ap_session=$admin_cookie" -F "files[0]=@$big2" "$base/api/upload/")
    [ "$code" = 200 ] || { echo "!! Upload: HTTP $code $(head -c 400 "$work/upload.out")" >&2; exit 1; }
    portal_up=$(calc "max($portal_up, $speed)")
  done
  rss_after=$(peak_rss)
  dd_up=0
  for _ in 1 2 3; do
    started=$(date +%s.%N)
    dd if="$big2" of="$work/dd.out" bs=1M conv=fsync status=none
    ended=$(date +%s.%N)
    rm -f "$work/dd.out"
    dd_up=$(calc "max($dd_up, $upload_size / ($ended - $started))")
  done
  echo "   Portal $(mib "$portal_up") MiB/s, dd $(mib "$dd_up") MiB/s; Spitzen-RSS $rss_before → $rss_after MiB"
  {
    echo "### Upload: one 2 GiB file, portal against dd"
    echo
    echo "\`curl -F 'files[0]=@file' /api/upload/\` (streamed to disk with SHA-256 and CRC-32, fsync,"
    echo "rename) against \`dd bs=1M conv=fsync\` of the same file to the same disk; best of 3 each."
    echo
    echo "| Measurement | portal | dd | ratio portal/dd |"
    echo "|---|---:|---:|---:|"
    echo "| 2 GiB upload | $(mib "$portal_up") MiB/s | $(mib "$dd_up") MiB/s | $(calc "f'{$portal_up / $dd_up:.2f}'") |"
    echo
    echo "Portal peak RSS (VmHWM): **$rss_before MiB** after start and sign-in, **$rss_after MiB** after three 2 GiB uploads."
  } >"$work/upload.md"
  stop_portal
  rm -rf "$work/data" "$big2"
fi

# Runs a benchmark function on SQLite, then on a throwaway PostgreSQL database when one
# answers (else notes that in its section): on_both_databases <function> <section file>
on_both_databases() {
  local bench=$1 section=$2
  if [ "$backends" = postgres ]; then
    printf '\nPostgreSQL only (AP_BENCH_BACKENDS=postgres).\n' >>"$section"
  else
    "$bench" SQLite ""
  fi
  if [ "$backends" = sqlite ]; then
    printf '\nSQLite only (AP_BENCH_BACKENDS=sqlite).\n' >>"$section"
  elif psql -qAt "$pg_admin_url" -c 'select 1' >/dev/null 2>&1; then
    pg_db="ap_bench_$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
    psql -q "$pg_admin_url" -c "create database $pg_db" >/dev/null
    "$bench" PostgreSQL "${pg_admin_url%/*}/$pg_db"
    drop_pg_db
  else
    echo "   PostgreSQL unter $pg_admin_url nicht erreichbar: nur SQLite"
    printf '\nPostgreSQL was not reachable; SQLite only.\n' >>"$section"
  fi
}

# The slowest of five times (ms) a call takes as the only request (after one untimed request): `alone <cookie> <url> changed`
# makes a change before each (a package's archive state toggled by the admin), so nothing kept
# can answer; `alone <cookie> <url> kept` asks the same again.
alone() {
  local cookie=$1 url=$2 mode=$3 times=()
  # Once untimed: a connection's first use of a statement prepares it.
  curl -s -o /dev/null ${cookie:+-H "Cookie: ap_session=$cookie"} "$base$url"
  for _ in 1 2 3 4 5; do
    if [ "$mode" = changed ]; then
      curl -sf -o /dev/null -X PATCH -H "Cookie: ap_session=$admin" -H "Origin: $base" \
        "$base/api/download/changeArchiveStatus/$toggled"
    fi
    times+=("$(curl -s -o /dev/null -w '%{time_total}' ${cookie:+-H "Cookie: ap_session=$cookie"} "$base$url")")
  done
  calc "f'{max($(IFS=,; echo "${times[*]}")) * 1000:.1f}'"
}

# The statistics of a year and the audit log (issue 24) on the seeded data at 4 concurrent
# admins (the statistics screen is a handful of people's, not a crowd's); appends to api.md:
# reports_bench <label>
reports_bench() {
  local label=$1 out=${2:-$work/api.md} today year_ago range busy file url value p50 p99 bad
  local cold kept met counting
  today=$(TZ=Europe/Berlin date +%F)
  year_ago=$(TZ=Europe/Berlin date -d "$today -364 days" +%F)
  range="from=$year_ago&to=$today"
  busy=$(curl -s -H "Cookie: ap_session=$admin" "$base/api/statistics/summary?$range" | json 'd["topPackages"][0]["id"]')
  # What "after a change" toggles: the oldest package's archive state.
  toggled=$(curl -s -H "Cookie: ap_session=$admin" "$base/api/downloads/?limit=1&sort=ASC" | json 'd["content"][0]["id"]')
  file=$(curl -s -H "Cookie: ap_session=$admin" "$base/api/download/$busy" | json 'd["Uploads"][0]["path"]')
  {
    echo
    echo "#### $label: statistics of a year and the audit log, 4 concurrent admins"
    echo
    echo "10 million download events over 365 days (the last 90 kept as events), 500,000 audit entries over"
    echo "730 days. wrk -c4 -t2 -d10s after a 3 s warm-up. *Alone*: the slowest of five single requests,"
    echo "each right after a change (a package archived or restored, so nothing kept applies and the figures"
    echo "are computed anew), and of five asked again (kept: the summary and the CSVs are kept until the next"
    echo "batch of downloads or change). The rows *while downloads are counted* repeat the crowd while a client"
    echo "downloads a file 20 times a second, so the writer commits a batch, and the kept figures go, every"
    echo "second. Target: p95 < 300 ms, checked as p99 < 300 ms (wrk reports p99, the stricter) and every"
    echo "*alone* < 300 ms."
    echo
    echo "| Call | req/s | p50 | p99 | alone, after a change | alone, kept | target met |"
    echo "|---|---:|---:|---:|---:|---:|:---:|"
  } >>"$out"
  for url in "/api/statistics/summary?$range" \
    "/api/statistics/providers?$range" \
    "/api/statistics/packages/$busy?$range" \
    "/api/statistics/packages/$busy/customers?from=$(TZ=Europe/Berlin date -d "$today -89 days" +%F)&to=$today" \
    "/api/statistics/export.csv?view=files&$range" \
    "/api/statistics/export.csv?view=packages&$range" \
    "/api/audit?limit=50" \
    "/api/audit?limit=50&offset=250000" \
    "/api/audit?entity=package&entityId=4711&limit=50" \
    "/api/audit?actor=redaktion3%40example.com&limit=50" \
    "/api/audit?entity=contact&from=$year_ago&to=$today&limit=50" \
    "/admin/audit" \
    "/admin/audit?entity=contact&page=100" \
    "counting /api/statistics/summary?$range" \
    "counting /api/statistics/export.csv?view=files&$range"; do
    counting=""
    if [ "${url%% *}" = counting ]; then
      url=${url#counting }
      counting=" (while downloads are counted)"
      python3 - "$base$file" "$admin" >/dev/null 2>&1 <<'PY' &
import sys, time, urllib.request
request = urllib.request.Request(sys.argv[1], headers={"Cookie": f"ap_session={sys.argv[2]}"})
due = time.monotonic()
while True:
    with urllib.request.urlopen(request) as answer:
        answer.read()
    due += 0.05
    time.sleep(max(0.0, due - time.monotonic()))
PY
      counting_pid=$!
      sleep 2
    fi
    cold=$(alone "$admin" "$url" changed)
    kept=$(alone "$admin" "$url" kept)
    run_wrk "$base$url" -c4 --latency --timeout 5s -H "Cookie: ap_session=$admin" -d3s # warm-up
    run_wrk "$base$url" -c4 --latency --timeout 5s -H "Cookie: ap_session=$admin" -d10s
    [ -z "$counting" ] || { kill "$counting_pid"; wait "$counting_pid" 2>/dev/null || true; }
    value=$(wrk_rps)
    p50=$(wrk_latency 50)
    p99=$(wrk_latency 99)
    bad=$(wrk_bad)
    met=$(calc "'yes' if '$p99' != 'n/a' and float('$p99') < 300 and max($cold, $kept) < 300 and $bad == 0 else 'no'")
    echo "   $url$counting: $value req/s, p50 $p50 ms, p99 $p99 ms, alone $cold / $kept ms"
    [ "$bad" -eq 0 ] || echo "!! $url: $bad Antworten ohne 2xx/3xx" >&2
    echo "| \`${url//|/%7C}\`$counting | $value | $p50 ms | $p99 ms | $cold ms | $kept ms | $met |" >>"$out"
  done
}

# Seeds the large data set on the backend named $1 (database URL $2, empty for SQLite),
# serves it and measures both package lists at 50 concurrent clients; appends to api.md.
api_bench() {
  local label=$1 data="$work/large" output started seeded admin_password dealer_password
  local dealer reference row url cookie who value p50 p99 bad met note args kind changed kept
  database_url=$2
  rm -rf "$data"
  echo "   $label: seed-large"
  started=$(date +%s.%N)
  output=$(env ${database_url:+DATABASE_URL="$database_url"} "$bin" --data "$data" seed-large)
  seeded=$(calc "f'{$(date +%s.%N) - $started:.0f}'")
  admin_password=$(sed -n 's/^Konto angelegt: Login bench-admin, Passwort \([^ ]*\) .*/\1/p' <<<"$output")
  dealer_password=$(sed -n 's/^Konto angelegt: Login bench-haendler, Passwort \([^ ]*\) .*/\1/p' <<<"$output")
  launch_portal "$data"
  admin=$(login bench-admin "$admin_password")
  dealer=$(login bench-haendler "$dealer_password")
  # The package whose archive state the "after a change" timings toggle: the oldest one.
  toggled=$(curl -s -H "Cookie: ap_session=$admin" "$base/api/downloads/?limit=1&sort=ASC" | json 'd["content"][0]["id"]')
  {
    echo
    echo "#### $label"
    echo
    echo "\`seed-large\` took $seeded s; the measurements start right after it."
    echo
    echo "| Call | req/s | ratio to /healthz | p50 | p99 | alone, after a change | alone, kept | targets met |"
    echo "|---|---:|---:|---:|---:|---:|---:|:---:|"
  } >>"$work/api.md"
  reference=""
  # A contact in the middle of the 200,000: the contact editor's duplicate check and its group.
  local sample email number
  sample=$(curl -s -H "Cookie: ap_session=$admin" "$base/api/contacts?limit=1&offset=100000&sortBy=id")
  email=$(json 'd["content"][0]["email"]' <<<"$sample")
  number=$(json 'd["content"][0]["customerNumber"]' <<<"$sample")
  for row in "/healthz||" \
    "/api/downloads/?limit=20&offset=0|$admin|bench-admin" \
    "/api/downloads/contact/?limit=20&offset=0|$dealer|bench-haendler" \
    "/api/downloads/contact/?limit=20&offset=0&search=Aktion|$dealer|bench-haendler" \
    "/api/downloads/contact/?limit=20&offset=0&search=flyer&searchMethode=byFilename|$dealer|bench-haendler" \
    "/api/contacts?limit=20&offset=0|$admin|bench-admin" \
    "/api/contacts?limit=20&offset=0&search=kunde2249|$admin|bench-admin" \
    "/api/contacts/email/$email|$admin|bench-admin" \
    "/api/contacts/customer-number/$number|$admin|bench-admin" \
    "/user/downloads|$dealer|bench-haendler" \
    "/admin/downloads/|$admin|bench-admin" \
    "/admin/contacts|$admin|bench-admin"; do
    IFS='|' read -r url cookie who <<<"$row"
    kind=api
    [[ $url == /api/* ]] || kind=page
    [ "$url" = /healthz ] && kind=reference
    changed=$(alone "$cookie" "$url" changed)
    kept=$(alone "$cookie" "$url" kept)
    args=(-c50 --latency --timeout 2s)
    [ -n "$cookie" ] && args+=(-H "Cookie: ap_session=$cookie")
    run_wrk "$base$url" "${args[@]}" -d3s # warm-up
    run_wrk "$base$url" "${args[@]}" -d15s
    value=$(wrk_rps)
    p50=$(wrk_latency 50)
    p99=$(wrk_latency 99)
    bad=$(wrk_bad)
    [ -n "$reference" ] || reference=$value
    # API: p99 < 20 ms and a quarter of /healthz's rate; pages: p99 < 50 ms; every call alone
    # under 20 ms; no answer other than 2xx/3xx, no timeout.
    met=$(calc "'yes' if '$p99' != 'n/a' and $bad == 0 and $changed < 20 and $kept < 20 and (
      ('$kind' == 'api' and float('$p99') < 20 and $value >= 0.25 * $reference)
      or ('$kind' == 'page' and float('$p99') < 50) or '$kind' == 'reference') else 'no'")
    note=""
    [ "$bad" -eq 0 ] || note=" ($bad answers not 2xx/3xx or timed out)"
    echo "   $url${who:+ ($who)}: $value req/s, p50 $p50 ms, p99 $p99 ms, alone $changed / $kept ms"
    [ "$bad" -eq 0 ] || echo "!! $url: $bad Antworten ohne 2xx/3xx" >&2
    echo "| \`$url\`${who:+ as $who}$note | $value | $(calc "f'{$value / $reference:.2f}'") | $p50 ms | $p99 ms | $changed ms | $kept ms | $met |" >>"$work/api.md"
  done
  reports_bench "$label"
  printf '\nPortal peak RSS (VmHWM) over the whole run: **%s MiB** (target: under 200 MiB).\n' "$(peak_rss)" >>"$work/api.md"
  stop_portal
  rm -rf "$data"
  database_url=""
}

if wants api; then
  echo "==> Listen und Seiten auf dem großen Datensatz (seed-large), 50 gleichzeitige Clients"
  {
    echo "### Lists and pages on the large data set at 50 concurrent clients"
    echo
    echo "\`seed-large\`: 200 providers, 2,000 lists, 20,000 packages, 100,000 files, 200,000 contacts."
    echo "\`bench-admin\` sees every package; \`bench-haendler\`'s contacts are on 30 lists. The contact"
    echo "lookups are the contact editor's duplicate check (by email) and its customer group, for a contact in"
    echo "the middle. wrk -c50 -t2 -d15s --timeout 2s after a 3 s warm-up; \`/healthz\` (one database round"
    echo "trip) is the reference. *Alone*: the slowest of five single requests, each right after a change"
    echo "(a package archived or restored by the admin, so no kept answer applies), and of five asked again."
    echo "Targets: API calls p99 < 20 ms and at least 0.25 × \`/healthz\`'s rate; pages p99 < 50 ms;"
    echo "every call alone < 20 ms; no answer other than 2xx/3xx and no timeout."
  } >"$work/api.md"
  on_both_databases api_bench "$work/api.md"
fi

# The largest latency of the last wrk run in ms (its "Max" column).
wrk_max() {
  python3 - "$work/wrk.out" <<'PY'
import re, sys
m = re.search(r"^\s*Latency\s+\S+\s+\S+\s+([\d.]+)(us|ms|s|m)\s", open(sys.argv[1]).read(), re.M)
scale = {"us": 0.001, "ms": 1, "s": 1000, "m": 60000}
print(f"{float(m.group(1)) * scale[m.group(2)]:.2f}" if m else "n/a")
PY
}

# wrk with a new question per request (scripts/bench/questions.lua): ask <template> <cookie>
# [wrk options…]; the report lands in $work/wrk.out.
ask() {
  local template=$1 cookie=$2
  shift 2
  AP_QUESTION="$template" AP_COOKIE="$cookie" wrk -s scripts/bench/questions.lua "$@" "$base/" >"$work/wrk.out"
}

# seed-large on the backend named $1 (database URL $2, empty for SQLite), then every list with
# a new question per request: 50 clients, and alone; appends to questions.md.
questions_bench() {
  local label=$1 data="$work/large" output started seeded admin_password dealer_password
  local dealer_count row template cookie what kind value p50 p99 bad alone met note reference=""
  database_url=$2
  rm -rf "$data"
  echo "   $label: seed-large"
  started=$(date +%s.%N)
  output=$(env ${database_url:+DATABASE_URL="$database_url"} "$bin" --data "$data" seed-large)
  seeded=$(calc "f'{$(date +%s.%N) - $started:.0f}'")
  admin_password=$(sed -n 's/^Konto angelegt: Login bench-admin, Passwort \([^ ]*\) .*/\1/p' <<<"$output")
  dealer_password=$(sed -n 's/^Konto angelegt: Login bench-haendler, Passwort \([^ ]*\) .*/\1/p' <<<"$output")
  # No whole answer is kept: a question space of a few thousand pages is asked several times
  # within a run, and kept answers must not answer the repeats. What answers are made of
  # (packages, list orders, totals, bookmarks) is kept, as in production.
  portal_env=("AP_KEEP_WHOLE_ANSWERS=false")
  launch_portal "$data"
  portal_env=()
  admin=$(login bench-admin "$admin_password")
  dealer=$(login bench-haendler "$dealer_password")
  dealer_count=$(curl -s -H "Cookie: ap_session=$dealer" "$base/api/downloads/contact/?limit=1" | json 'd["count"]')
  {
    echo
    echo "#### $label"
    echo
    echo "\`seed-large\` took $seeded s; the measurements start right after it. \`bench-haendler\` sees $dealer_count packages."
    echo
    echo "| Question (new every request) | req/s | ratio to /healthz | p50 | p99 | alone (slowest of 20) | targets met |"
    echo "|---|---:|---:|---:|---:|---:|:---:|"
  } >>"$work/questions.md"
  for row in "/healthz||reference" \
    "/api/downloads/contact/?limit=20&offset=0&search=Nr.%20{n:5:9999}|$dealer|dealer list, search by name \`Nr. 0xxxx\`" \
    "/api/downloads/contact/?limit=20&offset=0&searchMethode=byFilename&search=Nr.%20{n:5:9999}|$dealer|dealer list, search by file name \`Nr. 0xxxx\`" \
    "/api/downloads/contact/?limit={between:35:45}&offset={between:0:$dealer_count}&sortBy=name&sort=ASC|$dealer|dealer list sorted by name, random page of about 40" \
    "/api/contacts?limit=20&offset=0&search=kontakt{n:6:99999}|$admin|contact search \`kontakt0xxxxx\` (admin)" \
    "/api/contacts?limit=20&offset=0&search=2{n:5:49999}|$admin|contact search by customer number (admin)" \
    "/api/contacts?limit=20&offset=0&search={company}|$admin|contact search by company \`Weber-Schmidt Energieberatung\` (admin)" \
    "/api/contacts?limit={between:15:25}&offset={between:0:199980}|$admin|contact list, random page up to offset 199,980 (admin)" \
    "/api/contacts?limit={between:15:25}&offset={between:0:199980}&sortBy=lastname&sort=ASC|$admin|contact list sorted by last name, random page (admin)" \
    "/api/downloads/?limit={between:15:25}&offset={between:0:18000}&sortBy=startAt&sort=ASC|$admin|admin package list sorted by start, random page up to offset 18,000" \
    "/api/downloads/?limit=20&offset=0&search=Nr.%20{n:5:9999}|$admin|admin package list, search \`Nr. 0xxxx\`" \
    "/api/providers/{n:0:200}/lists?limit=20&offset=0&search=Marke%20{n:3:200}|$admin|criteria lists of a random provider, search \`Marke xxx\`" \
    "/api/statistics/summary?{range}|$admin|statistics summary, random range of up to a year" \
    "/api/audit?limit=20&offset=0&entity=package&entityId={n:0:20000}|$admin|Protokoll filtered by a random package"; do
    IFS='|' read -r template cookie what <<<"$row"
    kind=list
    [ "$what" = reference ] && kind=reference
    [[ $template == /api/statistics/* ]] && kind=statistics
    # Five untimed questions first: a connection's first use of a statement prepares it.
    AP_STOP_AFTER=5 ask "$template" "$cookie" -t1 -c1 -d3s --timeout 5s
    AP_STOP_AFTER=20 ask "$template" "$cookie" -t1 -c1 -d10s --latency --timeout 5s
    alone=$(wrk_max)
    ask "$template" "$cookie" -t2 -c50 -d3s --latency --timeout 2s # warm-up
    ask "$template" "$cookie" -t2 -c50 -d15s --latency --timeout 2s
    value=$(wrk_rps)
    p50=$(wrk_latency 50)
    p99=$(wrk_latency 99)
    bad=$(wrk_bad)
    [ -n "$reference" ] || reference=$value
    # Lists: p99 < 50 ms and at least 0.1 x /healthz; the statistics: p99 < 300 ms (the issue's
    # p95, checked stricter); every question alone < 10 ms; no error and no timeout.
    met=$(calc "'yes' if '$p99' != 'n/a' and '$alone' != 'n/a' and $bad == 0 and (
      ('$kind' == 'list' and float('$p99') < 50 and $value >= 0.1 * $reference and float('$alone') < 10)
      or ('$kind' == 'statistics' and float('$p99') < 300) or '$kind' == 'reference') else 'no'")
    echo "   $what: $value req/s, p50 $p50 ms, p99 $p99 ms, alone $alone ms"
    [ "$bad" -eq 0 ] || echo "!! $what: $bad Antworten ohne 2xx/3xx oder Zeitüberschreitungen" >&2
    [ "$kind" = reference ] && what="\`/healthz\` (reference)"
    note=""
    [ "$bad" -eq 0 ] || note=" ($bad errors or timeouts)"
    echo "| $what$note | $value | $(calc "f'{$value / $reference:.2f}'") | $p50 ms | $p99 ms | $alone ms | $met |" >>"$work/questions.md"
  done
  # The tail under a burst: /healthz from 5 clients while 45 ask the slowest list.
  AP_QUESTION="/api/statistics/summary?{range}" AP_COOKIE="$admin" wrk -s scripts/bench/questions.lua \
    -t1 -c45 -d14s --timeout 5s "$base/" >"$work/wrk-burst.out" &
  local burst=$!
  sleep 3
  wrk -t1 -c5 -d8s --latency --timeout 5s "$base/healthz" >"$work/wrk.out"
  wait "$burst"
  printf '\n`/healthz` from 5 clients while 45 ask the statistics summary: %s req/s, p99 %s ms.\n' \
    "$(wrk_rps)" "$(wrk_latency 99)" >>"$work/questions.md"
  printf '\nPortal peak RSS (VmHWM) over the run: %s MiB.\n' "$(peak_rss)" >>"$work/questions.md"
  stop_portal
  rm -rf "$data"
  database_url=""
}

if wants questions; then
  echo "==> Jede Anfrage eine neue Frage: die Listen auf dem großen Datensatz, 50 Clients"
  {
    echo "### Every request a new question: the lists on the large data set at 50 clients"
    echo
    echo "Issue 41. wrk draws the question of every request anew (\`scripts/bench/questions.lua\`: a"
    echo "package number, contact, customer number, page, provider or date range), so no kept answer"
    echo "applies. wrk -c50 -t2 -d15s --timeout 2s after a 3 s warm-up; \`/healthz\` (one database round"
    echo "trip) is the reference. *Alone*: one connection, the slowest of 20 different questions (or of those"
    echo "asked within 10 s). Pages have a random size and offset, and the portal keeps no whole answer"
    echo "(\`AP_KEEP_WHOLE_ANSWERS=false\`): a question drawn twice is made twice, from the kept parts"
    echo "(packages, list orders, totals, bookmarks) as in production."
    echo "Targets: lists p99 < 50 ms, at least 0.1 x \`/healthz\`, alone < 10 ms; the statistics p95 <"
    echo "300 ms (checked as p99); no error and no timeout."
  } >"$work/questions.md"
  on_both_databases questions_bench "$work/questions.md"
fi

# seed-large on the backend named $1 (database URL $2, empty for SQLite), then the statistics
# and audit log rows of reports_bench; appends to reports.md.
reports_only() {
  local label=$1 data="$work/large" output admin_password
  database_url=$2
  rm -rf "$data"
  echo "   $label: seed-large"
  output=$(env ${database_url:+DATABASE_URL="$database_url"} "$bin" --data "$data" seed-large)
  admin_password=$(sed -n 's/^Konto angelegt: Login bench-admin, Passwort \([^ ]*\) .*/\1/p' <<<"$output")
  launch_portal "$data"
  admin=$(login bench-admin "$admin_password")
  reports_bench "$label" "$work/reports.md"
  stop_portal
  rm -rf "$data"
  database_url=""
}

if wants reports; then
  echo "==> Statistik eines Jahres und Protokoll auf dem großen Datensatz, 4 gleichzeitige Admins"
  {
    echo "### Statistics of a year and the audit log on the large data set"
    echo
    echo "\`seed-large\` as for the lists above, measured right after it."
  } >"$work/reports.md"
  on_both_databases reports_only "$work/reports.md"
fi

# CPU seconds the portal process has used so far (user and system).
cpu_seconds() {
  awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) / hz }' "/proc/$server_pid/stat"
}

# Downloads of a small file at 50 concurrent clients for 15 s; prints "<req/s> <requests>
# <CPU seconds per 1,000 downloads>": recording_run <url> <cookie>
recording_run() {
  local url=$1 cookie=$2 before after requests
  run_wrk "$url" -c50 -d3s -H "Cookie: ap_session=$cookie" # warm-up
  before=$(cpu_seconds)
  run_wrk "$url" -c50 -d15s -H "Cookie: ap_session=$cookie"
  after=$(cpu_seconds)
  [ "$(wrk_bad)" -eq 0 ] || echo "!! $url: $(wrk_bad) Antworten ohne 2xx/3xx" >&2
  requests=$(awk '/requests in/ { print $1 }' "$work/wrk.out")
  echo "$(wrk_rps) $requests $(calc "f'{($after - $before) / $requests * 1000:.4f}'")"
}

if wants recording; then
  echo "==> Zählen der Downloads: eine kleine Datei mit und ohne Download-Ereignisse"
  mkdir -p "$work/small"
  { printf '%%PDF-1.4\n'; head -c 65527 /dev/urandom; } >"$work/small/Flyer-64k.pdf"
  results=()
  for recording in true false; do
    portal_env=("AP_STATS_RECORDING=$recording")
    start_portal
    path=$(create_package "Benchmark-Zaehlung" "$work/small/Flyer-64k.pdf" | json 'd["Uploads"][0]["path"]')
    # The admin's session downloads (a signed-in user; the events name it).
    read -r value requests per_thousand < <(recording_run "$base$path" "$admin_cookie")
    echo "   Zählen $recording: $value Downloads/s, $requests Downloads, $per_thousand CPU-s je 1000"
    results+=("$value" "$requests" "$per_thousand")
    stop_portal
    rm -rf "$work/data"
  done
  portal_env=()
  python3 - "${results[@]}" >"$work/recording.md" <<'PY'
import sys
on_rate, on_n, on_cpu, off_rate, off_n, off_cpu = map(float, sys.argv[1:])
extra = on_cpu / off_cpu - 1
print("### Counting downloads: a 64 KiB file with and without download events")
print()
print("The same portal (SQLite, demo data) serves `GET /files/{id}/{name}` to a signed-in admin at 50")
print("concurrent clients (wrk -c50 -t2 -d15s after a 3 s warm-up), once with download events recorded")
print("(the default) and once with `AP_STATS_RECORDING=false`. CPU: the portal process's user and")
print("system time (`/proc/<pid>/stat`) over the run, per 1,000 downloads; the writer and SQLite run in")
print("the same process, so their work is in it. Per download, so it holds at 1,000 downloads per")
print("second as at this rate. Target: recording adds less than 10 % CPU over serving.")
print()
print("| Measurement | recording on | recording off | ratio on/off |")
print("|---|---:|---:|---:|")
print(f"| downloads per second | {on_rate:.0f} | {off_rate:.0f} | {on_rate / off_rate:.2f} |")
print(f"| CPU seconds per 1,000 downloads | {on_cpu:.4f} | {off_cpu:.4f} | {on_cpu / off_cpu:.2f} |")
print()
print(f"Recording adds **{extra * 100:.1f} %** CPU per download: target {'met' if extra < 0.10 else 'not met'}.")
PY
fi

if wants customer-page; then
  echo "==> Kundenseite: kalter Aufruf von /user/downloads mit 20 Zeilen in Chromium"
  [ -f islands/dist/.vite/manifest.json ] || (cd islands && npm ci --no-audit --no-fund && npm run build)
  [ -d end2end/node_modules/playwright-core ] || (cd end2end && npm ci --no-audit --no-fund)
  start_portal
  # The demo dealer sees 5 packages; 15 more on one of its lists (sharing the files of a demo
  # package) make a full first page of 20 rows.
  provider=$(api GET "/api/providers/?limit=100" | json 'next(p["id"] for p in d["content"] if p["name"] == "Glasfaser Süd")')
  list=$(api GET "/api/providers/$provider/lists/?limit=100&activeStatus=true&inactiveStatus=true" \
    | json 'next(l["id"] for l in d["content"] if l["name"] == "Glasfaser Privatkunden")')
  uploads=$(api GET "/api/downloads/?limit=1&search=Glasfaser-Sommeraktion" \
    | json '",".join(str(u["id"]) for u in d["content"][0]["Uploads"])')
  for i in $(seq -w 1 15); do
    api POST /api/download/ -H 'Content-Type: application/json' \
      -d "{\"name\":\"Aktion Nummer $i mit Flyer und Banner\",\"startAt\":\"2026-01-01\",\"endAt\":\"2030-12-31\",\"ProviderId\":$provider,\"listsIds\":[$list],\"uploadsToInsert\":[$uploads]}" >/dev/null
  done
  (cd end2end && AP_BASE_URL="$base" AP_BENCH_LOGIN=haendler AP_BENCH_PASSWORD="$dealer_password" \
    AP_BENCH_ASSETS="$PWD/../islands/dist/assets" node bench/customer_page.mjs 5) >"$work/customer.json"
  python3 - "$work/customer.json" >"$work/customer-page.md" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))
kb = lambda b: f"{b / 1000:.1f} KB"
rows = [
    ("Largest contentful paint (median of %d cold loads)" % m["runs"], f'{m["lcpMs"]:.0f} ms', "300 ms", m["lcpMs"] / 300),
    ("Layout shift (largest of the loads, island take-over included)", f'{m["cls"]:.3f}', "0", None),
    ("Bytes transferred (cold load, returning user)", kb(m["transferBytes"]), "250 KB", m["transferBytes"] / 250_000),
    ("Page's own JavaScript, gzip (loader, table, shared chunks)", kb(m["scriptGzipBytes"]), "100 KB", m["scriptGzipBytes"] / 100_000),
]
print("### Customer page: cold load of `/user/downloads` with 20 rows (headless Chromium, loopback)")
print()
print(f'Demo dealer with {m["rows"]} rows on the first page, a new browser context (empty cache) per load,')
print("signed in through the API before the page is opened; the tour's completion flag is set (a returning")
print("user: the tour and the download manager load only when used). Budgets of issue 10; ratio = measured / budget.")
print()
print("| Measurement | measured | budget | ratio |")
print("|---|---:|---:|---:|")
for name, value, budget, ratio in rows:
    print(f"| {name} | {value} | {budget} | {'-' if ratio is None else f'{ratio:.2f}'} |")
print()
print("The island's take-over moves nothing (its markup is the server's); a layout shift that remains comes from")
print("the icon font arriving (glyph boxes settle by a pixel or two; icons are fixed at 1em wide).")
print()
print(f'LCP element: `{m["lcpElement"]}`; slowest of the loads {m["lcpMaxMs"]:.0f} ms. A first visit (the tour starts and loads its chunk):')
print(f'{kb(m["firstVisitTransferBytes"])} transferred, LCP {m["firstVisitLcpMs"]:.0f} ms.')
print()
print("| Largest transfers | type | encoding | bytes |")
print("|---|---|---|---:|")
for r in m["largest"]:
    print(f'| `{r["name"]}` | {r["type"]} | {r["encoding"] or "none"} | {r["bytes"]} |')
print()
print("Transferred by type: " + ", ".join(f"{k} {kb(v)}" for k, v in sorted(m["transferByType"].items(), key=lambda kv: -kv[1])) + ".")
PY
  cat "$work/customer-page.md" | sed -n '8,14p'
  stop_portal
  rm -rf "$work/data"
fi

if wants phones; then
  echo "==> Kundenseite auf Telefon und Desktop: Lighthouse, axe, Vorschauen"
  [ -f islands/dist/.vite/manifest.json ] || (cd islands && npm ci --no-audit --no-fund && npm run build)
  [ -d end2end/node_modules/axe-core ] || (cd end2end && npm ci --no-audit --no-fund)
  lighthouse_dir="${XDG_CACHE_HOME:-$HOME/.cache}/aktionsportal/lighthouse-13"
  if [ ! -x "$lighthouse_dir/node_modules/.bin/lighthouse" ]; then
    mkdir -p "$lighthouse_dir"
    (cd "$lighthouse_dir" && echo '{"private":true}' >package.json \
      && npm install --no-audit --no-fund --silent lighthouse@13 >/dev/null)
  fi
  start_portal
  dealer_cookie=$(login haendler "$dealer_password")
  for preset in mobile desktop; do
    for run in 1 2 3; do
      flags=()
      [ "$preset" = desktop ] && flags=(--preset=desktop)
      CHROME_PATH=/usr/bin/chromium "$lighthouse_dir/node_modules/.bin/lighthouse" "$base/user/downloads" \
        --quiet --output=json --output-path="$work/lighthouse-$preset-$run.json" "${flags[@]}" \
        --only-categories=performance,accessibility,best-practices \
        --extra-headers="{\"Cookie\":\"ap_session=$dealer_cookie\"}" \
        --chrome-flags="--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run --disable-quic"
    done
  done
  (cd end2end && AP_BASE_URL="$base" AP_BENCH_LOGIN=haendler AP_BENCH_PASSWORD="$dealer_password" \
    node bench/phones.mjs) >"$work/phones.json"
  # A 10-page brochure: on each page a coloured band, a headline and body text in Helvetica.
  python3 - "$work/brochure.pdf" <<'PY'
import sys
pages, objects = 10, ["<< /Type /Catalog /Pages 2 0 R >>", None, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
kids = []
for n in range(pages):
    text = "".join(f"BT /F1 11 Tf 50 {640 - 16 * line} Td (Zeile {line + 1}: Jetzt wechseln und von unseren Aktionspreisen profitieren.) Tj ET\n" for line in range(30))
    stream = f"0.{n} 0.3 0.7 rg 0 742 595 100 re f\nBT /F1 28 Tf 50 780 Td 1 1 1 rg (Broschuere Seite {n + 1}) Tj ET\n0 0 0 rg\n{text}"
    objects.append(f"<< /Length {len(stream)} >>\nstream\n{stream}endstream")
    objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents {len(objects)} 0 R >>")
    kids.append(f"{len(objects)} 0 R")
objects[1] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {pages} >>"
out, offsets = b"%PDF-1.4\n", []
for i, body in enumerate(objects):
    offsets.append(len(out))
    out += f"{i + 1} 0 obj\n{body}\nendobj\n".encode("latin-1")
xref = len(out)
out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode() + b"".join(f"{o:010} 00000 n \n".encode() for o in offsets)
out += f"trailer << /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
open(sys.argv[1], "wb").write(out)
PY
  # The previews of each PDF on one core: the whole child process, five runs, the median.
  python3 - "$bin" "$work/previews.json" assets/seed/*.pdf "$work/brochure.pdf" <<'PY'
import json, os, statistics, struct, subprocess, sys, time
binary, out, pdfs = sys.argv[1], sys.argv[2], sys.argv[3:]
result = []
for pdf in pdfs:
    data = open(pdf, "rb").read()
    times = []
    for _ in range(5):
        started = time.perf_counter()
        done = subprocess.run(["taskset", "-c", "0", binary, "preview-render", "--kind", "pdf", "--memory-mb", "1024", "--cpu-secs", "20"],
                              input=data, capture_output=True, check=True)
        times.append((time.perf_counter() - started) * 1000)
    width, height, length = struct.unpack("<III", done.stdout[:12])
    result.append({"name": os.path.basename(pdf), "bytes": len(data), "ms": statistics.median(times), "thumb": [width, height, length]})
json.dump(result, open(out, "w"))
PY
  python3 - "$work" >"$work/phones.md" <<'PY'
import json, pathlib, statistics, sys
work = pathlib.Path(sys.argv[1])
def scores(preset):
    runs = [json.load(open(work / f"lighthouse-{preset}-{n}.json")) for n in (1, 2, 3)]
    return {c: statistics.median(r["categories"][c]["score"] for r in runs) for c in ("performance", "accessibility", "best-practices")}, runs
print("### Customer page on phones and desktops: Lighthouse, axe-core, previews")
print()
print("Demo dealer on `/user/downloads` (a first visit: the tour starts), release build, loopback, Debian's Chromium.")
print("Lighthouse 13, median of 3 runs per preset (mobile: simulated slow 4G and a 4× slower CPU); targets of issue 21.")
print()
print("| Lighthouse | mobile | desktop | target |")
print("|---|---:|---:|---:|")
mobile, mobile_runs = scores("mobile")
desktop, desktop_runs = scores("desktop")
targets = {"performance": "≥ 0.95", "accessibility": "1.00", "best-practices": "1.00"}
for c in ("performance", "accessibility", "best-practices"):
    print(f"| {c.replace('-', ' ').capitalize()} | {mobile[c]:.2f} | {desktop[c]:.2f} | {targets[c]} |")
lcp = statistics.median(r["audits"]["largest-contentful-paint"]["numericValue"] for r in mobile_runs)
cls = max(r["audits"]["cumulative-layout-shift"]["numericValue"] for r in mobile_runs)
print()
print(f"Mobile: largest contentful paint {lcp / 1000:.1f} s (simulated), layout shift {cls:.3f}.")
below = sorted({a["id"] for r in mobile_runs + desktop_runs for a in r["audits"].values()
                if a.get("scoreDisplayMode") == "binary" and a.get("score") == 0})
if below:
    print("Failed audits (any run): " + ", ".join(f"`{a}`" for a in below) + ".")
q = json.load(open(work / "phones.json"))
print()
print("| axe-core, WCAG 2.0–2.2 A/AA | page | filters | download manager | preview | tour |")
print("|---|---:|---:|---:|---:|---:|")
for width, found in q["axe"].items():
    print(f"| {width} px | " + " | ".join(str(len(found[k])) for k in ("page", "filters", "manager", "preview", "tour")) + " |")
named = sorted({v for found in q["axe"].values() for vs in found.values() for v in vs})
if named:
    print()
    print("Violations: " + ", ".join(named) + ".")
print()
print("Sideways scrolling (scroll width − client width, px): " + ", ".join(f"{w} px: {v}" for w, v in q["sideways"].items()) + ".")
print("Tour steps shown: " + ", ".join(f"{w} px: {v} of 20" for w, v in q["tourSteps"].items()) + ".")
print()
print("| Preview of the first page (child process on one core, median of 5) | file | time | budget | ratio | thumbnail |")
print("|---|---:|---:|---:|---:|---:|")
for p in json.load(open(work / "previews.json")):
    w, h, n = p["thumb"]
    label = "10-page brochure" if p["name"] == "brochure.pdf" else f"`assets/seed/{p['name']}`"
    print(f"| {label} | {p['bytes'] / 1024:.0f} KiB | {p['ms']:.0f} ms | 500 ms | {p['ms'] / 500:.2f} | {w} × {h}, {n / 1024:.1f} KB |")
PY
  sed -n '5,12p' "$work/phones.md"
  stop_portal
  rm -rf "$work/data"
fi

# The sync of $sync_contacts contacts from the fake Brevo into an empty portal: sync_bench <label> [database URL]
sync_bench() {
  local label=$1 data="$work/sync-data" accounts password cookie started first second rss_start rss
  local lines calls
  database_url=$2
  rm -rf "$data"
  env ${database_url:+DATABASE_URL="$database_url"} "$bin" --data "$data" migrate >/dev/null
  accounts=$(env ${database_url:+DATABASE_URL="$database_url"} "$bin" --data "$data" seed-demo)
  password=$(echo "$accounts" | sed -n 's/^Konto angelegt: Login admin, Passwort \([^ ]*\) .*/\1/p')
  AP_BREVO_API_KEY="$fake_key" AP_BREVO_BASE_URL="$fake_url" launch_portal "$data"
  cookie=$(login admin "$password")
  rss_start=$(peak_rss)
  started=$(date +%s.%N)
  curl -sN -H "Cookie: ap_session=$cookie" "$base/api/syncContactsFromBrevo" >"$work/sync.out"
  first=$(calc "f'{$(date +%s.%N) - $started:.1f}'")
  lines=$(wc -l <"$work/sync.out")
  tail -n1 "$work/sync.out" | grep -q '"result":"done"' || { echo "!! Sync nicht abgeschlossen: $(tail -n1 "$work/sync.out")" >&2; exit 1; }
  rss=$(peak_rss)
  started=$(date +%s.%N)
  curl -sN -H "Cookie: ap_session=$cookie" "$base/api/syncContactsFromBrevo" >"$work/sync2.out"
  second=$(calc "f'{$(date +%s.%N) - $started:.1f}'")
  tail -n1 "$work/sync2.out" | grep -q '"result":"done"' || { echo "!! Zweiter Sync nicht abgeschlossen" >&2; exit 1; }
  calls=$(calc "f'{($sync_contacts / $page) / $first:.1f}'")
  echo "   $label: erster Lauf $first s, zweiter $second s, Referenz $reference_secs s, Spitze RSS $rss MiB"
  {
    echo "| $label, first run (all new) | $first s | $(calc "f'{$first / $reference_secs:.1f}'") | $calls | $rss_start MiB → $rss MiB | $(tail -n1 "$work/sync.out" | json 'd["created"]') created, $lines lines streamed |"
    echo "| $label, second run (nothing changed) | $second s | $(calc "f'{$second / $reference_secs:.1f}'") | $(calc "f'{($sync_contacts / $page) / $second:.1f}'") | $(peak_rss) MiB | $(tail -n1 "$work/sync2.out" | json 'd["unchanged"]') unchanged |"
  } >>"$work/sync.md"
  stop_portal
  rm -rf "$data"
  database_url=""
}

if wants sync; then
  sync_contacts=200000
  page=1000
  echo "==> Kontakt-Sync: $sync_contacts Kontakte aus dem Fake-Brevo"
  cargo build --release --locked --example fake_brevo
  FAKE_BREVO_CONTACTS=$sync_contacts "${CARGO_TARGET_DIR:-target}/release/examples/fake_brevo" \
    >"$work/fake.txt" 2>"$work/fake.log" &
  fake_pid=$!
  fake_line=""
  for _ in $(seq 1 300); do
    fake_line=$(grep -m1 '^FAKE_BREVO ' "$work/fake.txt" 2>/dev/null || true)
    [ -n "$fake_line" ] && break
    sleep 0.1
  done
  [ -n "$fake_line" ] || { echo "!! Fake-Brevo startet nicht" >&2; cat "$work/fake.log" >&2; exit 1; }
  read -r _ fake_url fake_key <<<"$fake_line"
  # Reference: the same pages fetched directly, one after another, as fast as the fake answers.
  started=$(date +%s.%N)
  for offset in $(seq 0 $page $((sync_contacts - 1))); do
    curl -sf -o /dev/null -H "api-key: $fake_key" "$fake_url/contacts?limit=$page&offset=$offset&sort=asc"
  done
  reference_secs=$(calc "f'{$(date +%s.%N) - $started:.1f}'")
  {
    echo "### Contact sync from Brevo: 200,000 contacts into an empty portal"
    echo
    echo "The fake Brevo (\`examples/fake_brevo\`, \`FAKE_BREVO_CONTACTS=200000\`, 5 contacts per company) on loopback;"
    echo "\`GET /api/syncContactsFromBrevo\` read to its end with curl. Reference: the same $((sync_contacts / page)) pages of $page fetched"
    echo "directly with curl, one after another: **$reference_secs s**. Brevo allows 10 calls per second on contact"
    echo "endpoints; the portal's client keeps to that. RSS: the portal's peak (VmHWM) after sign-in → after the sync."
    echo
    echo "| Run | time | ratio to reference | Brevo calls/s | portal peak RSS | result |"
    echo "|---|---:|---:|---:|---:|---|"
  } >"$work/sync.md"
  on_both_databases sync_bench "$work/sync.md"
  kill "$fake_pid" 2>/dev/null || true
  wait "$fake_pid" 2>/dev/null || true
  fake_pid=""
fi

# nginx as a load balancer (round robin, keep-alive to the upstreams) in front of the portal
# addresses given: start_balancer <host:port>…; sets $nginx_base and $nginx_pid.
start_balancer() {
  local conf="$work/nginx" port user_line="" upstreams="" address
  port=$(free_port)
  rm -rf "$conf"
  mkdir -p "$conf"
  [ "$(id -u)" -eq 0 ] && user_line="user $(id -un) $(id -gn);"
  for address in "$@"; do upstreams+="server $address; "; done
  cat >"$conf/nginx.conf" <<EOF
$user_line
daemon off;
worker_processes auto;
pid $conf/nginx.pid;
error_log $conf/error.log;
events {}
http {
  access_log off;
  client_body_temp_path $conf/body;
  proxy_temp_path $conf/proxy;
  fastcgi_temp_path $conf/fastcgi;
  uwsgi_temp_path $conf/uwsgi;
  scgi_temp_path $conf/scgi;
  upstream portal { $upstreams keepalive 32; }
  server {
    listen 127.0.0.1:$port;
    location / {
      proxy_pass http://portal;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
    }
  }
}
EOF
  "$nginx" -p "$conf" -e "$conf/error.log" -c "$conf/nginx.conf" &
  nginx_pid=$!
  nginx_base="http://127.0.0.1:$port"
  for _ in $(seq 1 100); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$nginx_base/healthz")" = 200 ] && return 0
    sleep 0.1
  done
  echo "!! nginx (Lastverteiler) startet nicht:" >&2
  cat "$conf/error.log" >&2
  exit 1
}

if wants instances; then
  echo "==> Mehrere Instanzen: Ordner gegen Bucket, eine gegen zwei Instanzen (PostgreSQL)"
  psql -qAt "$pg_admin_url" -c 'select 1' >/dev/null 2>&1 \
    || { echo "!! PostgreSQL unter $pg_admin_url nicht erreichbar" >&2; exit 1; }
  moto_server=$(scripts/moto.sh)
  pg_db="ap_bench_$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
  psql -q "$pg_admin_url" -c "create database $pg_db" >/dev/null
  database_url="${pg_admin_url%/*}/$pg_db"
  data="$work/instances"
  mkdir -p "$work/medium"
  medium="$work/medium/Benchmark-Clip.mp4"
  printf '\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom' >"$medium"
  head -c $((64 * 1024 * 1024 - 24)) /dev/urandom >>"$medium"
  DATABASE_URL="$database_url" "$bin" --data "$data" migrate >/dev/null
  accounts=$(DATABASE_URL="$database_url" "$bin" --data "$data" seed-demo)
  password=$(echo "$accounts" | sed -n 's/^Konto angelegt: Login admin, Passwort \([^ ]*\) .*/\1/p')
  launch_portal "$data"
  admin_cookie=$(login admin "$password")
  cookie="Cookie: ap_session=$admin_cookie"
  path=$(create_package "Benchmark-Instanzen" "$medium" | json 'd["Uploads"][0]["path"]')
  measure() { # <base>: single download (best of 3) and 16 parallel (wrk) in bytes/s
    one=$(best_speed "$1$path" "$cookie")
    run_wrk "$1$path" -c16 -d10s --timeout 60s -H "$cookie"
    many=$(wrk_transfer)
    [ "$(wrk_bad)" -eq 0 ] || { echo "!! $(wrk_bad) Antworten ohne 2xx/3xx" >&2; exit 1; }
  }
  measure "$base"; folder_one=$one; folder_many=$many
  echo "   Ordner, eine Instanz: $(mib "$folder_one") MiB/s einzeln, $(mib "$folder_many") MiB/s bei 16"
  stop_portal

  # The same files moved into a bucket with the operator command.
  moto_port=$(free_port)
  "$moto_server" -H 127.0.0.1 -p "$moto_port" >"$work/moto.log" 2>&1 &
  moto_pid=$!
  for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$moto_port/" && break; sleep 0.1; done
  curl -sf -X PUT "http://127.0.0.1:$moto_port/aktionsportal" >/dev/null
  export AP_S3_BUCKET=aktionsportal AP_S3_ENDPOINT="http://127.0.0.1:$moto_port" AP_S3_PATH_STYLE=true \
    AP_S3_ACCESS_KEY_ID=bench AP_S3_SECRET_ACCESS_KEY=bench
  copied=$(DATABASE_URL="$database_url" "$bin" --data "$data" copy-files-to-bucket | tail -1)
  echo "   copy-files-to-bucket: $copied"
  key=$(curl -s "$AP_S3_ENDPOINT/aktionsportal?list-type=2" | python3 -c '
import re, sys
items = re.findall(r"<Key>([^<]+)</Key>.*?<Size>(\d+)</Size>", sys.stdin.read(), re.S)
print(max(items, key=lambda kv: int(kv[1]))[0])')
  store_one=$(best_speed "$AP_S3_ENDPOINT/aktionsportal/$key")
  echo "   moto direkt: $(mib "$store_one") MiB/s"
  rm -rf "$data/files"
  launch_portal "$data"
  first="${base#http://}"
  measure "$base"; bucket_one=$one; bucket_many=$many
  echo "   Bucket, eine Instanz: $(mib "$bucket_one") MiB/s einzeln, $(mib "$bucket_many") MiB/s bei 16"
  # A 512 MiB upload into the bucket: multipart, with the portal's memory bounded.
  for _ in 1 2 3 4 5 6 7 8; do cat "$medium"; done >"$work/medium/Benchmark-512.mp4"
  rss_before=$(peak_rss)
  read -r code upload_speed < <(curl -s -o "$work/upload.out" -w '%{http_code} %{speed_upload}\n' \
    -H "$cookie" -F "files[0]=@$work/medium/Benchmark-512.mp4" "$base/api/upload/")
  [ "$code" = 200 ] || { echo "!! Upload in den Bucket: HTTP $code $(head -c 400 "$work/upload.out")" >&2; exit 1; }
  rss_after=$(peak_rss)
  rm -f "$work/medium/Benchmark-512.mp4"
  echo "   Upload 512 MiB in den Bucket: $(mib "$upload_speed") MiB/s, Spitzen-RSS $rss_before → $rss_after MiB"
  # A second instance on the same database and bucket.
  second_port=$(free_port)
  DATABASE_URL="$database_url" AP_MAX_CONNECTIONS_PER_ADDRESS=1024 \
    "$bin" --data "$work/second" serve --addr "127.0.0.1:$second_port" >"$work/second.log" 2>&1 &
  second_pid=$!
  for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$second_port/healthz" >/dev/null && break; sleep 0.1; done
  start_balancer "$first"
  measure "$nginx_base"; lb_one=$one; lb_one_many=$many
  stop_nginx
  start_balancer "$first" "127.0.0.1:$second_port"
  measure "$nginx_base"; lb_two=$one; lb_two_many=$many
  stop_nginx
  echo "   Lastverteiler, 1 Instanz: $(mib "$lb_one_many") MiB/s bei 16; 2 Instanzen: $(mib "$lb_two_many") MiB/s"
  unset AP_S3_BUCKET AP_S3_ENDPOINT AP_S3_PATH_STYLE AP_S3_ACCESS_KEY_ID AP_S3_SECRET_ACCESS_KEY
  kill "$second_pid" "$moto_pid" 2>/dev/null || true
  wait "$second_pid" "$moto_pid" 2>/dev/null || true
  second_pid="" moto_pid=""
  stop_portal
  ratio() { calc "f'{$1 / max($2, 1):.2f}'"; }
  {
    echo "### Several instances: bucket against folder, two instances against one"
    echo
    echo "PostgreSQL, one 64 MiB file (\`GET /files/{id}/{name}\` as a signed-in admin); single download:"
    echo "curl, best of 3; parallel: wrk -c16 -t2 -d10s (Transfer/sec). The bucket is moto's S3 server,"
    echo "a Python mock that keeps objects in memory: it, not the portal, limits the bucket rows, as"
    echo "the row \"moto directly\" shows. The load balancer is $nginx_version with keep-alive"
    echo "upstreams and \`proxy_buffering off\`. The files were moved into the bucket with"
    echo "\`copy-files-to-bucket\` (\"$copied\")."
    echo
    echo "| Measurement | single | 16 parallel | ratio single / reference |"
    echo "|---|---:|---:|---:|"
    echo "| folder, one instance (reference for the bucket) | $(mib "$folder_one") MiB/s | $(mib "$folder_many") MiB/s | 1.00 |"
    echo "| moto directly (unsigned GET of the object) | $(mib "$store_one") MiB/s | | $(ratio "$store_one" "$folder_one") |"
    echo "| bucket, one instance | $(mib "$bucket_one") MiB/s | $(mib "$bucket_many") MiB/s | $(ratio "$bucket_one" "$folder_one") (to moto directly: $(ratio "$bucket_one" "$store_one")) |"
    echo "| bucket, balancer → one instance (reference for two) | $(mib "$lb_one") MiB/s | $(mib "$lb_one_many") MiB/s | 1.00 |"
    echo "| bucket, balancer → two instances | $(mib "$lb_two") MiB/s | $(mib "$lb_two_many") MiB/s | $(ratio "$lb_two_many" "$lb_one_many") (parallel) |"
    echo
    echo "A 512 MiB upload into the bucket (one instance, curl): $(mib "$upload_speed") MiB/s; the portal's peak"
    echo "RSS (VmHWM) went from $rss_before MiB to $rss_after MiB: the file passes in 8 MiB parts, at most two"
    echo "on the way at once, never whole in memory."
    echo
    echo "Everything runs on the same $(nproc) cores, with moto and nginx beside the portals: a second"
    echo "instance adds no cores here, so its gain under parallel load only comes from two processes"
    echo "overlapping their waits on moto. On separate machines each instance adds its own CPU and network."
  } >"$work/instances.md"
  drop_pg_db
  database_url=""
fi

# Runs a command and prints "<seconds> <peak RSS in MiB>" of it: timed <command…>
timed() {
  python3 - "$@" <<'PY'
import resource, subprocess, sys, time
started = time.monotonic()
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)
elapsed = time.monotonic() - started
if done.returncode != 0:
    sys.exit(f"!! {sys.argv[1:]} endete mit {done.returncode}")
print(f"{elapsed:.1f} {resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024:.0f}")
PY
}

if wants backup; then
  echo "==> Export und Import einer ganzen Installation (seed-large)"
  data="$work/large"
  rm -rf "$data"
  "$bin" --data "$data" seed-large >/dev/null
  data_size=$(du -sb "$data" | cut -f1)
  files_count=$(find "$data/files" -type f -not -path '*/.staging/*' | wc -l)
  read -r tar_s _ < <(timed tar -C "$data" -cf "$work/reference.tar" .)
  mkdir -p "$work/untar"
  read -r untar_s _ < <(timed tar -C "$work/untar" -xf "$work/reference.tar")
  rm -rf "$work/untar" "$work/reference.tar"
  launch_portal "$data"
  read -r export_s export_rss < <(timed "$bin" --data "$data" export --to "$work/large.zip")
  # The portal served on during the export.
  curl -fs "$base/healthz" >/dev/null
  stop_portal
  archive_size=$(stat -c %s "$work/large.zip")
  read -r import_sqlite_s import_sqlite_rss < <(timed "$bin" --data "$work/imported" import --from "$work/large.zip")
  rm -rf "$work/imported"
  import_pg="| \`import\` into an empty PostgreSQL database | not measured (PostgreSQL not reachable) | | |"
  if psql -qAt "$pg_admin_url" -c 'select 1' >/dev/null 2>&1; then
    pg_db="ap_bench_$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
    psql -q "$pg_admin_url" -c "create database $pg_db" >/dev/null
    read -r import_pg_s import_pg_rss < <(DATABASE_URL="${pg_admin_url%/*}/$pg_db" timed "$bin" --data "$work/imported" import --from "$work/large.zip")
    import_pg="| \`import\` into an empty PostgreSQL database | $import_pg_s s | $(calc "f'{$import_pg_s / $untar_s:.1f}'") × | $import_pg_rss MiB |"
    drop_pg_db
    rm -rf "$work/imported"
  fi
  rm -rf "$data"
  echo "   Export $export_s s, Archiv $(mib "$archive_size") MiB, Import SQLite $import_sqlite_s s, PostgreSQL ${import_pg_s:-–} s"
  {
    echo "### Export and import of a whole installation (issue 25)"
    echo
    echo "\`seed-large\` on SQLite: 200 providers, 20,000 packages, 100,000 files, 200,000 contacts, the"
    echo "last 90 of 10 million download events and 500,000 audit entries; the data folder holds"
    echo "$(mib "$data_size") MiB in $files_count files. The reference is what an operator would do"
    echo "without the portal: \`tar\` of the stopped data folder (and \`tar x\` of it)."
    echo
    echo "| Step | time | against the reference | peak RSS |"
    echo "|---|---:|---:|---:|"
    echo "| tar of the data folder (reference for the export) | $tar_s s | 1.0 | |"
    echo "| \`export\` while the portal serves | $export_s s | $(calc "f'{$export_s / $tar_s:.1f}'") × | $export_rss MiB |"
    echo "| tar x (reference for the imports) | $untar_s s | 1.0 | |"
    echo "| \`import\` into an empty SQLite database and folder | $import_sqlite_s s | $(calc "f'{$import_sqlite_s / $untar_s:.1f}'") × | $import_sqlite_rss MiB |"
    echo "$import_pg"
    echo
    echo "The archive has $(mib "$archive_size") MiB ($(calc "f'{$archive_size / $data_size * 100:.0f}'") % of the data folder): the tables"
    echo "deflated, the files stored as they are. An import first reads the whole archive once to check"
    echo "every SHA-256, then writes; the rows go in one transaction."
  } >"$work/backup.md"
fi

if wants kept; then
  echo "==> Kept answers under attack: new filter ids in every request, 4 clients, 60 s"
  start_portal
  dealer_cookie=$(login haendler "$dealer_password")
  # The usual size: after the dealer's ordinary lists were asked a few times.
  for _ in $(seq 1 50); do
    curl -fs -o /dev/null -H "Cookie: ap_session=$dealer_cookie" "$base/api/downloads/contact/?limit=20&offset=0"
  done
  rss_now() { awk '/^VmRSS:/ { printf "%.1f\n", $2 / 1024 }' "/proc/$server_pid/status"; }
  usual=$(rss_now)
  cat >"$work/attack.lua" <<'LUA'
-- Every request a new question: 1,000 random 18-digit provider ids and 1,000 tag ids.
math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16))
local function ids()
  local parts = {}
  for i = 1, 1000 do
    parts[i] = string.format("%d%09d", math.random(100000000, 999999999), math.random(0, 999999999))
  end
  return table.concat(parts, ",")
end
request = function()
  return wrk.format("GET", "/api/downloads/contact/?limit=20&offset=0&providerIds=" .. ids() .. "&tagsIds=" .. ids())
end
LUA
  wrk -t2 -c4 -d60s --timeout 10s -s "$work/attack.lua" -H "Cookie: ap_session=$dealer_cookie" "$base/" >"$work/wrk.out" &
  wrk_pid=$!
  samples=()
  for _ in $(seq 1 12); do
    sleep 5
    samples+=("$(rss_now)")
  done
  wait "$wrk_pid"
  requests=$(awk '/requests in/ { print $1 }' "$work/wrk.out")
  bad=$(wrk_bad)
  highest=$(printf '%s\n' "${samples[@]}" | sort -n | tail -1)
  peak=$(peak_rss)
  stop_portal
  echo "   $requests Anfragen, RSS vorher $usual MiB, höchstens $highest MiB (Spitze $peak MiB)"
  {
    echo "### Kept answers under attack (issue 34)"
    echo
    echo "The demo dealer's session asks \`GET /api/downloads/contact/?limit=20&offset=0\` with 1,000 random"
    echo "18-digit \`providerIds\` and 1,000 random \`tagsIds\`, new ones in every request, from 4 clients for"
    echo "60 s ($requests requests, $bad answers other than 2xx). Before issue 34 this grew the portal from"
    echo "80 MiB to 932 MiB. Now every id the dealer cannot see is dropped before the key is made, a key"
    echo "is kept as its SHA-256, and every entry is weighed against one bound (\`AP_KEPT_ANSWERS_MB\`,"
    echo "80 MiB, 64 MiB before issue 37)."
    echo
    echo "| Resident memory | MiB |"
    echo "|---|---:|"
    echo "| before (the portal's usual size, reference) | $usual |"
    echo "| during the attack, every 5 s | $(IFS=' '; echo "${samples[*]}" | sed 's/ /, /g') |"
    echo "| highest sample | $highest |"
    echo "| peak (VmHWM) | $peak |"
    echo "| bound: usual size + 80 MiB | $(calc "f'{$usual + 80:.1f}'") |"
  } >"$work/kept.md"
fi

# wrk at 50 clients for 15 s on one list after a 3 s warm-up; prints "<req/s> <p99 ms> <bad
# answers>": mails_list <row> where a row is "<template>|<role>|…", the template as for ask (one
# without {…} is asked as it is), the role admin or dealer.
mails_list() {
  local template role cookie
  IFS='|' read -r template role _ <<<"$1"
  if [ "$role" = admin ]; then cookie=$admin; else cookie=$dealer; fi
  ask "$template" "$cookie" -t2 -c50 -d3s --timeout 2s
  ask "$template" "$cookie" -t2 -c50 -d15s --latency --timeout 2s
  echo "$(wrk_rps) $(wrk_latency 99) $(wrk_bad)"
}

# As mails_list, at a steady load below saturation: 10 clients, each waiting $steady_pause ms
# before each request (a busy day, not a flood), so that the p99 is the lists' own and not the
# queue of a saturated machine: mails_steady <row>
mails_steady() {
  local template role cookie
  IFS='|' read -r template role _ <<<"$1"
  if [ "$role" = admin ]; then cookie=$admin; else cookie=$dealer; fi
  AP_PAUSE_MS=$steady_pause ask "$template" "$cookie" -t2 -c10 -d3s --timeout 2s
  AP_PAUSE_MS=$steady_pause ask "$template" "$cookie" -t2 -c10 -d15s --latency --timeout 2s
  echo "$(wrk_rps) $(wrk_latency 99) $(wrk_bad)"
}

# Prints the table of the lists' figures before and while sending, each a line of mails_list
# or mails_steady: mails_table <title> <name of the array before> <name of the array while>
mails_table() {
  local title=$1 i q_rps q_p99 q_bad s_rps s_p99 s_bad
  local -n before=$2 during=$3
  echo
  echo "| $title | before: req/s | before: p99 | while sending: req/s | while sending: p99 | p99 kept (at most 20 % or 5 ms more) |"
  echo "|---|---:|---:|---:|---:|:---:|"
  for i in "${!mail_lists[@]}"; do
    read -r q_rps q_p99 q_bad <<<"${before[$i]}"
    read -r s_rps s_p99 s_bad <<<"${during[$i]}"
    echo "| $(cut -d'|' -f3 <<<"${mail_lists[$i]}") | $q_rps | $q_p99 ms | $s_rps | $s_p99 ms | $(calc "'yes' if $s_bad == 0 and $q_bad == 0 and $s_p99 <= max($q_p99 * 1.2, $q_p99 + 5) else 'no'") |"
  done
}

# Runs one SQL statement on the benchmark's database (SQLite in $data, or $database_url) and
# prints its rows, columns apart by a space: on_database <sql>
on_database() {
  if [ -n "$database_url" ]; then
    psql -qAt -F ' ' "$database_url" -c "$1"
  else
    python3 - "$data/aktionsportal.db" "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for row in db.execute(sys.argv[2]).fetchall():
    print(*row)
db.commit()
PY
  fi
}

# A package's announcement to 50,000 confirmed contacts on seed-large, the pace and the lists
# before and while it sends; appends to mails.md: mails_bench <label> <database URL or "">
mails_bench() {
  local label=$1 output admin_password dealer_password provider list yesterday package
  local announcement recipients row rss_before rss_after rss_sending body queued queued_for
  local sent_before started quiet_pace sent_after pace steady_pace
  local quiet=() sending=() quiet_steady=() sending_steady=()
  database_url=$2
  data="$work/large"
  rm -rf "$data"
  echo "   $label: seed-large"
  output=$(env ${database_url:+DATABASE_URL="$database_url"} "$bin" --data "$data" seed-large)
  admin_password=$(sed -n 's/^Konto angelegt: Login bench-admin, Passwort \([^ ]*\) .*/\1/p' <<<"$output")
  dealer_password=$(sed -n 's/^Konto angelegt: Login bench-haendler, Passwort \([^ ]*\) .*/\1/p' <<<"$output")
  # 50,000 confirmed, unblocked contacts on one active list of the first provider, written as
  # seed-large writes (the database's triggers move the data version).
  read -r provider list < <(on_database \
    "select provider_id, id from lists where active = true order by provider_id, id limit 1")
  on_database "insert into contact_lists (contact_id, list_id, created_at, updated_at) \
    select c.id, $list, s.stamp, s.stamp from contacts c \
    cross join (select created_at as stamp from contact_lists limit 1) s \
    where c.double_opt_in = true and c.email_blacklisted = false order by c.id limit 50000 \
    on conflict do nothing" >/dev/null
  portal_env=("AP_MAIL_PER_SECOND=$mail_pace")
  launch_portal "$data"
  portal_env=()
  admin=$(login bench-admin "$admin_password")
  dealer=$(login bench-haendler "$dealer_password")
  yesterday=$(date -u -d yesterday +%F)
  package=$(curl -s -H "Cookie: ap_session=$admin" -H "Origin: $base" -H 'Content-Type: application/json' \
    -d "{\"name\":\"Ankündigung 50.000\",\"startAt\":\"$yesterday\",\"endAt\":\"2030-12-31\",\"ProviderId\":$provider,\"listsIds\":[$list]}" \
    "$base/api/download/" | json 'd["id"]')
  announcement="$base/api/download/$package/announcement"
  recipients=$(curl -s -H "Cookie: ap_session=$admin" "$announcement" | json 'd["recipients"]')
  # The portal settles after a start (planner statistics, the contacts' texts and orders read
  # in the background): the lists are measured once that is done.
  sleep 30
  for row in "${mail_lists[@]}"; do
    quiet+=("$(mails_list "$row")")
    quiet_steady+=("$(mails_steady "$row")")
  done
  rss_before=$(awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' "/proc/$server_pid/status")
  body='{"announce":true,"subject":"Neu: {Paket}","text":"Ab sofort gültig bis {Gültig bis}.","reminderDays":3,"confirmStarted":true}'
  queued=$(curl -s -o "$work/announced.json" -w '%{time_total}' -X PUT -H "Cookie: ap_session=$admin" \
    -H "Origin: $base" -H 'Content-Type: application/json' -d "$body" "$announcement")
  queued_for=$(json 'd["mails"]["recipients"]' <"$work/announced.json")
  rss_after=$(awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' "/proc/$server_pid/status")
  sent() { curl -s -H "Cookie: ap_session=$admin" "$announcement" | json 'd["mails"]["sent"]'; }
  sleep 5
  # The pace with nobody else asking, then while the lists are asked.
  sent_before=$(sent)
  started=$(date +%s.%N)
  sleep 20
  quiet_pace=$(calc "f'{($(sent) - $sent_before) / ($(date +%s.%N) - $started):.1f}'")
  # Warmed up as before the announcement (mails_list). The pace is taken apart for each load.
  local saturated_mails=0 saturated_time=0 steady_mails=0 steady_time=0
  for row in "${mail_lists[@]}"; do
    sent_before=$(sent)
    started=$(date +%s.%N)
    sending+=("$(mails_list "$row")")
    sent_after=$(sent)
    saturated_mails=$((saturated_mails + sent_after - sent_before))
    saturated_time=$(calc "$saturated_time + $(date +%s.%N) - $started")
    sent_before=$sent_after
    started=$(date +%s.%N)
    sending_steady+=("$(mails_steady "$row")")
    steady_mails=$((steady_mails + $(sent) - sent_before))
    steady_time=$(calc "$steady_time + $(date +%s.%N) - $started")
  done
  pace=$(calc "f'{$saturated_mails / $saturated_time:.1f}'")
  steady_pace=$(calc "f'{$steady_mails / $steady_time:.1f}'")
  rss_sending=$(awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' "/proc/$server_pid/status")
  echo "   $label: $recipients Empfänger, eingereiht in $queued s, $quiet_pace / $pace / $steady_pace Mails/s (eingestellt $mail_pace)"
  {
    echo
    echo "#### $label"
    echo
    echo "| Measure | value | target | met |"
    echo "|---|---:|---|:---:|"
    echo "| recipients counted before saving | $recipients | 50,000 | $(calc "'yes' if $recipients >= 50000 else 'no'") |"
    echo "| queued for | $queued_for | as counted | $(calc "'yes' if $queued_for == $recipients else 'no'") |"
    echo "| queueing (the PUT) | $(calc "f'{$queued:.2f}'") s | < 5 s | $(calc "'yes' if $queued < 5 else 'no'") |"
    echo "| resident memory before / after queueing / while sending | $rss_before / $rss_after / $rss_sending MiB | flat (< 50 MiB more) | $(calc "'yes' if max($rss_after, $rss_sending) - $rss_before < 50 else 'no'") |"
    echo "| pace, nobody else asking (20 s) | $quiet_pace mails/s | $mail_pace (AP_MAIL_PER_SECOND) | $(calc "'yes' if abs($quiet_pace - $mail_pace) <= 0.1 * $mail_pace else 'no'") |"
    echo "| pace while 50 clients ask the lists (about 75 s) | $pace mails/s | $mail_pace | $(calc "'yes' if abs($pace - $mail_pace) <= 0.1 * $mail_pace else 'no'") |"
    echo "| pace at the steady load (about 75 s) | $steady_pace mails/s | $mail_pace | $(calc "'yes' if abs($steady_pace - $mail_pace) <= 0.1 * $mail_pace else 'no'") |"
    mails_table "List at 50 clients" quiet sending
    mails_table "List at a steady load (10 clients, $steady_pause ms between requests)" quiet_steady sending_steady
    printf '\nPortal peak RSS (VmHWM) over the run: %s MiB.\n' "$(peak_rss)"
  } >>"$work/mails.md"
  stop_portal
  rm -rf "$data"
}

if wants mails; then
  echo "==> Ankündigung eines Pakets an 50.000 bestätigte Kontakte"
  mail_pace=100
  steady_pause=20
  # Rows as for mails_list, with the role in place of the cookie (each run signs in anew).
  mail_lists=("/user/downloads|dealer|customer page \`/user/downloads\` (dealer)"
    "/api/downloads/contact/?limit=20&offset=0&search=Nr.%20{n:5:9999}|dealer|dealer list, search by name"
    "/api/contacts?limit={between:15:25}&offset={between:0:199980}|admin|contact list, random page (admin)"
    "/api/downloads/?limit={between:15:25}&offset={between:0:18000}&sortBy=startAt&sort=ASC|admin|admin package list, random page")
  {
    echo "### A package's announcement to 50,000 confirmed contacts"
    echo
    echo "Issue 37. \`seed-large\`, then 50,000 confirmed, unblocked contacts put on one list of a"
    echo "provider and a package on that list, started yesterday; its announcement is switched on with"
    echo "the confirmation (\`PUT /api/download/{id}/announcement\`), which queues one item per address in"
    echo "the request. No mail server is set, so the mails go to the outbox folder, one file each, at"
    echo "\`AP_MAIL_PER_SECOND=$mail_pace\`. The lists are asked at 50 clients for 15 s each (wrk, every"
    echo "request a new question where the row has one, after a 3 s warm-up), 30 s after the portal's"
    echo "start (it settles first), before the announcement and while it sends; then each at a steady"
    echo "load below saturation (10 clients, each waiting $steady_pause ms before each request), the load a"
    echo "busy day brings. At 50 clients the two cores are saturated and the p99 is mostly the queue"
    echo "for them."
  } >"$work/mails.md"
  on_both_databases mails_bench "$work/mails.md"
fi

machine="$(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), $(free -g | awk '/Mem:/ { print $2 }') GiB RAM, $(uname -sr)"
mkdir -p docs
python3 - "$work" "$machine" "${all[*]}" <<'PY'
import datetime, pathlib, re, sys
work, machine, order = pathlib.Path(sys.argv[1]), sys.argv[2], sys.argv[3].split()
doc = pathlib.Path("docs/benchmarks.md")
text = doc.read_text() if doc.exists() else (
    "# Benchmarks\n\nWritten by `scripts/bench.sh`; every figure is a ratio against a reference "
    "measured in the same run on the same machine. Each section names when and where it ran.\n")
stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
# New sections are appended in the order of the benchmarks' list.
for section in sorted(work.glob("*.md"), key=lambda p: (order + [p.stem]).index(p.stem)):
    name = section.stem
    body = f"<!-- bench:{name} -->\n_Run {stamp} on {machine}; release build._\n\n{section.read_text().rstrip()}\n<!-- /bench:{name} -->"
    pattern = re.compile(rf"<!-- bench:{name} -->.*?<!-- /bench:{name} -->", re.S)
    text = pattern.sub(lambda _: body, text) if pattern.search(text) else text.rstrip() + "\n\n" + body + "\n"
doc.write_text(text)
PY
echo "==> Ergebnisse in docs/benchmarks.md"
