/// What entitles a request to send, or to fetch an account's prekey bundles before sending: a device's credentials, or
/// the recipient's unidentified access key (sealed sender, where the server never learns who sends).
enum SendAuthorization: Sendable {
    /// An authenticated device; its account and device become the envelopes' source (except sealed-sender ones).
    case device(AuthenticatedDevice)
    /// No credentials: the 16-byte key from `Unidentified-Access-Key` (checked against the recipient by
    /// ``SendService``), and the client's address for its rate limit.
    case unidentifiedAccess(key: [UInt8], clientAddress: String?)
}
