#!/usr/bin/env bash
# Starts (or reuses) a private PostgreSQL cluster for the test suite and prints its admin URL.
# The cluster lives in /tmp/parley-postgres-$PORT, listens on 127.0.0.1:$PORT only, trusts local connections
# and runs with fsync off (test data only). Debian's postgresql package must be installed (install-deps.sh --test).
set -euo pipefail
port="${PARLEY_PG_PORT:-54329}"
root="/tmp/parley-postgres-$port"
bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
[ -n "$bin" ] || { echo "start-postgres: PostgreSQL is not installed (run Scripts/install-deps.sh --test)" >&2; exit 1; }

as_postgres() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

if ! "$bin/pg_isready" -q -h 127.0.0.1 -p "$port"; then
    mkdir -p "$root"
    [ "$(id -u)" -eq 0 ] && chown postgres "$root"
    if [ ! -f "$root/data/PG_VERSION" ]; then
        as_postgres "$bin/initdb" -D "$root/data" -A trust -U postgres --no-sync >"$root/initdb.log" 2>&1 \
            || { cat "$root/initdb.log" >&2; exit 1; }
    fi
    as_postgres "$bin/pg_ctl" -D "$root/data" -l "$root/server.log" -w -t 60 \
        -o "-p $port -k $root -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c max_connections=300" \
        start >/dev/null || { cat "$root/server.log" >&2; exit 1; }
fi
echo "postgres://postgres@127.0.0.1:$port/postgres"
