#!/usr/bin/env bash
# `Scripts/format.sh lint` (what `make check` runs) or `Scripts/format.sh format` (rewrites in place): swift-format, from
# the Swift toolchain, over every Swift file of the repository's own code with the configuration in .swift-format.
# Generated code (swift-protobuf and grpc-swift output under Generated/) is left as its generator wrote it.
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-lint}"
case "$mode" in
    lint) arguments=(lint --strict) ;;
    format) arguments=(format --in-place) ;;
    *) echo "usage: Scripts/format.sh [lint|format]" >&2; exit 2 ;;
esac
files=()
while IFS= read -r -d '' file; do files+=("$file"); done < <(
    find Sources Tests Fuzz Benchmarks Package.swift -name '*.swift' -not -path '*/Generated/*' -not -path '*/.build*' -print0 | sort -z)
swift format "${arguments[@]}" --parallel --configuration .swift-format "${files[@]}"
[ "$mode" = lint ] && echo "format: ${#files[@]} files lint clean"
