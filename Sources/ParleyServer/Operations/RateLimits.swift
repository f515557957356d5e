/// The token buckets every account gets, one per kind of action.
public struct RateLimits: Sendable {
    /// Message sends (one request to one recipient, however many devices).
    public var send = TokenBucketPolicy(capacity: 1_000, refillPerSecond: 200)
    /// Prekey bundle fetches: each one may consume another account's one-time keys.
    public var bundleFetch = TokenBucketPolicy(capacity: 100, refillPerSecond: 1)
    /// Attachment uploads.
    public var attachmentUpload = TokenBucketPolicy(capacity: 50, refillPerSecond: 1)
    /// Link codes issued.
    public var linkCode = TokenBucketPolicy(capacity: 10, refillPerSecond: 1.0 / 60)
    /// Key uploads (each checks up to 201 signatures; clients upload at registration and when their keys run low).
    public var keyUpload = TokenBucketPolicy(capacity: 30, refillPerSecond: 1.0 / 10)
    /// Ephemeral events sent over the socket.
    public var ephemeral = TokenBucketPolicy(capacity: 200, refillPerSecond: 20)

    /// Content-hash requests (checks, prefix lookups, stores; a batch counts once).
    public var contentHash = TokenBucketPolicy(capacity: 300, refillPerSecond: 30)
    /// The primary device's own PIN backup requests (evaluations and uploads): plenty for making backups, few for
    /// anything else. Restore guesses have their own exact window (``BackupSettings``), which this does not scale.
    public var backup = TokenBucketPolicy(capacity: 20, refillPerSecond: 1.0 / 60)

    /// Group auth credential requests (each up to eight issuances, ~3 ms of CPU apiece; clients ask about once a day).
    public var groupCredentials = TokenBucketPolicy(capacity: 20, refillPerSecond: 1.0 / 60)
    /// Profile key commitments and credentials (a credential is ~4 ms of CPU; clients fetch one per contact a week).
    public var profileKeyCredentials = TokenBucketPolicy(capacity: 200, refillPerSecond: 1)
    /// Group requests from one client address (they carry no account: each is a credential presentation, ~2 ms to
    /// check, and a read or change of a large group costs more with the endorsements it returns).
    public var groupRequestsPerAddress = TokenBucketPolicy(capacity: 300, refillPerSecond: 5)
    /// Profile key credential presentations in group requests from one client address, a token each (~2.5 ms of CPU):
    /// a group of 1,001 created at once, then 20 a second — a tenth of a core an address.
    public var groupPresentationsPerAddress = TokenBucketPolicy(capacity: 1_100, refillPerSecond: 20)

    /// Sealed-sender sends to one recipient account from one client address (the sender is unknown). Keyed by both, so
    /// that whoever floods a recipient from one address uses up only its own bucket, not everyone's sealed sends to it.
    public var unidentifiedSendPerRecipientPerAddress = TokenBucketPolicy(capacity: 500, refillPerSecond: 100)
    /// Sealed-sender sends to one recipient account from all addresses together: a backstop against a flood from many.
    public var unidentifiedSendPerRecipient = TokenBucketPolicy(capacity: 5_000, refillPerSecond: 1_000)
    /// Sealed-sender sends from one client address, whoever they are for.
    public var unidentifiedSendPerAddress = TokenBucketPolicy(capacity: 1_000, refillPerSecond: 200)
    /// Push target registrations and removals (each is a write; apps re-register when their token rotates).
    public var pushTarget = TokenBucketPolicy(capacity: 20, refillPerSecond: 1.0 / 60)

    /// Username reservations, confirmations (a proof check, 0.4 ms of CPU) and link changes of one account.
    public var username = TokenBucketPolicy(capacity: 20, refillPerSecond: 1.0 / 30)
    /// Username-hash lookups and username-link reads from one client address (they take no credentials, so that the
    /// server cannot tie whoever searches to whom they find): a hundred at once, then four a minute — a scraper
    /// from one address learns under 6,000 usernames' accounts a day, and only for hashes of names it guessed.
    public var usernameLookupPerAddress = TokenBucketPolicy(capacity: 100, refillPerSecond: 1.0 / 15)

