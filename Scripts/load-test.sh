#!/usr/bin/env bash
# Load test on this machine: a release parley-server on SQLite (fresh data directory) and parley-load beside it,
# through the real HTTP and WebSocket paths. Prints each scenario's report (BENCHMARKS.md quotes them).
#   Scripts/load-test.sh                 every scenario
#   Scripts/load-test.sh throughput|socket-throughput|latency|socket-latency|idle|idle-after-use|credential-flood|bundles|unauthenticated-flood
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product parley-server >/dev/null
swift build -c release --product parley-load >/dev/null
bin="$(swift build -c release --show-bin-path)"
scenario="${1:-all}"

data="$(mktemp -d /tmp/parley-load-XXXXXX)"
"$bin/parley-server" --port 0 --grpc-port 0 --data-directory "$data" --rate-limit-scale 1000 \
    --max-connections-per-address 20000 \
    --log-level error >"$data/stdout" 2>"$data/stderr" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 100); do grep -q "gRPC listening on" "$data/stdout" 2>/dev/null && grep -q "^parley-server listening on" "$data/stdout" && break; sleep 0.1; done
url="http://$(sed -n 's/^parley-server listening on //p' "$data/stdout")"
grpc_port="$(sed -n 's/^parley-server gRPC listening on .*:\([0-9]*\).*/\1/p' "$data/stdout")"
echo "server: $url (pid $server, SQLite in $data)"

if [ "$scenario" = all ] || [ "$scenario" = throughput ]; then
    echo "== throughput: 50 clients, 4 requests in flight each, as fast as the server answers =="
    "$bin/parley-load" traffic --server "$url" --server-pid "$server" --clients 50 --concurrency 4 --duration 15
fi
if [ "$scenario" = all ] || [ "$scenario" = socket-throughput ]; then
    echo "== throughput over the socket: 50 clients, 4 request frames in flight each, as fast as the server answers =="
    "$bin/parley-load" traffic --server "$url" --server-pid "$server" --clients 50 --concurrency 4 --duration 15 --over socket
fi
if [ "$scenario" = all ] || [ "$scenario" = latency ]; then
    echo "== latency: 100 clients at 5,000 messages/s in all =="
    "$bin/parley-load" traffic --server "$url" --server-pid "$server" --clients 100 --rate 5000 --duration 15
fi
if [ "$scenario" = all ] || [ "$scenario" = socket-latency ]; then
    echo "== latency over the socket: 100 clients at 5,000 messages/s in all =="
    "$bin/parley-load" traffic --server "$url" --server-pid "$server" --clients 100 --rate 5000 --duration 15 --over socket
fi
if [ "$scenario" = all ] || [ "$scenario" = idle ]; then
    echo "== idle: 10,000 authenticated sockets =="
    "$bin/parley-load" idle-sockets --server "$url" --server-pid "$server" --sockets 10000 --hold 5
fi
if [ "$scenario" = all ] || [ "$scenario" = idle-after-use ]; then
    echo "== idle after use: 10,000 authenticated sockets, each having sent 8 messages over itself (and acknowledged 8) =="
    "$bin/parley-load" idle-sockets --server "$url" --server-pid "$server" --sockets 10000 --hold 5 --sends 8
fi
if [ "$scenario" = all ] || [ "$scenario" = credential-flood ]; then
    echo "== credential flood: 10,000 wrong-password requests, 64 in flight, /health and a normal client timed =="
    "$bin/parley-load" credential-flood --server "$url" --server-pid "$server" --requests 10000 --concurrency 64
    echo "== credential flood offered at 2,000/s (5 s) =="
    "$bin/parley-load" credential-flood --server "$url" --server-pid "$server" --requests 10000 --concurrency 64 --rate 2000
fi
if [ "$scenario" = all ] || [ "$scenario" = unauthenticated-flood ]; then
    # A second server with the default limits (rate limits unscaled, 1,000 connections per address), a 20 s read
    # timeout (and 5 s pings: the read timeout spans at least three) so that silent connections are cut within the run: a legitimate pair of clients on 127.0.0.1 sends over
    # the socket at 400 messages a second, first alone, then while Scripts/load/unauthenticated_flood.py attacks from
    # 127.0.0.2–8.
    defaults="$(mktemp -d /tmp/parley-flood-XXXXXX)"
    "$bin/parley-server" --port 0 --data-directory "$defaults" --read-timeout-seconds 20 --keep-alive-seconds 5 --log-level error \
        >"$defaults/stdout" 2>"$defaults/stderr" &
    guarded=$!
    trap 'kill $server $guarded 2>/dev/null; wait $server $guarded 2>/dev/null; rm -rf "$data" "$defaults"' EXIT
    for _ in $(seq 100); do grep -q "^parley-server listening on" "$defaults/stdout" 2>/dev/null && break; sleep 0.1; done
    address="$(sed -n 's/^parley-server listening on //p' "$defaults/stdout")"
    python="${PARLEY_PYTHON:-$(command -v python3)}"
    echo "== unauthenticated flood: the legitimate clients alone (4 clients, 400 msg/s over the socket, 25 s) =="
    "$bin/parley-load" traffic --server "http://$address" --server-pid "$guarded" --over socket --clients 4 --rate 400 --duration 25
    echo "== unauthenticated flood: the same clients during the flood (2,000 idle connections, 1,000 upgrades without credentials, registration/link/provisioning/backup floods) =="
    "$python" Scripts/load/unauthenticated_flood.py --server "$address" --duration 40 --idle 2000 --sockets 1000 --workers 8 &
    flood=$!
    sleep 5
    "$bin/parley-load" traffic --server "http://$address" --server-pid "$guarded" --over socket --clients 4 --rate 400 --duration 25
    wait $flood
fi
if [ "$scenario" = all ] || [ "$scenario" = bundles ]; then
    echo "== bundles: GetPreKeyBundle over REST, then over gRPC, 32 callers, 10 s each =="
    "$bin/parley-load" bundle-fetches --server "$url" --server-pid "$server" --grpc-port "$grpc_port" --workers 32 --duration 10
fi
