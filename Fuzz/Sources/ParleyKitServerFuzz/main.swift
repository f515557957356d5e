import FuzzHarness

/// The client's and the server's own parsers (ParleyKit's decoders, attachment files, provisioning; the server's
/// hash files and request headers). This binary links both, with everything they depend on.
enum KitServerFuzzTargets {
    static let all: [String: FuzzTarget] = [
        "content": ClientTargets.content,
        "receive": ReceiveTarget.target,
        "attachment": ClientTargets.attachment,
        "provisioning": ClientTargets.provisioning,
        "attachment-file": ClientTargets.attachmentFile,
        "hash-file": ServerTargets.hashFile,
        "request-headers": ServerTargets.requestHeaders,
        "group-change": GroupChangeTarget.target,
    ]
}

/// libFuzzer's set-up hook.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    FuzzEntry.initialize(targets: KitServerFuzzTargets.all)
}

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzEntry.testOneInput(data, size)
}
