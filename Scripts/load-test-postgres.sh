#!/usr/bin/env bash
# Load test on PostgreSQL: the private cluster of Scripts/start-postgres.sh, a fresh database, release binaries.
#   Scripts/load-test-postgres.sh one    one server, 50 clients sending over their sockets as fast as it answers
#   Scripts/load-test-postgres.sh two    two server processes on the database: senders (HTTP) on one, receivers'
#                                        sockets on the other, delivered through LISTEN/NOTIFY
set -euo pipefail
cd "$(dirname "$0")/.."
scenario="${1:-one}"
swift build -c release --product parley-server >/dev/null
swift build -c release --product parley-load >/dev/null
bin="$(swift build -c release --show-bin-path)"
admin="$(Scripts/start-postgres.sh)"
database="parley_load_$$"
psql -q "$admin" -c "CREATE DATABASE $database" >/dev/null
url="${admin%/postgres}/$database"
data="$(mktemp -d /tmp/parley-load-pg-XXXXXX)"
servers=()
cleanup() {
    for pid in "${servers[@]}"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true; done
    psql -q "$admin" -c "DROP DATABASE IF EXISTS $database" >/dev/null 2>&1 || true
    rm -rf "$data"
}
trap cleanup EXIT
start() { # name; sets $started to the server's URL
    mkdir -p "$data/$1"
    "$bin/parley-server" --port 0 --data-directory "$data/$1" --database-url "$url" --backup-key-file "$data/backup.key" \
        --rate-limit-scale 1000 --max-connections-per-address 20000 --log-level error >"$data/$1.out" 2>"$data/$1.err" &
    servers+=($!)
    for _ in $(seq 200); do grep -q "listening on" "$data/$1.out" 2>/dev/null && break; sleep 0.1; done
    started="http://$(sed -n 's/^parley-server listening on //p' "$data/$1.out")"
}
start a
first="$started"
if [ "$scenario" = one ]; then
    echo "== PostgreSQL, one server: 50 clients, 4 request frames in flight each, as fast as it answers =="
    "$bin/parley-load" traffic --server "$first" --server-pid "${servers[0]}" --clients 50 --concurrency 4 --duration 15 --over socket
else
    start b
    second="$started"
    echo "== PostgreSQL, two servers: senders over HTTP to $first, receivers' sockets on $second =="
    "$bin/parley-load" traffic --server "$first" --server-pid "${servers[0]}" --receive-server "$second" --clients 50 \
        --concurrency 4 --duration 15
fi