    /// Registrations from one client address: an open server's defence against mass sign-ups (`--registration token`
    /// gates them altogether). Ten at once, then one a minute.
    public var registrationPerAddress = TokenBucketPolicy(capacity: 10, refillPerSecond: 1.0 / 60)
    /// Requests from one client address to the other routes that take no credentials and look up a secret: device
    /// links (a link code), provisioning messages (an address; a new device polls once a second while it waits) and PIN
    /// backup evaluations and restores (by username, each also limited per account). One bucket for all of them.
    public var unauthenticatedPerAddress = TokenBucketPolicy(capacity: 300, refillPerSecond: 5)
    /// Bundle fetches without credentials (with the account's unidentified access key) from one client address.
    public var unidentifiedBundleFetchPerAddress = TokenBucketPolicy(capacity: 100, refillPerSecond: 1)
    /// Bundle fetches without credentials of one account from one client address.
    public var unidentifiedBundleFetchPerAccountPerAddress = TokenBucketPolicy(capacity: 50, refillPerSecond: 0.5)
    /// Bundle fetches without credentials of one account, from all addresses together: a backstop for its one-time keys
    /// (below the 1,000 a device holds, so a contact with many addresses cannot take them all in one burst).
    public var unidentifiedBundleFetchPerAccount = TokenBucketPolicy(capacity: 200, refillPerSecond: 2)
    /// Sealed ephemeral events (typing indicators sent with an access key instead of credentials) from one client
    /// address, whoever they are for.
    public var unidentifiedEphemeralPerAddress = TokenBucketPolicy(capacity: 200, refillPerSecond: 20)
    /// Sealed ephemeral events to one account from one client address: one flooding it turns away only itself.
    public var unidentifiedEphemeralPerRecipientPerAddress = TokenBucketPolicy(capacity: 100, refillPerSecond: 10)
    /// Sealed ephemeral events to one account, from all addresses together: a backstop.
    public var unidentifiedEphemeralPerRecipient = TokenBucketPolicy(capacity: 5_000, refillPerSecond: 500)
    /// Attachment downloads from one client address. Downloads take no credentials (a downloader would otherwise show the
    /// server who received what an uploader sent), so they are counted per address: each may stream up to the
    /// attachment cap.
    public var attachmentDownloadPerAddress = TokenBucketPolicy(capacity: 300, refillPerSecond: 10)
    /// The bytes of attachment downloads from one client address, in MiB (a download takes one token per MiB it
    /// serves, at most the whole bucket): 4 GiB at once, then 20 MiB a second.
    public var attachmentDownloadMebibytesPerAddress = TokenBucketPolicy(capacity: 4_096, refillPerSecond: 20)

    /// The defaults.
    public init() {}

    /// Every bucket scaled by `factor` (load testing runs with a large one).
    public func scaled(by factor: Double) -> RateLimits {
        var copy = self
        for keyPath in [
            \RateLimits.send, \.username, \.usernameLookupPerAddress, \.bundleFetch, \.keyUpload, \.attachmentUpload, \.linkCode,
            \.ephemeral, \.contentHash, \.backup,
            \.groupCredentials, \.profileKeyCredentials, \.groupRequestsPerAddress, \.groupPresentationsPerAddress,
            \.unidentifiedSendPerRecipientPerAddress, \.unidentifiedSendPerRecipient, \.unidentifiedSendPerAddress, \.pushTarget,
            \.registrationPerAddress,
            \.unauthenticatedPerAddress, \.attachmentDownloadPerAddress, \.attachmentDownloadMebibytesPerAddress,
            \.unidentifiedBundleFetchPerAddress, \.unidentifiedBundleFetchPerAccountPerAddress,
            \.unidentifiedBundleFetchPerAccount, \.unidentifiedEphemeralPerAddress,
            \.unidentifiedEphemeralPerRecipientPerAddress, \.unidentifiedEphemeralPerRecipient,
        ] {
            copy[keyPath: keyPath] = TokenBucketPolicy(
                capacity: self[keyPath: keyPath].capacity * factor, refillPerSecond: self[keyPath: keyPath].refillPerSecond * factor)
        }
        return copy
    }
}

/// A bucket of `capacity` tokens refilled at `refillPerSecond`; each action takes one.
public struct TokenBucketPolicy: Sendable, Equatable {
    /// Largest burst.
    public var capacity: Double
    /// Sustained rate.
    public var refillPerSecond: Double

    /// A policy.
    public init(capacity: Double, refillPerSecond: Double) {
        self.capacity = capacity
        self.refillPerSecond = refillPerSecond
    }
}
