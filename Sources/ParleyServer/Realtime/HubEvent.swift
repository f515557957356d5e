import ParleyAPI

/// What the ``DeliveryHub`` tells one connected device.
enum HubEvent: Sendable {
    /// A new envelope was stored for the device in this process.
    case envelope(StoredEnvelope)
    /// The mailbox changed in a way this process did not see (another server process stored envelopes): re-read it.
    case mailboxChanged
    /// An ephemeral event for the device.
    case ephemeral(EphemeralEvent)
    /// A newer connection of the same device took over; this one closes.
    case displaced
    /// The connection's sign-in no longer stands (the device removed, its credential replaced, the account disabled or
    /// deleted); it closes, and the client must sign in again.
    case revoked
}
