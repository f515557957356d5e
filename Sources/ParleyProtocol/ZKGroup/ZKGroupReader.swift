import Foundation

/// Reads a zkgroup serialization (libsignal's bincode: fixed-width fields, little-endian u64 counts) field by field,
/// checking each point and scalar as it goes. Every failure is ``SignalError/invalidType(_:)`` naming the type read.
struct ZKGroupReader {
    private let bytes: [UInt8]
    private var offset = 0
    private let typeName: String

    init(_ bytes: [UInt8], reading typeName: String) {
        self.bytes = bytes
        self.typeName = typeName
    }

    private func failure(_ reason: String) -> SignalError {
        SignalError.invalidType("\(typeName) is malformed: \(reason)")
    }

    /// The next `count` bytes.
    mutating func bytes(_ count: Int) throws -> [UInt8] {
        guard count >= 0, bytes.count - offset >= count else { throw failure("it ends early") }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }

    /// The next byte, which must be `expected` (a version or reserved byte).
    mutating func expectByte(_ expected: UInt8) throws {
        let byte = try bytes(1)[0]
        guard byte == expected else { throw failure("byte \(offset - 1) is \(byte), not \(expected)") }
    }

    /// The next little-endian u64.
    mutating func u64() throws -> UInt64 {
        try bytes(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// A vector's length (a little-endian u64), which must be at most `limit`.
    mutating func count(atMost limit: Int) throws -> Int {
        let value = try u64()
        guard value <= UInt64(limit) else { throw failure("a count of \(value) is over \(limit)") }
        return Int(value)
    }

    /// The next canonical point.
    mutating func point() throws -> RistrettoPoint {
        guard let point = RistrettoPoint(encoding: try bytes(32)) else { throw failure("it holds an invalid point") }
        return point
    }

    /// The next canonical scalar.
    mutating func scalar() throws -> RistrettoScalar {
        guard let scalar = RistrettoScalar(canonical: try bytes(32)) else { throw failure("it holds a non-canonical scalar") }
        return scalar
    }

    /// Checks that every byte was read.
    func finish() throws {
        guard offset == bytes.count else { throw failure("\(bytes.count - offset) bytes follow its end") }
    }

    /// `value` as a little-endian u64.
    static func littleEndian(_ value: UInt64) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
}
