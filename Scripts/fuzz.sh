#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/, with -sanitize=fuzzer,address into .build-fuzz) and runs each for a budget.
#   Scripts/fuzz.sh                      every target, 60 s each (`make fuzz`; FUZZ_SECONDS=N to change)
#   Scripts/fuzz.sh --quick              every target, 10 s each, as `make test` runs them
#   Scripts/fuzz.sh TARGET [SECONDS] [-- libFuzzer flags…]
#   FUZZ_CONFIGURATION=release …         the same, built optimized (-O keeps Swift's bounds, overflow and precondition
#                                        checks, and the harness's invariants are fatalErrors), for long runs
# Three binaries hold the targets (ParleyProtocolFuzz, ParleyAPIFuzz, ParleyKitServerFuzz; each lists its own with
# PARLEY_FUZZ_LIST=1), so a target's binary links only the code it reaches: libFuzzer scans every linked counter after
# every input.
# Corpora grow under .build-fuzz/corpus/TARGET (seeded from Parley's own encoders on first run); inputs that ever
# crashed are kept in Fuzz/Regressions/TARGET and replayed first, so a regression fails at once. A crash, a leak or
# a timeout (over 10 s for one input) fails the run; the input is written to .build-fuzz/artifacts/TARGET/.
# Targets that write files (attachment-file, receive's database) write them in a scratch directory made per target in
# memory (/dev/shm when it is writable, else the system's temporary directory; FUZZ_SCRATCH=DIR to choose) and removed
# after it: attachment-file runs 1.6 times as fast on tmpfs as on this machine's disk.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${FUZZ_SECONDS:-60}"
configuration="${FUZZ_CONFIGURATION:-debug}"
case "$configuration" in debug|release) ;; *) echo "fuzz: FUZZ_CONFIGURATION must be debug or release" >&2; exit 2 ;; esac
targets=()
extra=()
if [ "${1:-}" = "--quick" ]; then
    seconds="${FUZZ_SECONDS:-10}"
