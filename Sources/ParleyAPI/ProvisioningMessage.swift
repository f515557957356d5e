/// `PUT`/`GET /v1/provisioning/{address}`: an encrypted provisioning envelope in transit from a primary device to a
/// new device that is being linked on another machine. The server stores it until the new device takes it (once) or
/// it expires; it cannot read it.
public struct ProvisioningMessage: Codable, Sendable, Equatable {
    /// The envelope, base64 (at most 16 KiB decoded).
    public let body: String

    /// A provisioning message carrying `body` (base64).
    public init(body: String) {
        self.body = body
    }

    /// Whether `address` is a well-formed provisioning address: 22 to 64 characters of base64url (at least 128 bits
    /// when random, as the new device makes it).
    public static func isValidAddress(_ address: String) -> Bool {
        (22...64).contains(address.utf8.count)
            && address.utf8.allSatisfy { byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            }
    }
}
