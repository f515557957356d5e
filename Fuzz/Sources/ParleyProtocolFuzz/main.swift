import FuzzHarness

/// The protocol library's targets. This binary links ParleyProtocol and its crypto only, so libFuzzer's scan of the
/// coverage counters after every input covers that code and nothing else.
enum ProtocolFuzzTargets {
    static let all: [String: FuzzTarget] = [
        "prekey-signal-message": WireMessageTargets.preKeySignalMessage,
        "signal-message": WireMessageTargets.signalMessage,
        "sender-key-message": WireMessageTargets.senderKeyMessage,
        "sender-key-distribution-message": WireMessageTargets.senderKeyDistributionMessage,
        "plaintext-content": WireMessageTargets.plaintextContent,
        "sealed-sender": SealedSenderTargets.envelope,
        "sealed-sender-content": SealedSenderTargets.content,
        "sealed-sender-certificates": SealedSenderTargets.certificates,
        "sealed-sender-multi-recipient": SealedSenderTargets.multiRecipient,
        "session-record": RecordTargets.sessionRecord,
        "prekey-records": RecordTargets.preKeyRecords,
        "keys": RecordTargets.keys,
        "spqr-message": SPQRTargets.message,
        "spqr-erasure-code": SPQRTargets.erasureCode,
        "session-pair": SessionPairTarget.target,
        "zkgroup-values": ZKGroupTargets.values,
        "usernames": UsernameTargets.values,
    ]
}

/// libFuzzer's set-up hook.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    FuzzEntry.initialize(targets: ProtocolFuzzTargets.all)
}

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    FuzzEntry.testOneInput(data, size)
}
