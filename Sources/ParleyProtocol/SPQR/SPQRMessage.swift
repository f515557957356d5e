/// One SPQR V1 message: the bytes of `SignalMessage.pq_ratchet` (not protobuf):
/// `0x01 ‖ varint epoch ‖ varint index ‖ type ‖ [varint chunk index ‖ 32-byte chunk]`, varints LEB128 of at most
/// 10 bytes. Trailing bytes are ignored (room for later versions).
public struct SPQRMessage: Sendable, Equatable {
    /// The wire version of SPQR V1.
    public static let version: UInt8 = 1
    /// Bytes in one chunk of an erasure-coded message.
    public static let chunkLength = 32
    /// Largest chunk index.
    public static let maximumChunkIndex = 65_535

    /// What the message carries.
    public enum Kind: UInt8, Sendable, Equatable, CaseIterable {
        /// Nothing (the sender is waiting for the other side).
        case none = 0
        /// A chunk of the encapsulation key's header (ρ ‖ SHA3-256(ek) ‖ MAC).
        case header = 1
        /// A chunk of the encapsulation key's body.
        case encapsulationKey = 2
        /// A chunk of the encapsulation key, acknowledging the first ciphertext part.
        case encapsulationKeyWithCiphertext1Ack = 3
        /// Acknowledges the first ciphertext part (no chunk).
        case ciphertext1Ack = 4
        /// A chunk of the first ciphertext part.
        case ciphertext1 = 5
        /// A chunk of the second ciphertext part and its MAC.
        case ciphertext2 = 6

        /// Whether messages of this kind carry a chunk.
        public var carriesChunk: Bool { self != .none && self != .ciphertext1Ack }
    }

    /// A chunk and its index in the erasure code.
    public struct Chunk: Sendable, Equatable {
        /// The index (0…65535): below the message's chunk count the raw bytes, above it parity.
        public let index: Int
        /// 32 bytes.
        public let bytes: [UInt8]

        /// A chunk; `bytes` must be 32 long.
        public init(index: Int, bytes: [UInt8]) {
            self.index = index
            self.bytes = bytes
        }
    }

    /// The epoch (≥ 1) whose exchange the message belongs to; its key comes from the chain of epoch − 1.
    public let epoch: UInt64
    /// The sender's counter in its SPQR chain.
    public let index: UInt32
    /// What it carries.
    public let kind: Kind
    /// The chunk, for kinds that carry one.
    public let chunk: Chunk?

    /// A message; `chunk` must be given exactly when `kind` carries one.
    public init(epoch: UInt64, index: UInt32, kind: Kind, chunk: Chunk? = nil) {
        precondition(epoch >= 1 && kind.carriesChunk == (chunk != nil) && (chunk.map { $0.bytes.count == Self.chunkLength } ?? true))
        self.epoch = epoch
        self.index = index
        self.kind = kind
        self.chunk = chunk
    }

    /// The wire bytes.
    public func serialize() -> [UInt8] {
        var bytes: [UInt8] = [Self.version]
        Self.appendVarint(epoch, to: &bytes)
        Self.appendVarint(UInt64(index), to: &bytes)
        bytes.append(kind.rawValue)
        if let chunk {
            Self.appendVarint(UInt64(chunk.index), to: &bytes)
            bytes += chunk.bytes
        }
        return bytes
    }

    /// Parses V1 bytes. The caller handles an empty field (SPQR V0) and a version byte above 1 (ignored).
    ///
    /// - Throws: ``SPQRError/malformedMessage(_:)`` for anything that is not a V1 message.
    public init(bytes: [UInt8]) throws {
        var reader = Reader(bytes: bytes)
        guard try reader.byte() == Self.version else { throw SPQRError.malformedMessage("not version 1") }
        let epoch = try reader.varint()
        guard epoch >= 1 else { throw SPQRError.malformedMessage("epoch 0") }
        let index = try reader.varint()
        guard index <= UInt64(UInt32.max) else { throw SPQRError.malformedMessage("index \(index) is over 32 bits") }
        let type = try reader.byte()
        guard let kind = Kind(rawValue: type) else { throw SPQRError.malformedMessage("unknown message type \(type)") }
        var chunk: Chunk?
        if kind.carriesChunk {
            let chunkIndex = try reader.varint()
            guard chunkIndex <= UInt64(Self.maximumChunkIndex) else { throw SPQRError.malformedMessage("chunk index \(chunkIndex)") }
            chunk = Chunk(index: Int(chunkIndex), bytes: try reader.bytes(Self.chunkLength))
        }
        self.init(epoch: epoch, index: UInt32(index), kind: kind, chunk: chunk)
    }

    private static func appendVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        mutating func byte() throws -> UInt8 {
            guard offset < bytes.count else { throw SPQRError.malformedMessage("truncated") }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func bytes(_ count: Int) throws -> [UInt8] {
            guard bytes.count - offset >= count else { throw SPQRError.malformedMessage("truncated chunk") }
            defer { offset += count }
            return Array(bytes[offset..<offset + count])
        }

        /// LEB128, at most 10 bytes, no bits beyond 64.
        mutating func varint() throws -> UInt64 {
            var value: UInt64 = 0
            for position in 0..<10 {
                let byte = try byte()
                let payload = UInt64(byte & 0x7F)
                if position == 9, payload > 1 { throw SPQRError.malformedMessage("varint over 64 bits") }
                value |= payload << (7 * UInt64(position))
                if byte & 0x80 == 0 { return value }
            }
            throw SPQRError.malformedMessage("varint longer than 10 bytes")
        }
    }
}
