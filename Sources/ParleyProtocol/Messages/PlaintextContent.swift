import Foundation

/// Content sent without encryption, inside a sealed-sender envelope or as a ``CiphertextMessage/MessageType/plaintext``
/// message: today only a retry receipt (``DecryptionErrorMessage``), which must reach a sender whose session broke.
///
/// Wire (libsignal): `0xC0` ‖ a `signalservice.Content` protobuf ‖ `0x80` (the padding boundary; plaintext content is
/// never padded further).
public struct PlaintextContent: Sendable {
    /// The byte that starts every serialized plaintext content, so that no other content is taken for it.
    static let identifierByte: UInt8 = 0xC0
    /// The byte that ends a Signal `Content` before any padding.
    static let paddingBoundaryByte: UInt8 = 0x80

    let serialized: [UInt8]

    /// Parses serialized plaintext content.
    /// - Throws: ``SignalError/invalidMessage(_:)`` for empty input, ``SignalError/unrecognizedMessageVersion(_:)``
    ///   when the first byte is not `0xC0`.
    public init<Bytes: ContiguousBytes>(bytes: Bytes) throws {
        let raw = bytes.byteArray
        guard let first = raw.first else { throw SignalError.invalidMessage("plaintext content is empty") }
        guard first == Self.identifierByte else {
            throw SignalError.unrecognizedMessageVersion("plaintext content starts with 0x\(String(first, radix: 16)), not 0xc0")
        }
        serialized = raw
    }

    /// Wraps a retry receipt: the content's field 8 holds it.
    public init(_ decryptionError: DecryptionErrorMessage) {
        var content = Parley_Wire_Content()
        content.decryptionErrorMessage = decryptionError.serialize()
        serialized = [Self.identifierByte] + ProtobufCoding.encode(content) + [Self.paddingBoundaryByte]
    }

    /// The wire bytes.
    public func serialize() -> Data { Data(serialized) }

    /// The content after the identifier byte: a Signal `Content` followed by the padding boundary, as a decrypted
    /// message's plaintext would be.
    public var body: Data { Data(serialized.dropFirst()) }
}
