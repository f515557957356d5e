#!/usr/bin/env bash
# Duplicate-content-detection benchmark on this machine: a release parley-server on SQLite, a bank of N hashes
# (default 10,000,000: SHA-256 of each index as 8 little-endian bytes) imported through `parley-server dcd import`,
# then parley-load's hash lookups (full-hash, prefix and batches of 100). BENCHMARKS.md quotes the output.
#   Scripts/dcd-benchmark.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-10000000}"
swift build -c release --product parley-server >/dev/null
swift build -c release --product parley-load >/dev/null
bin="$(swift build -c release --show-bin-path)"

data="$(mktemp -d /tmp/parley-dcd-XXXXXX)"
token="benchmark-operator-token-$RANDOM$RANDOM"
python3 - "$count" "$data/hashes.txt" <<'PY'
import hashlib, struct, sys
count, path = int(sys.argv[1]), sys.argv[2]
with open(path, "w") as out:
    for start in range(0, count, 100000):
        out.write("".join(hashlib.sha256(struct.pack("<Q", i)).hexdigest() + "\n" for i in range(start, min(start + 100000, count))))
PY
PARLEY_OPERATOR_TOKEN="$token" "$bin/parley-server" --port 0 --data-directory "$data/server" --rate-limit-scale 1000 \
    --log-level error >"$data/stdout" 2>"$data/stderr" &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$data"' EXIT
for _ in $(seq 100); do grep -q "listening on" "$data/stdout" 2>/dev/null && break; sleep 0.1; done
url="http://$(sed -n 's/^parley-server listening on //p' "$data/stdout")"
echo "server: $url (pid $server, SQLite in $data); bank file: $count hashes, $(du -h "$data/hashes.txt" | cut -f1)"

echo "== import =="
started=$(date +%s.%N)
PARLEY_OPERATOR_TOKEN="$token" "$bin/parley-server" dcd import "$data/hashes.txt" --server "$url" --wait | tail -1
finished=$(date +%s.%N)
python3 -c "import sys; s=float(sys.argv[2])-float(sys.argv[1]); print(f'import: {int(sys.argv[3]):,} hashes in {s:.1f} s = {int(sys.argv[3])/s:,.0f} hashes/s (upload included)')" \
    "$started" "$finished" "$count"
echo "database: $(du -h "$data/server/server.sqlite" | cut -f1)"

for kind in contains prefix batch; do
    echo "== $kind =="
    "$bin/parley-load" hash-lookups --server "$url" --kind "$kind" --workers 32 --duration 15 --bank-size "$count"
done
