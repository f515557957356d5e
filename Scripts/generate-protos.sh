#!/usr/bin/env bash
# Regenerates the committed Swift code for Protos/**.proto.
# Needs protoc (Debian: protobuf-compiler) and protoc-gen-swift built from
# apple/swift-protobuf at the version Package.swift names:
#   git clone --branch 1.39.0 https://github.com/apple/swift-protobuf /tmp/swift-protobuf
#   (cd /tmp/swift-protobuf && swift build -c release --product protoc-gen-swift)
#   PROTOC_GEN_SWIFT=/tmp/swift-protobuf/.build/release/protoc-gen-swift Scripts/generate-protos.sh
set -euo pipefail
cd "$(dirname "$0")/.."
plugin=${PROTOC_GEN_SWIFT:-$(command -v protoc-gen-swift || true)}
[ -x "$plugin" ] || { echo "generate-protos: set PROTOC_GEN_SWIFT to a protoc-gen-swift binary" >&2; exit 1; }
generate() { # module
    local out="Sources/$1/Generated"
    mkdir -p "$out"
    rm -f "$out"/*.pb.swift
    protoc --plugin=protoc-gen-swift="$plugin" --proto_path="Protos/$1" \
        --swift_opt=Visibility=Internal --swift_opt=FileNaming=DropPath \
        --swift_out="$out" "Protos/$1"/*.proto
}
generate ParleyProtocol
generate ParleyKit
echo "generated: $(ls Sources/*/Generated/*.pb.swift | tr '\n' ' ')"
