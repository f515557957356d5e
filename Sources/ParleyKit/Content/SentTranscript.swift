/// A message sent from another device of this account.
public struct SentTranscript: Codable, Sendable, Equatable {
    /// The conversation's other account.
    public var destinationAccountId: String
    /// The message.
    public var message: DataMessage

    /// A transcript of `message`, sent to `destinationAccountId`.
    public init(destinationAccountId: String, message: DataMessage) {
        self.destinationAccountId = destinationAccountId
        self.message = message
    }
}
