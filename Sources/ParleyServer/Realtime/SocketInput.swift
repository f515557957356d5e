/// What a socket's delivery loop reacts to, in order.
enum SocketInput: Sendable {
    case hub(HubEvent)
    /// Acks are waiting in the ``AckBuffer``.
    case acks

    /// The bytes the input holds while it waits in a ``SocketInputQueue``: an envelope's ciphertext or an ephemeral
    /// event's payload (the rest is small and fixed).
    var queuedBytes: Int {
        switch self {
        case .hub(.envelope(let envelope)): envelope.content.count
        case .hub(.ephemeral(let event)): event.content.utf8.count
        case .hub, .acks: 0
        }
    }

    /// Whether the input closes the socket (another connection took over, or the sign-in no longer stands).
    var closesSocket: Bool {
        switch self {
        case .hub(.displaced), .hub(.revoked): true
        case .hub, .acks: false
        }
    }
}
