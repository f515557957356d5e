/// The bounds Signal's libraries keep on attacker-influenced state.
public enum ProtocolLimits {
    /// How far ahead of the chain a message counter may be (`MAX_FORWARD_JUMPS`).
    public static let maximumForwardJumps: UInt32 = 25_000
    /// Skipped message keys kept per receiver chain (and per sender-key state).
    public static let maximumMessageKeys = 2_000
    /// Receiver chains kept per session.
    public static let maximumReceiverChains = 5
    /// Archived session states kept per address.
    public static let maximumArchivedStates = 40
    /// Sender-key states kept per (sender, distribution id).
    public static let maximumSenderKeyStates = 5
}
