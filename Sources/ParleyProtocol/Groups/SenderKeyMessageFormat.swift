/// Which wire form a sender-key message or distribution message takes. Both are version 3 (`0x33`) and carry the
/// same keys; Parley reads both and writes ``libsignal`` unless told otherwise.
public enum SenderKeyMessageFormat: Sendable, Equatable {
    /// libsignal's form: the distribution id travels in the message (`{1 distribution_uuid, 2 chain_id, …}`).
    case libsignal
    /// Signal's C library's form (libsignal-protocol-c): no distribution id (`{1 id, 2 iteration, …}`); the receiver
    /// names the group itself.
    case protocolC

    /// The form of a version-3 protobuf body: field 1 is a varint in the C library's form and bytes in libsignal's
    /// (wire types 0 and 2 of tag 1); anything else is taken for the C library's form and left to its parser.
    static func of(body: ArraySlice<UInt8>) -> SenderKeyMessageFormat {
        body.first == 0x0A ? .libsignal : .protocolC
    }
}
