import FuzzHarness

/// What the server reads from strangers in ParleyAPI's types: JSON bodies and socket frames. This binary links
/// ParleyAPI and SwiftProtobuf only, so libFuzzer's scan of the coverage counters after every input stays small.
enum APIFuzzTargets {
    static let all: [String: FuzzTarget] = [
        "api-json": APIJSONTarget.target,
        "socket-binary-frames": SocketFrameTargets.binary,
    ]
}

/// libFuzzer's set-up hook.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    FuzzEntry.initialize(targets: APIFuzzTargets.all)
}

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzEntry.testOneInput(data, size)
}