elif [ $# -gt 0 ]; then
    targets=("$1"); shift
    if [ $# -gt 0 ] && [ "$1" != "--" ]; then seconds="$1"; shift; fi
    [ "${1:-}" = "--" ] && shift
    extra=("$@")
fi

# Sanitizers: SwiftPM keeps its --sanitize options in a set and hands them to swiftc as separate -sanitize= flags, in
# an order that changes from one `swift build` to the next, and swiftc keeps only the last. Given both, every build
# gave the Swift modules it compiled *either* coverage *or* AddressSanitizer (libFuzzer then searches blind), and
# half of all builds recompiled everything because the command lines changed. So SwiftPM gets one, fuzzer (libFuzzer
# linked in, C targets built with coverage), and the rest is passed explicitly: both sanitizers to swiftc (after
# SwiftPM's flag, so it wins), AddressSanitizer to clang (whose -fsanitize flags add up).
# The Parley package is a path dependency here, and SwiftPM reuses the build plan it made for it even after source
# files were added to it (the build then fails with "cannot find … in scope"). So the plan is dropped when the list of
# source files or a manifest changed since the last build.
sources="$({ find Sources Fuzz/Sources -type f | sort; cat Package.swift Fuzz/Package.swift; } | sha256sum)"
if [ "$(cat ".build-fuzz/$configuration.sources" 2>/dev/null)" != "$sources" ]; then
    rm -f ".build-fuzz/$configuration.yaml" .build-fuzz/*/"$configuration"/description.json
fi
swift build --package-path Fuzz --scratch-path .build-fuzz -c "$configuration" --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address \
    -Xcc -fsanitize=address -Xswiftc -enable-testing -q 2>&1 | { grep -v "ld.gold: warning: Cannot export local symbol .__asan" || true; }
mkdir -p .build-fuzz && echo "$sources" > ".build-fuzz/$configuration.sources"
bin="$(swift build --package-path Fuzz --scratch-path .build-fuzz -c "$configuration" --show-bin-path)"
# Which binary holds which target: each lists its own.
declare -A binary_of=()
listed=()
for name in ParleyProtocolFuzz ParleyAPIFuzz ParleyKitServerFuzz; do
    before=${#listed[@]}
    while read -r target; do
        [ -n "$target" ] || continue
        if [ -n "${binary_of[$target]:-}" ]; then
            echo "fuzz: $target is in ${binary_of[$target]##*/} and $name" >&2
            exit 1
        fi
        binary_of[$target]="$bin/$name"
        listed+=("$target")
    done < <(PARLEY_FUZZ_LIST=1 ASAN_OPTIONS=detect_leaks=0 "$bin/$name" 2>".build-fuzz/$name.list.log")
    if [ ${#listed[@]} -eq "$before" ]; then
        echo "fuzz: $bin/$name lists no target (its output: .build-fuzz/$name.list.log)" >&2
        exit 1
    fi
done
# Every target that ever failed still exists (its regression inputs would otherwise never be replayed).
for regressions in Fuzz/Regressions/*/; do
    [ -d "$regressions" ] || continue
    target="$(basename "$regressions")"
    if [ -z "${binary_of[$target]:-}" ]; then
        echo "fuzz: Fuzz/Regressions/$target names no target (targets: ${listed[*]})" >&2
        exit 1
    fi
done
[ ${#targets[@]} -gt 0 ] || targets=("${listed[@]}")
for target in "${targets[@]}"; do
    if [ -z "$target" ] || [ -z "${binary_of[$target]:-}" ]; then
        echo "fuzz: no target '$target' (targets: ${listed[*]})" >&2
        exit 2
    fi
done
# Refuse to fuzz with a binary whose Swift or C code lacks either instrumentation.
for object in "$bin"/ParleyProtocol.build/SessionCipher.swift.o "$bin"/ParleyKit.build/DataMessage.swift.o "$bin"/FuzzHarness.build/FuzzEntry.swift.o \
              "$bin"/CParleyCrypto.build/CParleyCrypto.c.o "$bin"/CParleyDatabase.build/parley_vfs.c.o \
              "$bin"/ParleyProtocolFuzz.build/main.swift.o "$bin"/ParleyAPIFuzz.build/main.swift.o "$bin"/ParleyKitServerFuzz.build/main.swift.o; do
    sections="$(objdump -h "$object")"
    if ! grep -q __sancov_cntrs <<<"$sections" || ! grep -q asan <<<"$sections"; then
        echo "fuzz: $object lacks coverage or AddressSanitizer instrumentation" >&2
        exit 1
    fi
done
scratch_parent="${FUZZ_SCRATCH:-/dev/shm}"
[ -d "$scratch_parent" ] && [ -w "$scratch_parent" ] || scratch_parent="${TMPDIR:-/tmp}"
scratch=""
trap '[ -z "$scratch" ] || rm -rf "$scratch"' EXIT
failed=0
for target in "${targets[@]}"; do
    scratch="$(mktemp -d "$scratch_parent/parley-fuzz.XXXXXX")"
    corpus=".build-fuzz/corpus/$target" artifacts=".build-fuzz/artifacts/$target/" regressions="Fuzz/Regressions/$target"
    mkdir -p "$corpus" "$artifacts"
    seeds=()
    [ -z "$(ls -A "$corpus")" ] && seeds=(env PARLEY_FUZZ_SEEDS="$corpus")
    [ -d "$regressions" ] && cp -n "$regressions"/* "$corpus"/ 2>/dev/null || true
    log=".build-fuzz/$target.log"
    if ${seeds[@]+"${seeds[@]}"} env -u PARLEY_FUZZ_LIST TMPDIR="$scratch" PARLEY_FUZZ_TARGET="$target" SWIFT_BACKTRACE=enable=no LSAN_OPTIONS="suppressions=$PWD/Fuzz/lsan.supp:print_suppressions=0" "${binary_of[$target]}" "$corpus" -dict=Fuzz/protobuf.dict \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=8192 -print_final_stats=1 \
        -artifact_prefix="$artifacts" ${extra[@]+"${extra[@]}"} >"$log" 2>&1; then
        runs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")"
        if [ -n "$runs" ]; then
            echo "fuzz $target: $runs executions in ${seconds} s, no crash, leak or timeout"
        else
            failed=$((failed + 1))
            echo "fuzz $target: FAILED, it exited without fuzzing (log: $log)" >&2
        fi
    else
        failed=$((failed + 1))
        echo "fuzz $target: FAILED (log: $log, input in $artifacts)" >&2
        grep -E "ERROR|invariant|Fatal error|SUMMARY" "$log" | head -5 >&2 || true
    fi
    rm -rf "$scratch"
    scratch=""
done
echo "fuzz: $(( ${#targets[@]} - failed )) passed, $failed failed"
[ "$failed" -eq 0 ]
