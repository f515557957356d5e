import Foundation

/// How the server wakes offline devices: the providers it can push through and the pacing of pushes.
public struct PushSettings: Sendable {
    /// Signs Web Push requests; Web Push is always available.
    public var vapid: VAPIDSigner
    /// APNs credentials, or `nil` when the server does not push to Apple devices.
    public var apns: APNsConfiguration?
    /// FCM credentials, or `nil` when the server does not push to Android devices.
    public var fcm: FCMConfiguration?
    /// A PEM file of certificate authorities trusted for push providers besides the system's (a private push
    /// service or relay, the test suite's providers).
    public var trustRootsFile: String?
    /// Whether a Web Push endpoint may name a loopback, private or link-local IP address (a push service on the
    /// operator's own network, the test suite); off, such endpoints are refused at registration.
    public var allowsPrivateWebPushHosts = false
    /// A device is pushed at most once in this window, however many messages arrive (a connection starts a new one).
    public var coalescingWindow: Duration = .seconds(30)
    /// Attempts per push (the first and the retries after 429, 5xx or a connection failure).
    public var maximumAttempts = 4
    /// The wait before the first retry, doubling for each next one, when the provider names none.
    public var initialBackoff: Duration = .seconds(1)
    /// The longest wait between attempts.
    public var maximumBackoff: Duration = .seconds(60)
    /// Pushes in flight at once; more wait.
    public var concurrentPushes = 32
    /// One request's time limit.
    public var requestTimeout: Duration = .seconds(10)
    /// How long providers keep an undelivered wake-up (a day).
    public var timeToLiveSeconds = 86_400
    /// How often this process marks its devices' sockets as still open; a socket unmarked for three periods belongs to
    /// a process that died.
    public var presenceHeartbeat: Duration = .seconds(30)

    /// Settings with Web Push signed by `vapid` and neither APNs nor FCM.
    public init(vapid: VAPIDSigner, apns: APNsConfiguration? = nil, fcm: FCMConfiguration? = nil, trustRootsFile: String? = nil) {
        self.vapid = vapid
        self.apns = apns
        self.fcm = fcm
        self.trustRootsFile = trustRootsFile
    }

    /// Web Push only, with a VAPID key made for this process (tests, and servers that never set one up).
    public static func ephemeral() -> PushSettings {
        var generator = SystemRandomNumberGenerator()
        while true {
            let raw = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if let signer = try? VAPIDSigner(rawKey: raw, subject: VAPIDSigner.defaultSubject) { return PushSettings(vapid: signer) }
        }
    }

    /// The providers that can send: `webpush`, and `apns`/`fcm` when configured.
    public var providers: [String] {
        ["webpush"] + (apns == nil ? [] : ["apns"]) + (fcm == nil ? [] : ["fcm"])
    }
}
