/// Why a message failed, as a type the command line and apps can act on (an exit code, a prompt), rather than text.
public enum MessageFailure: Sendable, Equatable {
    /// An attachment matched a blocking hash bank: the message was not sent.
    case blockedContent(reason: String)
    /// The message could not be decrypted when it arrived.
    case undecryptable(reason: String)
    /// Sending gave up for another reason.
    case notSent(reason: String)

    /// The failure a stored message records.
    init(storedReason reason: String, status: MessageStatus) {
        if status == .undecryptable {
            self = .undecryptable(reason: reason)
        } else if reason.hasPrefix(MessageFailure.blockedContentPrefix) {
            self = .blockedContent(reason: String(reason.dropFirst(MessageFailure.blockedContentPrefix.count)))
        } else {
            self = .notSent(reason: reason)
        }
    }

    /// What the reason says, for people.
    public var reason: String {
        switch self {
        case .blockedContent(let reason), .undecryptable(let reason), .notSent(let reason): return reason
        }
    }

    /// Heads the stored reason of a send refused for blocked content (the sender writes it; ``init(storedReason:status:)`` reads it).
    static let blockedContentPrefix = "blocked: "
}
