/// Bounds on connections, so that idle, unfinished or many connections cannot exhaust the server (file descriptors,
/// memory) before a request is even read.
public struct ConnectionLimits: Sendable {
    /// Open connections in all (HTTP and WebSocket); further ones get a 503 and are closed. The gRPC listener counts
    /// its own connections against the same bounds and closes further ones at once.
    public var maximumConnections = 20_000
    /// Open connections from one client address; further ones get a 503 and are closed (on gRPC, closed at once).
    public var maximumConnectionsPerAddress = 1_000
    /// Reverse proxies in front of the server (their IP addresses as the server sees them): their connections count
    /// only toward ``maximumConnections``, and requests through them are limited per the client address their
    /// `X-Forwarded-For` names. Empty: no header is believed.
    public var trustedProxies: Set<String> = []
    /// Time a connection has, from the first byte it sends, to complete its first request head (slow or stalled heads
    /// are cut off; a connection that sends nothing at all is closed by the read timeout).
    public var requestHeadTimeout: Duration = .seconds(10)
    /// Time a connection may go without sending a byte (an HTTP keep-alive connection between requests, a stalled
    /// upload, a WebSocket whose client stopped answering pings) before it is closed. Longer than two WebSocket pings.
    public var readTimeout: Duration = .seconds(90)

    /// The defaults.
    public init() {}
}
