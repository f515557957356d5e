/// Hard limits on what one request may carry (defaults after Signal-Server's).
public struct ServerLimits: Sendable {
    /// Body limit of small JSON requests (registration).
    public var smallBodyBytes = 16 * 1024
    /// Body limit of a key upload: 100 one-time KEM keys of 1569 bytes in base64, plus the rest.
    public var keyUploadBytes = 512 * 1024
    /// One-time keys of each kind per upload.
    public var keysPerUpload = 100
    /// One-time keys of each kind one device may hold (clients keep about 100 and refill when low): an upload that would
    /// go past it is refused, so an account cannot fill the store with keys nobody will claim.
    public var storedKeysPerKind = 1_000
    /// One device's ciphertext, decoded.
    public var messageBytes = 96 * 1024
    /// Body limit of a send: six devices' ciphertexts in base64, plus the rest.
    public var sendBodyBytes = 6 * 132 * 1024
    /// Body limit of a multi-recipient (sealed sender v2) send: the content once, plus 48 bytes of key material and
    /// the devices per recipient.
    public var multiRecipientBodyBytes = 1024 * 1024
    /// Recipients one multi-recipient send may name (Signal's largest group).
    public var multiRecipientCount = 1_000
    /// Devices per account.
    public var devicesPerAccount = 6
    /// How long a device link code works (default 10 minutes).
    public var linkCodeLifetimeMilliseconds: UInt64 = 10 * 60 * 1000
    /// Largest provisioning message (decoded), and how long the server keeps one nobody took (the link code's life).
    public var provisioningMessageBytes = 16 * 1024
    /// Envelopes per mailbox fetch.
    public var envelopesPerFetch = 100
    /// How long an unacknowledged envelope is kept (default 30 days).
    public var messageLifetimeMilliseconds: UInt64 = 30 * 24 * 60 * 60 * 1000

    /// The server time (milliseconds) before which an envelope, and the idempotency record of its send, are past
    /// ``messageLifetimeMilliseconds`` at `now`: 0 when the lifetime reaches back before 1970. (A wrapping subtraction
    /// made a lifetime longer than the time since 1970 a cutoff in the far future: every mailbox emptied.)
    public func oldestKept(now: UInt64) -> UInt64 {
        now > messageLifetimeMilliseconds ? now - messageLifetimeMilliseconds : 0
    }

    /// Envelopes sent on a socket and not yet acknowledged (flow control).
    public var socketWindow = 100
    /// Largest WebSocket message a client may send: a send request frame carries a send's body as JSON text (its
    /// quotes escaped), so a quarter more than ``sendBodyBytes``; acks and ephemeral events are small.
    public var socketFrameBytes = 6 * 132 * 1024 * 5 / 4
    /// Bytes of envelopes and ephemeral events one socket may hold waiting to be written (a device that does not read
    /// while messages keep arriving): past it, envelopes stay in the store and are read back once the socket catches up.
    public var socketQueueBytes = 4 * 1024 * 1024
    /// Request frames one socket may have being answered at once; further frames wait (the socket is not read).
    public var socketRequestsInFlight = 32
    /// Largest opaque payload of an ephemeral event, decoded.
    public var ephemeralContentBytes = 4 * 1024
    /// Largest attachment (default 100 MiB).
    public var attachmentBytes: Int64 = 100 * 1024 * 1024
    /// How long an attachment is kept (default 30 days).
    public var attachmentLifetimeMilliseconds: UInt64 = 30 * 24 * 60 * 60 * 1000
    /// Per-account token buckets.
    public var rateLimits = RateLimits()
    /// Server-stored groups: sizes and counts.
    public var groups = GroupLimits()
    /// Connections in all and per client address, and how long a connection may stall.
    public var connections = ConnectionLimits()

    /// The defaults.
    public init() {}
}
