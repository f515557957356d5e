#!/usr/bin/env bash
# Regenerates the committed Swift code for Protos/**.proto.
# Needs protoc (Debian: protobuf-compiler), protoc-gen-swift and protoc-gen-grpc-swift-2 built at the versions
# Package.swift names. grpc-swift-protobuf's package builds both:
#   git clone --branch 2.4.1 https://github.com/grpc/grpc-swift-protobuf /tmp/grpc-swift-protobuf
#   (cd /tmp/grpc-swift-protobuf && swift build -c release --product protoc-gen-grpc-swift-2 \
#        && swift build -c release --product protoc-gen-swift)
#   PROTOC_GEN_SWIFT=/tmp/grpc-swift-protobuf/.build/release/protoc-gen-swift \
#   PROTOC_GEN_GRPC_SWIFT=/tmp/grpc-swift-protobuf/.build/release/protoc-gen-grpc-swift-2 Scripts/generate-protos.sh
set -euo pipefail
cd "$(dirname "$0")/.."
plugin=${PROTOC_GEN_SWIFT:-$(command -v protoc-gen-swift || true)}
grpc_plugin=${PROTOC_GEN_GRPC_SWIFT:-$(command -v protoc-gen-grpc-swift-2 || true)}
[ -x "$plugin" ] || { echo "generate-protos: set PROTOC_GEN_SWIFT to a protoc-gen-swift binary" >&2; exit 1; }
[ -x "$grpc_plugin" ] || { echo "generate-protos: set PROTOC_GEN_GRPC_SWIFT to a protoc-gen-grpc-swift-2 binary" >&2; exit 1; }
generate() { # module visibility
    local out="Sources/$1/Generated"
    mkdir -p "$out"
    rm -f "$out"/*.pb.swift "$out"/*.grpc.swift
    protoc --plugin=protoc-gen-swift="$plugin" --proto_path="Protos/$1" \
        --swift_opt=Visibility="$2" --swift_opt=FileNaming=DropPath \
        --swift_out="$out" "Protos/$1"/*.proto
}
generate ParleyProtocol Internal
generate ParleyKit Internal
# The socket's binary frames (Signal's WebSocketMessage); ParleyAPI presents them as its own types.
generate ParleyAPI Internal
# Server-stored groups (Signal's Groups.proto wire format): public, for the server, ParleyKit and their tests.
protoc --plugin=protoc-gen-swift="$plugin" --proto_path=Protos/ParleyAPI/Public \
    --swift_opt=Visibility=Public --swift_opt=FileNaming=DropPath \
    --swift_out=Sources/ParleyAPI/Generated Protos/ParleyAPI/Public/*.proto
# Seed 002's key service: messages, server protocol and client stubs, public for the server, its tests and parley-load.
generate ParleyGRPC Public
protoc --plugin=protoc-gen-grpc-swift-2="$grpc_plugin" --proto_path=Protos/ParleyGRPC \
    --grpc-swift-2_opt=Visibility=Public,Client=true,Server=true,FileNaming=DropPath \
    --grpc-swift-2_out=Sources/ParleyGRPC/Generated Protos/ParleyGRPC/*.proto
echo "generated: $(ls Sources/*/Generated/*.swift | tr '\n' ' ')"
