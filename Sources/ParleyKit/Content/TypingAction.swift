/// A typing indicator: the sender started or stopped typing in the conversation.
public enum TypingAction: String, Codable, Sendable, Equatable {
    /// The sender is typing; receivers show it for at most ``TypingIndicators/lifetime`` unless renewed.
    case started
    /// The sender stopped typing.
    case stopped
}
