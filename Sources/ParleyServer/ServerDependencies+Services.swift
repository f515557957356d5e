/// The services behind the front doors (REST routes, socket frames, gRPC), built from the dependencies in one place so
/// that every door is wired to the same ones.
extension ServerDependencies {
    /// Device authentication (HTTP Basic, from a header or gRPC metadata).
    var authenticator: DeviceAuthenticator { DeviceAuthenticator(store: store, hasher: hasher) }
    /// The operator credential's check.
    var operators: OperatorAuthenticator { OperatorAuthenticator(token: contentDetection.operatorToken) }
    /// The key directory's rules.
    var keyDirectory: KeyDirectory { KeyDirectory(store: store, limits: limits, rateLimiter: rateLimiter) }
    /// An account's devices, listed and removed.
    var deviceDirectory: DeviceDirectory { DeviceDirectory(store: store, hub: hub) }
    /// Push target registration.
    var pushTargets: PushTargetDirectory {
        PushTargetDirectory(store: store, notifier: push, limits: limits, rateLimiter: rateLimiter)
    }
    /// Username hashes and links.
    var usernames: UsernameService { UsernameService(store: store, rateLimiter: rateLimiter, limits: limits) }
    /// The one send path.
    var sendService: SendService {
        SendService(store: store, writer: envelopeWriter, limits: limits, hub: hub, rateLimiter: rateLimiter, metrics: metrics, push: push)
    }
}
