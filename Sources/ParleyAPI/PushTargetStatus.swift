/// `GET /v1/devices/self/push`: the authenticated device's push target and whether pushes can reach it.
public struct PushTargetStatus: Codable, Sendable, Equatable {
    /// The registered target, or `nil`.
    public let target: PushTarget?
    /// Whether the device has a signed prekey on the server: pushes go only to devices that can decrypt what waits.
    public let keysRegistered: Bool
    /// The server's providers that can send: some of `webpush`, `apns`, `fcm`.
    public let providers: [String]

    /// A status for `target`.
    public init(target: PushTarget?, keysRegistered: Bool, providers: [String]) {
        self.target = target
        self.keysRegistered = keysRegistered
        self.providers = providers
    }
}
