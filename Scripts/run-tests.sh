#!/usr/bin/env bash
# `make test`: builds, starts a private PostgreSQL, runs every test suite (the server suite twice: SQLite, then
# PostgreSQL), runs every fuzz target for a short budget, and stops the PostgreSQL it started.
set -euo pipefail
cd "$(dirname "$0")/.."
swift="${SWIFT:-swift}"
shared="${PARLEY_SHARED_DIR:-$(cd .. && pwd)/shared}"

port="${PARLEY_PG_PORT:-54329}"
started_postgres=""
if ! pg_isready -q -h 127.0.0.1 -p "$port" 2>/dev/null; then started_postgres=yes; fi
database_url="$(Scripts/start-postgres.sh)"
stop_postgres() {
    if [ -n "$started_postgres" ]; then
        bin="$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)"
        if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$bin/pg_ctl" -D "/tmp/parley-postgres-$port/data" -m fast stop >/dev/null
        else "$bin/pg_ctl" -D "/tmp/parley-postgres-$port/data" -m fast stop >/dev/null; fi
    fi
}
trap stop_postgres EXIT

"$swift" build --build-tests
export PARLEY_SHARED_DIR="$shared"
export PARLEY_PYTHON="$PWD/.build/python/bin/python3"
export PARLEY_BIN_DIR="$("$swift" build --show-bin-path)"
export PARLEY_TEST_DATABASE_URL="$database_url"
echo "== every suite but the browser's (server backend: SQLite) =="
"$swift" test --skip-build --skip WebClientTests
# Chromium, four `parley web` processes and a server take both cores for half a minute: alone, they slow no other
# suite's deadlines, and no other suite slows theirs.
echo "== the web client in Chromium =="
"$swift" test --skip-build --filter WebClientTests
echo "== server suite, and the client suites that read what the server stored, again on PostgreSQL =="
PARLEY_SERVER_BACKEND=postgres "$swift" test --skip-build --filter "ParleyServerTests|SealedSenderDeliveryTests|RetryReceiptDeliveryTests|ServerStoredGroupClientTests|NamelessAccountTests"
echo "== every fuzz target, 10 s each (libFuzzer; make fuzz runs longer) =="
Scripts/fuzz.sh --quick
