/// Who sent a message, when, and in which conversation.
struct MessageOrigin: Codable {
    /// The author's account.
    var author: String
    /// The author's device.
    var authorDevice: UInt32
    /// The author's timestamp for this message (its identity, with the author).
    var timestamp: UInt64
    /// When the server accepted it, if known.
    var serverTimestamp: UInt64?
    /// The conversation's other account.
    var peer: String
    /// Whether this account wrote it (here or on another device).
    var outgoing: Bool
    /// Status for a new row.
    var status: MessageStatus
    /// Local time now, milliseconds.
    var now: UInt64
    /// This account.
    var localAccountId: String = ""
    /// Where it comes from, which decides what becomes of an act on a message that is not here.
    var arrival: MessageArrival = .madeHere
    /// Whether a message naming a server-stored group this device is behind on (or does not know) may stop its
    /// transaction so the group is read from the server first (``ServerGroupRefreshNeeded``): a received message's
    /// first pass. Not kept with held acts.
    var mayFetchGroup: Bool? = nil
}

/// Where a message comes from.
enum MessageArrival: String, Codable {
    /// Made on this device: an act on a message that is not here is refused.
    case madeHere
    /// From another device (a peer's, or one of this account's): an act on a message that is not here yet is held
    /// until that message comes (``EarlyActsTable``).
    case received
    /// A held act, applied now that its message came: what it still cannot act on is refused.
    case released
}
