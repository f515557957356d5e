/// A message row about to be stored (``MessagesTable/insert(_:_:)``).
struct NewMessage {
    /// Its conversation.
    var conversationId: Int64
    /// Whether this account wrote it (on this device or another).
    var outgoing: Bool
    /// Its author's account.
    var authorAccountId: String
    /// Its author's device.
    var authorDeviceId: UInt32
    /// The author's timestamp (with the author, the message's identity on every device).
    var timestamp: UInt64
    /// When the server accepted it, if known.
    var serverTimestamp: UInt64?
    /// Its text.
    var body: String?
    /// The accounts its text mentions.
    var mentions: [Mention] = []
    /// Where it stands.
    var status: MessageStatus
    /// The local id of the message it quotes.
    var replyToId: Int64?
    /// A message, or a notice about the conversation.
    var kind: MessageKind = .message
    /// The disappearing-message timer the message was sent with, seconds.
    var expireTimer: UInt32 = 0
}
