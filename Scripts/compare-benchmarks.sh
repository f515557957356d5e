#!/usr/bin/env bash
# Runs Parley's package-benchmark suite and the reference benchmark of Signal's C library
# (../shared/interop/bench.sh, libsignal-protocol-c) side by side, both pinned to CPU 0,
# and writes the ratio table into BENCHMARKS.md between the "comparison" markers.
#   Scripts/compare-benchmarks.sh            (make bench)
set -euo pipefail
cd "$(dirname "$0")/.."
shared=${PARLEY_SHARED_DIR:-$(cd .. && pwd)/shared}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "compare-benchmarks: building the benchmark suite (release)" >&2
swift package --package-path Benchmarks benchmark list >/dev/null
echo "compare-benchmarks: running Parley (package-benchmark, CPU 0)" >&2
taskset -c 0 swift package --package-path Benchmarks benchmark --no-progress --format jmh --path "$out" >/dev/null
echo "compare-benchmarks: running libsignal-protocol-c (bench.sh, CPU 0)" >&2
bash "$shared/interop/bench.sh" --json > "$out/reference.json"

python3 - "$out/Current_run.jmh.json" "$out/reference.json" BENCHMARKS.md <<'PY'
import json, re, sys, platform, subprocess, datetime
parley_path, reference_path, doc_path = sys.argv[1:]
# Iterations per package-benchmark sample (the suite's scalingFactor).
scale = {"fingerprint": 1}
parley = {}
for entry in json.load(open(parley_path)):
    name = entry["benchmark"].rsplit(".", 1)[-1]
    wall = entry["secondaryMetrics"]["Time (wall clock)"]
    assert wall["scoreUnit"] == "μs", wall["scoreUnit"]
    parley[name] = scale.get(name, 1000) * 1e6 / wall["scorePercentiles"]["50.0"]
reference, units, meta = {}, {}, []
for line in open(reference_path):
    line = line.strip()
    if line.startswith("#"):
        meta.append(line[1:].strip())
    elif line.startswith("{"):
        row = json.loads(line)
        reference[row["benchmark"]] = row["median"]
        units[row["benchmark"]] = (row["unit"], row["description"])
order = ["setup", "setup_noopk", "setup_pqxdh", "ratchet", "chain", "group", "fingerprint", "x25519", "sign", "verify"]
rows = ["| workload | Parley | libsignal-protocol-c | ratio | what one operation is |", "|---|---:|---:|---:|---|"]
for name in order:
    if name not in parley:
        continue
    unit, description = units.get(name, ("ops/s", "PQXDH setup with Kyber1024 (no C counterpart)"))
    ref = reference.get(name)
    ratio = "%.2f×" % (parley[name] / ref) if ref else "—"
    rows.append("| %s | %.0f %s | %s | %s | %s |" % (name, parley[name], unit, "%.0f %s" % (ref, unit) if ref else "—", ratio, description))
cpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
model = next((l.split(":", 1)[1].strip() for l in cpu.splitlines() if l.startswith("Model name")), platform.processor())
block = "\n".join([
    "<!-- comparison:begin (written by Scripts/compare-benchmarks.sh; do not edit by hand) -->",
    "Measured %s on %s. Command: `make bench` (= `Scripts/compare-benchmarks.sh`)." % (datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"), model),
    "Parley: package-benchmark, median wall clock per sample, `taskset -c 0`. Reference: " + "; ".join(m for m in meta if m.startswith(("library", "command"))) + ".",
    "",
] + rows + ["<!-- comparison:end -->"])
doc = open(doc_path).read() if __import__("os").path.exists(doc_path) else "# Benchmarks\n\n<!-- comparison:begin -->\n<!-- comparison:end -->\n"
doc = re.sub(r"<!-- comparison:begin.*?<!-- comparison:end -->", lambda _: block, doc, flags=re.S)
open(doc_path, "w").write(doc)
print(block)
PY
