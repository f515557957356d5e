import Foundation

/// What an endpoint's host names, for refusing Web Push endpoints that point into the server's own network.
enum EndpointHost {
    /// Whether `host` is an IP address literal in a loopback, private, link-local, unspecified or unique-local range
    /// (`localhost` too). Host names are not resolved: a name that resolves to such an address is not caught here.
    static func isPrivateAddress(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if host == "localhost" || host.hasSuffix(".localhost") { return true }
        var ipv4 = in_addr()
        if inet_pton(AF_INET, host, &ipv4) == 1 {
            let bytes = withUnsafeBytes(of: ipv4.s_addr) { Array($0) }
            switch (bytes[0], bytes[1]) {
            case (0, _), (10, _), (127, _), (169, 254), (192, 168): return true
            case (172, 16...31), (100, 64...127): return true
            default: return false
            }
        }
        var ipv6 = in6_addr()
        if inet_pton(AF_INET6, host, &ipv6) == 1 {
            let bytes = withUnsafeBytes(of: ipv6) { Array($0) }
            if bytes.allSatisfy({ $0 == 0 }) || bytes == Array(repeating: 0, count: 15) + [1] { return true }  // :: and ::1
            if bytes[0] & 0xfe == 0xfc { return true }  // fc00::/7 unique local
            if bytes[0] == 0xfe, bytes[1] & 0xc0 == 0x80 { return true }  // fe80::/10 link local
            if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {  // ::ffff:a.b.c.d
                return isPrivateAddress(bytes[12...].map(String.init).joined(separator: "."))
            }
            return false
        }
        return false
    }
}
