import Foundation
import Logging

/// Everything the server's routes share, built once by the composition root (`parley-server` or a test) and
/// passed in: no globals.
public struct ServerDependencies: Sendable {
    /// Accounts, keys and mailboxes.
    public let store: any ServerStore
    /// Attachment blobs.
    public let attachments: AttachmentStore
    /// Device credential hashing.
    public let hasher: CredentialHasher
    /// Hard limits and rate limits.
    public let limits: ServerLimits
    /// Prometheus metrics.
    public let metrics: ServerMetrics
    /// Connected devices of this process.
    public let hub: DeliveryHub
    /// Per-account token buckets.
    public let rateLimiter: RateLimiter
    /// Hash-bank policy, operator credential and import settings.
    public let contentDetection: ContentDetectionSettings
    /// Runs hash import jobs in the background.
    public let importer: HashImporter
    /// The PIN backups' OPRF key, guess limits and clock.
    public let backup: BackupSettings
    /// Who may register.
    public let registration: RegistrationMode
    /// Whether plain account names are still taken, or retired in favour of usernames.
    public let plainAccountNames: PlainAccountNames
    /// Writes the envelopes of concurrent sends in shared transactions (every front door's sends).
    public let envelopeWriter: EnvelopeGroupCommit
    /// Deletes what the sockets' devices acknowledged in shared transactions.
    public let acknowledgementWriter: AcknowledgementGroupCommit
    /// The server key and certificate sender certificates are signed with.
    public let sealedSender: SealedSenderSettings
    /// The zkgroup keys group auth credentials are issued with.
    public let groupCredentials: GroupCredentialIssuer
    /// Server-stored groups, with the server's zkgroup keys.
    public let groups: GroupService
    /// Profile key commitments and credentials.
    public let profileKeyCredentials: ProfileKeyCredentialService
    /// Checks group requests' auth credential presentations.
    public let groupAuthenticator: GroupAuthenticator
    /// Wakes offline devices through their push targets (a service the application runs).
    public let push: PushNotifier
    /// Restore guesses per account in the current window (shared by every router built from these dependencies).
    let backupAttempts: BackupAttemptWindow

    /// Dependencies over `store`, with attachments under `attachments`; `contentDetection` defaults to import files
    /// in a temporary folder, decoys keyed at random and the operator API disabled; `backup` to a random OPRF key
    /// (backups then do not outlive the process) and the default guess limits; `sealedSender` to keys held in memory;
    /// `push` to Web Push with a VAPID key held in memory; `groupCredentials` to zkgroup keys held in memory.
    public init(
        store: any ServerStore, attachments: AttachmentStore, hasher: CredentialHasher = CredentialHasher(),
        limits: ServerLimits = ServerLimits(), metrics: ServerMetrics = ServerMetrics(),
        contentDetection: ContentDetectionSettings? = nil, backup: BackupSettings? = nil,
        groupCommit: Bool = true, registration: RegistrationMode = .open, plainAccountNames: PlainAccountNames = .allowed,
        sealedSender: SealedSenderSettings = SealedSenderSettings(),
        push: PushSettings = .ephemeral(), groupCredentials: GroupCredentialIssuer = GroupCredentialIssuer(),
        logger: Logger = Logger(label: "parley-server")
    ) {
        self.groupCredentials = groupCredentials
        self.groups = GroupService(store: store, issuer: groupCredentials, limits: limits.groups)
        self.profileKeyCredentials = ProfileKeyCredentialService(store: store, issuer: groupCredentials)
        self.groupAuthenticator = GroupAuthenticator(secretParams: groupCredentials.secretParams)
        self.sealedSender = sealedSender
        let settings =
            contentDetection
            ?? ContentDetectionSettings(
                importDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("parley-imports-\(UUID().uuidString)"))
        self.contentDetection = settings
        self.importer = HashImporter(store: store, settings: settings, metrics: metrics, logger: logger)
        self.store = store
        self.registration = registration
        self.plainAccountNames = plainAccountNames
        self.envelopeWriter = EnvelopeGroupCommit(store: store, enabled: groupCommit, metrics: metrics)
        self.acknowledgementWriter = AcknowledgementGroupCommit(store: store, enabled: groupCommit, metrics: metrics)
        self.attachments = attachments
        self.hasher = hasher
        self.limits = limits
        self.metrics = metrics
        self.rateLimiter = RateLimiter()
        let backupSettings = backup ?? BackupSettings()
        self.backup = backupSettings
        self.backupAttempts = BackupAttemptWindow(settings: backupSettings)
        let gauge = metrics.socketsOpen
        let notifier = PushNotifier(store: store, settings: push, metrics: metrics, logger: logger)
        self.push = notifier
        self.hub = DeliveryHub(onCountChange: { gauge.set(Double($0)) }, onPresenceChange: { notifier.socketChanged($0, open: $1) })
    }
}
