/// A `HOST:PORT` the daemon listens on, over HTTP or TCP (`[::1]:8080` for IPv6).
public struct HostAndPort: Sendable, Equatable {
    public let host: String
    public let port: Int

    /// Parses `HOST:PORT`.
    /// - Throws: ``HostAndPortError`` naming what is wrong.
    public init(parsing text: String) throws {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw HostAndPortError(text: text)
        }
        var host = String(text[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw HostAndPortError(text: text) }
        self.host = host
        self.port = port
    }

    /// Whether the address is reachable from this machine only.
    public var isLoopback: Bool { ["127.0.0.1", "localhost", "::1"].contains(host) }

    /// A request's `Host` (its authority) as host — brackets of an IPv6 address removed, case kept — and port (`nil`
    /// when it names none); `nil` for an authority that is neither `HOST`, `HOST:PORT`, `[IPV6]` nor `[IPV6]:PORT`.
    public static func split(authority: String) -> (host: String, port: Int?)? {
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            let host = String(authority[authority.index(after: authority.startIndex)..<close])
            let rest = authority[authority.index(after: close)...]
            if rest.isEmpty { return (host, nil) }
            guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()) else { return nil }
            return (host, port)
        }
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        switch parts.count {
        case 1: return (String(parts[0]), nil)
        case 2: return Int(parts[1]).map { (String(parts[0]), $0) }
        default: return nil
        }
    }
}

/// An `--http` or `--tcp` value that is not `HOST:PORT`.
public struct HostAndPortError: Error, CustomStringConvertible {
    public let text: String
    public var description: String { "an address is HOST:PORT (for example 127.0.0.1:8080), not \(text)" }
}
