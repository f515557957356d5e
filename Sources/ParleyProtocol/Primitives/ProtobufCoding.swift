import Foundation
import SwiftProtobuf

/// Encoding and decoding of the generated protobuf types, with errors mapped to ``SignalError``.
enum ProtobufCoding {
    /// Largest protobuf message Parley parses; anything larger is refused before parsing.
    static let maximumMessageSize = 4 * 1024 * 1024

    /// Parses `bytes`; failures become ``SignalError/protobufError(_:)`` naming `what`.
    static func decode<M: SwiftProtobuf.Message>(_ bytes: [UInt8], what: String) throws -> M {
        guard bytes.count <= maximumMessageSize else {
            throw SignalError.protobufError("\(what) is \(bytes.count) bytes, over the \(maximumMessageSize)-byte limit")
        }
        do {
            var options = BinaryDecodingOptions()
            options.messageDepthLimit = 16
            return try M(serializedBytes: bytes, options: options)
        } catch {
            throw SignalError.protobufError("\(what) does not parse")
        }
    }

    /// Serializes `message`; generated proto2 messages without required fields always serialize.
    static func encode<M: SwiftProtobuf.Message, Bytes: SwiftProtobufContiguousBytes>(_ message: M) -> Bytes {
        do {
            return try message.serializedBytes()
        } catch {
            preconditionFailure("serializing \(M.self) failed: \(error)")
        }
    }
}
