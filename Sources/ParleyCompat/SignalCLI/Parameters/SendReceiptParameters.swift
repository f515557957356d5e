/// `sendReceipt`'s parameters: read receipts for messages one person sent.
struct SendReceiptParameters: SignalCLIParameters {
    /// The messages' sender.
    let recipient: String?
    /// `read` (the default) or `viewed`, which Parley does not send.
    let type: String?
    /// The messages' timestamps (`targetTimestamp` or `targetTimestamps`).
    let targetTimestamps: [Int64]

    init(reading p: SignalCLIParameterReader) throws {
        recipient = try p.string("recipient")
        type = try p.string("type")
        targetTimestamps = try p.integerList("targetTimestamp", "targetTimestamps")
    }
}
