import Foundation

/// Every failure ParleyProtocol reports, one case per distinct cause.
///
/// The cases, their names and associated values follow the protocol-layer cases of `LibSignalClient.SignalError`
/// (libsignal v0.101), so code written against libsignal's Swift API catches the same errors. Cases Parley adds
/// (sealed-sender certificate failures, setup policy, fingerprint identity mismatch) are marked; libsignal's cases for
/// network, backups and media are left out (docs/PROTOCOL.md, "API parity"). Each case carries a
/// human-readable message that says what was wrong.
public enum SignalError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An operation was used in a state that does not allow it.
    case invalidState(String)
    /// A cryptographic primitive failed unexpectedly (it should never happen on valid input).
    case internalError(String)
    /// A required argument was missing.
    case nullParameter(String)
    /// A serialized record or argument has the wrong shape (length, type, range).
    case invalidArgument(String)
    /// A value of one kind was given where another was expected (a PNI where an ACI is required).
    case invalidType(String)
    /// Bytes that should be UTF-8 text are not.
    case invalidUtf8String(String)
    /// Bytes that should hold a protobuf message do not parse, or lack a required field.
    case protobufError(String)
    /// The message uses a protocol version below 3 that Signal no longer supports.
    case legacyCiphertextVersion(String)
    /// The message declares a version this library does not know.
    case unknownCiphertextVersion(String)
    /// The message declares a protocol version newer than this library knows.
    case unrecognizedMessageVersion(String)
    /// A message could not be decrypted or authenticated (bad MAC, bad padding, wrong session).
    case invalidMessage(String)
    /// A key is malformed: wrong length, wrong type byte, or not a valid point.
    case invalidKey(String)
    /// A signature (signed prekey, KEM prekey, sender key message, certificate) did not verify.
    case invalidSignature(String)
    /// Two scannable fingerprints use different versions.
    case fingerprintVersionMismatch(theirs: UInt32, ours: UInt32)
    /// A scannable fingerprint does not parse.
    case fingerprintParsingError(String)
    /// A sealed-sender message was sent by this very device.
    case sealedSenderSelfSend(String)
    /// The remote identity key differs from the one trusted for that address.
    case untrustedIdentity(String)
    /// A message names a prekey, signed prekey or KEM prekey that the store does not have, or a last-resort KEM
    /// prekey replayed with a base key already seen.
    case invalidKeyIdentifier(String)
    /// There is no session for the address the operation names.
    case sessionNotFound(String)
    /// A session exists but cannot be used (for example, it has no sending chain).
    case invalidSession(String)
    /// A session's stored registration id is not a valid one.
    case invalidRegistrationId(address: ProtocolAddress, message: String)
    /// A name or device id that cannot form a ``ProtocolAddress``.
    case invalidProtocolAddress(name: String, deviceId: UInt32, message: String)
    /// There is no sender key state for the sender and distribution id.
    case invalidSenderKeySession(distributionId: UUID, message: String)
    /// The same message key was used before: the message is a replay or was decrypted twice.
    case duplicatedMessage(String)
    /// A check of an outside proof failed.
    case verificationFailed(String)
    /// Parley: session setup was refused by policy (for example X3DH when PQXDH is required).
    case sessionSetupRefused(String)
    /// Parley: two scannable fingerprints were made for different identities.
    case fingerprintIdentityMismatch(String)
    /// Parley: a sealed-sender certificate is malformed, or its signature by the server key does not verify.
    case invalidCertificate(String)
    /// Parley: a sealed-sender certificate chain does not lead to the trust root the recipient holds.
    case untrustedCertificate(String)
    /// Parley: a sealed-sender certificate was valid but has expired.
    case expiredCertificate(String)
    /// Parley: a sealed-sender envelope is malformed, fails its MAC, or names a sender key other than its
    /// certificate's (libsignal reports these as ``invalidMessage(_:)``).
    case invalidSealedSenderMessage(String)
    /// A username's nickname is empty.
    case nicknameCannotBeEmpty(String)
    /// A username's nickname starts with a digit.
    case nicknameCannotStartWithDigit(String)
    /// A username has no `.` between nickname and discriminator.
    case missingSeparator(String)
    /// A username's discriminator holds something other than the digits 0–9.
    case badDiscriminatorCharacter(String)
    /// A username's nickname holds something other than ASCII letters, digits and `_`.
    case badNicknameCharacter(String)
    /// A username's nickname is shorter than allowed.
    case nicknameTooShort(String)
    /// A username's nickname is longer than allowed (or too long for a username link).
    case nicknameTooLong(String)
    /// A username link's entropy is not 32 bytes.
    case usernameLinkInvalidEntropyDataLength(String)
    /// A username link's data is too short, fails its MAC or does not decrypt to a username.
    case usernameLinkInvalid(String)
    /// A username's discriminator is empty.
    case usernameDiscriminatorCannotBeEmpty(String)
    /// A username's discriminator is zero.
    case usernameDiscriminatorCannotBeZero(String)
    /// A username's discriminator is a single digit.
    case usernameDiscriminatorCannotBeSingleDigit(String)
    /// A username's discriminator of three or more digits starts with 0.
    case usernameDiscriminatorCannotHaveLeadingZeros(String)
    /// A username's discriminator is 2⁶⁴ or more.
    case usernameDiscriminatorTooLarge(String)
    /// An error without a more specific case, with its numeric code.
    case unknown(UInt32, String)

    /// A sentence describing the failure.
    public var description: String {
        switch self {
        case .invalidState(let m): return "invalid state: \(m)"
        case .internalError(let m): return "internal error: \(m)"
        case .nullParameter(let m): return "missing parameter: \(m)"
        case .invalidArgument(let m): return "invalid argument: \(m)"
        case .invalidType(let m): return "invalid type: \(m)"
        case .invalidUtf8String(let m): return "invalid UTF-8: \(m)"
        case .protobufError(let m): return "invalid protobuf: \(m)"
        case .legacyCiphertextVersion(let m): return "legacy message version: \(m)"
        case .unknownCiphertextVersion(let m): return "unknown ciphertext version: \(m)"
        case .unrecognizedMessageVersion(let m): return "unknown message version: \(m)"
        case .invalidMessage(let m): return "invalid message: \(m)"
        case .invalidKey(let m): return "invalid key: \(m)"
        case .invalidSignature(let m): return "invalid signature: \(m)"
        case .fingerprintVersionMismatch(let theirs, let ours):
            return "fingerprint version mismatch: theirs \(theirs), ours \(ours)"
        case .fingerprintParsingError(let m): return "fingerprint does not parse: \(m)"
        case .sealedSenderSelfSend(let m): return "sealed sender message from this device: \(m)"
        case .untrustedIdentity(let m): return "untrusted identity: \(m)"
        case .invalidKeyIdentifier(let m): return "unknown key id: \(m)"
        case .sessionNotFound(let m): return "session not found: \(m)"
        case .invalidSession(let m): return "invalid session: \(m)"
        case .invalidRegistrationId(let address, let m): return "invalid registration id for \(address): \(m)"
        case .invalidProtocolAddress(let name, let deviceId, let m): return "invalid address \(name).\(deviceId): \(m)"
        case .invalidSenderKeySession(let distributionId, let m): return "no sender key session in \(distributionId): \(m)"
        case .duplicatedMessage(let m): return "duplicate message: \(m)"
        case .verificationFailed(let m): return "verification failed: \(m)"
        case .sessionSetupRefused(let m): return "session setup refused: \(m)"
        case .fingerprintIdentityMismatch(let m): return "fingerprint identity mismatch: \(m)"
        case .invalidCertificate(let m): return "invalid certificate: \(m)"
        case .untrustedCertificate(let m): return "certificate not signed by the trust root: \(m)"
        case .expiredCertificate(let m): return "certificate expired: \(m)"
        case .invalidSealedSenderMessage(let m): return "invalid sealed sender message: \(m)"
        case .nicknameCannotBeEmpty(let m), .nicknameCannotStartWithDigit(let m), .missingSeparator(let m),
            .badDiscriminatorCharacter(let m), .badNicknameCharacter(let m), .nicknameTooShort(let m), .nicknameTooLong(let m),
            .usernameDiscriminatorCannotBeEmpty(let m), .usernameDiscriminatorCannotBeZero(let m),
            .usernameDiscriminatorCannotBeSingleDigit(let m), .usernameDiscriminatorCannotHaveLeadingZeros(let m),
            .usernameDiscriminatorTooLarge(let m):
            return "invalid username: \(m)"
        case .usernameLinkInvalidEntropyDataLength(let m), .usernameLinkInvalid(let m): return "invalid username link: \(m)"
        case .unknown(let code, let m): return "error \(code): \(m)"
        }
    }
}
