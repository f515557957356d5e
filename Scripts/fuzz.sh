#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/, with -sanitize=fuzzer,address into .build-fuzz) and runs each for a budget.
#   Scripts/fuzz.sh                      every target, 60 s each (`make fuzz`; FUZZ_SECONDS=N to change)
#   Scripts/fuzz.sh --quick              every target, 10 s each, as `make test` runs them
#   Scripts/fuzz.sh TARGET [SECONDS] [-- libFuzzer flags…]
# Corpora grow under .build-fuzz/corpus/TARGET (seeded from Parley's own encoders on first run); inputs that ever
# crashed are kept in Fuzz/Regressions/TARGET and replayed first, so a regression fails at once. A crash, a leak or
# a timeout (over 10 s for one input) fails the run; the input is written to .build-fuzz/artifacts/TARGET/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-60}"
targets=(prekey-signal-message signal-message sender-key-message sender-key-distribution-message plaintext-content sealed-sender
         sealed-sender-content sealed-sender-certificates sealed-sender-multi-recipient session-record prekey-records keys spqr-message
         spqr-erasure-code session-pair api-json content attachment attachment-file provisioning hash-file request-headers socket-binary-frames)
extra=()
if [ "${1:-}" = "--quick" ]; then
    seconds="${FUZZ_SECONDS:-10}"
elif [ $# -gt 0 ]; then
    targets=("$1"); shift
    if [ $# -gt 0 ] && [ "$1" != "--" ]; then seconds="$1"; shift; fi
    [ "${1:-}" = "--" ] && shift
    extra=("$@")
fi

# SwiftPM hands swiftc each sanitizer as its own -sanitize= flag, in an order that changes from run to run, and swiftc
# keeps only the last one: a Swift module came out with coverage and no AddressSanitizer, or the reverse (libFuzzer
# then finds no new coverage and searches blind). The combined flag, passed last, gives every Swift module both.
# The Parley package is a path dependency here, and SwiftPM reuses the build plan it made for it even after source
# files were added to it (the build then fails with "cannot find … in scope"); planning again costs seconds, not a rebuild.
rm -f .build-fuzz/debug.yaml .build-fuzz/*/debug/description.json
swift build --package-path Fuzz --scratch-path .build-fuzz --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address \
    -Xswiftc -enable-testing -q 2>&1 | { grep -v "ld.gold: warning: Cannot export local symbol .__asan" || true; }
bin="$(swift build --package-path Fuzz --scratch-path .build-fuzz --show-bin-path)"
binary="$bin/ParleyFuzz"
# Refuse to fuzz with a binary whose Swift code lacks either instrumentation.
for object in "$bin"/ParleyProtocol.build/SessionCipher.swift.o "$bin"/ParleyKit.build/DataMessage.swift.o "$bin"/ParleyFuzz.build/FuzzTarget.swift.o; do
    sections="$(objdump -h "$object")"
    if ! grep -q __sancov_cntrs <<<"$sections" || ! grep -q asan <<<"$sections"; then
        echo "fuzz: $object lacks coverage or AddressSanitizer instrumentation" >&2
        exit 1
    fi
done
failed=0
for target in "${targets[@]}"; do
    corpus=".build-fuzz/corpus/$target" artifacts=".build-fuzz/artifacts/$target/" regressions="Fuzz/Regressions/$target"
    mkdir -p "$corpus" "$artifacts"
    seeds=()
    [ -z "$(ls -A "$corpus")" ] && seeds=(env PARLEY_FUZZ_SEEDS="$corpus")
    [ -d "$regressions" ] && cp -n "$regressions"/* "$corpus"/ 2>/dev/null || true
    log=".build-fuzz/$target.log"
    if ${seeds[@]+"${seeds[@]}"} env PARLEY_FUZZ_TARGET="$target" SWIFT_BACKTRACE=enable=no LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp:print_suppressions=0" "$binary" "$corpus" -dict=Fuzz/protobuf.dict \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=8192 -print_final_stats=1 \
        -artifact_prefix="$artifacts" ${extra[@]+"${extra[@]}"} >"$log" 2>&1; then
        runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")"
        echo "fuzz $target: ${runs:-?} executions in ${seconds} s, no crash, leak or timeout"
    else
        failed=$((failed + 1))
        echo "fuzz $target: FAILED (log: $log, input in $artifacts)" >&2
        grep -E "ERROR|invariant|Fatal error|SUMMARY" "$log" | head -5 >&2 || true
    fi
done
echo "fuzz: $(( ${#targets[@]} - failed )) passed, $failed failed"
[ "$failed" -eq 0 ]
