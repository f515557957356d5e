#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Client addresses as the server's per-address limits count them.
enum ClientAddress {
    /// The bucket key of `address`: an IPv4 address as it is; an IPv6 address by its /64 network (one subscriber's
    /// allocation: counting each of its 2⁶⁴ addresses apart would leave it unlimited); an IPv4-mapped IPv6 address as
    /// the IPv4 address it maps; anything unparsable as it is.
    static func limitKey(_ address: String) -> String {
        guard address.contains(":") else { return address }
        var bytes = [UInt8](repeating: 0, count: 16)
        guard inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        return stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
            .joined(separator: ":") + "::/64"
    }

    /// Whether `text` is an IPv4 or IPv6 address.
    static func isAddress(_ text: String) -> Bool {
        var bytes = [UInt8](repeating: 0, count: 16)
        return inet_pton(AF_INET, text, &bytes) == 1 || inet_pton(AF_INET6, text, &bytes) == 1
    }

    /// The client a request came from when its connection's peer is `peer`: behind a trusted reverse proxy, the
    /// rightmost address of `X-Forwarded-For` that is not itself a trusted proxy (the proxies append; anything left of
    /// the first untrusted hop was written by the client and is not believed); otherwise the peer.
    static func client(peer: String?, forwardedFor: [String], trustedProxies: Set<String>) -> String? {
        guard let peer, trustedProxies.contains(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
        for hop in hops.reversed() where !trustedProxies.contains(hop) {
            return isAddress(hop) ? hop : peer
        }
        return peer
    }
}
