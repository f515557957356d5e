import FuzzHarness
import ParleyAPI

@testable import ParleyServer

#if canImport(Glibc)
    import Glibc
#endif

/// What the server parses outside its JSON: files an operator imports (hash banks of known content: line by line, a plain
/// list or CSV with a header, in whatever case and line endings the file came with) and the request headers it reads
/// itself.
enum ServerTargets {
    /// An import file's lines: every line is a hash, an invalid line with a reason, or skipped, never a crash; a hash is
    /// 32 bytes and its hex digits are in the line.
    static let hashFile = FuzzTarget(
        run: { input in
            var parser = HashFileParser()
            for line in input.split(separator: 10, omittingEmptySubsequences: false) {
                switch parser.parse(line) {
                case .hash(let hash):
                    invariant(hash.count == 32, "a parsed hash has 32 bytes")
                    let hex = hash.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
                    invariant(String(decoding: line, as: UTF8.self).lowercased().contains(hex), "a parsed hash's digits are in its line")
                case .invalid(let reason):
                    invariant(!reason.isEmpty, "an invalid line says why")
                case .skipped:
                    break
                }
            }
        },
        seeds: {
            let hash = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
            return [
                Array("\(hash)\n\(hash.uppercased())\r\n\nnot a hash\n".utf8),
                Array("name,SHA256,size\r\n\"cat.jpg\",\"\(hash)\",12\nshort,row\n".utf8),
            ]
        })

    /// What the server reads from request headers before any route runs: the `Idempotency-Key` of a send and the client
    /// address behind `X-Forwarded-For` that per-address limits count. Input: a header value, then (after a newline)
    /// sixteen bytes of an IPv6 address, then `X-Forwarded-For` lines.
    static let requestHeaders = FuzzTarget(
        run: { input in
            let parts = input.split(separator: 10, maxSplits: 2, omittingEmptySubsequences: false)
            let header = String(decoding: parts[0], as: UTF8.self)
            if let key = try? IdempotencyKey(header: header) {
                let bytes = Array(key.value.utf8)
                invariant((1...IdempotencyKey.maximumLength).contains(bytes.count), "a key has 1…128 bytes")
                invariant(
                    bytes.allSatisfy { (0x21...0x7E).contains($0) && $0 != 0x22 && $0 != 0x5C }, "a key is visible ASCII without quotes")
                invariant(header == key.value || header == "\"\(key.value)\"", "a key is its header, unquoted")
                invariant((try? IdempotencyKey(header: key.value)) == key, "a key re-parses to itself")
                invariant(
                    ((try? key.requireUnguessable()) != nil) == (bytes.count >= IdempotencyKey.minimumUnguessableLength),
                    "only short keys are refused as guessable")
            }
            let limitKey = ClientAddress.limitKey(header)
            invariant(ClientAddress.limitKey(limitKey) == limitKey, "a limit key is its own limit key")
            if parts.count > 1, parts[1].count >= 16 {
                var address = Array(parts[1].prefix(16))
                var neighbour = address
                for index in 8..<16 { neighbour[index] ^= 0xA5 }
                let one = ipv6Text(address)
                let other = ipv6Text(neighbour)
                invariant(ClientAddress.isAddress(one) && ClientAddress.isAddress(other), "inet_ntop's text is an address")
                let mapped = address[0..<10].allSatisfy { $0 == 0 } && address[10] == 0xFF && address[11] == 0xFF
                if !mapped { invariant(ClientAddress.limitKey(one) == ClientAddress.limitKey(other), "one /64 is one limit key") }
                address[7] ^= 1
                if !mapped {
                    invariant(ClientAddress.limitKey(ipv6Text(address)) != ClientAddress.limitKey(one), "another /64 is another key")
                }
            }
            let forwarded = parts.count > 2 ? parts[2].split(separator: 10).map { String(decoding: $0, as: UTF8.self) } : []
            let proxies: Set<String> = ["127.0.0.1", "::1", "10.0.0.1"]
            for peer in ["127.0.0.1", "192.0.2.7"] {
                let client = ClientAddress.client(peer: peer, forwardedFor: forwarded, trustedProxies: proxies)
                if !proxies.contains(peer) {
                    invariant(client == peer, "an untrusted peer is the client")
                } else if let client, client != peer {
                    invariant(ClientAddress.isAddress(client) && !proxies.contains(client), "a forwarded client is an untrusted address")
                    invariant(forwarded.joined(separator: ",").contains(client), "a forwarded client was in the header")
                }
            }
        },
        seeds: {
            [
                Array("\"0123456789abcdefghijklmnopq\"\n\u{20}\u{1}\r\u{b8}\0\0\0\0\0\0\0\0\0\0\0\u{1}\n198.51.100.4, 10.0.0.1\n::1".utf8),
                Array("short\n\0\0\0\0\0\0\0\0\0\0\u{ff}\u{ff}\u{c0}\0\u{2}\u{1}\n2001:db8::1".utf8),
                Array("2001:db8:1:2:3:4:5:6".utf8),
            ]
        })

    /// The text form of a sixteen-byte IPv6 address.
    private static func ipv6Text(_ bytes: [UInt8]) -> String {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        _ = inet_ntop(AF_INET6, bytes, &text, socklen_t(text.count))
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
