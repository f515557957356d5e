/// Protobuf's unsigned varint, for the few flat formats that use it outside a protobuf (sealed sender v2's recipient
/// count): seven bits a byte, least significant first, high bit set on all but the last byte.
enum Varint {
    /// `value` encoded.
    static func encode(_ value: UInt32) -> [UInt8] {
        var value = value
        var bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
        return bytes
    }

    /// Decodes a varint of at most 32 bits at `offset` in `bytes`, advancing `offset` past it.
    /// - Throws: ``SignalError/invalidSealedSenderMessage(_:)`` when it runs past the end or exceeds 32 bits.
    static func decode(_ bytes: [UInt8], at offset: inout Int) throws -> UInt32 {
        var result: UInt64 = 0
        for shift in stride(from: 0, to: 35, by: 7) {
            guard offset < bytes.count else { throw SignalError.invalidSealedSenderMessage("varint runs past the end") }
            let byte = bytes[offset]
            offset += 1
            result |= UInt64(byte & 0x7F) << UInt64(shift)
            if byte & 0x80 == 0 {
                guard let value = UInt32(exactly: result) else { break }
                return value
            }
        }
        throw SignalError.invalidSealedSenderMessage("varint exceeds 32 bits")
    }
}
