/// What a message row is.
public enum MessageKind: String, Sendable, Codable {
    /// A message someone wrote.
    case message
    /// A notice that the conversation's disappearing-message timer changed (the row's `expireTimer`).
    case timerChange = "timer"
    /// A notice that a group was created or its title or members changed (the row's body says how).
    case groupChange = "group"
}
