import Foundation
import ParleyAPI

/// A group's id — 16 bytes for a client-managed group, 32 (the identifier derived from its master key) for one the
/// server stores — and its printed form: lowercase hex digits (what `parley group list` shows).
public struct GroupID: Hashable, Sendable, CustomStringConvertible {
    /// The id's bytes, as the group's messages carry them.
    public let data: Data

    /// The id with these bytes.
    public init(_ data: Data) { self.data = data }

    /// Parses a printed id: 32 or 64 hex digits, either case.
    /// - Throws: ``ParleyError/invalidArgument(_:)`` for anything else.
    public init(hex text: String) throws {
        let digits = Array(text.lowercased().utf8)
        let invalid = ParleyError.invalidArgument("a group id is 32 or 64 hex digits (see `parley group list`)")
        guard digits.count == 32 || digits.count == 64 else { throw invalid }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { throw invalid }
            bytes.append(byte)
        }
        data = Data(bytes)
    }

    /// Parses an id in either printed form: 32 or 64 hex digits (Parley's) or the base64 of its 16 or 32 bytes
    /// (signal-cli's).
    /// - Throws: ``ParleyError/invalidArgument(_:)`` for anything else.
    public init(text: String) throws {
        if text.count == 32 || text.count == 64, let id = try? GroupID(hex: text) {
            self = id
        } else if let bytes = Data(base64Encoded: text), bytes.count == 16 || bytes.count == 32 {
            data = bytes
        } else {
            throw ParleyError.invalidArgument("a group id is 32 or 64 hex digits or the base64 of 16 or 32 bytes (see `parley group list`)")
        }
    }

    /// The base64 of the id's bytes (signal-cli's form).
    public var base64: String { data.base64EncodedString() }

    /// Lowercase hex digits (32 or 64).
    public var hex: String { ContentHashFormat.hex(Array(data)) }

    /// The printed form (``hex``).
    public var description: String { hex }
}
