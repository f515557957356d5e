/// One fuzz target: what it does with an input, and the seed inputs its corpus starts from.
struct FuzzTarget: Sendable {
    /// Feeds one input to the code under test. A parser may refuse the input with a typed error; it must never
    /// crash, hang or break an invariant the target checks (each breach traps, which libFuzzer reports).
    let run: @Sendable ([UInt8]) -> Void
    /// Valid inputs to start from (made by Parley's own encoders).
    let seeds: @Sendable () -> [[UInt8]]

    /// Every target by name.
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
        "api-json": APIJSONTarget.target,
        "content": ClientTargets.content,
        "attachment": ClientTargets.attachment,
        "provisioning": ClientTargets.provisioning,
        "attachment-file": ClientTargets.attachmentFile,
        "hash-file": ServerTargets.hashFile,
        "request-headers": ServerTargets.requestHeaders,
        "socket-binary-frames": SocketFrameTargets.binary,
    ]
}

/// Stops the process so libFuzzer records the input: an invariant the code under test must keep did not hold.
func invariant(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("invariant broken: \(message())") }
}
