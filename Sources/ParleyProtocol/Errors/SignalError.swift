/// Every failure ParleyProtocol reports, one case per distinct cause.
///
/// The cases and their names follow `LibSignalClient.SignalError`, so code written
/// against libsignal's Swift API catches the same errors. Each case carries a
/// human-readable message that says what was wrong.
public enum SignalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A message could not be decrypted or authenticated (bad MAC, bad padding, wrong session).
    case invalidMessage(String)
    /// The same message key was used before: the message is a replay or was decrypted twice.
    case duplicatedMessage(String)
    /// The remote identity key differs from the one trusted for that address.
    case untrustedIdentity(String)
    /// A key is malformed: wrong length, wrong type byte, or not a valid point.
    case invalidKey(String)
    /// A signature (signed prekey, KEM prekey, sender key message, certificate) did not verify.
    case invalidSignature(String)
    /// A message names a prekey, signed prekey or KEM prekey that the store does not have.
    case invalidKeyIdentifier(String)
    /// There is no session for the address the operation names.
    case sessionNotFound(String)
    /// There is no sender key state for the sender and distribution id.
    case invalidSenderKeySession(String)
    /// The message uses a protocol version below 3 that Signal no longer supports.
    case legacyCiphertextVersion(String)
    /// The message declares a protocol version newer than this library knows.
    case unrecognizedMessageVersion(String)
    /// Bytes that should hold a protobuf message do not parse, or lack a required field.
    case invalidProtobuf(String)
    /// A serialized record or argument has the wrong shape (length, type, range).
    case invalidArgument(String)
    /// Session setup was refused by policy (for example X3DH when PQXDH is required).
    case sessionSetupRefused(String)
    /// Two scannable fingerprints use different versions.
    case fingerprintVersionMismatch(String)
    /// Two scannable fingerprints were made for different identities.
    case fingerprintIdentityMismatch(String)
    /// A scannable fingerprint does not parse.
    case fingerprintParsingError(String)
    /// A sealed-sender certificate is malformed, or its signature by the server key does not verify.
    case invalidCertificate(String)
    /// A sealed-sender certificate chain does not lead to the trust root the recipient holds.
    case untrustedCertificate(String)
    /// A sealed-sender certificate was valid but has expired.
    case expiredCertificate(String)
    /// A sealed-sender envelope is malformed, fails its MAC, or names a sender key other than its certificate's.
    case invalidSealedSenderMessage(String)
    /// A sealed-sender message was sent by this very device.
    case sealedSenderSelfSend
    /// A cryptographic primitive failed unexpectedly (it should never happen on valid input).
    case internalError(String)

    /// A sentence describing the failure.
    public var description: String {
        switch self {
        case .invalidMessage(let m): return "invalid message: \(m)"
        case .duplicatedMessage(let m): return "duplicate message: \(m)"
        case .untrustedIdentity(let m): return "untrusted identity: \(m)"
        case .invalidKey(let m): return "invalid key: \(m)"
        case .invalidSignature(let m): return "invalid signature: \(m)"
        case .invalidKeyIdentifier(let m): return "unknown key id: \(m)"
        case .sessionNotFound(let m): return "session not found: \(m)"
        case .invalidSenderKeySession(let m): return "no sender key session: \(m)"
        case .legacyCiphertextVersion(let m): return "legacy message version: \(m)"
        case .unrecognizedMessageVersion(let m): return "unknown message version: \(m)"
        case .invalidProtobuf(let m): return "invalid protobuf: \(m)"
        case .invalidArgument(let m): return "invalid argument: \(m)"
        case .sessionSetupRefused(let m): return "session setup refused: \(m)"
        case .fingerprintVersionMismatch(let m): return "fingerprint version mismatch: \(m)"
        case .fingerprintIdentityMismatch(let m): return "fingerprint identity mismatch: \(m)"
        case .fingerprintParsingError(let m): return "fingerprint does not parse: \(m)"
        case .invalidCertificate(let m): return "invalid certificate: \(m)"
        case .untrustedCertificate(let m): return "certificate not signed by the trust root: \(m)"
        case .expiredCertificate(let m): return "certificate expired: \(m)"
        case .invalidSealedSenderMessage(let m): return "invalid sealed sender message: \(m)"
        case .sealedSenderSelfSend: return "sealed sender message from this device"
        case .internalError(let m): return "internal error: \(m)"
        }
    }
}
