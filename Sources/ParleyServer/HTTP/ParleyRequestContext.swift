import Hummingbird
import NIOCore

/// The request context of parley-server's HTTP routes: Hummingbird's core context and, on routes behind
/// ``DeviceAuthenticationMiddleware``, the device the request proved to be.
public struct ParleyRequestContext: RequestContext {
    /// Hummingbird's per-request storage: logger, path parameters, the matched route.
    public var coreContext: CoreRequestContextStorage
    /// Set by ``DeviceAuthenticationMiddleware``; `nil` on routes that take no device credentials.
    var authenticatedDevice: AuthenticatedDevice?
    /// Set by ``SenderAuthenticationMiddleware`` for a send without credentials: the `Unidentified-Access-Key` bytes.
    var unidentifiedAccessKey: [UInt8]?
    /// The peer of the request's connection; `nil` when the channel has none (tests).
    let remoteAddress: SocketAddress?

    /// Set by ``ForwardedClientMiddleware`` for a request through a trusted reverse proxy: the client it names.
    var forwardedClientAddress: String?

    /// The client's IP address (without port), for limits keyed by address: the peer, or behind a trusted proxy the
    /// client it names. Formatted only by the routes that ask.
    var clientAddress: String? { forwardedClientAddress ?? remoteAddress?.ipAddress }

    /// The context of a request arriving on `source`'s channel.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
