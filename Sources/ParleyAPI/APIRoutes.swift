import Foundation

/// The server's routes, shared by server and client so they cannot drift apart.
public enum APIRoutes {
    /// `POST`: register an account.
    public static let accounts = "/v1/accounts"
    /// `GET`: the account registered under `username`.
    public static func lookup(username: String) -> String { "/v1/accounts/username/\(username)" }
    /// `GET`: the username of account `accountId` (to name conversations others started).
    public static func account(_ accountId: String) -> String { "/v1/accounts/\(accountId)" }
    /// `GET` → ``AccountIdentityResponse``: the calling account as the server knows it.
    public static let whoami = "/v1/accounts/whoami"
    /// `PUT` ``AccountAttributesRequest``: the account's unidentified access key and whether anyone may send to it
    /// sealed (any device of the account).
    public static let accountAttributes = "/v1/accounts/attributes"
    /// The header a sealed-sender send carries instead of credentials: the recipient's unidentified access key, base64
    /// (16 bytes; for `multi_recipient`, the XOR of every recipient's key).
    public static let unidentifiedAccessKeyHeader = "Unidentified-Access-Key"
    /// The header that makes a send idempotent (IETF draft-ietf-httpapi-idempotency-key-header): a repeat of a send with
    /// the same key gets the first answer and stores nothing again. Keys are per sending device (per recipient, or per
    /// set of recipients for `multi_recipient`, for sends without credentials), 1…128 visible ASCII characters; a key
    /// reused for another recipient or timestamp is 422.
    public static let idempotencyKeyHeader = "Idempotency-Key"
    /// `GET`: list this account's devices.
    public static let devices = "/v1/devices"
    /// `POST`: issue a one-time link code for a new device.
    public static let linkCode = "/v1/devices/link-code"
    /// `PUT`: join an account with a link code (no authentication).
    public static let linkDevice = "/v1/devices/link"
    /// `PUT` ``DeviceRegistrationRequest``: the authenticated device starts over as a new installation (new
    /// registration id, its stored prekeys dropped).
    public static let deviceRegistration = "/v1/devices/self/registration"
    /// `DELETE`: remove a device (not the primary, id 1).
    public static func device(_ deviceId: UInt32) -> String { device(String(deviceId)) }
    /// `DELETE`: remove a device, named by its id as text (`{device}` makes the route template).
    public static func device(_ deviceId: String) -> String { "/v1/devices/\(deviceId)" }
    /// `PUT` (primary device): leave an encrypted provisioning message at `address`; `GET` (no authentication):
    /// take it, once. A new device on another machine receives the account's identity this way.
    public static func provisioning(_ address: String) -> String { "/v1/provisioning/\(address)" }
    /// `PUT`: upload prekeys.
    public static let keys = "/v1/keys"
    /// `GET`: prekey counts of the authenticated device.
    public static let keyCount = "/v1/keys/count"
    /// `GET`: bundles of `accountId`'s device `deviceId` (`*` for all).
    public static func bundle(accountId: String, deviceId: String) -> String { "/v1/keys/\(accountId)/\(deviceId)" }
    /// `PUT`: send to every device of `accountId`, with device credentials or, for sealed-sender messages only, with
    /// ``unidentifiedAccessKeyHeader`` instead.
    public static func messages(to accountId: String) -> String { "/v1/messages/\(accountId)" }
    /// `PUT` a sealed sender v2 message (`application/vnd.signal-messenger.mrm`, `?ts=` the sender's timestamp) to every
    /// device it names, without credentials: ``unidentifiedAccessKeyHeader`` holds the XOR of the recipients' keys.
    public static func multiRecipientMessages(timestamp: UInt64) -> String { "\(multiRecipientMessagesPath)?ts=\(timestamp)" }
    /// The media type of a sealed sender v2 body (``multiRecipientMessages(timestamp:)``), as Signal's clients send it.
    public static let multiRecipientContentType = "application/vnd.signal-messenger.mrm"
    /// The path of ``multiRecipientMessages(timestamp:)``, without its query.
    public static let multiRecipientMessagesPath = "/v1/messages/multi_recipient"
    /// `GET`: the authenticated device's pending envelopes.
    public static let mailbox = "/v1/messages"
    /// `DELETE`: acknowledge (delete) one envelope.
    public static func acknowledge(guid: String) -> String { "/v1/messages/\(guid)" }
    /// `GET` with a WebSocket upgrade: the authenticated device's real-time channel (``SocketFrame``s).
    public static let webSocket = "/v1/websocket"
    /// The query that opens ``webSocket`` with binary frames (``BinarySocketMessage``) instead of JSON text frames.
    public static let binaryFramesQuery = "frames=binary"
    /// Over a binary socket, client → server: relay an ``EphemeralEvent`` (JSON body).
    public static let socketEphemeral = "/v1/ephemeral"
    /// `PUT` without credentials, with the recipient's unidentified access key: relay a sealed ``EphemeralEvent`` (a
    /// typing indicator whose copies are sealed sender) to `accountId`'s connected devices, naming no source.
    public static func sealedEphemeral(to accountId: String) -> String { "/v1/ephemeral/\(accountId)" }
    /// Over a binary socket, server → client: one envelope (protobuf body); a `200` response acknowledges it.
    public static let socketDeliveredMessage = "/api/v1/message"
    /// Over a binary socket, server → client: the mailbox stored at connect time has been delivered.
    public static let socketQueueEmpty = "/api/v1/queue/empty"
    /// Over a binary socket, server → client: an ``EphemeralEvent`` (JSON body), never stored.
    public static let socketDeliveredEphemeral = "/api/v1/ephemeral"
    /// `POST`: upload an encrypted attachment (streamed, raw bytes).
    public static let attachments = "/v1/attachments"
    /// `GET`: download an attachment (supports `Range`).
    public static func attachment(_ id: String) -> String { "/v1/attachments/\(id)" }
    /// `GET`: a sender certificate for the authenticated device (``DeliveryCertificateResponse``).
    public static let deliveryCertificate = "/v1/certificate/delivery"
    /// `GET`: the sealed-sender trust root (``SealedSenderTrustRootResponse``), without authentication.
    public static let sealedSenderTrustRoot = "/v1/certificate/trust-root"
    /// `GET`: the server's zkgroup public params (``ZKGroupPublicParamsResponse``), without authentication: what clients
    /// check group auth credentials and the group server's signatures against.
    public static let zkGroupPublicParams = "/v1/config/zkgroup"
    /// `GET ?redemptionStartSeconds=&redemptionEndSeconds=`: the authenticated account's group auth credentials, one per
    /// day of the range (``GroupAuthCredentialsResponse``), as Signal-Server's `/v1/certificate/auth/group` answers.
    public static let groupAuthCredentials = "/v1/certificate/auth/group"
    /// Server-stored groups, as Signal's groups service serves them (protobuf bodies, ``groupContentType``), each request
    /// authenticated by a group auth credential presentation (``groupAuthorization(publicParams:presentation:)``):
    /// `PUT` a new `Group` (answers `GroupResponse`), `GET` it (`GroupResponse`), `PATCH` a `GroupChange.Actions`
    /// (`GroupChangeResponse`; `?inviteLinkPassword=` base64url when joining by link; 409 when made from an old revision).
    public static let groups = "/v2/groups"
    /// `GET ?includeFirstState=&includeLastState=`: the group's signed changes from a revision (`GroupChanges`); 206 with
    /// `Content-Range: versions FROM-TO/CURRENT` when more remain.
    public static let groupLogs = "/v2/groups/logs/{fromVersion}"
    /// `GET`: what the invite link whose password is the path's base64url shows (`GroupJoinInfo`).
    public static let groupJoinInfo = "/v1/groups/join/{inviteLinkPassword}"
    /// The content type of group bodies.
    public static let groupContentType = "application/x-protobuf"
    /// `PUT` (``ProfileKeyCommitmentRequest``): the profile key commitment for one version of the authenticated account's
    /// profile key, against which profile key credentials are issued.
    public static let profileKeyCommitment = "/v1/profile/commitment"
    /// `GET ?credentialType=expiringProfileKey`: an expiring profile key credential for the account (an ACI), issued
    /// for the blinded request in the path (hex) against the commitment the account published for the version in the
    /// path (``ProfileKeyCredentialResponse``).
    public static let profileKeyCredential = "/v1/profile/{aci}/{version}/{credentialRequest}"

    /// The `Authorization` header of a group request: HTTP Basic with the group's public params and an auth credential
    /// presentation for them, each hex, as username and password.
    public static func groupAuthorization(publicParams: Data, presentation: Data) -> String {
        let credentials = ContentHashFormat.hex(Array(publicParams)) + ":" + ContentHashFormat.hex(Array(presentation))
        return "Basic " + Data(credentials.utf8).base64EncodedString()
    }
    /// `PUT` (``PushTarget``): where to wake the authenticated device when messages wait and it is not connected;
    /// `GET`: what is registered (``PushTargetStatus``); `DELETE`: stop waking it.
    public static let pushTarget = "/v1/devices/self/push"
    /// `GET`: the server's VAPID public key (``VAPIDKeyResponse``), without authentication: the application server key
    /// a Web Push (UnifiedPush) subscription is made for.
    public static let vapidKey = "/v1/push/vapid-key"
    /// `GET`: liveness and store reachability.
    public static let health = "/health"
    /// `GET`: Prometheus metrics.
    public static let metrics = "/metrics"
}
